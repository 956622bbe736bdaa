"""What a student reads when something goes wrong: failed checks, and errors explained in teaching terms.

A failed check raises CheckFailed with its message. Errors raised anywhere else (a try-it cell, the
student's own function called by a check) are shown with an explanation first when they are ones a
learner of the tape meets: two dtypes in one op, a plain tape asked twice, a None where a tensor was
expected, an exercise not done yet.
"""
import re
import sys

NONE_GRADIENT_HINT = (
    "the tape recorded no path from the source to the target. Did you watch the source "
    "(tape.watch(x) for a tf.constant or any tensor that is not a trainable Variable), "
    "and is every operation from the source to the target inside the `with` block? "
    "(A function without `return` gives None too.)"
)
NESTED_TAPE_HINT = (
    "the outer tape recorded no path from the source to the inner gradient. Does the inner "
    "`gradient` call run inside the outer tape's `with` block (indented under it)? A gradient taken "
    "after the outer block has closed is a constant to the outer tape. (Is the source watched by "
    "the outer tape too?) (A function without `return` gives None too.)"
)
UNCONNECTED_HINT = (
    "the answer is zeros of the source's shape: the target does not depend on this source, and for such a "
    "source tape.gradient returns None unless you pass unconnected_gradients=tf.UnconnectedGradients.ZERO."
)
NONE_VALUE_HINT = "did the function `return` its result?"


class CheckFailed(AssertionError):
    """A check that failed; the message says what is wrong in teaching terms."""


# (exception type name, pattern of its message, the explanation; {0}, {1}... are the pattern's groups)
EXPLANATIONS = [
    ("InvalidArgumentError",
     r"cannot compute (\w+) as input #\d+\(zero-based\) was expected to be a (\w+) tensor but is a (\w+) tensor",
     "Two tensors of different dtypes met in one operation ({0}): a {1} and a {2} (in TensorFlow's names, "
     "'float' is float32 and 'double' is float64). TensorFlow never converts between them for you. Make "
     "every tensor of the computation the same dtype: create them with tf.convert_to_tensor(value, "
     "dtype=x.dtype), or tf.cast one of them. (A NumPy array or np.float64 is float64; a Python float "
     "becomes float32.)"),
    ("InvalidArgumentError",
     r"Input to reshape is a tensor with 1 values, but the requested shape has (\d+)",
     "One number came where {0} were expected. If this comes from tape.gradient(..., output_gradients=...): "
     "a Python list there is read as one entry per target, so with one target only its first element is "
     "used. Pass one tensor shaped like the target: tf.constant(v, dtype=y.dtype)."),
    ("RuntimeError",
     r"non-persistent GradientTape can only be used to compute one set of gradients",
     "A plain tape answers one gradient (or jacobian) call and then frees its record. Ask for every source "
     "in one call (a list or a dict of sources), record on two tapes at once, or create the tape with "
     "persistent=True and ask it as often as you need."),
    ("ValueError",
     r"(?s)Passed in object <Variable path=.* of type 'Variable', not tf.Tensor",
     "tape.watch cannot take a Keras 3 variable (a layer's weight) itself: watch the tf.Variable underneath, "
     "tape.watch(v.value), or for a layer tape.watch([v.value for v in layer.trainable_variables])."),
    ("AttributeError",
     r"'str' object has no attribute 'is_floating'",
     "If this came from tf.autodiff.ForwardAccumulator: a Keras 3 variable (a layer's weight) was given as a primal, "
     "and the accumulator cannot read its dtype. Give it the tf.Variable underneath: "
     "primals=[v.value for v in model.trainable_variables], with the tangents in the same order."),
    ("TypeError",
     r"(?s)Expected tensor .* with dtype tf\.(\w+), but got dtype tf\.(\w+)\.",
     "tf.constant(x, dtype=tf.{0}) got a tensor that is already {1}: tf.constant never changes a tensor's "
     "dtype. Keep the dtype you were given (x = tf.convert_to_tensor(x) works for a Python float, a NumPy "
     "array and a tensor of any dtype, and the answer then has the input's dtype), or change it on "
     "purpose with tf.cast(x, tf.{0})."),
    ("ValueError",
     r"Passed in object .* of type '(\w+)', not tf.Tensor",
     "tape.watch needs a tensor, and this is a Python {0}. Convert it first: "
     "x = tf.convert_to_tensor(x), then tape.watch(x), and compute from that x."),
    ("ValueError",
     r"Attempt to convert a value \(None\)",
     "A value that should be a tensor is None. Either a function returned nothing (did it `return` its "
     "result?), or a gradient came back None because the tape recorded no path from the source to the "
     "target (was the source watched, and did every operation run inside the `with` block?)."),
    ("TypeError",
     r"'NoneType' object is not (?:subscriptable|iterable)|cannot unpack non-iterable NoneType object",
     "A value that should be a result is None: did the function `return` it? (A gradient can be None "
     "too: when the tape recorded no path from the source to the target.)"),
    ("TypeError",
     r"Argument `target` should be a list or nested structure of Tensors.*but received None",
     "tape.gradient was asked for the gradient of None: the target is None. A function returned nothing, or a "
     "gradient came back None one step earlier (for a higher derivative: did the inner `gradient` call run "
     "inside the outer tape's `with` block, and did the tapes watch the source?)."),
    ("TypeError",
     r"unsupported operand type\(s\) for [^:]+: '\w+' and 'NoneType'|unsupported operand type\(s\) for [^:]+: "
     r"'NoneType' and '\w+'",
     "A value that should be a tensor is None, and arithmetic met it: did a function `return` its result, or did a "
     "gradient come back None (the tape recorded no path from the source to the target)?"),
    ("AttributeError",
     r"'NoneType' object has no attribute '(\w+)'",
     "A value that should be a tensor is None, so it has no .{0}: did a function `return` its result, or did "
     "a gradient come back None (the tape recorded no path from the source to the target)?"),
    ("AttributeError",
     r"'str' object has no attribute '_type_enum'",
     "unconnected_gradients=ZERO cannot make zeros for a Keras 3 Variable (its dtype is the string 'float32'). "
     "Ask without ZERO and put zeros in place of each None yourself: [tf.zeros_like(v) if g is None else g "
     "for g, v in zip(grads, variables)], or pass [v.value for v in variables], the tf.Variables underneath."),
    ("ValueError",
     r"custom_gradient function expected to return (\d+) gradients, but returned (\d+) instead",
     "A @tf.custom_gradient function's grad_fn returns one gradient per tensor argument of the decorated function: "
     "{0} here, but it returned {1}. A setting passed as an argument (a λ, a max_norm) counts too, even as a Python "
     "float. Keep settings out of the arguments (define the decorated function inside another function, so it sees "
     "them), or return None as their gradient: `return upstream * slope, None`."),
    ("LookupError",
     r"gradient registry has no entry for: (\w+)",
     "The operation {0} has no gradient in TensorFlow, so the tape cannot differentiate through it. If you know its "
     "derivative, give it one: wrap the computation in a function decorated with @tf.custom_gradient that returns "
     "(value, grad_fn), where grad_fn(upstream) returns upstream pushed through the derivative."),
    ("ValueError",
     r"No gradients provided for any variable",
     "The optimizer got None for every gradient: the tape recorded no path from the loss to the variables. Is the "
     "loss computed inside the tape's `with` block (the model called there too), and are the gradients asked for "
     "the Variables the model really uses (model.trainable_variables, after the model is built)?"),
    ("AttributeError",
     r"'[\w.]*EagerTensor' object has no attribute '_unique_id'",
     "optimizer.apply_gradients got a tensor where a Variable belongs: it takes (gradient, variable) pairs, in that "
     "order. Write zip(grads, variables), not zip(variables, grads)."),
    ("AttributeError",
     r"'numpy\.dtypes\.\w+' object has no attribute 'is_floating'",
     "tf.autodiff.ForwardAccumulator needs tensors as its primals, and this is a NumPy array (or a NumPy number). "
     "Convert it first: x = tf.convert_to_tensor(x), give that x to the accumulator, and compute from that same x "
     "inside the accumulator's `with` block."),
    ("ValueError",
     r"Tensor conversion requested dtype (\w+) for Tensor with dtype (\w+)",
     "A {1} tensor was given where a {0} one was needed, and TensorFlow never converts between them for you. "
     "Cast it (tf.cast) or create it with the right dtype. (The tangents of a ForwardAccumulator must have the "
     "dtype of their primals: tf.convert_to_tensor(v, dtype=x.dtype).)"),
    ("AttributeError",
     r"^'(float|int)' object has no attribute 'dtype'$",
     "A Python {0} came where a tensor was expected. With a tape this is most often tape.gradient given a "
     "Python number as its target or source: a Python number is not recorded. Convert the input first, "
     "x = tf.convert_to_tensor(x), watch that x, and compute the target from it inside the `with` block."),
    ("NameError",
     r"^name '(\w+)' is not defined$",
     "Python does not know `{0}` yet. If a cell above defines it (an exercise's function, a demo's variable), "
     "run that cell first: the kernel knows only the cells that ran since it started, so after a restart or "
     "on reopening the notebook, run the cells above again (Run > Run All Above Selected Cell). "
     "Otherwise, check its spelling."),
    ("NotImplementedError",
     r"^$",
     "This exercise is not done yet: in its function, replace the line that raises NotImplementedError "
     "with your code, run that cell, then run this one again."),
]


def explain_error(error):
    """The teaching explanation of an error a learner of the tape meets, or None for any other error."""
    names = {cls.__name__ for cls in type(error).__mro__}
    message = str(error)
    for name, pattern, explanation in EXPLANATIONS:
        match = re.search(pattern, message)
        if name in names and match:
            return explanation.format(*match.groups())
    return None


class ExplainedError(Exception):
    """An error shown with its explanation first, then what Python or TensorFlow said."""


def _without_helper_frames(tb):
    """The traceback cut where the course's helper that raised it begins: a failed check shows the line of
    the check cell (or of the student's code) that failed, then its message, not the checks' own code."""
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    helper = frames[-1].tb_frame.f_code.co_filename  # the setup cell, or the helper module outside a notebook
    shown = 0
    while shown < len(frames) and frames[shown].tb_frame.f_code.co_filename != helper:
        shown += 1
    if shown == 0:
        return frames[0]
    frames[shown - 1].tb_next = None
    return frames[0]


def _show_explained(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception handler: a failed check without the helpers' frames, known errors
    with their explanation, others as usual."""
    if issubclass(etype, CheckFailed):
        shell.showtraceback((etype, value, _without_helper_frames(tb)), tb_offset=tb_offset)
        return
    explanation = explain_error(value)
    if explanation is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    else:
        said = f"{etype.__name__}: {value}" if str(value) else etype.__name__
        # Not chained to the original (its message is quoted): a chained traceback would print the
        # original first, and Validate's dialog would open on it instead of on the explanation.
        explained = ExplainedError(f"{explanation}\n({said})")
        shell.showtraceback((ExplainedError, explained, tb), tb_offset=tb_offset)


def explain_errors_in_notebook():
    """Show failed checks without the helpers' frames, and the errors of EXPLANATIONS with their
    explanation, in every cell (in IPython only)."""
    try:
        shell = get_ipython()  # noqa: F821 (defined inside IPython)
    except NameError:
        return
    if shell is None:  # plain Python (the grader's judge)
        return
    exception_types = (CheckFailed, *{base for name, _, _ in EXPLANATIONS for base in _exception_types(name)})
    shell.set_custom_exc(exception_types, _show_explained)


def _exception_types(name):
    """The exception classes named `name`: built-ins, and TensorFlow's errors when it is loaded."""
    import builtins

    if hasattr(builtins, name):
        return [getattr(builtins, name)]
    tf = sys.modules.get("tensorflow")
    return [getattr(tf.errors, name)] if tf is not None and hasattr(tf.errors, name) else []


explain_errors_in_notebook()
