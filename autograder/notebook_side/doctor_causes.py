"""The gradient doctor's words: the causes of a None or NaN gradient, and the findings that name them."""
import collections

Cause = collections.namedtuple("Cause", "title fix")

# The fixed list of causes: the None-gradient lab asks learners to name them, and the doctor names them too.
# Each fix changes only what is wrong: it never trains a part the program keeps fixed, nor silences a None.
CAUSES = {
    "outside_tape": Cause(
        "part of the computation ran outside the tape (before or after the `with` block, or inside the gradient call)",
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
        "ask for the variables of the part the loss trains; if this part should learn too, make the loss use "
        "its output (or call the layer)"),
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
        "if it should learn, create it with trainable=True (or watch it: tape.watch(v), and tape.watch(v.value) "
        "for a Keras Variable); if it is a constant, None is intended"),
    "stateful": Cause(
        "a stateful step on the path (assign or assign_add, a dataset iterator, a Keras metric used as the loss)",
        "keep the path from the sources to the target made of plain operations: compute the loss as a tensor"),
    "inner_gradient_outside": Cause(
        "the inner gradient was taken after the outer tape's `with` block had closed",
        "call inner_tape.gradient(...) inside the outer `with` block"),
    "none_is_correct": Cause(
        "None is the right answer: the target does not depend on this source's value (a critic's output "
        "bias does not appear in its input gradient, a part stopped or frozen on purpose)",
        "nothing to fix; where an optimizer needs a number, put tf.zeros_like(v) in its place "
        "(unconnected_gradients=ZERO fails on Keras 3 Variables in TensorFlow 2.21)"),
    "no_target": Cause(
        "the target is None: the code that computes it returned nothing",
        "`return` the result from the function that computes the target"),
    "nan_at_zero": Cause(
        "an infinite derivative at the point (sqrt or a norm at 0, log or 1/x at 0) made the gradient NaN or inf",
        "keep that operation's input away from its singular point (tf.sqrt(s + 1e-12), tf.math.log(p + 1e-12)), "
        "or use the safe function (tf.math.log_softmax, tf.nn.l2_normalize)"),
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
    """What the doctor found: `findings` (one per broken source), `causes` (their codes), `connected`.

    `connected` is true only when gradients were asked for and every one came back a finite tensor.
    """

    findings = ()
    asked = 0  # how many gradients the doctor saw come back
    unchecked = 0  # gradients asked inside a tf.function whose values the doctor could not check
    already_nan = ()  # findings (not causes) of a NaN that a Variable held before the doctor saw it made
    error = None  # the exception the block raised, if any

    @property
    def causes(self):
        return [finding.cause for finding in self.findings]

    @property
    def connected(self):
        return (not self.findings and self.asked > 0 and self.error is None and not self.unchecked
                and not self.already_nan)

    def all_well(self):
        return "connected: every gradient is a finite tensor."

    def __str__(self):
        if self.findings:
            return "\n".join(str(finding) for finding in self.findings)
        if self.error is not None:
            return (f"no finding: the block raised {type(self.error).__name__} before any gradient came back "
                    f"None or NaN ({str(self.error).splitlines()[0][:160] if str(self.error) else 'no message'}).")
        if not self.asked:
            return "no finding: no gradient was asked for in the block."
        if self.already_nan:
            first = self.already_nan[0]
            return (f"no finding: the gradient for {first.source} is NaN or inf because a Variable it reads already "
                    f"holds NaN or inf ({first.where}): an earlier update wrote them, out of the doctor's sight. Run "
                    "the doctor around the first step whose loss or gradient turned NaN, from weights that are "
                    "still finite.")
        if self.unchecked:
            return (f"no finding, but {self.unchecked} gradient(s) were computed inside a tf.function (model.fit's "
                    "train step, say) whose values the doctor could not check: run it eagerly "
                    "(tf.config.run_functions_eagerly(True), or compile(run_eagerly=True)) to have them checked.")
        return self.all_well()

    __repr__ = __str__

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))
