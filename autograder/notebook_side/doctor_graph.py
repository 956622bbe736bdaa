"""The graph walk: from the recorded operations, where the gradient from a source to a target stops, and why."""
import linecache
import re
import sys

import numpy as np

from .doctor_causes import Finding
from .doctor_recorder import _TOOL_FILES, Recorder, Step, _code_line, _is_variable, _op_place, _raw_variable

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
# Not a cause: the NaN was already in a Variable (an earlier update wrote it), so its origin is out of sight.
ALREADY_NAN = "already_nan"
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


def _targets(target):
    """The targets in a nested list, tuple or dict of them (tape.gradient accepts any), or [target]."""
    if isinstance(target, dict):
        return [item for value in target.values() for item in _targets(value)]
    if isinstance(target, (list, tuple)):
        return [item for value in target for item in _targets(value)]
    return [target]


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
        captured = self._captures()[0]
        while frontier:
            key = frontier.pop()
            for inside in captured.get(key, ()):  # a tensor a tf.function's graph captured goes on inside it
                if id(inside) not in seen:
                    seen.add(id(inside))
                    frontier.append(id(inside))
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

    def _captures(self):
        """({id of a tensor captured: [the graphs' placeholders for it]}, {id of such a placeholder: the tensor})."""
        if getattr(self, "_capture_maps", None) is None:
            graphs = {step.graph for step in self.recorder.steps if step.graph is not None}
            graphs |= set(self.functions.values())
            inward, outward = {}, {}
            for graph in graphs:
                try:
                    pairs = list(graph.captures)
                except Exception:  # noqa: BLE001
                    continue
                for external, internal in pairs:
                    inward.setdefault(id(external), []).append(internal)
                    outward[id(internal)] = external
            self._capture_maps = (inward, outward)
        return self._capture_maps

    def ancestors(self, target):
        """(steps, tensor ids) the target was computed from (out of a tf.function's graph, through its captures).
        A list or dict of targets (tape.gradient([loss_a, loss_b], ...)) counts as their sum, as TensorFlow does."""
        frontier = [id(item) for item in _targets(target)]
        steps, seen = set(), set(frontier)
        outward = self._captures()[1]
        while frontier:
            key = frontier.pop()
            external = outward.get(key)
            if external is not None and id(external) not in seen:
                seen.add(id(external))
                frontier.append(id(external))
            step = self.producer.get(key)
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

    def target_ids(self, target):
        """The ids through which the target (one, or a list or dict of them) reads its values: start_ids of each."""
        return set().union(*(self.start_ids(item) for item in _targets(target)))

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
    def why_none(self, label, source, target, record, unasked, asked_at=""):
        """The cause of a None gradient from the recorded computation, or None when it cannot say.

        record: the asked tape's TapeRecord; unasked: trainable variables the tape watched that reach
        the target but were not asked for (the model the loss really trains); asked_at: the gradient call.
        """
        self.asked_at, self._record = asked_at, record
        starts = self.start_ids(source)
        down, reached = self.descendants(starts)
        up, ancestors = self.ancestors(target)
        path = sorted(down & up, key=lambda step: step.clock)
        tape = id(record.tape)
        self._starts, self._up, self._tape = starts, up, tape
        if path:
            found = self._break_on_path(label, path, starts, ancestors, tape, record, unasked)
            if found is None and any(step.during not in (None, tape) for step in path):
                return Finding(label, "none_is_correct", "the target depends on it only through a gradient or a "
                               "Jacobian, in which it does not appear (an output bias in an input gradient)", "")
            return found
        return self._no_path(label, source, down, reached, up, ancestors, unasked)

    def _float_path(self, path, starts):
        """The steps of the path a gradient could flow along: float values from the source on (an index made
        by tf.argmax from the source, say, is on the path but carries no gradient)."""
        carried = set(starts)
        steps = []
        for step in path:
            if any(id(t) in carried for t in step.inputs) and any(_floating(t) for t in step.outputs):
                through = [t for t in step.inputs if id(t) in carried]
                if any(_floating(t) or _dtype_name(t) == "resource" for t in through) or self.functions.get(step.type):
                    steps.append(step)
                    carried |= {id(t) for t in step.outputs if _floating(t)}
        if not steps or steps[-1] is not path[-1]:
            return steps, carried
        kept, needed = [], set()
        for step in reversed(steps):  # only the steps whose float values go on towards the target
            if step is path[-1] or any(id(t) in needed for t in step.outputs):
                kept.append(step)
                needed |= {id(t) for t in step.inputs if _floating(t) or _dtype_name(t) == "resource"}
        return kept[::-1], carried

    def _break_on_path(self, label, path, starts, ancestors, tape, record, unasked):
        float_path, carried = self._float_path(path, starts)
        if path[-1] not in float_path:
            # every way to the target goes through integers or booleans: the first step that leaves floats,
            # by its value (an argmax) before by its shape (a tf.fill of the same shape is no dependence)
            leaving = [step for step in path if any(id(t) in carried for t in step.inputs) and not any(
                _floating(t) for t in step.outputs if id(t) in ancestors)]
            by_value = [step for step in leaving if step.type not in _SHAPE_OPS and not self._only_a_condition(step)]
            if leaving:
                return self._classify_stop(label, (by_value or leaving)[0], integer=True, unasked=unasked)
        for step in float_path:
            if step.type == "Placeholder":
                continue
            if tape not in step.recording:
                inner = self._inner_gradient_after(step, record)
                if inner:
                    return Finding(label, "inner_gradient_outside", "the target was computed from a gradient "
                                   "asked after the tape's block had closed", _where(inner) or _where(step))
                if unasked and self._joins_as_fixed_value(path, step, tape):
                    return self._another_models(label, unasked, step)
                if step.clock < record.entered:  # a value made before the block is often meant as a constant:
                    step = self._taken_out_of_block(float_path, tape, record) or step  # the block's result used after it
                when = "before the `with` block began" if step.clock < record.entered else (
                    "after the `with` block had closed" if record.exited and step.clock > record.exited
                    else "while the tape was not recording")
                # a library's tape, or a value an object's constructor computed and kept: the innermost line
                seen_from = None if record.library or _kept_by_a_constructor(step.place, record.function) \
                    else record.function
                return Finding(label, "outside_tape", f"{step.type} ran {when}", _where(step, seen_from))
            if not _has_gradient(step, self.functions):
                return self._classify_stop(label, step, integer=False, unasked=unasked)
            if step.type in ("StopGradient", "PreventGradient"):
                return self._classify_stop(label, step, integer=False, unasked=unasked)
        for step in float_path:  # a tf.function called on the way: where the path breaks inside its graph
            graph = self.functions.get(step.type)
            if graph is not None:
                found = self._inside_function(label, step, graph, carried, ancestors, record, unasked)
                if found is not None:
                    return found
        for step in path:  # a float way exists, but it breaks where a value becomes an integer
            if any(id(t) in carried for t in step.inputs) and not any(_floating(t) for t in step.outputs) and any(
                    id(t) in ancestors for t in step.outputs):
                return self._classify_stop(label, step, integer=True, unasked=unasked)
        return None

    def _only_a_condition(self, step):
        """Whether a step's values only choose between a tf.where's branches (a condition never has a gradient)."""
        users = [(user, tensor) for tensor in step.outputs for user in self.consumers.get(id(tensor), ())]
        return bool(users) and all(user.type in _SELECT_OPS and user.inputs and user.inputs[0] is tensor
                                   for user, tensor in users)

    def _taken_out_of_block(self, float_path, tape, record):
        """The first step after the block closed that goes on with a value the block recorded, or None."""
        recorded = {id(t) for step in float_path if tape in step.recording for t in step.outputs}
        for step in float_path:
            if record.exited and step.clock > record.exited and tape not in step.recording and any(
                    id(t) in recorded for t in step.inputs):
                return step
        return None

    def _inside_function(self, label, call, graph, carried, ancestors, record, unasked):
        """Walk a traced tf.function's graph from the call's inputs that carry the source to its outputs that
        reach the target (by position: graph.inputs are the arguments, then the captures)."""
        inner = Recorder()
        operations = {}
        for op in sorted(graph.get_operations(), key=lambda op: op._id):
            operations[op._id] = op
            step = Step(op._id, op.type, list(op.inputs), list(op.outputs), graph, None, (id(record.tape),), None)
            inner.steps.append(step)
            for tensor in step.outputs:
                inner.producer[id(tensor)] = step
            for tensor in step.inputs:
                inner.consumers.setdefault(id(tensor), []).append(step)
        inner.functions = self.functions
        walk = Walk(inner)
        starts = {id(inside) for outside, inside in zip(call.inputs, graph.inputs) if id(outside) in carried}
        ends = [inside for outside, inside in zip(call.outputs, graph.outputs) if id(outside) in ancestors]
        down, _ = walk.descendants(starts)
        joined = False
        for end in ends:
            up, inner_ancestors = walk.ancestors(end)
            path = sorted(down & up, key=lambda step: step.clock)
            joined = joined or bool(path)
            if path:
                found = walk._break_on_path(label, path, starts, inner_ancestors, id(record.tape), record, unasked)
                if found is not None:
                    return found
        if not joined:  # inside, the value never reaches what the function returns: written into state instead?
            for step in sorted(down, key=lambda step: step.clock):
                if any(word in step.type for word in _STATEFUL_WORDS):
                    place = _op_place(operations[step.clock]) if step.clock in operations else None
                    return Finding(label, "stateful", f"inside the tf.function its value goes into {step.type} (state, "
                                   "with no gradient): what the function returns reads the state back, not the value",
                                   f"{place} (operation {step.type})" if place else _where(call))
        return None

    def _inner_gradient_after(self, step, record):
        """The step, when it ran inside a gradient call of a tape opened in this block, after the block closed."""
        if step.during is None or record.exited is None or step.clock < record.exited:
            return None
        inner = self.recorder.tapes.get(step.during)
        if inner is record or inner is not None and record.entered < inner.entered < record.exited:
            return step  # a tape opened in the block (or the tape itself, persistent) asked after it closed
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
                       "which the gradient call does not ask for", getattr(self, "asked_at", "") or _where(step))

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
            dropped, goes_on = self._dropped_result()
            if dropped is not None:  # an actor-critic's value loss, computed and left out of the loss
                return Finding(label, "unused", f"besides the way tf.stop_gradient keeps fixed (at {step.place}), "
                               f"its value goes into a result the target never uses ({dropped.place}); the target's "
                               "computation goes on without it here", str(goes_on or dropped.place or ""))
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

    def _dropped_result(self):
        """(a scalar the source's value reached in the tape's block that nothing used, the first step after it on
        the target's way) or (None, None): a loss term computed and left out."""
        # reached by a way a gradient could take (not through the stop_gradient, nor an argmax for a metric)
        down, _ = self.descendants(self._starts, only=lambda step: step.type not in ("StopGradient", "PreventGradient")
                                   and _has_gradient(step, self.functions))
        ends = [step for step in down if step not in self._up and self._tape in step.recording
                and step.place is not None and any(_floating(t) and t.shape.rank == 0 for t in step.outputs)
                and not any(self.consumers.get(id(t)) for t in step.outputs)]
        if not ends:
            return None, None
        dropped = max(ends, key=lambda step: step.clock)
        after = sorted((step for step in self._up if step.clock > dropped.clock and step.place is not None),
                       key=lambda step: step.clock)
        return dropped, after[0].place if after else None

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
        self._up_steps = up
        made_from_numpy = self._made_from_numpy(ordered, ancestors) if ordered else ""
        if made_from_numpy:
            return Finding(label, "left_tensorflow", "the target was computed from NumPy values made after its "
                           "value had been used: the tape cannot follow a value through NumPy", made_from_numpy)
        if not down and not _is_variable(source) and any(item is source for item, *_ in self._record.watched):
            # watched, then used by no operation: NumPy reads a tensor without one (np.asarray, np.exp)
            made = self._made_from_numpy([], ancestors)
            fed = _fed_the_array_instead(self.recorder.made.get(id(source)), made)
            if fed:
                return Finding(label, "watched_other_object", "the tape watched a tensor made from a NumPy array, but "
                               "the computation was fed the array itself", fed)
            if made:
                return Finding(label, "left_tensorflow", "no operation used the watched tensor, and the target was "
                               "computed from NumPy values that entered here: if they came from it, the tape cannot "
                               "follow a value through NumPy", made)
        if not down:
            detail = "the computation never reads it" if _is_variable(source) else "the computation never uses it"
            if unasked:
                return self._another_models(label, unasked, None)
            return Finding(label, "unused", detail, getattr(self, "asked_at", ""))
        for step in ordered:
            if step.type in _LEFT_TENSORFLOW_OPS:
                return Finding(label, "left_tensorflow", f"{step.type} runs Python code the tape cannot follow",
                               _where(step))
        for step in ordered:
            calls = set(getattr(step.place, "calls", ()) or ())
            if any(word in step.type for word in _STATEFUL_WORDS) or calls & _METRIC_CALLS:
                back = self._state_reaches(step, up)
                if back:
                    return Finding(label, "stateful", f"its value goes into {step.type} at {step.place} (state, "
                                   "with no gradient); the target reads that state back here", _where(back))
        for step in ordered:
            if any(word in step.type for word in _STATEFUL_WORDS):
                return Finding(label, "stateful", f"its value goes into {step.type}, which keeps state and has no "
                               "gradient", _where(step))
        if reached & self.recorder.gradient_targets and any(step.during is not None for step in up):
            return Finding(label, "none_is_correct", "its value reaches the target of a gradient the target is "
                           "computed from, and that gradient does not depend on it (an output bias in an input "
                           "gradient)", "")
        last = max(ordered, key=lambda step: step.clock)
        after = sorted((step for step in up if step.clock > last.clock and step.place is not None),
                       key=lambda step: step.clock)
        where = str(after[0].place) if after else ""
        return Finding(label, "unused", f"the computation reads it (last at {last.place}), but nothing it feeds "
                       "reaches the target: the target's computation goes on without it here", where)

    def _made_from_numpy(self, ordered, ancestors):
        """Where the target's computation took in a tensor made from NumPy values after the source was used."""
        first = ordered[0].clock if ordered else 0
        made = [(clock, place) for key, (tensor, place, clock) in self.recorder.leaves.items()
                if key in ancestors and clock > first and place is not None]
        # TensorFlow converts an array handed straight to an operation (tf.maximum(array, 0.0)) in C++:
        # an input no step made, an array of floats that is not the program's data
        data = getattr(self, "program_arrays", ())
        for step in self.recorder.steps:
            if step.clock <= first or step not in self._up_steps or step.place is None:
                continue
            for tensor in step.inputs:
                key = id(tensor)
                if (key in self.producer or key in self.recorder.made or not _has_value(tensor)
                        or not _floating(tensor) or tensor.shape.num_elements() in (None, 0, 1)):
                    continue
                if any(item is tensor for item in data):
                    continue
                value = tensor.numpy()
                if not any(isinstance(array, np.ndarray) and array.shape == value.shape
                           and np.array_equal(array, value) for array in data):
                    made.append((step.clock, step.place))
        if not made:
            return ""
        entered = min(made, key=lambda item: item[0])[1]
        left = _numpy_call_before(entered)
        return f"{left} (NumPy), back in TensorFlow at {entered}" if left and left != str(entered) else str(entered)

    def _state_reaches(self, step, up):
        """The first step on the way to the target that reads back the state an operation wrote, or None."""
        handles = {id(t) for t in step.inputs if _dtype_name(t) in ("resource", "variant")}
        later = sorted((other for other in up if other.clock > step.clock), key=lambda other: other.clock)
        for other in later:
            if any(id(t) in handles for t in other.inputs):
                return other
        for other in later:
            if other.type in ("IteratorGetNext", "ReadVariableOp"):
                return other
        return None

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
            if outputs_bad and not inputs_fine:  # the inf came in from off the path (r ** -1 of a constant r)
                origin = self._origin_of_bad([t for t in step.inputs if id(t) not in on_path and not _finite(t)])
                if origin is not None:
                    step, inputs_fine = origin, True
            if outputs_bad and inputs_fine and step.type == "ReadVariableOp":
                return Finding(label, ALREADY_NAN, "a Variable it reads already holds inf or NaN", _where(step))
            if outputs_bad and inputs_fine and self.functions.get(step.type) is not None:
                inside = self._bad_inside_function(label, step, target)
                if inside is not None:
                    return inside
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
        for step in valued:  # no adjoints: the first singular operation at a 0 (inside a tf.function too)
            if step.type in _SINGULAR_OPS and any(_zero_in(t) for t in step.inputs if _has_value(t)) or (
                    self.functions.get(step.type) is not None):
                found = self._infinite_derivative(label, step, path)
                if found is not None:
                    return found
        return None

    def _bad_inside_function(self, label, call, target):
        """A tf.function's call gave inf or NaN: run its graph on the same inputs (the doctor's own run) and
        find the operation inside where it first appears."""
        inner = self._valued_inside(call)
        if inner is None:
            return None
        for step in inner.recorder.steps:
            values = [t for t in step.outputs if _has_value(t)]
            if values and any(not _finite(t) for t in values) and all(
                    _finite(t) for t in step.inputs if _has_value(t)):
                later = [other for other in inner.recorder.steps if other.type in _SELECT_OPS
                         and other.clock > step.clock]
                if step.type == "ReadVariableOp":
                    return Finding(label, ALREADY_NAN, "a Variable it reads already holds inf or NaN", _where(step))
                if later and _finite(target):
                    return Finding(label, "nan_unsafe_where", f"{step.type} gives inf or NaN in the branch tf.where "
                                   "did not pick, and 0 times inf is NaN", _where(step))
                if step.type in _SINGULAR_OPS and not step.type == "Pow":
                    return Finding(label, "nan_at_zero", f"{step.type} is infinite at this input", _where(step))
                return Finding(label, "nan_overflow", f"{step.type} overflowed to inf in the forward pass",
                               _where(step))
        return None

    def _valued_inside(self, call):
        """The graph of a tf.function's call as a walk whose steps hold the values of a run on the same inputs."""
        evaluate = getattr(self, "evaluate", None)
        graph = self.functions.get(call.type)
        if evaluate is None or graph is None:
            return None
        count = len(graph.inputs) - len(graph.captures)
        tensors = [t for op in graph.get_operations() for t in op.outputs if t.dtype.is_floating]
        computed = dict(zip([id(t) for t in tensors], evaluate(graph, tensors, call.inputs[:count])))
        inner = Walk(_valued_recorder(graph, computed, call.inputs[:count]))
        inner.functions, inner.evaluate = self.functions, evaluate
        return inner

    def _origin_of_bad(self, tensors):
        """The step where a non-finite value first appeared, following its producers back."""
        seen = set()
        while tensors:
            tensor = tensors.pop(0)
            step = self.producer.get(id(tensor))
            if step is None or step in seen:
                continue
            seen.add(step)
            bad_inputs = [t for t in step.inputs if _has_value(t) and not _finite(t)]
            if not bad_inputs:
                return step
            tensors += bad_inputs
        return None

    def _start_tensors(self, source, path):
        starts = self.start_ids(source)
        return [t for step in path for t in step.inputs if id(t) in starts and _has_value(t)]

    def _infinite_derivative(self, label, step, path):
        if self.functions.get(step.type) is not None:  # inside a tf.function: its first singular operation at a 0
            inner = self._valued_inside(step)
            if inner is not None:
                for other in inner.recorder.steps:
                    if other.type in _SINGULAR_OPS and any(_zero_in(t) for t in other.inputs if _has_value(t)):
                        return inner._infinite_derivative(label, other, inner.recorder.steps)
            return None
        selects = [other for other in path if other.type in _SELECT_OPS and other.clock > step.clock]
        if selects:
            return Finding(label, "nan_unsafe_where", f"the derivative of {step.type} is infinite in the branch "
                           "tf.where did not pick, and 0 times inf is NaN", _where(step))
        return Finding(label, "nan_at_zero", f"the derivative of {step.type} is infinite at this input",
                       _where(step))


def _dtype_name(tensor):
    dtype = getattr(tensor, "dtype", None)
    return getattr(dtype, "name", "")


def _valued_recorder(graph, computed, arguments):
    """A recorder whose steps are a graph's operations with the values one run of it gave (the doctor's own run)."""
    recorder = Recorder()
    values = dict(computed)
    for placeholder, argument in zip(graph.inputs, arguments):
        values[id(placeholder)] = argument
    for external, internal in graph.captures:  # a Variable's handle: its reads start from the real one
        values[id(internal)] = external
    for op in sorted(graph.get_operations(), key=lambda op: op._id):
        inputs = [values.get(id(t), t) for t in op.inputs]
        outputs = [values.get(id(t), t) for t in op.outputs]
        step = Step(op._id, op.type, inputs, outputs, None, _op_place(op) or False, (), None)
        recorder.steps.append(step)
        for tensor in outputs:
            recorder.producer[id(tensor)] = step
        for tensor in inputs:
            recorder.consumers.setdefault(id(tensor), []).append(step)
    recorder._graph_values = values
    return recorder


def _fed_the_array_instead(made, entered):
    """`x = tf.convert_to_tensor(image)` is watched, but the line where NumPy values entered the computation
    names `image` and not `x`: that line (else "")."""
    if not made or not made[1] or not entered:
        return ""
    filename, number = made[1][0], made[1][1]
    text = linecache.getline(filename, number).split("#")[0]
    match = re.match(r"\s*([A-Za-z_]\w*)\s*=\s*[\w.]*(?:convert_to_tensor|constant|Variable)\(\s*([A-Za-z_][\w.]*)", text)
    line = re.search(r"line (\d+)", entered.split(" (NumPy)")[-1])
    if not match or not line:
        return ""
    tensor_name, array_name = match.groups()
    used = linecache.getline(filename, int(line.group(1))).split("#")[0]
    if re.search(rf"\b{re.escape(array_name)}\b", used) and not re.search(rf"\b{re.escape(tensor_name)}\b", used):
        return _code_line(filename, int(line.group(1)))
    return ""


_NUMPY_CALL = re.compile(r"\b(np|numpy)\.(?!random\.)[\w.]+\(")  # a NumPy function on values; not data made


def _numpy_call_before(place):
    """The line that called NumPy on the way to where NumPy values came back into TensorFlow: NumPy reads a
    tensor through the buffer protocol, which no Python hook sees. The nearest such line above it in its
    function, else one in the body of a function called on that line."""
    filename, number = place[0], place[1]
    lines = linecache.getlines(filename)
    if not 0 < number <= len(lines):
        return ""
    indent = len(lines[number - 1]) - len(lines[number - 1].lstrip())
    called = []
    for above in range(number, max(number - 12, 0), -1):  # a few lines up, within the function
        text = lines[above - 1]
        if _NUMPY_CALL.search(text.split("#")[0]):
            return _code_line(filename, above)
        stripped = text.lstrip()
        if stripped.startswith("def ") and len(text) - len(stripped) < indent:
            break
        called += [name for name in re.findall(r"\b([A-Za-z_]\w*)\(", text) if name not in called]
    for name in called:
        for start, text in enumerate(lines, start=1):
            if re.match(rf"\s*def {re.escape(name)}\(", text):
                depth = len(text) - len(text.lstrip())
                for inside in range(start + 1, len(lines) + 1):
                    body = lines[inside - 1]
                    if body.strip() and len(body) - len(body.lstrip()) <= depth:
                        break
                    if _NUMPY_CALL.search(body.split("#")[0]):
                        return _code_line(filename, inside)
    return ""


def _zero_in(tensor):
    if not _floating(tensor) and _dtype_name(tensor) not in ("int32", "int64"):
        return False
    try:
        return bool(np.any(np.asarray(tensor) == 0))
    except Exception:  # noqa: BLE001
        return False


def _kept_by_a_constructor(place, function):
    """Whether the way from `function` (the tape's) to this line went through an `__init__`: a value computed
    once and kept by an object, where the line to name is in the constructor, not the object's creation."""
    for filename, _, name in getattr(place, "outer", ()) or ():
        if (filename, name) == function:
            return False
        if name == "__init__":
            return True
    return False


def _where(step, function=None):
    """The step's line; seen from a tape's block (`function`), the line there that led to it."""
    if step is None:
        return ""
    place = step.place
    if place is not None and function is not None:
        place = place.nearest(function)
    suffix = f" (operation {step.type})"
    return f"{place}{suffix}" if place else f"operation {step.type}"


def _how(how):
    return {"numpy": ".numpy()", "__array__": "a NumPy function", "__float__": "float()", "__int__": "int()",
            "__index__": "int()"}.get(how, how)
