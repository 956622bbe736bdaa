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
        "the computation never used this variable (a layer defined but never called, another model's variable)",
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
        "nothing to fix; pass unconnected_gradients=tf.UnconnectedGradients.ZERO if you want zeros"),
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


class Diagnosis:
    """What the doctor found: `findings` (one per broken source), `causes` (their codes), `connected`."""

    def __init__(self, findings, sources_seen):
        self.findings = list(findings)
        self.sources_seen = sources_seen

    @property
    def causes(self):
        return [finding.cause for finding in self.findings]

    @property
    def connected(self):
        return not self.findings

    def __str__(self):
        if not self.findings:
            return f"connected: every gradient ({self.sources_seen}) is a finite tensor."
        return "\n".join(str(finding) for finding in self.findings)

    __repr__ = __str__

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


# ---------------------------------------------------------------- where in the learner's code

_OWN_FILE = sys._getframe().f_code.co_filename  # this module, or the setup cell it was copied into
_LIBRARIES = tuple({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")})


def _learner_file(filename):
    """True for the learner's code (a notebook cell, a script), False for Python, libraries and the doctor."""
    if filename == _OWN_FILE or filename.startswith("<frozen"):
        return False
    return not (filename.startswith(_LIBRARIES) or "/site-packages/" in filename or "/dist-packages/" in filename)


def _line(filename, lineno):
    text = linecache.getline(filename, lineno).strip()
    return f"line {lineno}: {text}" if text else f"line {lineno}"


def _learner_frame(frame):
    """The nearest frame of the learner's code at or above `frame`, or None."""
    while frame is not None and not _learner_file(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def _name(source, index):
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


def _finite(value):
    try:
        return bool(np.all(np.isfinite(np.asarray(value))))
    except (TypeError, ValueError, NotImplementedError):
        return True  # a symbolic tensor (under tf.function): no values to look at


def _flatten(sources):
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

    named = _flatten(sources)
    if not isinstance(sources, dict):
        try:
            parameters = list(inspect.signature(compute).parameters)
        except (TypeError, ValueError):
            parameters = []
        if len(parameters) == len(named):
            named = [(parameters[index], value) for index, value in named]
    names = [_name(value, key) for key, value in named]
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
        target = _call(compute, sources)
    if target is None:
        return Diagnosis([Finding("the target", "no_target", "compute(...) returned None", "")], "")
    if not tf.is_tensor(target):
        findings = [f for f in findings if f.cause != "not_watched"]
        breaks = _trace_breaks(compute, sources, named)
        detail = f"compute(...) returned a {type(target).__name__}, not a tensor"
        return Diagnosis(breaks or [Finding("the target", "left_tensorflow", detail, "")], "")
    if _is_integer(target):
        return Diagnosis([Finding("the target", "integer_dtype", f"the target's dtype is {target.dtype.name}", "")], "")
    found = {finding.source for finding in findings}
    broken = []
    for name, (_, value) in zip(names, named):
        if name in found or not (tf.is_tensor(value) or _is_variable(value)):
            continue
        gradient = tape.gradient(target, _raw_variable(value) if _is_variable(value) else value)
        if gradient is None:
            broken.append((name, value, "none"))
        elif not _finite(tf.convert_to_tensor(gradient)):
            broken.append((name, value, "nan"))
    del tape
    if broken:
        findings += _graph_findings(compute, sources, named, names, broken, target)
    return Diagnosis(findings, ", ".join(str(name) for name in names))


def _call(compute, sources):
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
            return f"{_line(frame.filename, frame.lineno)} (operation {op.type})"
    return f"operation {op.type} ({op.name})"


def _trace_breaks(compute, sources, named):
    """Findings from tracing compute into a graph when that fails because a value left TensorFlow."""
    import tensorflow as tf

    symbolic = _symbolic_sources(sources)
    try:
        tf.function(lambda *args: _call(compute, symbolic(args)), autograph=False).get_concrete_function(
            *[value for _, value in named if tf.is_tensor(value) and not _is_variable(value)])
    except Exception as error:  # noqa: BLE001 (any failure to trace is a clue, never the doctor's crash)
        message = f"{type(error).__name__}: {error}"
        if re.search(r"numpy|symbolic|SymbolicTensor|eager execution|float\(\)|int\(\)", message):
            where = ""
            for frame in reversed(traceback.extract_tb(error.__traceback__)):
                if _learner_file(frame.filename):
                    where = _line(frame.filename, frame.lineno)
                    break
            return [Finding("the target", "left_tensorflow", message.splitlines()[0][:160], where)]
    return []


def _symbolic_sources(sources):
    """A function that rebuilds `sources` with the traced arguments in place of its tensors (not Variables)."""
    import tensorflow as tf

    items = _flatten(sources)

    def rebuild(arguments):
        arguments = list(arguments)
        values = [arguments.pop(0) if tf.is_tensor(value) and not _is_variable(value) else value for _, value in items]
        if isinstance(sources, dict):
            return dict(zip(sources, values))
        if isinstance(sources, (list, tuple)):
            return type(sources)(values) if isinstance(sources, list) else tuple(values)
        return values[0]
    return rebuild


def _graph_findings(compute, sources, named, names, broken, eager_target):
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
        target = tf.convert_to_tensor(_call(compute, symbolic(arguments)))
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
            notes[name] = {"ancestors": ancestors, "descendants": descendants, "starts": starts.get(name, [])}
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
    except Exception as error:  # noqa: BLE001
        detail = f"the doctor could not follow the computation into a graph ({type(error).__name__}: {str(error)[:120]})"
        return [Finding(name, "not_differentiable" if kind == "none" else "nan_at_zero", detail, "") for name, _, kind in broken]
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
    if not path:
        return Finding(name, "none_is_correct", "the computation reads it, but nothing it feeds reaches the target",
                       "")
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
        if any(a is not None and not _finite(a) for a in outputs):
            continue
        inputs = [t for t in op.inputs if id(t) in adjoints and adjoints[id(t)] is not None]
        if not any(not _finite(adjoints[id(t)]) for t in inputs):
            continue
        output_values = [values.get(id(t)) for t in op.outputs if id(t) in values]
        overflowed = any(v is not None and not _finite(v) for v in output_values)
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
