"""The graph walk: from the recorded operations, where the gradient from a source to a target stops, and why."""
import sys

import numpy as np

from .doctor_causes import Finding
from .doctor_recorder import _TOOL_FILES, _is_variable, _raw_variable

_TOOL_FILES.add(sys._getframe().f_code.co_filename)

_LEFT_TENSORFLOW_OPS = {"PyFunc", "PyFuncStateless", "NumpyFunction"}
_STATEFUL_WORDS = ("Assign", "Dataset", "Iterator", "Queue", "Stack", "TensorArray", "ScatterUpdate",
                   "ResourceScatter")
_SHAPE_OPS = {"Shape", "ShapeN", "Size", "Rank", "OnesLike", "ZerosLike", "Fill", "BroadcastGradientArgs"}
_SINGULAR_OPS = {"Sqrt", "Rsqrt", "Log", "Log1p", "Reciprocal", "Inv", "RealDiv", "Div", "DivNoNan", "Pow",
                 "Xlogy", "Xdivy", "Atanh", "Acos", "Asin", "Digamma", "Lgamma", "FloorDiv", "Atan2",
                 "EuclideanNorm", "SquaredDifference", "Acosh"}
_OVERFLOW_OPS = {"Exp", "Expm1", "Pow", "Square", "Mul", "Cosh", "Sinh", "Softplus", "AddV2", "Add", "Sum",
                 "MatMul", "BatchMatMulV2", "Prod", "Tan"}
_SELECT_OPS = {"Select", "SelectV2"}
_NONE_GRADIENT_OPS = {"ArgMax", "ArgMin", "Round", "Floor", "Ceil", "Rint", "FloorDiv", "TruncateDiv"}  # grads are None
_PREDICT_CALLS = {"predict", "predict_on_batch", "predict_step"}
_METRIC_CALLS = {"update_state", "result"}


def _has_gradient(step, functions):
    """Whether TensorFlow has a gradient for this operation (its registry; a function call has one)."""
    from tensorflow.python.framework import ops

    if step.type in functions or step.type.startswith("__") or "PartitionedCall" in step.type:
        return True
    if step.type in _NONE_GRADIENT_OPS:
        return False
    try:
        return ops._gradient_registry.lookup(step.type) is not None
    except LookupError:
        return False


def _floating(tensor):
    dtype = getattr(tensor, "dtype", None)
    return dtype is not None and (dtype.is_floating or dtype.is_complex)


def _finite(value):
    if getattr(value, "dtype", None) is not None and not _floating(value) and hasattr(value.dtype, "is_floating"):
        return True  # integers, booleans, resources: never NaN
    try:
        return bool(np.all(np.isfinite(np.asarray(value))))
    except Exception:  # noqa: BLE001 (a symbolic tensor, or not a number: nothing to say)
        return True


def _has_value(tensor):
    return type(tensor).__name__ == "EagerTensor"  # a symbolic tensor (under tf.function) has no value


class Walk:
    """The recorded operations as a graph: who made each tensor, who used it, what reaches what."""

    def __init__(self, recorder):
        self.recorder = recorder
        self.producer = recorder.producer
        self.consumers = recorder.consumers
        self.functions = recorder.functions

    def start_ids(self, source):
        """The ids through which the computation reads a source: a tensor, or a Variable's handle (and its captures)."""
        if not _is_variable(source):
            return {id(source)}
        variable = _raw_variable(source)
        handle = variable.handle
        ids = {id(handle)} | self._native_reads(variable)
        for graph in {step.graph for step in self.recorder.steps if step.graph is not None}:
            try:
                for external, internal in graph.captures:
                    if external is handle:
                        ids.add(id(internal))
            except Exception:  # noqa: BLE001
                pass
        return ids

    def _native_reads(self, variable):
        """Reads TensorFlow made in C++ (a Variable passed straight to tf.argmax, tf.greater, tf.reduce_sum...)
        log no ReadVariableOp: their values are the inputs, made by no recorded step, equal to the Variable."""
        if getattr(self, "_leaf_inputs", None) is None:
            self._leaf_inputs = {}
            for step in self.recorder.steps:
                for tensor in step.inputs:
                    if (id(tensor) not in self.producer and id(tensor) not in self.recorder.leaves
                            and _has_value(tensor) and _floating(tensor)):
                        self._leaf_inputs[id(tensor)] = tensor
        try:
            value = variable.numpy()
        except Exception:  # noqa: BLE001
            return set()
        return {key for key, tensor in self._leaf_inputs.items() if tensor.dtype == variable.dtype
                and tuple(tensor.shape) == value.shape and np.array_equal(tensor.numpy(), value)}

    def descendants(self, ids, only=None):
        """(steps, tensor ids) reached forward from the tensors with these ids (through the steps `only` admits).

        From a Variable's handle only its reads lead on: writing it (its initial value, an optimizer's
        update) does not make its value flow anywhere.
        """
        steps, seen, frontier = set(), set(ids), list(ids)
        while frontier:
            key = frontier.pop()
            for step in self.consumers.get(key, ()):
                if step in steps or (only is not None and not only(step)):
                    continue
                through = [t for t in step.inputs if id(t) == key]
                if through and _dtype_name(through[0]) == "resource" and not any(
                        _floating(t) or _dtype_name(t) == "variant" for t in step.outputs):
                    continue  # a write into the Variable, or a check on it
                steps.add(step)
                for tensor in step.outputs:
                    if id(tensor) not in seen:
                        seen.add(id(tensor))
                        frontier.append(id(tensor))
                frontier += self._into_function(step, seen)
        return steps, seen

    def _into_function(self, step, seen):
        """A call of a traced tf.function: its graph's ops are reached through its inputs (by position)."""
        graph = self.functions.get(step.type)
        if graph is None:
            return []
        new = []
        for tensor in list(getattr(graph, "inputs", [])):
            if id(tensor) not in seen:
                seen.add(id(tensor))
                new.append(id(tensor))
        return new

    def ancestors(self, target):
        """(steps, tensor ids) the target was computed from."""
        steps, seen, frontier = set(), {id(target)}, [id(target)]
        while frontier:
            step = self.producer.get(frontier.pop())
            if step is None or step in steps:
                continue
            steps.add(step)
            more = list(step.inputs)
            graph = self.functions.get(step.type)
            if graph is not None:
                more += list(getattr(graph, "outputs", []))
            for tensor in more:
                if id(tensor) not in seen:
                    seen.add(id(tensor))
                    frontier.append(id(tensor))
        return steps, seen

    def tracked(self, record, watched_variables):
        """Ids of the tensors the tape really recorded: the watched ones, and what its recorded operations made of them."""
        ids = record.watched_ids() | {i for v in watched_variables for i in self.start_ids(v)}
        _, reached = self.descendants(ids, only=lambda step: id(record.tape) in step.recording)
        return reached

    def path(self, source, target):
        """The operations on a way from the source to the target, in the order they ran."""
        down, _ = self.descendants(self.start_ids(source))
        up, _ = self.ancestors(target)
        return sorted(down & up, key=lambda step: step.clock)

    # -- why a None
    def why_none(self, label, source, target, record, unasked):
        """The cause of a None gradient from the recorded computation, or None when it cannot say.

        record: the asked tape's TapeRecord; unasked: trainable variables the tape watched that reach
        the target but were not asked for (the model the loss really trains).
        """
        starts = self.start_ids(source)
        down, reached = self.descendants(starts)
        up, ancestors = self.ancestors(target)
        path = sorted(down & up, key=lambda step: step.clock)
        tape = id(record.tape)
        if path:
            return self._break_on_path(label, path, starts, ancestors, tape, record, unasked)
        return self._no_path(label, source, down, reached, up, ancestors, unasked)

    def _break_on_path(self, label, path, starts, ancestors, tape, record, unasked):
        on_path = {id(t) for step in path for t in step.outputs} | starts
        for step in path:
            inputs = [t for t in step.inputs if id(t) in on_path]
            if not inputs and step.graph is None and not self.functions.get(step.type):
                continue
            if tape not in step.recording and step.type not in ("Placeholder",):
                inner = self._inner_gradient_after(step, record)
                if inner:
                    return Finding(label, "inner_gradient_outside", "the target was computed from a gradient "
                                   "asked after the tape's block had closed", _where(inner) or _where(step))
                if unasked and self._joins_as_fixed_value(path, step, tape):
                    return self._another_models(label, unasked, step)
                when = "before the `with` block began" if step.clock < record.entered else (
                    "after the `with` block had closed" if record.exited and step.clock > record.exited
                    else "while the tape was not recording")
                return Finding(label, "outside_tape", f"{step.type} ran {when}", _where(step))
            if not any(_floating(t) for t in step.outputs if id(t) in ancestors):
                return self._classify_stop(label, step, integer=True, unasked=unasked)
            if not _has_gradient(step, self.functions):
                return self._classify_stop(label, step, integer=False, unasked=unasked)
            if step.type in ("StopGradient", "PreventGradient"):
                return self._classify_stop(label, step, integer=False, unasked=unasked)
        return None

    def _inner_gradient_after(self, step, record):
        """The step, when it ran inside a gradient call of a tape opened in this block, after the block closed."""
        if step.during is None or record.exited is None or step.clock < record.exited:
            return None
        inner = self.recorder.tapes.get(step.during)
        if inner is not None and record.entered < inner.entered < record.exited:
            return step
        return None

    def _joins_as_fixed_value(self, path, outside, tape):
        """True when a value made outside the tape joins the recorded computation as a fixed value (a DQN
        target, a label), not as the input of a model whose variables the tape watched (a GAN's fake batch)."""
        outside_ids = {id(t) for step in path if tape not in step.recording for t in step.outputs}
        for step in path:
            if tape in step.recording and any(id(t) in outside_ids for t in step.inputs):
                for other in step.inputs:
                    maker = self.producer.get(id(other))
                    if maker is not None and maker.type == "ReadVariableOp":
                        return False
        return True

    def _another_models(self, label, unasked, step):
        names = ", ".join(unasked[:3]) + (", ..." if len(unasked) > 3 else "")
        return Finding(label, "unused", f"the loss uses this part only as a fixed value; it trains {names}, "
                       "which the gradient call does not ask for", _where(step))

    def _classify_stop(self, label, step, integer, unasked):
        place = _where(step)
        calls = set(getattr(step.place, "calls", ()) or ())
        if calls & _PREDICT_CALLS:
            return Finding(label, "left_tensorflow", "model.predict returns NumPy values, which the tape cannot "
                           "follow", place)
        if step.type in _LEFT_TENSORFLOW_OPS:
            return Finding(label, "left_tensorflow", f"{step.type} runs Python code the tape cannot follow", place)
        if calls & _METRIC_CALLS or any(word in step.type for word in _STATEFUL_WORDS):
            return Finding(label, "stateful", f"{step.type} keeps state and has no gradient", place)
        if step.type in ("StopGradient", "PreventGradient"):
            if unasked:
                return self._another_models(label, unasked, step)
            return Finding(label, "none_is_correct", "tf.stop_gradient stops it on purpose here: the program "
                           "keeps this part fixed (remove the stop_gradient if it should learn)", place)
        if step.type in _SHAPE_OPS:
            return Finding(label, "none_is_correct", "the target depends on it only through a shape or an "
                           "inner gradient in which it does not appear, not through its value", place)
        if integer and step.type == "Cast":
            dtype = step.outputs[0].dtype.name
            return Finding(label, "integer_dtype", f"a cast to {dtype}, which carries no gradient", place)
        if integer and step.type not in ("ArgMax", "ArgMin", "Round", "Floor", "Ceil", "Sign") and _has_gradient(
                step, self.functions):
            dtype = step.outputs[0].dtype.name
            return Finding(label, "integer_dtype", f"{step.type} gives {dtype} values, which carry no gradient", place)
        return Finding(label, "not_differentiable", f"{step.type} has no gradient", place)

    def _no_path(self, label, source, down, reached, up, ancestors, unasked):
        """No operation leads from the source to the target: where its value went instead."""
        ordered = sorted(down, key=lambda step: step.clock)
        for step in ordered:
            calls = set(getattr(step.place, "calls", ()) or ())
            if calls & _PREDICT_CALLS:
                return Finding(label, "left_tensorflow", "model.predict returns NumPy values, which the tape "
                               "cannot follow", _where(step))
        exports = [(self.recorder.exports[key][1], self.recorder.exports[key][2]) for key in reached
                   if key in self.recorder.exports]
        if exports:
            place, how = min(exports, key=lambda item: item[0][1] if item[0] else 0)
            return Finding(label, "left_tensorflow", f"{_how(how)} turned a tensor that depends on it into "
                           "NumPy or Python values", str(place))
        made_from_numpy = self._made_from_numpy(ordered, ancestors)
        if made_from_numpy:
            return Finding(label, "left_tensorflow", "the target was computed from NumPy values made after its "
                           "value had been used: the tape cannot follow a value through NumPy", made_from_numpy)
        if not down:
            detail = "the computation never reads it" if _is_variable(source) else "the computation never uses it"
            if unasked:
                return self._another_models(label, unasked, None)
            return Finding(label, "unused", detail, "")
        for step in ordered:
            if step.type in _LEFT_TENSORFLOW_OPS:
                return Finding(label, "left_tensorflow", f"{step.type} runs Python code the tape cannot follow",
                               _where(step))
        for step in ordered:
            calls = set(getattr(step.place, "calls", ()) or ())
            if any(word in step.type for word in _STATEFUL_WORDS) or calls & _METRIC_CALLS:
                if self._state_reaches(step, up):
                    return Finding(label, "stateful", f"its value goes into {step.type}, which keeps state and has "
                                   "no gradient; the target reads that state back", _where(step))
        for step in ordered:
            if any(word in step.type for word in _STATEFUL_WORDS):
                return Finding(label, "stateful", f"its value goes into {step.type}, which keeps state and has no "
                               "gradient", _where(step))
        if unasked:
            return self._another_models(label, unasked, None)
        return Finding(label, "unused", "the computation reads it, but nothing it feeds reaches the target", "")

    def _made_from_numpy(self, ordered, ancestors):
        """Where the target's computation took in a tensor made from NumPy values after the source was used."""
        if not ordered:
            return ""
        first = ordered[0].clock
        made = [(clock, place) for key, (tensor, place, clock) in self.recorder.leaves.items()
                if key in ancestors and clock > first and place is not None]
        return str(min(made, key=lambda item: item[0])[1]) if made else ""

    def _state_reaches(self, step, up):
        """True when the state an operation wrote (a Variable, a dataset) is read back on the way to the target."""
        handles = {id(t) for t in step.inputs if getattr(t, "dtype", None) is not None and t.dtype.name in
                   ("resource", "variant")}
        return any(any(id(t) in handles for t in other.inputs) for other in up) or any(
            other.type in ("IteratorGetNext", "ReadVariableOp") and other.clock > step.clock for other in up)

    # -- why a NaN
    def why_nan(self, label, source, target, adjoints=None):
        """The operation where a NaN or inf first appears on the way from the source to the target.

        Forward values first (an overflow, a log of 0); then, when every value is finite, the
        adjoints (`adjoints(tensors)` gives d target / d tensor) to find an infinite derivative.
        """
        path = [step for step in self.path(source, target) if step.type not in _SHAPE_OPS]
        valued = [step for step in path if all(_has_value(t) for t in step.outputs)]
        on_path = {id(t) for step in path for t in step.outputs} | self.start_ids(source)
        for step in valued:
            outputs_bad = any(not _finite(t) for t in step.outputs)
            inputs_fine = all(_finite(t) for t in step.inputs if _has_value(t))
            if outputs_bad and inputs_fine:
                selects = [other for other in path if other.type in _SELECT_OPS and other.clock > step.clock]
                if selects and _finite(target):
                    return Finding(label, "nan_unsafe_where", f"{step.type} gives inf or NaN in the branch "
                                   "tf.where did not pick, and 0 times inf is NaN", _where(step))
                if step.type in _OVERFLOW_OPS and not (step.type == "Pow" and any(
                        _zero_in(t) for t in step.inputs[:1] if _has_value(t))):
                    return Finding(label, "nan_overflow", f"{step.type} overflowed to inf in the forward pass",
                                   _where(step))
                if step.type in _SINGULAR_OPS:
                    return Finding(label, "nan_at_zero", f"{step.type} is infinite at this input (a 0 where it is "
                                   "singular)", _where(step))
                return Finding(label, "nan_overflow", f"{step.type} gave inf or NaN in the forward pass",
                               _where(step))
        if adjoints is not None:
            tensors = [t for step in valued for t in step.outputs if _floating(t)]
            tensors += [t for t in self._start_tensors(source, path) if _floating(t)]
            try:
                values = adjoints(tensors)
            except Exception:  # noqa: BLE001 (no adjoints: say what the operations suggest)
                values = None
            if values is not None:
                adjoint = {id(t): v for t, v in zip(tensors, values)}
                for step in sorted(valued, key=lambda s: -s.clock):
                    out = [adjoint.get(id(t)) for t in step.outputs]
                    if any(a is not None and not _finite(a) for a in out):
                        continue
                    ins = [adjoint.get(id(t)) for t in step.inputs if id(t) in on_path]
                    if any(a is not None and not _finite(a) for a in ins):
                        return self._infinite_derivative(label, step, path)
        for step in valued:  # no adjoints: the first singular operation at a 0
            if step.type in _SINGULAR_OPS and any(_zero_in(t) for t in step.inputs if _has_value(t)):
                return self._infinite_derivative(label, step, path)
        return None

    def _start_tensors(self, source, path):
        starts = self.start_ids(source)
        return [t for step in path for t in step.inputs if id(t) in starts and _has_value(t)]

    def _infinite_derivative(self, label, step, path):
        selects = [other for other in path if other.type in _SELECT_OPS and other.clock > step.clock]
        if selects:
            return Finding(label, "nan_unsafe_where", f"the derivative of {step.type} is infinite in the branch "
                           "tf.where did not pick, and 0 times inf is NaN", _where(step))
        return Finding(label, "nan_at_zero", f"the derivative of {step.type} is infinite at this input",
                       _where(step))


def _dtype_name(tensor):
    dtype = getattr(tensor, "dtype", None)
    return getattr(dtype, "name", "")


def _zero_in(tensor):
    if not _floating(tensor) and _dtype_name(tensor) not in ("int32", "int64"):
        return False
    try:
        return bool(np.any(np.asarray(tensor) == 0))
    except Exception:  # noqa: BLE001
        return False


def _where(step):
    if step is None:
        return ""
    place = step.place
    suffix = f" (operation {step.type})"
    return f"{place}{suffix}" if place else f"operation {step.type}"


def _how(how):
    return {"numpy": ".numpy()", "__array__": "a NumPy function", "__float__": "float()", "__int__": "int()",
            "__index__": "int()"}.get(how, how)
