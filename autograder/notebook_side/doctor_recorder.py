"""The tape recorder: every operation TensorFlow runs (or adds to a tf.function's graph) in a block, and what its tapes did.

The doctor reads the program's computation from here, not from the words of its lines: an op
callback sees each operation with its inputs, outputs and the learner's line that made it, in a
cell, a helper, a method, a Keras layer's `call` or a function under tf.function alike.
"""
import linecache
import sys
import sysconfig

import numpy as np

_TOOL_FILES = {sys._getframe().f_code.co_filename}  # the doctor's and the checks' own files, skipped like libraries
_LIBRARY_FOLDERS = tuple({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")})
_AUTOGRAPH = "__autograph_generated_file"


def _library_file(filename):
    """True for code of Python itself or of an installed package; False for notebook cells and `eval`."""
    if filename.startswith("<frozen") or _AUTOGRAPH in filename:
        return True
    return filename.startswith(_LIBRARY_FOLDERS) or "/site-packages/" in filename or "/dist-packages/" in filename


def _learner_file(filename):
    """True for the learner's code (a notebook cell, a script), False for Python, libraries and the doctor."""
    return filename not in _TOOL_FILES and not _library_file(filename)


def _code_line(filename, lineno):
    text = linecache.getline(filename, lineno).split("#")[0].strip()
    return f"line {lineno}: {text}" if text else f"line {lineno}"


class Place(tuple):
    """Where the learner's code did something: (filename, line number), the library calls below that line,
    and the learner's lines further out (`outer`: (filename, line, function), innermost first)."""

    def __new__(cls, filename, lineno, calls=(), outer=()):
        place = super().__new__(cls, (filename, lineno))
        place.calls = calls  # names of the library functions between that line and the operation
        place.outer = outer or ((filename, lineno, ""),)
        return place

    def __str__(self):
        return _code_line(*self)

    def nearest(self, function):
        """The learner's line in `function` ((filename, name)) on the way to this one: a call seen from a tape's block."""
        for filename, lineno, name in self.outer:
            if (filename, name) == function:
                return Place(filename, lineno, self.calls, self.outer)
        return self


def _learner_place(frame):
    """The learner's line nearest to `frame` (innermost first), with the library calls on the way; or None.

    Code under tf.function runs from autograph's generated file: its lines are mapped back to the learner's.
    """
    calls = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if _AUTOGRAPH in filename:
            return _mapped_place(calls)
        if filename not in _TOOL_FILES and not _library_file(filename):
            outer, further = [], frame
            while further is not None and len(outer) < 12:
                if _learner_file(further.f_code.co_filename):
                    outer.append((further.f_code.co_filename, further.f_lineno, further.f_code.co_name))
                further = further.f_back
            return Place(filename, frame.f_lineno, tuple(calls), tuple(outer))
        calls.append(frame.f_code.co_name)
        frame = frame.f_back
    return None


def _mapped_place(calls):
    from tensorflow.python.util import tf_stack

    return _place_from_summaries(tf_stack.extract_stack(), calls)


def _place_from_summaries(summaries, calls=()):
    """The place from a traceback's frame summaries (outermost first), as tf_stack and op.traceback give them."""
    calls = list(calls)
    outer = [(s.filename, s.lineno, s.name) for s in reversed(summaries) if _learner_file(s.filename)]
    for summary in reversed(summaries):
        if _learner_file(summary.filename):
            return Place(summary.filename, summary.lineno, tuple(calls), tuple(outer))
        calls.append(summary.name)
    return None


def _op_place(op):
    """Where the learner's code added a graph operation (its traceback is mapped through autograph)."""
    return _place_from_summaries(list(op.traceback or []))


class Step:
    """One operation: run eagerly, or added to a graph while a tf.function was traced."""

    __slots__ = ("clock", "type", "inputs", "outputs", "graph", "_place", "recording", "during")

    def __init__(self, clock, op_type, inputs, outputs, graph, place, recording, during):
        self.clock, self.type, self.inputs, self.outputs = clock, op_type, inputs, outputs
        self.graph, self._place, self.recording, self.during = graph, place, recording, during

    @property
    def place(self):
        if self._place is None and self.graph is not None and self.outputs:
            self._place = _op_place(self.outputs[0].op) or False
        return self._place or None

    def __repr__(self):
        return f"<{self.type} #{self.clock} at {self.place}>"


class TapeRecord:
    """What one tape did: where its block is, when it recorded, what it watched, when it was asked."""

    def __init__(self, tape, place, clock, library):
        self.tape = tape
        self.place = place  # the `with` line (None when a library opened the tape)
        self.library = library  # opened by a library (model.fit's train_step), not by the learner's line
        self.entered = clock
        self.exited = None
        self.watched = []  # (object, names it had in the learner's frame, place, clock)
        self.gradient_clocks = []
        self.asked = set()  # ids of the Variables any gradient call of this tape asked for (a persistent tape's too)
        self.function = (place.outer[0][0], place.outer[0][2]) if place is not None else None  # the block's

    def watched_ids(self):
        return {id(item) for item, _, _, _ in self.watched}


class Recorder:
    """Records the operations and tape events of a block (start() ... stop()).

    The log keeps its tensors alive so that ids stay unique; it is trimmed to the last two outermost
    tape blocks, so a training loop of any length holds a bounded number of operations.
    """

    def __init__(self):
        self.steps = []
        self.producer = {}  # id(tensor) -> Step
        self.consumers = {}  # id(tensor) -> [Step]
        self.exports = {}  # id(tensor) -> (tensor, Place, how): values turned into NumPy or Python numbers
        self.leaves = {}  # id(tensor) -> (tensor, Place, clock): tensors made from NumPy values
        self.made = {}  # id(tensor) -> (tensor, Place): where a tensor was made from a Python or NumPy value
        self.tapes = {}  # id(tape) -> TapeRecord of tapes still alive
        self.all_tapes = []
        self.open = []  # TapeRecords whose block runs now
        self.gradients = []  # the tapes whose gradient call runs now (innermost last)
        self.gradient_targets = set()  # ids of the targets tape.gradient was asked to differentiate
        self.functions = {}  # a tf.function's runtime name -> its graph
        self.on_call = None  # called with (graph, arguments) before a tf.function runs
        self.before_function = None  # called with (function, args, kwargs) before a tf.function runs
        self.on_function = None  # called with (function, args, kwargs, traced now?, result) after a tf.function ran
        self.clock = 0
        self.paused = 0
        self._outermost = []  # the step index at which each outermost tape began

    # -- the operations
    def on_op(self, op_type, inputs, attrs, outputs, op_name=None, graph=None):
        if self.paused:
            return None
        try:
            self.clock += 1
            if isinstance(op_type, bytes):
                op_type = op_type.decode()
            place = None if graph is not None else _learner_place(sys._getframe(1))
            recording = tuple(id(record.tape) for record in self.open if _is_recording(record.tape))
            during = id(self.gradients[-1]) if self.gradients else None
            step = Step(self.clock, op_type, list(inputs), list(outputs), graph, place, recording, during)
            self.steps.append(step)
            for tensor in step.outputs:
                self.producer[id(tensor)] = step
            for tensor in step.inputs:
                self.consumers.setdefault(id(tensor), []).append(step)
        except Exception:  # noqa: BLE001 (the learner's operation must run whatever the record does)
            pass
        return None

    def exported(self, tensor, how, frame):
        if self.paused:
            return
        try:
            place = _learner_place(frame)
            if place is not None and id(tensor) not in self.exports:
                self.exports[id(tensor)] = (tensor, place, how)
        except Exception:  # noqa: BLE001
            pass

    def converted(self, tensor, value, frame):
        """A tensor made from NumPy values (tf.constant, tf.convert_to_tensor, a model called on an array)."""
        if self.paused:
            return
        try:
            if len(self.made) < 100_000:
                self.made[id(tensor)] = (tensor, _learner_place(frame), isinstance(value, (np.ndarray, np.generic)))
            if not isinstance(value, (np.ndarray, np.generic)) or not tensor.dtype.is_floating:
                return
            if not _program_data(value, frame):
                self.leaves[id(tensor)] = (tensor, _learner_place(frame), self.tick())
        except Exception:  # noqa: BLE001
            pass

    def tick(self):
        self.clock += 1
        return self.clock

    def trim(self):
        """Forget what came before the previous outermost tape block (called as a new one begins)."""
        self._outermost.append(len(self.steps))
        if len(self._outermost) < 3:
            return
        cut = self._outermost[-2]
        old, self.steps = self.steps[:cut], self.steps[cut:]
        self._outermost = [index - cut for index in self._outermost[-2:]]
        for step in old:
            for tensor in step.outputs:
                if self.producer.get(id(tensor)) is step:
                    del self.producer[id(tensor)]
            for tensor in step.inputs:
                users = self.consumers.get(id(tensor))
                if users and step in users:
                    users.remove(step)
                    if not users:
                        del self.consumers[id(tensor)]
        live = {id(t) for step in self.steps for t in step.inputs + step.outputs}
        self.exports = {key: value for key, value in self.exports.items() if key in live}
        self.leaves = {key: value for key, value in self.leaves.items() if key in live}
        self.made = {key: value for key, value in self.made.items() if key in live}
        self.gradient_targets &= live  # an id outside the log may be a new tensor's

    # -- start and stop
    def start(self):
        """Hook into TensorFlow: each hook that this TensorFlow lacks is left out, and the doctor sees less."""
        self._patched = []
        for hook in (self._hook_operations, self._hook_exports, self._hook_conversions, self._hook_functions):
            try:
                hook()
            except Exception:  # noqa: BLE001 (another TensorFlow version: the program must run all the same)
                pass

    def _hook_operations(self):
        from tensorflow.python.framework import op_callbacks

        op_callbacks.add_op_callback(self.on_op)
        self._callback = True

    def _hook_exports(self):
        from tensorflow.python.framework import ops

        recorder = self

        def exporting(name):
            original = ops._EagerTensorBase.__dict__[name]

            def method(tensor, *args, **kwargs):
                recorder.exported(tensor, name, sys._getframe(1))
                return original(tensor, *args, **kwargs)
            return original, method
        for name in ("numpy", "__array__", "__float__", "__int__", "__index__"):
            if name in ops._EagerTensorBase.__dict__:
                original, method = exporting(name)
                self._patched.append((ops._EagerTensorBase, name, original))
                setattr(ops._EagerTensorBase, name, method)

    def _hook_conversions(self):
        from tensorflow.python.framework import constant_op

        recorder = self
        convert = constant_op.convert_to_eager_tensor

        def converting(value, *args, **kwargs):
            tensor = convert(value, *args, **kwargs)
            recorder.converted(tensor, value, sys._getframe(1))
            return tensor
        self._patched.append((constant_op, "convert_to_eager_tensor", convert))
        constant_op.convert_to_eager_tensor = converting

    def _hook_functions(self):
        from tensorflow.python.eager.polymorphic_function import atomic_function, polymorphic_function

        recorder = self
        call_flat = atomic_function.AtomicFunction.__dict__["call_flat"]
        function_call = polymorphic_function.Function.__dict__["__call__"]

        def calling(function, *args):
            try:
                recorder.functions[function.name.decode()] = function.graph
                if recorder.on_call is not None and not recorder.paused:
                    recorder.paused += 1
                    try:
                        recorder.on_call(function.graph, args)
                    finally:
                        recorder.paused -= 1
            except Exception:  # noqa: BLE001
                pass
            return call_flat(function, *args)
        self._patched.append((atomic_function.AtomicFunction, "call_flat", call_flat))
        atomic_function.AtomicFunction.call_flat = calling

        def calling_function(function, *args, **kwargs):
            if recorder.before_function is not None and not recorder.paused:
                try:
                    recorder.before_function(function, args, kwargs)
                except Exception:  # noqa: BLE001
                    pass
            try:
                before = function.experimental_get_tracing_count()
            except Exception:  # noqa: BLE001
                before = None
            result = function_call(function, *args, **kwargs)
            if recorder.on_function is not None and not recorder.paused and before is not None:
                try:
                    traced = function.experimental_get_tracing_count() > before
                    recorder.on_function(function, args, kwargs, traced, result)
                except Exception:  # noqa: BLE001
                    pass
            return result
        self._patched.append((polymorphic_function.Function, "__call__", function_call))
        polymorphic_function.Function.__call__ = calling_function

    def stop(self):
        from tensorflow.python.framework import op_callbacks

        if getattr(self, "_callback", False):
            op_callbacks.remove_op_callback(self.on_op)
            self._callback = False
        for owner, name, original in self._patched:
            setattr(owner, name, original)
        self._patched = []


def _is_variable(value):
    import tensorflow as tf

    return isinstance(value, tf.Variable) or isinstance(getattr(value, "value", None), tf.Variable)


def _raw_variable(value):
    """The tf.Variable behind a Keras Variable (tapes list those), or the value itself."""
    import tensorflow as tf

    inner = getattr(value, "value", None)
    return inner if isinstance(inner, tf.Variable) else value


def _program_data(array, frame):
    """True for an array the program holds as data (a global, or an argument its caller passed: labels, a
    batch), not one made on the way from a tensor (np.linalg.norm(t), t.numpy() ** 2)."""
    innermost = True
    while frame is not None:
        if _learner_file(frame.f_code.co_filename):
            if any(value is array for value in list(frame.f_globals.values())):
                return True
            if not innermost and any(value is array for value in list(frame.f_locals.values())):
                return True
            innermost = False
        frame = frame.f_back
    return False


def _is_recording(tape):
    return getattr(tape, "_recording", False) and getattr(tape, "_tape", None) is not None


def _names_of(frame, value):
    return [name for name, bound in list(frame.f_locals.items()) if bound is value and not name.startswith("_")]
