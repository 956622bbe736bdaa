"""The gradient doctor: says why a gradient came back None or NaN, and how to fix it.

Two ways to call it:

    gradient_doctor(compute, sources)   # a computation: compute(*sources) returns the target
    with tape_doctor():                 # tape code as written: every gradient call in the block
        ...

Each finding names one of the causes in CAUSES (the None-gradient lab's list), the source it is
about, and the line or operation where the path breaks when that can be found.
"""
import collections

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
