"""The gradient doctor: says why a gradient came back None or NaN, and how to fix it.

Two ways to call it:

    gradient_doctor(compute, sources)   # a computation: compute(*sources) returns the target
    with tape_doctor():                 # tape code as written: every gradient call in the block
        ...

Each finding names one of the causes in CAUSES (the None-gradient lab's list), the source it is
about, and the line or operation where the path breaks when that can be found.
"""
import collections
import inspect
import linecache
import re
import sys
import sysconfig
import traceback

import numpy as np

Cause = collections.namedtuple("Cause", "title fix")

# The fixed list of causes: the None-gradient lab asks learners to name them, and the doctor names them too.
CAUSES = {
    "outside_tape": Cause(
        "part of the computation ran outside the tape (after the `with` block, or inside the gradient call)",
        "put every operation from the sources to the target inside the `with` block"),
    "left_tensorflow": Cause(
        "the value left TensorFlow (.numpy(), float(), a NumPy function, model.predict)",
        "use TensorFlow operations only, and call model(x) instead of model.predict(x)"),
    "not_watched": Cause(
        "the source is a tensor the tape does not watch (only trainable Variables are watched by themselves)",
        "call tape.watch(x) inside the `with` block, before x is used"),
    "swapped": Cause(
        "target and source swapped: this source was computed from the target, and tape.gradient takes the "
        "value to differentiate first",
        "write tape.gradient(y, x): first what you differentiate (y), then what you differentiate it with respect to (x)"),
    "watched_too_late": Cause(
        "tape.watch(x) came after x was used: the operations before it were not recorded",
        "call tape.watch(x) before the first operation on x"),
    "watched_other_object": Cause(
        "the tape watched another object: the name was bound to a new tensor after watch, or the "
        "computation was fed another object than the watched one",
        "create the tensor first, then watch that exact object, and compute from that object"),
    "wrong_variables": Cause(
        "the wrong list of variables (model.variables with its non-trainable ones, or a list taken "
        "before the model was built, which is empty)",
        "ask for model.trainable_variables, after the model has been called once"),
    "unused": Cause(
        "the target never used this variable (an output left out of the loss, a layer built but never called, "
        "another model's variable)",
        "call the layer, or leave its variables out of the list"),
    "not_differentiable": Cause(
        "an operation with no gradient on the path (argmax, round, floor, a comparison cast to float)",
        "use a differentiable stand-in (softmax or sigmoid probabilities), or a straight-through estimator"),
    "integer_dtype": Cause(
        "an integer tensor on the path (a source written 3 instead of 3.0, or a cast to an integer type)",
        "use floats: tf.constant(3.0), or dtype=tf.float32"),
    "variable_replaced": Cause(
        "a Variable was replaced by a plain tensor (w = w - lr * g makes w a Tensor, which is not watched)",
        "update in place: w.assign_sub(lr * g), or optimizer.apply_gradients"),
    "not_trainable": Cause(
        "the Variable was created with trainable=False, so the tape does not watch it",
        "if you want its gradient, tape.watch(v) (or make it trainable); otherwise None is intended"),
    "stateful": Cause(
        "a stateful step on the path (assign or assign_add, a dataset iterator, a Keras metric used as the loss)",
        "keep the path from the sources to the target made of plain operations: compute the loss as a tensor"),
    "inner_gradient_outside": Cause(
        "the inner gradient was taken after the outer tape's `with` block had closed",
        "call inner_tape.gradient(...) inside the outer `with` block"),
    "none_is_correct": Cause(
        "None is the right answer: the target does not depend on this source's value (a critic's output "
        "bias does not appear in its input gradient)",
        "nothing to fix; where an optimizer needs a number, put tf.zeros_like(v) in its place "
        "(unconnected_gradients=ZERO fails on Keras 3 Variables in TensorFlow 2.21)"),
    "no_target": Cause(
        "the target is None: the code that computes it returned nothing",
        "`return` the result from the function that computes the target"),
    "nan_at_zero": Cause(
        "an infinite derivative at the point (sqrt or a norm at 0, log or 1/x at 0) made the gradient NaN or inf",
        "keep the point away from the singularity: tf.sqrt(tf.reduce_sum(g ** 2) + 1e-12) instead of tf.norm(g)"),
    "nan_unsafe_where": Cause(
        "tf.where picked the safe branch, but the unsafe branch's NaN or inf still reaches the gradient",
        "make the unsafe branch's input safe first: tf.where(ok, f(tf.where(ok, x, safe_value)), other)"),
    "nan_overflow": Cause(
        "a value overflowed to inf in the forward pass (exp of a large number), and inf times 0 is NaN",
        "use the stable function (tf.math.softplus for log(1 + exp(x)), tf.nn.softmax, *_with_logits losses)"),
}


def show_causes():
    """Print the list of causes: the code to name, what it means, and the fix."""
    width = max(len(code) for code in CAUSES)
    for code, cause in CAUSES.items():
        print(f"{code:<{width}}  {cause.title}\n{'':<{width}}  fix: {cause.fix}")


# ---------------------------------------------------------------- findings

class Finding(collections.namedtuple("Finding", "source cause detail where")):
    """One source whose gradient is None or NaN: the cause (a code of CAUSES), what was seen, and where."""

    def __str__(self):
        cause = CAUSES[self.cause]
        lines = [f"{self.source}: {self.cause}: {cause.title}."]
        if self.detail:
            lines.append(f"    seen: {self.detail}")
        if self.where:
            lines.append(f"    where: {self.where}")
        lines.append(f"    fix: {cause.fix}.")
        return "\n".join(lines)


class Findings:
    """What the doctor found: `findings` (one per broken source), `causes` (their codes), `connected`."""

    findings = ()
    all_well = "connected: every gradient is a finite tensor."

    @property
    def causes(self):
        return [finding.cause for finding in self.findings]

    @property
    def connected(self):
        return not self.findings

    def __str__(self):
        return "\n".join(str(finding) for finding in self.findings) if self.findings else self.all_well

    __repr__ = __str__

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


class Diagnosis(Findings):
    """gradient_doctor's answer for one computation."""

    def __init__(self, findings, sources_seen=""):
        self.findings = list(findings)
        if sources_seen:
            self.all_well = f"connected: every gradient ({sources_seen}) is a finite tensor."


# ---------------------------------------------------------------- where in the learner's code

_OWN_FILE = sys._getframe().f_code.co_filename  # this module, or the setup cell it was copied into
_LIBRARY_FOLDERS = tuple({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")})


def _library_file(filename):
    """True for code of Python itself or of an installed package; False for notebook cells and `eval`."""
    if filename.startswith("<frozen"):
        return True
    return filename.startswith(_LIBRARY_FOLDERS) or "/site-packages/" in filename or "/dist-packages/" in filename


def _learner_file(filename):
    """True for the learner's code (a notebook cell, a script), False for Python, libraries and the doctor."""
    return filename != _OWN_FILE and not _library_file(filename)


def _code_line(filename, lineno):
    text = linecache.getline(filename, lineno).strip()
    return f"line {lineno}: {text}" if text else f"line {lineno}"


def _source_label(source, index):
    """How the learner knows a source: a Keras path, a Variable's name, or its position."""
    path = getattr(source, "path", None)
    if isinstance(path, str):
        return path
    if _is_variable(source):
        return source.name.split(":")[0]
    return index if isinstance(index, str) else f"source {index}"


def _is_variable(value):
    import tensorflow as tf

    return isinstance(value, tf.Variable) or isinstance(getattr(value, "value", None), tf.Variable)


def _raw_variable(value):
    """The tf.Variable behind a Keras Variable (tapes list those), or the value itself."""
    import tensorflow as tf

    inner = getattr(value, "value", None)
    return inner if isinstance(inner, tf.Variable) else value


def _is_integer(value):
    dtype = getattr(value, "dtype", None)
    return dtype is not None and not getattr(dtype, "is_floating", True) and not getattr(dtype, "is_complex", False)


def _is_float_tensor(value):
    import tensorflow as tf

    return tf.is_tensor(value) and not _is_variable(value) and value.dtype.is_floating


def _all_finite(value):
    try:
        return bool(np.all(np.isfinite(np.asarray(value))))
    except (TypeError, ValueError, NotImplementedError):
        return True  # a symbolic tensor (under tf.function): no values to look at


def _named_sources(sources):
    """[(name, source)] for one source, a list or tuple, or a dict."""
    if isinstance(sources, dict):
        return [(str(key), value) for key, value in sources.items()]
    if isinstance(sources, (list, tuple)):
        return [(index, value) for index, value in enumerate(sources)]
    return [(0, sources)]


# ---------------------------------------------------------------- a computation: gradient_doctor

# Operations through which no gradient flows, by what they mean for the learner.
_LEFT_TENSORFLOW_OPS = {"PyFunc", "PyFuncStateless", "NumpyFunction"}
_STATEFUL_WORDS = ("Assign", "Dataset", "Iterator", "Queue", "Stack", "TensorArray")
_SHAPE_OPS = {"Shape", "ShapeN", "Size", "Rank", "OnesLike", "ZerosLike", "BroadcastGradientArgs"}
_SINGULAR_OPS = {"Sqrt", "Rsqrt", "Log", "Log1p", "Reciprocal", "Inv", "RealDiv", "Div", "DivNoNan", "Pow",
                 "Xlogy", "Xdivy", "Atanh", "Acos", "Asin", "Digamma", "Lgamma", "FloorDiv"}
_OVERFLOW_OPS = {"Exp", "Expm1", "Pow", "Square", "Mul", "Cosh", "Sinh", "Softplus"}


def gradient_doctor(compute, sources):
    """Say, for each source, whether the gradient of compute's result reaches it, and if not, why.

    compute: a function returning the target: called as compute(*sources) for a list or tuple,
             compute(sources) for one source or a dict, compute() when it takes no parameters.
    sources: tensors and Variables (a Keras model's trainable_variables, say).
    Prints nothing itself; the returned Diagnosis shows as text in a notebook.
    """
    import tensorflow as tf

    named = _named_sources(sources)
    if not isinstance(sources, dict):
        try:
            parameters = list(inspect.signature(compute).parameters)
        except (TypeError, ValueError):
            parameters = []
        if len(parameters) == len(named):
            named = [(parameters[index], value) for index, value in named]
    names = [_source_label(value, key) for key, value in named]
    findings = []
    for name, (_, value) in zip(names, named):
        if not (tf.is_tensor(value) or _is_variable(value)):
            findings.append(Finding(name, "not_watched", f"a {type(value).__name__}, not a tensor: a tape watches "
                                    "tensors and Variables only (tf.convert_to_tensor it first)", ""))
        elif _is_integer(value):
            findings.append(Finding(name, "integer_dtype", f"its dtype is {value.dtype.name}", ""))
        elif _is_variable(value) and not _raw_variable(value).trainable:
            findings.append(Finding(name, "not_trainable", "trainable=False: a tape does not watch it by "
                                    "itself (the doctor watched it to look further)", ""))
    watchable = [value for _, value in named if tf.is_tensor(value) or _is_variable(value)]
    with tf.GradientTape(persistent=True) as tape:
        for value in watchable:
            tape.watch(_raw_variable(value) if _is_variable(value) else value)
        with tape_doctor(report=False, observe=False) as inner:  # tapes inside compute (a gradient penalty)
            try:
                target = _call_compute(compute, sources)
            except Exception:
                if not inner.findings:
                    raise
                target = None
    findings = inner.findings + findings
    if target is None:
        return Diagnosis(findings or [Finding("the target", "no_target", "compute(...) returned None", "")])
    if not tf.is_tensor(target):
        breaks = _trace_breaks(compute, sources, named)
        detail = f"compute(...) returned a {type(target).__name__}, not a tensor"
        return Diagnosis(breaks or [Finding("the target", "left_tensorflow", detail, "")])
    if _is_integer(target):
        return Diagnosis([Finding("the target", "integer_dtype", f"the target's dtype is {target.dtype.name}", "")])
    found = {finding.source for finding in findings}
    broken = []
    for name, (_, value) in zip(names, named):
        if name in found or not (tf.is_tensor(value) or _is_variable(value)):
            continue
        gradient = tape.gradient(target, _raw_variable(value) if _is_variable(value) else value)
        if gradient is None:
            broken.append((name, value, "none"))
        elif not _all_finite(tf.convert_to_tensor(gradient)):
            broken.append((name, value, "nan"))
    del tape
    if broken:
        findings += _graph_findings(compute, sources, named, names, broken, inner.asked_gradients)
    return Diagnosis(findings, ", ".join(str(name) for name in names))


def _call_compute(compute, sources):
    try:
        takes_nothing = not inspect.signature(compute).parameters
    except (TypeError, ValueError):
        takes_nothing = False
    if takes_nothing:
        return compute()
    if isinstance(sources, (list, tuple)):
        return compute(*sources)
    return compute(sources)


def _op_line(op):
    """Where the learner's code created a graph operation."""
    for frame in reversed(op.traceback or []):
        if _learner_file(frame.filename):
            return f"{_code_line(frame.filename, frame.lineno)} (operation {op.type})"
    return f"operation {op.type} ({op.name})"


def _trace_breaks(compute, sources, named):
    """Findings from tracing compute into a graph when that fails because a value left TensorFlow."""
    import tensorflow as tf

    symbolic = _symbolic_sources(sources)
    try:
        tf.function(lambda *args: _call_compute(compute, symbolic(args)), autograph=False).get_concrete_function(
            *[value for _, value in named if tf.is_tensor(value) and not _is_variable(value)])
    except Exception as error:  # noqa: BLE001 (any failure to trace is a clue, never the doctor's crash)
        message = f"{type(error).__name__}: {error}"
        if re.search(r"numpy|symbolic|SymbolicTensor|eager execution|float\(\)|int\(\)", message):
            where = ""
            for frame in reversed(traceback.extract_tb(error.__traceback__)):
                if _learner_file(frame.filename):
                    where = _code_line(frame.filename, frame.lineno)
                    break
            return [Finding("the target", "left_tensorflow", message.splitlines()[0][:160], where)]
    return []


def _symbolic_sources(sources):
    """A function that rebuilds `sources` with the traced arguments in place of its tensors (not Variables)."""
    import tensorflow as tf

    items = _named_sources(sources)

    def rebuild(arguments):
        arguments = list(arguments)
        values = [arguments.pop(0) if tf.is_tensor(value) and not _is_variable(value) else value for _, value in items]
        if isinstance(sources, dict):
            return dict(zip(sources, values))
        if isinstance(sources, (list, tuple)):
            return type(sources)(values) if isinstance(sources, list) else tuple(values)
        return values[0]
    return rebuild


def _graph_findings(compute, sources, named, names, broken, inner_gradients):
    """Trace compute into a graph and find, for each broken source, the operation where its gradient stops."""
    import tensorflow as tf

    traced = _trace_breaks(compute, sources, named)
    if traced:
        return [Finding(name, "left_tensorflow", traced[0].detail, traced[0].where) for name, _, _ in broken]
    symbolic = _symbolic_sources(sources)
    tensors_in = [value for _, value in named if tf.is_tensor(value) and not _is_variable(value)]
    notes = {}

    def traced_function(*arguments):
        graph = tf.compat.v1.get_default_graph()
        target = tf.convert_to_tensor(_call_compute(compute, symbolic(arguments)))
        placeholders = iter(arguments)
        starts = {}
        for name, (_, value) in zip(names, named):
            if _is_variable(value):
                handle = _raw_variable(value).handle
                inner = [internal for external, internal in graph.captures if external is handle]
                starts[name] = [consumer.outputs[0] for tensor in inner for consumer in tensor.consumers()
                                if consumer.type == "ReadVariableOp"]
                starts[name + "\0handle"] = inner
            elif tf.is_tensor(value):
                starts[name] = [next(placeholders)]
        ancestors = _ancestors(target.op)
        path_tensors = []
        for name, _, _ in broken:
            descendants = _descendants([t.op for t in starts.get(name, [])] + [t.op for t in starts.get(name + "\0handle", [])])
            notes[name] = {"ancestors": ancestors, "descendants": descendants, "starts": starts.get(name, []),
                       "inner_gradients": inner_gradients}
            for op in descendants & ancestors:
                path_tensors += [t for t in op.outputs if t.dtype.is_floating]
            path_tensors += [t for t in starts.get(name, []) if t.dtype.is_floating]
        path_tensors = list({id(t): t for t in path_tensors}.values())
        adjoints = tf.gradients(target, path_tensors) if path_tensors else []
        notes["tensors"] = path_tensors
        notes["adjoint_is_none"] = [a is None for a in adjoints]
        notes["target_op"] = target.op
        return [target] + path_tensors + [a for a in adjoints if a is not None]

    try:
        results = tf.function(traced_function, autograph=False)(*tensors_in)
    except Exception as error:  # noqa: BLE001 (then the words of compute's source are the clue)
        detail = f"the doctor could not follow the computation into a graph ({type(error).__name__})"
        return [_from_words(name, compute, kind, detail) for name, _, kind in broken]
    tensors = notes["tensors"]
    values = dict(zip([id(t) for t in tensors], [r.numpy() for r in results[1:1 + len(tensors)]]))
    adjoint_values = iter(results[1 + len(tensors):])
    adjoints = {id(t): (None if none else next(adjoint_values).numpy())
                for t, none in zip(tensors, notes["adjoint_is_none"])}
    findings = []
    for name, value, kind in broken:
        note = notes[name]
        if kind == "none":
            findings.append(_why_none(name, value, note, adjoints))
        else:
            findings.append(_why_nan(name, note, values, adjoints, notes["target_op"]))
    return findings


def _from_words(name, compute, kind, detail):
    """A finding from what compute's source code says, when its graph cannot be built."""
    try:
        lines, first = inspect.getsourcelines(compute)
    except (OSError, TypeError):
        lines, first = [], 0
    code = [(first + offset, line.split("#")[0].strip()) for offset, line in enumerate(lines)]
    for cause, pattern in (_WORDS if kind == "none" else _NAN_WORDS):
        for number, text in code:
            if text and re.search(pattern, text):
                return Finding(name, cause, detail, f"line {number}: {text}")
    return Finding(name, "not_differentiable" if kind == "none" else "nan_at_zero", detail, "")


def _ancestors(op):
    seen, stack = set(), [op]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        stack += [tensor.op for tensor in current.inputs] + list(current.control_inputs)
    return seen


def _descendants(ops):
    seen, stack = set(), list(ops)
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        stack += [consumer for tensor in current.outputs for consumer in tensor.consumers()]
        stack += list(current._control_outputs)
    return seen


def _why_none(name, value, note, adjoints):
    """The cause of a None gradient, from the graph between the source and the target."""
    descendants, ancestors = note["descendants"], note["ancestors"]
    used = [op for op in descendants if op.type not in ("Placeholder", "ReadVariableOp")]
    if not used and not any(op.type == "ReadVariableOp" for op in descendants):
        return Finding(name, "unused", "the computation never reads it", "")
    stateful = sorted((op for op in descendants if any(word in op.type for word in _STATEFUL_WORDS)),
                      key=lambda op: op.name)
    path = descendants & ancestors
    if stateful and (not path or any(op in path for op in stateful)):
        op = stateful[0]
        return Finding(name, "stateful", f"its value goes through {op.type}, which keeps state and has no "
                       "gradient", _op_line(op))
    if not path and note["inner_gradients"]:
        return Finding(name, "none_is_correct", "the target depends on it only through an inner gradient, in "
                       "which it does not appear", "")
    if not path:
        return Finding(name, "unused", "the computation reads it, but nothing it feeds reaches the target", "")
    # The operation where the gradient stops: on the path, its output has a gradient and its input none.
    for op in _in_order(path):
        if op.type in _SHAPE_OPS:
            continue
        outputs_flow = any(adjoints.get(id(t)) is not None for t in op.outputs) or op is note.get("target_op")
        starts = {id(t) for t in note["starts"]}
        inputs = [t for t in op.inputs if t.op in path or id(t) in starts]
        if outputs_flow and inputs and all(adjoints.get(id(t)) is None for t in inputs):
            return _classify_stop(name, op, inputs)
    if all(op.type in _SHAPE_OPS or op.type in ("Placeholder", "ReadVariableOp", "Fill", "Const", "Reshape",
                                                  "Identity", "BroadcastTo", "Cast", "StridedSlice", "Pack")
           or not any(adjoints.get(id(t)) is not None for t in op.outputs) for op in path):
        return Finding(name, "none_is_correct", "the target depends on it only through shapes, not through "
                       "its value", "")
    return Finding(name, "not_differentiable", "no gradient flows back through the path", "")


def _in_order(ops):
    """Operations sorted from the sources towards the target (graph creation order)."""
    return sorted(ops, key=lambda op: op._id)


def _classify_stop(name, op, inputs):
    producers = [t.op for t in inputs if not t.dtype.is_floating]
    if op.type in _LEFT_TENSORFLOW_OPS:
        return Finding(name, "left_tensorflow", f"{op.type} runs Python code the tape cannot follow", _op_line(op))
    if any(word in op.type for word in _STATEFUL_WORDS):
        return Finding(name, "stateful", f"{op.type} has no gradient", _op_line(op))
    if op.type in ("StopGradient", "PreventGradient"):
        return Finding(name, "not_differentiable", "tf.stop_gradient on the path", _op_line(op))
    if producers:
        source_op = producers[0]
        if source_op.type == "Cast" or source_op.type == "Placeholder":
            return Finding(name, "integer_dtype", f"a {source_op.outputs[0].dtype.name} value on the path",
                           _op_line(source_op))
        return Finding(name, "not_differentiable", f"{source_op.type} gives {source_op.outputs[0].dtype.name} "
                       "values, which carry no gradient", _op_line(source_op))
    return Finding(name, "not_differentiable", f"{op.type} has no gradient", _op_line(op))


def _why_nan(name, note, values, adjoints, target_op):
    """The cause of a NaN or inf gradient: the operation where the gradient stops being finite."""
    path = note["descendants"] & note["ancestors"]
    for op in sorted(path, key=lambda op: -op._id):  # from the target back towards the source
        outputs = [adjoints.get(id(t)) for t in op.outputs if id(t) in adjoints]
        if any(a is not None and not _all_finite(a) for a in outputs):
            continue
        inputs = [t for t in op.inputs if id(t) in adjoints and adjoints[id(t)] is not None]
        if not any(not _all_finite(adjoints[id(t)]) for t in inputs):
            continue
        output_values = [values.get(id(t)) for t in op.outputs if id(t) in values]
        overflowed = any(v is not None and not _all_finite(v) for v in output_values)
        input_values = [values.get(id(t)) for t in op.inputs if id(t) in values]
        at_zero = any(v is not None and np.any(np.asarray(v) == 0) for v in input_values)
        where_after = [other for other in path if other.type in ("Select", "SelectV2") and other._id > op._id]
        if where_after:
            return Finding(name, "nan_unsafe_where", f"{op.type} is infinite or NaN in the branch tf.where did "
                           "not pick, and 0 times inf is NaN", _op_line(op))
        if overflowed and op.type in _OVERFLOW_OPS:
            return Finding(name, "nan_overflow", f"{op.type} overflowed to inf in the forward pass", _op_line(op))
        if at_zero or op.type in _SINGULAR_OPS:
            return Finding(name, "nan_at_zero", f"the derivative of {op.type} is infinite at this input", _op_line(op))
        return Finding(name, "nan_overflow", f"{op.type} turned a finite gradient into inf or NaN", _op_line(op))
    return Finding(name, "nan_at_zero", "the gradient is not finite", "")


# ---------------------------------------------------------------- tape code as written: tape_doctor

_TOOL_FILES = {_OWN_FILE}  # files of the course's own helpers (checks.py adds itself), skipped like libraries

_WORDS = [  # what a line of the tape's block says, when the path from a watched source breaks inside it
    ("left_tensorflow", r"\.numpy\(|\bfloat\(|\bint\(|\bnp\.|\bnumpy\.|\.predict\(|numpy_function|\.item\(|\.tolist\("),
    ("stateful", r"\.assign(_add|_sub)?\(|\bnext\(|\biter\(|update_state|\.result\("),
    ("integer_dtype", r"\bu?int(8|16|32|64)\b"),
    ("not_differentiable", r"argmax|argmin|\bround\(|floor|ceil|\bsign\(|[<>]|==|!=|greater|less|equal|stop_gradient"),
]
_NAN_WORDS = [("nan_unsafe_where", r"\bwhere\("), ("nan_overflow", r"\bexp\(|\*\*\s*\d{2,}|cosh|sinh"),
              ("nan_at_zero", r".")]
_WORD_DETAILS = {
    "left_tensorflow": "this line turns a tensor into NumPy or Python values, which the tape cannot follow",
    "stateful": "this line goes through state (an assign, an iterator, a metric), which has no gradient",
    "integer_dtype": "this line makes integer values, which carry no gradient",
    "not_differentiable": "this line uses an operation whose gradient is None",
    "nan_unsafe_where": "the gradient is NaN or inf, and this tf.where has a branch that is not safe everywhere",
    "nan_overflow": "the gradient is NaN or inf, and this line can overflow to inf",
    "nan_at_zero": "the gradient is NaN or inf, and this line has an infinite derivative somewhere (at 0?)",
}


class _TapeRecord:
    """What one tape saw: where its block is, what it watched, what existed before and after it."""

    def __init__(self, tape, frame, clock):
        self.tape = tape
        self.filename = frame.f_code.co_filename
        self.enter_line = frame.f_lineno
        self.entered = clock
        self.exited = None
        self.before = _tensors_in(frame)
        self.after = {}
        self.watched = []  # (object, names it had in the learner's frame, line)
        self.inner_calls = []  # when tapes opened inside this block were asked for gradients, while it recorded
        self.gradient_clocks = []

    def block_lines(self):
        """(line number, code) of the `with` block, from the source file (a cell is a file too)."""
        lines = linecache.getlines(self.filename)
        if not lines or self.enter_line > len(lines):
            return []
        header = lines[self.enter_line - 1]
        indent = len(header) - len(header.lstrip())
        block = []
        for number in range(self.enter_line + 1, len(lines) + 1):
            text = lines[number - 1]
            if text.strip() and len(text) - len(text.lstrip()) <= indent:
                break
            code = text.split("#")[0].strip()
            if code:
                block.append((number, code))
        return block


def _tensors_in(frame):
    """{id: value} of the tensors, arrays and numbers a frame holds now."""
    import tensorflow as tf

    return {id(value): value for value in list(frame.f_locals.values())
            if tf.is_tensor(value) or isinstance(value, (np.ndarray, np.generic, float))}


def _names_of(frame, value):
    return [name for name, bound in list(frame.f_locals.items()) if bound is value and not name.startswith("_")]


def _learner_caller(frame):
    """The learner's frame that called a tape method, or None when TensorFlow itself called it."""
    while frame is not None and frame.f_code.co_filename in _TOOL_FILES:
        frame = frame.f_back
    if frame is None or not _learner_file(frame.f_code.co_filename):
        return None
    return frame


_RECENT = []  # the findings of the last silent tape_doctor (a check's TapeCalls block)


def doctor_says():
    """The doctor's findings from the student's code the last check ran (in a TapeCalls block), as text."""
    if not _RECENT:
        return ""
    seen, lines = set(), []
    for finding in _RECENT:
        if (finding.source, finding.cause) not in seen:
            seen.add((finding.source, finding.cause))
            where = f" ({finding.where})" if finding.where else ""
            lines.append(f"{finding.source}: {CAUSES[finding.cause].title}{where}. Fix: {CAUSES[finding.cause].fix}.")
    return "The gradient doctor looked at your tape code: " + " ".join(lines)


class tape_doctor(Findings):
    """Watch every tape used in a block; say why each gradient that comes back None or NaN does.

        with tape_doctor():
            ... tape code as you wrote it ...

    Prints its findings when the block ends (report=False keeps quiet); `.findings`, `.causes`.
    """

    METHODS = ("__enter__", "__exit__", "watch", "gradient")

    def __init__(self, report=True, observe=True):
        self.report = report
        self.observe = observe

    def __enter__(self):
        import tensorflow as tf

        self.findings = []
        self._records = {}
        self._all = []  # every record, keeping its tape alive so that no new tape reuses its id
        self._finished = []
        self._clock = 0
        self._were_variables = set()  # names that held a Variable when a gradient was asked for it
        self._observer = None
        if self.observe:  # one tape that records the whole block, to see work done outside the learner's tapes
            self._observer = tf.GradientTape(persistent=True)
            self._observer.__enter__()
        self._saved = [(name, tf.GradientTape.__dict__[name]) for name in self.METHODS]
        for name, original in self._saved:
            setattr(tf.GradientTape, name, getattr(self, "_" + name.strip("_"))(original))
        return self

    def __exit__(self, *exc):
        import tensorflow as tf

        for name, original in self._saved:
            setattr(tf.GradientTape, name, original)
        if self._observer is not None:
            self._observer.__exit__(None, None, None)
            self._observer = None
        self._records.clear()
        self._finished = list(self._all)
        self._all.clear()
        _RECENT[:] = self.findings
        if self.report:  # also when the block raised: a None found here is often why
            print(self)
        return False

    all_well = "connected: every gradient asked for in the block is a finite tensor."

    @property
    def asked_gradients(self):
        """True when the block asked its tapes for a gradient: inside gradient_doctor's tape, double backprop."""
        return any(record.gradient_clocks for record in self._finished)

    def _tick(self):
        self._clock += 1
        return self._clock

    # -- the tape's methods, wrapped
    def _enter(self, original):
        def enter(tape):
            with _never_fails():
                frame = _learner_caller(sys._getframe(1))
                if frame is not None:
                    self._records[id(tape)] = _TapeRecord(tape, frame, self._tick())
                    self._all.append(self._records[id(tape)])
            return original(tape)
        return enter

    def _exit(self, original):
        def exit_(tape, *exc):
            with _never_fails():
                record = self._records.get(id(tape))
                frame = _learner_caller(sys._getframe(1))
                if record is not None and record.exited is None:
                    record.exited = self._tick()
                    if frame is not None:
                        record.after = _tensors_in(frame)
            return original(tape, *exc)
        return exit_

    def _watch(self, original):
        def watch(tape, tensor):
            with _never_fails():
                import tensorflow as tf

                record = self._records.get(id(tape))
                frame = _learner_caller(sys._getframe(1))
                if record is not None and frame is not None:
                    for item in tf.nest.flatten(tensor):
                        record.watched.append((item, _names_of(frame, item), frame.f_lineno))
                if self._observer is not None:
                    original(self._observer, tensor)
            return original(tape, tensor)
        return watch

    def _gradient(self, original):
        def gradient(tape, target, sources, *args, **kwargs):
            before = None
            with _never_fails():
                before = self._before_gradient(tape, target, sources, sys._getframe(1))
            result = original(tape, target, sources, *args, **kwargs)
            if before is not None:
                with _never_fails():
                    self._after_gradient(tape, target, sources, result, *before)
            return result
        return gradient

    def _before_gradient(self, tape, target, sources, caller):
        """What must be seen before TensorFlow answers (a plain tape forgets what it watched)."""
        frame = _learner_caller(caller)
        record = self._records.get(id(tape))
        if frame is None or record is None:
            return None
        clock = self._tick()
        record.gradient_clocks.append(clock)
        for other in self._records.values():  # a gradient asked while another tape records: an inner one
            if other is not record and other.exited is None and other.entered < record.entered:
                other.inner_calls.append(clock)
        watched_variables = tape.watched_variables() if tape._tape is not None else ()
        if target is None:  # TensorFlow raises a TypeError next; the finding says where the None came from
            self.findings.append(Finding("the target", "no_target", "tape.gradient was asked for the gradient "
                                         "of None", _code_line(frame.f_code.co_filename, frame.f_lineno)))
        return frame, record, watched_variables

    def _after_gradient(self, tape, target, sources, result, frame, record, watched_variables):
        import tensorflow as tf

        named = [(names[0] if names else None, source) for names, source in
                 ((_names_of(frame, s), s) for s in tf.nest.flatten(sources))]
        if isinstance(sources, (list, tuple)) and not sources:
            self.findings.append(Finding("the list of sources", "wrong_variables", "it is empty: taken "
                                         "before the model was built?", _code_line(frame.f_code.co_filename, frame.f_lineno)))
        for index, ((name, source), grad) in enumerate(zip(named, tf.nest.flatten(result))):
            label = name or _source_label(source, index)
            if grad is None:
                finding = self._why_none(record, frame, tape, target, source, label, watched_variables,
                                         [s for _, s in named])
            elif not _all_finite(grad):
                finding = self._why_nan(record, label)
            else:
                finding = None
            if finding is not None:
                self.findings.append(finding)
        for name, source in named:
            if name and _is_variable(source):
                self._were_variables.add(name)

    # -- the reasons
    def _why_none(self, record, frame, tape, target, source, label, watched_variables, all_sources):
        import tensorflow as tf

        here = _code_line(frame.f_code.co_filename, frame.f_lineno)
        if _is_integer(target):
            return Finding("the target", "integer_dtype", f"the target's dtype is {target.dtype.name}", here)
        if _is_integer(source):
            return Finding(label, "integer_dtype", f"its dtype is {source.dtype.name}", "")
        names_now = set(_names_of(frame, source))
        if _is_variable(source):
            raw = _raw_variable(source)
            if not any(raw is variable for variable in watched_variables):
                if not raw.trainable:
                    mixed = any(_is_variable(s) and _raw_variable(s).trainable for s in all_sources)
                    if mixed:
                        return Finding(label, "wrong_variables", "the list mixes trainable and non-trainable "
                                       "variables (model.variables?)", here)
                    return Finding(label, "not_trainable", "trainable=False, and the tape did not watch it", "")
                if not tape._watch_accessed_variables:
                    return Finding(label, "not_watched", "the tape has watch_accessed_variables=False", "")
                if self._observed(target, raw) or self._made_outside(record, target):
                    return Finding(label, "outside_tape", "it was read, but not while the tape recorded", here)
                return Finding(label, "unused", "the computation did not read it while the tape recorded", "")
        elif not any(item is source for item, _, _ in record.watched):
            for item, names, line in record.watched:
                if names_now & set(names):
                    return Finding(label, "watched_other_object", f"the tape watched the object `{names[0]}` held "
                                   f"at line {line}; then `{names[0]}` was bound to a new tensor",
                                   _code_line(record.filename, line))
            if self._swapped(record, target, source, watched_variables):
                return Finding(label, "swapped", "the target is the watched tensor, and this source depends on it", here)
            if names_now & self._were_variables:
                return Finding(label, "variable_replaced", f"`{sorted(names_now & self._were_variables)[0]}` was a "
                               "Variable at an earlier gradient call and is now a Tensor", "")
            return Finding(label, "not_watched", "a tensor that is not a Variable, and the tape never watched it", "")
        # The tape watched the source, yet recorded no path to the target.
        if self._made_outside(record, target):
            if self._inner_gradient_after_exit(record):
                return Finding(label, "inner_gradient_outside", "the target was computed from a gradient asked "
                               "after the tape's block had closed", here)
            return Finding(label, "outside_tape", "the target was computed after the tape's block had closed", here)
        if self._observed(target, source):
            return Finding(label, "outside_tape", "the path exists, but part of it ran while the tape was not "
                           "recording", here)
        return self._broken_inside(record, frame, source, names_now, label)

    def _swapped(self, record, target, source, watched_variables):
        """True when the target is what the tape watched and the source was computed from it."""
        watched = any(item is target for item, _, _ in record.watched) or (
            _is_variable(target) and any(_raw_variable(target) is v for v in watched_variables))
        if not watched:
            return False
        if self._observer is not None:
            return self._observed(source, target)
        return id(source) in record.after and id(source) not in record.before  # made inside the block

    def _inner_gradient_after_exit(self, record):
        """True when a tape opened inside this one's block was asked for its gradient after the block closed."""
        return any(other is not record and record.entered < other.entered < record.exited
                   and any(clock > record.exited for clock in other.gradient_clocks) for other in self._all)

    def _made_outside(self, record, target):
        if record.exited is None:
            return False
        return id(target) in record.before or (record.after and id(target) not in record.after)

    def _observed(self, target, source):
        if self._observer is None:
            return False
        try:
            return self._original_gradient(self._observer, target, _raw_variable(source)) is not None
        except Exception:  # noqa: BLE001 (an observer that cannot answer is no evidence)
            return False

    def _original_gradient(self, tape, target, source):
        return dict(self._saved)["gradient"](tape, target, source)

    def _broken_inside(self, record, frame, source, names_now, label):
        block = record.block_lines()
        watch_lines = [line for item, _, line in record.watched if item is source]
        if watch_lines and names_now:
            pattern = re.compile(r"\b(" + "|".join(map(re.escape, names_now)) + r")\b")
            used_before = [(n, code) for n, code in block if n < watch_lines[0] and pattern.search(code)
                           and ".watch(" not in code]
            if used_before:
                return Finding(label, "watched_too_late", f"it is used at line {used_before[0][0]}, and watched "
                               f"at line {watch_lines[0]}", f"line {used_before[0][0]}: {used_before[0][1]}")
        arrays = [value for key, value in record.after.items() if key not in record.before
                  and isinstance(value, (np.ndarray, np.generic, float))]
        twins = [name for name, value in list(frame.f_locals.items()) if isinstance(value, np.ndarray)
                 and _same_values(value, source)]
        if twins and not arrays:
            return Finding(label, "watched_other_object", f"the NumPy array `{twins[0]}` holds the same values: was "
                           "the computation fed the array instead of the watched tensor?", "")
        for cause, pattern in _WORDS:
            for number, code in block:
                if re.search(pattern, code) and ".watch(" not in code:
                    return Finding(label, cause, _WORD_DETAILS[cause], f"line {number}: {code}")
        if arrays:
            return Finding(label, "left_tensorflow", "the block made NumPy values", "")
        if record.inner_calls:
            return Finding(label, "none_is_correct", "the target depends on it only through an inner gradient "
                           "in which it does not appear", "")
        fed = self._values_fed_by(record, frame, source)
        if fed:
            return Finding(label, "unused", f"it reaches `{fed[0]}`, which the target does not use", "")
        return Finding(label, "not_differentiable", "the path breaks inside the tape's block (gradient_doctor("
                       "compute, sources) on the computation finds the operation)", "")

    def _values_fed_by(self, record, frame, source):
        """Names of the block's new tensors that depend on the source (asked of the observer tape)."""
        if self._observer is None:
            return []
        names = []
        for name, value in list(frame.f_locals.items()):
            if id(value) in record.after and id(value) not in record.before and _is_float_tensor(value):
                if self._observed(value, source):
                    names.append(name)
        return names

    def _why_nan(self, record, label):
        block = record.block_lines()
        for cause, pattern in _NAN_WORDS:
            for number, code in block:
                if re.search(pattern, code) and ".watch(" not in code:
                    return Finding(label, cause, _WORD_DETAILS[cause], f"line {number}: {code}")
        return Finding(label, "nan_at_zero", "the gradient has NaN or inf entries", "")


class _never_fails:
    """Bookkeeping that goes wrong must never change what the learner's code does: its error is dropped."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], Exception)


def _forget_between_cells():
    """In a notebook, what the doctor said belongs to the cell that ran: forget it when the next one starts."""
    try:
        shell = get_ipython()  # noqa: F821 (defined inside IPython)
    except NameError:
        return
    shell.events.register("pre_run_cell", lambda *args: _RECENT.clear())


_forget_between_cells()


def _same_values(array, tensor):
    try:
        other = np.asarray(tensor)
        return array.shape == other.shape and array.size > 0 and np.allclose(array, other)
    except (TypeError, ValueError, NotImplementedError):
        return False
