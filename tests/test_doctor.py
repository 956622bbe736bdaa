"""The gradient doctor names the right cause for each kind of broken tape code, and stays quiet on working code.

Each case is tape code as a learner writes it: tape_doctor must name its cause (the code of CAUSES);
gradient_doctor must do the same for a computation. Several cases are variations of one cause
written differently, so the doctor does not depend on one spelling.
"""
import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

from autograder.notebook_side.doctor import CAUSES, gradient_doctor, tape_doctor  # noqa: E402


# ---------------------------------------------------------------- tape code as written

def outside_after_block():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        prediction = v * 2.0
    loss = tf.square(prediction - 1.0)
    return tape.gradient(loss, v)


def outside_inside_the_call():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    return tape.gradient(tf.sin(x), x)


def outside_negated_loss():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with tf.GradientTape() as tape:
        score = tf.reduce_mean(model(tf.ones((3, 2))))
    return tape.gradient(-score, model.trainable_variables)


def generator_outside_its_tape():
    generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
    fake = generator(tf.ones((4, 2)))
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(fake)
    return tape.gradient(loss, generator.trainable_variables)


def numpy_inside():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.convert_to_tensor(np.sum(v.numpy() ** 2))
    return tape.gradient(y, v)


def numpy_function_inside():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        squared = np.square(v)
        y = tf.reduce_sum(tf.constant(squared))
    return tape.gradient(y, v)


def python_float_inside():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.constant(float(v * v))
    return tape.gradient(y, v)


def predict_inside():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(model.predict(np.ones((2, 2)), verbose=0))
    return tape.gradient(y, model.trainable_variables)


def constant_not_watched():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)


def target_and_source_swapped():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(x, y)


def variable_and_loss_swapped():
    w = tf.Variable([1.0, -2.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w ** 2)
    return tape.gradient(w, loss)


def list_of_constants_not_watched():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        z = a * b
    return tape.gradient(z, [a, b])


def watched_after_use():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
        tape.watch(x)
    return tape.gradient(y, x)


def watched_after_use_through_a_function():
    inputs = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.exp(inputs))
        tape.watch(inputs)
    return tape.gradient(total, inputs)


def rebound_after_watch():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        x = tf.constant(4.0)
        y = x * x
    return tape.gradient(y, x)


def demo_4_order():
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    real, fake = tf.ones((3, 2)), tf.zeros((3, 2))
    interpolate = tf.zeros((3, 2))
    with tf.GradientTape() as inner:
        inner.watch(interpolate)
        interpolate = 0.5 * real + 0.5 * fake
        score = critic(interpolate)
    return inner.gradient(score, interpolate)


def fed_the_numpy_array():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    x_np = np.array([[1.0, 2.0]], dtype=np.float32)
    x = tf.convert_to_tensor(x_np)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x_np)
    return tape.gradient(y, x)


def model_variables_with_batchnorm():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3), keras.layers.BatchNormalization(),
                              keras.layers.Dense(1)])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(model(tf.ones((4, 2)), training=True))
    return tape.gradient(y, model.variables)


def list_taken_before_build():
    class Model(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)
    model = Model()
    variables = model.trainable_variables
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(model(tf.ones((2, 2))))
    return tape.gradient(y, variables)


def layer_never_called():
    used, forgotten = keras.layers.Dense(2), keras.layers.Dense(1)
    used.build((None, 2))
    forgotten.build((None, 2))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(used(tf.ones((1, 2))))
    return tape.gradient(y, used.trainable_variables + forgotten.trainable_variables)


def auxiliary_head_left_out():
    inputs = keras.Input((2,))
    hidden = keras.layers.Dense(3, activation="tanh")(inputs)
    model = keras.Model(inputs, [keras.layers.Dense(1)(hidden), keras.layers.Dense(1)(hidden)])
    with tf.GradientTape() as tape:
        main, aux = model(tf.ones((4, 2)))
        loss = tf.reduce_mean((main - 1.0) ** 2)
    return tape.gradient(loss, model.trainable_variables)


def argmax_in_loss():
    v = tf.Variable([1.0, 3.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.cast(tf.argmax(v), tf.float32)
    return tape.gradient(y, v)


def rounding():
    v = tf.Variable([0.4, 1.6])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.round(v) * 2.0)
    return tape.gradient(y, v)


def comparison_cast_to_float():
    v = tf.Variable([0.2, 0.7])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.cast(tf.greater(v, 0.5), tf.float32))
    return tape.gradient(y, v)


def integer_source():
    x = tf.constant(10)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def cast_through_integers():
    v = tf.Variable([1.5, 2.5])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.cast(tf.cast(v, tf.int32), tf.float32))
    return tape.gradient(y, v)


def variable_replaced_by_update():
    w = tf.Variable(2.0)
    gradients = []
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = (w - 1.0) ** 2
        grad = tape.gradient(loss, w)
        gradients.append(grad)
        if grad is not None:
            w = w - 0.1 * grad
    return gradients


def not_trainable():
    scale = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        y = scale * scale
    return tape.gradient(y, scale)


def assign_add_hop():
    x0, x1 = tf.Variable(3.0), tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    return tape.gradient(y, x0)


def dataset_iterator_hop():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = next(iter(tf.data.Dataset.from_tensors(v * 3.0)))
    return tape.gradient(y, v)


def metric_as_loss():
    v = tf.Variable(2.0)
    mean = keras.metrics.Mean()
    with tf.GradientTape() as tape:
        mean.update_state(v * v)
        loss = mean.result()
    return tape.gradient(loss, v)


def inner_gradient_after_outer_block():
    w = tf.Variable([[1.0], [2.0]])
    x = tf.constant([[0.5, 0.2]])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            d = x @ w
    slope = inner.gradient(d, x)
    penalty = (tf.norm(slope) - 1.0) ** 2
    return outer.gradient(penalty, w)


def output_bias_of_a_penalty():
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    x = tf.constant([[0.5, 0.2]])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            d = critic(x)
        slope = inner.gradient(d, x)
        penalty = (tf.sqrt(tf.reduce_sum(slope ** 2) + 1e-12) - 1.0) ** 2
    return outer.gradient(penalty, critic.trainable_variables)


def norm_at_zero():
    x = tf.constant([0.0, 0.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.norm(x)
    return tape.gradient(y, x)


def sqrt_of_sum_at_zero():
    g = tf.Variable([0.0, 0.0, 0.0])
    with tf.GradientTape() as tape:
        slope = tf.sqrt(tf.reduce_sum(tf.square(g)))
    return tape.gradient(slope, g)


def unsafe_where():
    x = tf.constant([0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.where(x > 0, tf.math.log(x), 0.0))
    return tape.gradient(y, x)


def softplus_by_hand():
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log(1.0 + tf.exp(x))
    return tape.gradient(y, x)


def no_return():
    x = tf.constant(3.0)

    def square(x):
        x * x
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = square(x)
    return tape.gradient(y, x)


BROKEN_TAPE_CODE = {
    outside_after_block: "outside_tape",
    outside_inside_the_call: "outside_tape",
    outside_negated_loss: "outside_tape",
    generator_outside_its_tape: "outside_tape",
    numpy_inside: "left_tensorflow",
    numpy_function_inside: "left_tensorflow",
    python_float_inside: "left_tensorflow",
    predict_inside: "left_tensorflow",
    constant_not_watched: "not_watched",
    list_of_constants_not_watched: "not_watched",
    target_and_source_swapped: "swapped",
    variable_and_loss_swapped: "swapped",
    watched_after_use: "watched_too_late",
    watched_after_use_through_a_function: "watched_too_late",
    rebound_after_watch: "watched_other_object",
    demo_4_order: "watched_other_object",
    fed_the_numpy_array: "watched_other_object",
    model_variables_with_batchnorm: "wrong_variables",
    list_taken_before_build: "wrong_variables",
    layer_never_called: "unused",
    auxiliary_head_left_out: "unused",
    argmax_in_loss: "not_differentiable",
    rounding: "not_differentiable",
    comparison_cast_to_float: "not_differentiable",
    integer_source: "integer_dtype",
    cast_through_integers: "integer_dtype",
    variable_replaced_by_update: "variable_replaced",
    not_trainable: "not_trainable",
    assign_add_hop: "stateful",
    dataset_iterator_hop: "stateful",
    metric_as_loss: "stateful",
    inner_gradient_after_outer_block: "inner_gradient_outside",
    output_bias_of_a_penalty: "none_is_correct",
    norm_at_zero: "nan_at_zero",
    sqrt_of_sum_at_zero: "nan_at_zero",
    unsafe_where: "nan_unsafe_where",
    softplus_by_hand: "nan_overflow",
    no_return: "no_target",
}


def test_every_cause_has_a_case():
    assert set(BROKEN_TAPE_CODE.values()) == set(CAUSES)


@pytest.mark.parametrize("snippet, cause", BROKEN_TAPE_CODE.items(), ids=[f.__name__ for f in BROKEN_TAPE_CODE])
def test_tape_doctor_names_the_cause(snippet, cause):
    with tape_doctor(report=False) as doctor:
        try:
            snippet()
        except TypeError:  # a None target: TensorFlow raises after the doctor has seen it
            assert cause == "no_target"
    assert doctor.causes, f"{snippet.__name__}: the doctor found nothing"
    assert set(doctor.causes) == {cause}, f"{snippet.__name__}:\n{doctor}"
    assert f": {cause}: " in str(doctor)


@pytest.mark.parametrize("snippet", [target_and_source_swapped, variable_and_loss_swapped])
def test_swapped_arguments_are_named_without_the_observer_tape_too(snippet):
    """The checks run the doctor without its observer tape: a swap is then recognised from the block's record."""
    with tape_doctor(report=False, observe=False) as doctor:
        snippet()
    assert doctor.causes == ["swapped"], str(doctor)


def test_a_source_made_before_the_block_is_not_called_swapped():
    x = tf.constant(3.0)
    y = x * 2.0
    with tape_doctor(report=False, observe=False) as doctor:
        with tf.GradientTape() as tape:
            tape.watch(x)
            x * x
        tape.gradient(x, y)
    assert doctor.causes == ["not_watched"], str(doctor)


def test_tape_doctor_points_at_the_line():
    with tape_doctor(report=False) as doctor:
        rounding()
    assert "tf.math.round(v)" in doctor.findings[0].where
    with tape_doctor(report=False) as doctor:
        watched_after_use()
    assert doctor.findings[0].where.endswith("y = x * x")


# ---------------------------------------------------------------- working code: no false alarm

def persistent_tape_two_targets():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient(y, x), tape.gradient(z, x)


def nested_second_derivative():
    x = tf.Variable(1.5)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.tanh(x)
        dy = inner.gradient(y, x)
    return outer.gradient(dy, x)


def keras_training_step():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.1)
    x, y = tf.random.normal((8, 3)), tf.random.normal((8, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


def vector_jacobian_product():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x)
    return tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5, 0.0]))


def full_jacobian():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stack([x[0] * x[1], x[0] + x[1]])
    return tape.jacobian(y, x)


def safe_penalty():
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    x = tf.constant([[0.0, 0.0]])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            d = critic(x)
        slope = inner.gradient(d, x)
        penalty = (tf.sqrt(tf.reduce_sum(slope ** 2) + 1e-12) - 1.0) ** 2
    return outer.gradient(penalty, critic.trainable_variables[0])


def under_tf_function():
    @tf.function
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x ** 3
        return tape.gradient(y, x)
    return slope(tf.constant(2.0))


WORKING_TAPE_CODE = [persistent_tape_two_targets, nested_second_derivative, keras_training_step,
                     vector_jacobian_product, full_jacobian, safe_penalty, under_tf_function]


@pytest.mark.parametrize("snippet", WORKING_TAPE_CODE, ids=[f.__name__ for f in WORKING_TAPE_CODE])
def test_tape_doctor_raises_no_false_alarm(snippet):
    with tape_doctor(report=False) as doctor:
        snippet()
    assert doctor.findings == [], str(doctor)
    assert str(doctor).startswith("connected")


def test_tape_doctor_changes_no_result():
    with tape_doctor(report=False):
        watched = persistent_tape_two_targets()
    np.testing.assert_allclose([g.numpy() for g in watched], [4.0, 32.0])


# ---------------------------------------------------------------- a computation: gradient_doctor

_counter = tf.Variable(0.0)
_frozen = tf.Variable(3.0, trainable=False)


def _metric_loss(x):
    mean = keras.metrics.Mean()
    mean.update_state(tf.reduce_sum(x ** 2))
    return mean.result()


COMPUTATIONS = {
    "numpy": (lambda x: tf.constant(x.numpy() ** 2), [1.0, 2.0], "left_tensorflow"),
    "python float": (lambda x: tf.constant(float(x[0])) * 2.0, [1.0, 2.0], "left_tensorflow"),
    "numpy sum": (lambda x: tf.convert_to_tensor(np.sum(x ** 2)), [1.0, 2.0], "left_tensorflow"),
    "argmax": (lambda x: tf.cast(tf.argmax(x), tf.float32), [1.0, 2.0], "not_differentiable"),
    "round": (lambda x: tf.reduce_sum(tf.round(x)), [1.0, 2.0], "not_differentiable"),
    "comparison": (lambda x: tf.reduce_sum(tf.cast(x > 1.5, tf.float32)), [1.0, 2.0], "not_differentiable"),
    "cast to int": (lambda x: tf.reduce_sum(tf.cast(tf.cast(x, tf.int32), tf.float32)), [1.5, 2.5], "integer_dtype"),
    "norm at zero": (lambda x: tf.norm(x), [0.0, 0.0], "nan_at_zero"),
    "unsafe where": (lambda x: tf.reduce_sum(tf.where(x > 0, tf.math.log(x), 0.0)), [0.0, 1.0], "nan_unsafe_where"),
    "overflow": (lambda x: tf.math.log(1 + tf.exp(x)), 100.0, "nan_overflow"),
    "assign_add": (lambda x: (_counter.assign_add(tf.reduce_sum(x)), _counter ** 2)[1], [1.0], "stateful"),
    "iterator": (lambda x: next(iter(tf.data.Dataset.from_tensors(x * 3.0))), [1.0], "stateful"),
    "metric": (_metric_loss, [1.0, 2.0], "stateful"),
    "no return": (lambda x: None, [1.0], "no_target"),
}


@pytest.mark.parametrize("name", COMPUTATIONS)
def test_gradient_doctor_names_the_cause(name):
    compute, point, cause = COMPUTATIONS[name]
    diagnosis = gradient_doctor(compute, tf.constant(point))
    assert diagnosis.causes == [cause], f"{name}:\n{diagnosis}"


def test_gradient_doctor_on_variables_and_models():
    assert gradient_doctor(lambda: _frozen * 2.0, _frozen).causes == ["not_trainable"]
    assert gradient_doctor(lambda x: x * x, tf.constant(3)).causes == ["integer_dtype"]
    assert gradient_doctor(lambda x, y: y * 2.0, [tf.constant(1.0), tf.constant(2.0)]).causes == ["unused"]
    assert gradient_doctor(lambda x, y: (tf.sin(x), y * 2.0)[1], [tf.constant(1.0), tf.constant(2.0)]).causes == ["unused"]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    predicted = gradient_doctor(lambda x: model.predict(x[None], verbose=0), tf.constant([1.0, 2.0]))
    assert predicted.causes == ["left_tensorflow"] and "model.predict" in predicted.findings[0].where
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])

    def penalty():
        x = tf.constant([[0.5, 0.2]])
        with tf.GradientTape() as tape:
            tape.watch(x)
            d = critic(x)
        slope = tape.gradient(d, x)
        return tf.reduce_mean((tf.sqrt(tf.reduce_sum(slope ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    diagnosis = gradient_doctor(penalty, critic.trainable_variables)
    assert diagnosis.causes == ["none_is_correct"] and diagnosis.findings[0].source.endswith("bias")


def test_gradient_doctor_calls_a_loss_with_defaults_as_the_program_does():
    """loss(margin=0.3) is called as loss(): four sources do not fit its one parameter, so they are not passed."""
    w, b = tf.Variable([[0.5], [-1.0]]), tf.Variable([0.1])
    features = tf.constant([[1.0, 2.0], [3.0, -1.0]])

    def loss(margin=0.3):
        return tf.reduce_mean(tf.nn.relu(features @ w + b + margin))

    assert gradient_doctor(loss, [w, b]).connected
    assert gradient_doctor(lambda x, y=2.0: x * y, [tf.constant(1.0)]).connected  # the source fits: passed


def test_gradient_doctor_points_at_the_operation():
    diagnosis = gradient_doctor(lambda x: tf.math.log(1 + tf.exp(x)), tf.constant(100.0))
    assert "operation Exp" in diagnosis.findings[0].where and "tf.exp(x)" in diagnosis.findings[0].where


@pytest.mark.parametrize("compute, point", [
    (lambda x: tf.reduce_sum(tf.sin(x) * tf.exp(-x ** 2 / 2)), [0.5, 1.0]),
    (lambda x: tf.sqrt(tf.reduce_sum(x ** 2) + 1e-12), [0.0, 0.0]),
    (lambda x: tf.math.softplus(x), 100.0),
    (lambda x: tf.reduce_sum(tf.where(x > 0, tf.math.log(tf.where(x > 0, x, 1.0)), 0.0)), [0.0, 1.0]),
    (lambda x: tf.reduce_sum(x + tf.stop_gradient(tf.round(x) - x)), [0.4, 1.6]),
], ids=["sin gauss", "safe norm", "softplus", "double where", "straight-through"])
def test_gradient_doctor_raises_no_false_alarm(compute, point):
    diagnosis = gradient_doctor(compute, tf.constant(point))
    assert diagnosis.connected, str(diagnosis)


def test_gradient_doctor_looks_inside_a_penalty_that_raises():
    """The seed's Demo 4: the inner tape watched the old interpolate, so tf.norm(None) raises; the doctor says why."""
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    real, fake = tf.ones((3, 2)), tf.zeros((3, 2))

    def gradient_penalty():
        interpolate = tf.zeros_like(real)
        with tf.GradientTape() as inner:
            inner.watch(interpolate)
            interpolate = 0.5 * real + 0.5 * fake
            score = critic(interpolate)
        slope = inner.gradient(score, interpolate)
        return tf.reduce_mean((tf.norm(slope, axis=1) - 1.0) ** 2)
    diagnosis = gradient_doctor(gradient_penalty, critic.trainable_variables)
    assert diagnosis.causes == ["watched_other_object"], str(diagnosis)
    assert "inner.watch(interpolate)" in diagnosis.findings[0].where


def test_tape_doctor_reports_even_when_the_block_raises(capsys):
    with pytest.raises(TypeError):
        with tape_doctor():
            no_return()
    assert "no_target" in capsys.readouterr().out


# ---------------------------------------------------------------- the lab's own snippets

LAB = "11_none_gradient_lab"
LAB_DOCTOR = """
import json
_lab_causes = {}
for _snippet in sorted(name for name in dir() if name.startswith("broken_")):
    with tape_doctor(report=False) as _doctor:
        try:
            globals()[_snippet]()
        except Exception:  # a snippet may raise after its None; the doctor has seen it
            pass
    _lab_causes[_snippet] = _doctor.causes
print(json.dumps(_lab_causes))
"""


@pytest.mark.notebooks
def test_doctor_names_the_cause_of_every_lab_snippet(tmp_path):
    """Run the lab, then the doctor on each of its broken snippets: it must name the cause the lab teaches."""
    import json

    import nbformat
    from answer_keys.k11_none_gradient_lab import SNIPPET_CAUSES
    from conftest import ROOT

    from autograder import course
    from autograder.execute import run

    nb = nbformat.read(course.Assignment(LAB, ROOT).source, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(LAB_DOCTOR))
    run(nb, tmp_path, allow_errors=True)
    said = json.loads("".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout"))
    assert set(said) == set(SNIPPET_CAUSES), "every broken_NN of the lab has its cause in the answer keys"
    for name, right in SNIPPET_CAUSES.items():
        right = {right} if isinstance(right, str) else set(right)
        assert said[name] and set(said[name]) <= right, f"{name}: the doctor said {said[name]}, the lab teaches {right}"


# ---------------------------------------------------------------- tf.function, model.fit, layers of every kind

def test_a_tf_function_traced_before_the_block_is_looked_into():
    """Traced in an earlier cell, the function's tapes are not asked again: the doctor traces it once more."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

    @tf.function
    def rounded_gradients(x):
        with tf.GradientTape() as tape:
            score = tf.round(tf.reduce_sum(model(x)))
        return tape.gradient(score, model.trainable_variables)

    x = tf.ones((2, 3))
    rounded_gradients(x)
    with tape_doctor(report=False) as doctor:
        rounded_gradients(x)
    assert set(doctor.causes) == {"not_differentiable"}, str(doctor)
    assert "tf.round" in doctor.findings[0].where


def test_a_nan_made_inside_a_tf_function_is_located_at_its_operation():
    x = tf.constant([[0.0, 0.0], [1.0, 2.0]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            total = tf.reduce_sum(tf.norm(x, axis=1))
        return tape.gradient(total, x)

    step(x)
    with tape_doctor(report=False) as doctor:
        step(x)
    assert doctor.causes == ["nan_at_zero"], str(doctor)
    assert "tf.norm(x, axis=1)" in doctor.findings[0].where, str(doctor)


def test_a_train_step_traced_before_is_checked_on_the_values_it_runs_with():
    """Its loss is finite, its gradient NaN, and its update makes the Variable NaN: the check comes before the run."""
    w = tf.Variable([[1.0, 2.0], [0.5, -1.0]], name="w")
    optimizer = keras.optimizers.SGD(0.1)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.norm(tf.matmul(x, w) - y, axis=-1))
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss

    x = tf.constant([[1.0, 0.0]])
    train_step(x, tf.zeros((1, 2)))
    with tape_doctor(report=False) as doctor:
        train_step(x, tf.matmul(x, w))  # the prediction is exact: the norm is 0
    assert not np.isfinite(w.numpy()).any()
    assert doctor.causes == ["nan_at_zero"], str(doctor)
    assert "tf.norm" in doctor.findings[0].where, str(doctor)


def test_a_variable_made_nan_by_the_run_itself_is_not_called_the_origin():
    """The second run's gradient is NaN and its update writes NaN into the weights: the cause stays the tf.where."""
    layer = keras.layers.Dense(3)
    optimizer = keras.optimizers.SGD(0.1)

    @tf.function
    def train_step(x, legal):
        with tf.GradientTape() as tape:
            probs = tf.nn.softmax(tf.where(legal, layer(x), -1e9))
            log_probs = tf.where(probs > 0.0, tf.math.log(probs), 0.0)
            loss = tf.reduce_sum(probs * log_probs)
        optimizer.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))
        return loss

    x = tf.ones((2, 4))
    with tape_doctor(report=False) as doctor:
        train_step(x, tf.ones((2, 3), tf.bool))
        train_step(x, tf.constant([[True, False, True]] * 2))
    assert set(doctor.causes) == {"nan_unsafe_where"}, str(doctor)


def test_model_fit_traced_before_whose_loss_turns_nan_names_the_operation():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss=lambda y, p: tf.reduce_mean(tf.norm(p - y, axis=-1)))
    x = np.ones((8, 3), "float32")
    model.fit(x, np.ones((8, 2), "float32"), epochs=1, verbose=0, batch_size=8)
    with tape_doctor(report=False) as doctor:
        history = model.fit(x, model(x).numpy(), epochs=2, verbose=0, batch_size=8)  # the norm of 0 at the first step
    assert np.isnan(history.history["loss"][-1])
    assert not doctor.connected
    assert set(doctor.causes) == {"nan_at_zero"}, str(doctor)
    assert "tf.norm" in doctor.findings[0].where, str(doctor)


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_model_fit_with_a_loss_without_gradient_is_never_called_connected(run_eagerly):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

    def hits(y_true, y_pred):
        return tf.reduce_mean(tf.cast(tf.argmax(y_pred, axis=1) == tf.cast(y_true[:, 0], tf.int64), tf.float32))

    model.compile(optimizer="sgd", loss=hits, run_eagerly=run_eagerly)
    with pytest.raises(ValueError):
        with tape_doctor(report=False) as doctor:
            model.fit(tf.ones((4, 3)), tf.zeros((4, 1)), epochs=1, verbose=0)
    assert not doctor.connected
    assert set(doctor.causes) == {"not_differentiable"}, str(doctor)
    assert "tf.argmax" in doctor.findings[0].where


def test_embeddings_ragged_and_sparse_inputs_never_crash_it():
    embed = keras.Sequential([keras.Input((4,), dtype="int32"), keras.layers.Embedding(10, 3), keras.layers.Flatten(),
                              keras.layers.Dense(1)])
    ragged = tf.ragged.constant([[1.0, 2.0], [3.0]])
    sparse = tf.sparse.from_dense(tf.constant([[0.0, 2.0], [1.0, 0.0]]))
    weights = tf.Variable([[1.0], [2.0]])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(embed(tf.constant([[1, 2, 3, 4]]))) + tf.reduce_sum(ragged * weights[0, 0]) + \
                tf.reduce_sum(tf.sparse.sparse_dense_matmul(sparse, weights))
        tape.gradient(loss, embed.trainable_variables + [weights])
    assert doctor.connected, str(doctor)
    diagnosis = gradient_doctor(lambda: tf.reduce_sum(embed(tf.constant([[1, 2, 3, 4]]))), embed.trainable_variables)
    assert diagnosis.connected, str(diagnosis)


def test_gradient_doctor_runs_the_computation_once():
    runs = []

    def loss(x):
        runs.append(1)
        return tf.round(x) * 2.0
    assert gradient_doctor(loss, tf.constant(1.5)).causes == ["not_differentiable"]
    assert len(runs) == 1


def test_no_gradient_asked_is_not_called_connected():
    with tape_doctor(report=False) as doctor:
        tf.constant(1.0) * 2.0
    assert not doctor.connected and "no gradient was asked" in str(doctor)


def test_a_variable_replaced_through_a_clipping_function_in_a_method_is_named():
    """`self.scale = tf.maximum(self.scale - lr * g, 1e-3)` loses the Variable two operations before the tensor."""
    class Flow(tf.Module):
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable([1.0, 2.0], name="scale")

        def step(self, x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.math.log(self.scale) + x / self.scale)
            self.scale = tf.maximum(self.scale - 0.1 * tape.gradient(loss, self.scale), 1e-3)

    flow = Flow()
    with tape_doctor(report=False) as doctor:
        flow.step(tf.ones(2))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.math.log(flow.scale))
        assert tape.gradient(loss, flow.scale) is None
    assert doctor.causes == ["variable_replaced"], str(doctor)
    assert "tf.maximum" in doctor.findings[0].where, str(doctor)


def test_gradient_doctor_on_model_variables_with_a_moving_mean_says_wrong_variables():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.BatchNormalization()])
    x = tf.ones((4, 3))
    diagnosis = gradient_doctor(lambda: tf.reduce_sum(model(x, training=True)), model.variables)
    assert set(diagnosis.causes) == {"wrong_variables"}, str(diagnosis)
    assert len(diagnosis.findings) == 2  # the moving mean and the moving variance


def test_gradient_doctor_does_not_take_a_tensor_made_before_it_for_numpy_data():
    """The target is computed from a tensor the program made before the doctor started: not a value through NumPy."""
    unused = tf.Variable([[1.0], [1.0]], name="unused")
    used = tf.Variable([[2.0], [0.5]], name="used")
    targets = tf.constant([[0.5], [1.0]])
    data = np.ones((2, 2), "float32")

    def loss():
        tf.matmul(data, unused)  # read, then forgotten
        return tf.reduce_sum(tf.square(tf.matmul(data, used) - targets))
    diagnosis = gradient_doctor(loss, [unused, used])
    assert diagnosis.causes == ["unused"], str(diagnosis)


def test_a_nan_the_weights_already_hold_is_said_once_where_it_began_and_never_given_a_cause():
    w = tf.Variable([[1.0], [2.0]], name="w")
    x = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    with tape_doctor(report=False) as doctor:
        for _ in range(3):  # the first step's gradient is NaN (a norm at 0); the update makes w NaN
            with tf.GradientTape() as tape:
                loss = tf.norm(tf.matmul(x, w) - tf.matmul(x, w))
            w.assign_sub(0.1 * tape.gradient(loss, w))
    assert doctor.causes == ["nan_at_zero"], str(doctor)
    with tape_doctor(report=False) as doctor:  # w holds NaN before the doctor starts: no cause is in sight
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.exp(tf.matmul(x, w)))
        tape.gradient(loss, w)
    assert doctor.causes == [] and not doctor.connected, str(doctor)
    assert "already holds NaN" in str(doctor), str(doctor)


def test_the_lines_named_are_the_ones_a_reader_changes():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.BatchNormalization()])
    x = tf.ones((4, 3))
    with tape_doctor(report=False) as doctor:
        params = model.variables
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x, training=True))
        tape.gradient(loss, params)
    assert set(doctor.causes) == {"wrong_variables"}, str(doctor)
    assert "params = model.variables" in doctor.findings[0].where  # the list, not the gradient call

    count = tf.Variable(3, name="count")  # an int32 Variable
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            y = tf.cast(count, tf.float32) ** 2
        tape.gradient(y, count)
    assert doctor.causes == ["integer_dtype"] and "tf.Variable(3" in doctor.findings[0].where, str(doctor)

    def features(t):
        return tf.concat([t, t], axis=0)

    t = tf.constant([1.0, 2.0])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            z = tf.reduce_sum(features(t))
            tape.watch(t)
        tape.gradient(z, t)
    assert doctor.causes == ["watched_too_late"], str(doctor)
    where = doctor.findings[0].where
    assert "tape.watch(t)" in where and "z = tf.reduce_sum(features(t))" in where, where


def test_a_block_result_used_after_the_block_is_named_before_a_value_made_before_it():
    """`baseline` made before the block is meant as a constant; the ratio computed after the block is the bug."""
    w = tf.Variable([1.0, 2.0], name="w")
    with tape_doctor(report=False) as doctor:
        baseline = tf.reduce_sum(w) + 0.5
        with tf.GradientTape() as tape:
            current = tf.reduce_sum(w * w)
        ratio = tf.exp(current - baseline)
        tape.gradient(ratio, w)
    assert doctor.causes == ["outside_tape"], str(doctor)
    assert "ratio = tf.exp(current - baseline)" in doctor.findings[0].where, str(doctor)


def test_a_watched_tensor_read_by_numpy_is_said_to_leave_tensorflow():
    scale = np.array([2.0, 4.0], "float32")
    x = tf.constant([1.0, 3.0])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            tape.watch(x)
            scaled = tf.convert_to_tensor(np.asarray(x) / scale)
            y = tf.reduce_sum(scaled ** 2)
        tape.gradient(y, x)
    assert doctor.causes == ["left_tensorflow"], str(doctor)
    assert "np.asarray(x) / scale" in doctor.findings[0].where, str(doctor)


FROZEN_SCALE = tf.Variable(2.0, trainable=False, name="frozen_scale")


def _loss_without_return(x):
    loss = tf.reduce_sum(FROZEN_SCALE * x ** 2)  # the result it forgets to return


def test_gradient_doctor_names_the_line_that_made_the_source_and_the_result_not_returned():
    diagnosis = gradient_doctor(lambda: tf.reduce_sum(FROZEN_SCALE * 3.0), [FROZEN_SCALE])
    assert diagnosis.causes == ["not_trainable"], str(diagnosis)
    assert "FROZEN_SCALE = tf.Variable(2.0, trainable=False" in diagnosis.findings[0].where, str(diagnosis)
    diagnosis = gradient_doctor(lambda x: _loss_without_return(x), [tf.constant([1.0, 2.0])])
    assert diagnosis.causes == ["no_target"], str(diagnosis)
    assert "loss = tf.reduce_sum(FROZEN_SCALE * x ** 2)" in diagnosis.findings[0].where, str(diagnosis)


def test_a_loss_term_computed_and_left_out_is_unused_even_behind_a_stop_gradient():
    """An actor-critic: the advantage reaches the policy loss through tf.stop_gradient (on purpose), and the
    value loss is computed but never added: the critic's None is the missing term, not a choice."""
    critic = tf.Variable([0.5, -0.5], name="critic")
    returns = tf.constant([1.0, 2.0])
    log_probs = tf.constant([-0.1, -0.7])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            advantage = returns - critic
            policy_loss = -tf.reduce_mean(log_probs * tf.stop_gradient(advantage))
            value_loss = tf.reduce_mean(tf.square(advantage))  # noqa: F841 (the term left out)
            loss = policy_loss + 0.0
        tape.gradient(loss, critic)
    assert doctor.causes == ["unused"], str(doctor)
    assert "loss = policy_loss + 0.0" in doctor.findings[0].where, str(doctor)
    with tape_doctor(report=False) as doctor:  # the same without the value loss: the stop_gradient is the answer
        with tf.GradientTape() as tape:
            loss = -tf.reduce_mean(log_probs * tf.stop_gradient(returns - critic))
        tape.gradient(loss, critic)
    assert doctor.causes == ["none_is_correct"], str(doctor)


def test_an_argmax_is_named_before_a_shape_taken_of_the_same_scores():
    query = tf.Variable([[1.0], [0.5]], name="query")
    tokens = tf.random.normal((2, 3, 2))
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            scores = tf.squeeze(tf.matmul(tokens, query), -1)
            scores = tf.where(scores > -5.0, scores, tf.fill(tf.shape(scores), -1e9))
            picked = tf.gather(tokens, tf.argmax(scores, axis=1), batch_dims=1)
            loss = tf.reduce_sum(picked)
        tape.gradient(loss, query)
    assert doctor.causes == ["not_differentiable"], str(doctor)
    assert "tf.argmax" in doctor.findings[0].where, str(doctor)


def test_variables_asked_at_an_earlier_call_of_a_persistent_tape_are_not_another_models():
    encoder, critic = tf.Variable([1.0, 2.0], name="encoder"), tf.Variable([0.5, 0.5], name="critic")
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape(persistent=True) as tape:
            features = encoder * 3.0
            critic_loss = tf.reduce_sum(critic * tf.stop_gradient(features))
        tape.gradient(critic_loss, critic)
        tape.gradient(critic_loss, encoder)  # None on purpose: the critic is trained on fixed features
    assert doctor.causes == ["none_is_correct"], str(doctor)


def test_an_inner_gradients_output_bias_is_right_to_be_none_also_next_to_another_mistake():
    weight, bias = tf.Variable(2.0, name="weight"), tf.Variable(0.5, name="bias")
    x = tf.constant(1.5)
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape() as inner:
                inner.watch(x)
                energy = weight * x ** 2 + bias
        force = inner.gradient(energy, x)  # after the outer block: the mistake
        loss = tf.square(force - 1.0)
        outer.gradient(loss, [weight, bias])
    said = {finding.source: finding.cause for finding in doctor.findings}
    assert said == {"weight": "inner_gradient_outside", "bias": "none_is_correct"}, str(doctor)


def test_model_fit_nan_names_the_division_in_a_tf_where_branch_not_the_models_activation():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="softplus")])

    def relative_error(y_true, y_pred):
        return tf.reduce_mean(tf.where(y_true > 0, tf.abs(y_true - y_pred) / y_true, tf.abs(y_pred)))
    model.compile(optimizer="sgd", loss=relative_error)
    with tape_doctor(report=False) as doctor:
        model.fit(np.ones((8, 3), "float32"), np.zeros((8, 1), "float32"), epochs=2, verbose=0, batch_size=8)
    assert set(doctor.causes) == {"nan_unsafe_where"}, str(doctor)
    assert "tf.abs(y_true - y_pred) / y_true" in doctor.findings[0].where, str(doctor)


def _distances(a, b):
    return np.linalg.norm(a - b, axis=1)  # NumPy reads the tensors: no operation records it


def test_a_value_through_numpy_is_named_where_numpy_was_called_and_where_it_came_back():
    w = tf.Variable([[1.0, 0.0], [0.0, 1.0]], name="w")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            d = _distances(tf.matmul(x, w), x + 1.0)
            loss = tf.reduce_mean(tf.maximum(d - 0.5, 0.0))
        tape.gradient(loss, w)
    assert doctor.causes == ["left_tensorflow"], str(doctor)
    where = doctor.findings[0].where
    assert "np.linalg.norm(a - b, axis=1)" in where and "tf.maximum(d - 0.5, 0.0)" in where, where


def test_a_tensor_watched_while_the_computation_is_fed_its_numpy_array_is_watched_other_object():
    weights = tf.Variable([[0.5], [-0.5]], name="weights")
    image = np.array([[1.0, 2.0]], "float32")
    with tape_doctor(report=False) as doctor:
        x = tf.convert_to_tensor(image)
        with tf.GradientTape() as tape:
            tape.watch(x)
            score = tf.reduce_sum(tf.matmul((image - 1.0) / 2.0, weights))
        tape.gradient(score, x)
    assert doctor.causes == ["watched_other_object"], str(doctor)
    assert "tf.matmul((image - 1.0) / 2.0, weights)" in doctor.findings[0].where, str(doctor)


def test_a_list_of_variables_asked_as_the_target_is_swapped_also_in_a_tf_function():
    coef, intercept = tf.Variable([0.5, 0.2]), tf.Variable(0.0)
    x, y = tf.constant([[1.0, 2.0]]), tf.constant([1.0])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.linalg.matvec(x, coef) + intercept - y))
        return tape.gradient([coef, intercept], loss)

    with tape_doctor(report=False) as doctor:
        step()
    assert doctor.causes == ["swapped"], str(doctor)
    assert "tape.gradient([coef, intercept], loss)" in doctor.findings[0].where


def test_a_state_assigned_inside_a_tf_function_is_stateful_at_the_assign():
    """An RNN step that keeps its hidden state in a Variable: inside the graph the input weights only feed the
    assign, and what the function returns reads the state back."""
    w_in, w_out = tf.Variable([[0.3, -0.2]]), tf.Variable([[1.0], [0.5]])
    state = tf.Variable(tf.zeros([1, 2]))

    @tf.function
    def cell(x):
        state.assign(tf.tanh(x @ w_in + state))
        return state @ w_out

    for doctor_of in (lambda: _tape_doctor_on(lambda: cell(tf.ones([1, 1])) + cell(tf.ones([1, 1])), [w_in, w_out]),
                      lambda: gradient_doctor(lambda: cell(tf.ones([1, 1])), [w_in, w_out])):
        doctor = doctor_of()
        assert doctor.causes == ["stateful"], str(doctor)
        assert "state.assign(tf.tanh(x @ w_in + state))" in doctor.findings[0].where


def _tape_doctor_on(compute, sources):
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            target = compute()
        tape.gradient(target, sources)
    return doctor


class _CachedProfiles:
    def __init__(self, features):
        self.projection = tf.Variable([[0.5], [-1.0]])
        self.profiles = tf.matmul(features, self.projection)  # computed once, before any tape

    def loss(self):
        return tf.reduce_sum(self.profiles ** 2)


_cached = _CachedProfiles(tf.constant([[1.0, 2.0], [0.5, 0.0]]))


def test_a_value_an_objects_constructor_computed_before_the_tape_is_named_in_the_constructor():
    """Where the way from the block to the operation went through __init__, the constructor's line is named,
    not the line that made the object; gradient_doctor, which sees only what compute runs, reads the line
    that bound the tensor compute used."""
    with tape_doctor(report=False) as doctor:
        model = _CachedProfiles(tf.constant([[1.0, 2.0], [0.5, 0.0]]))
        with tf.GradientTape() as tape:
            loss = model.loss()
        tape.gradient(loss, model.projection)
    assert doctor.causes == ["outside_tape"], str(doctor)
    assert "self.profiles = tf.matmul(features, self.projection)" in doctor.findings[0].where
    diagnosis = gradient_doctor(lambda: _cached.loss(), [_cached.projection])
    assert diagnosis.causes == ["outside_tape"], str(diagnosis)
    assert "self.profiles = tf.matmul(features, self.projection)" in diagnosis.findings[0].where


def _partial_likelihood(risk):
    nll = -tf.reduce_sum(risk - tf.math.cumulative_logsumexp(risk))


def _training_loss(beta):
    return _partial_likelihood(tf.reshape(beta * 2.0, [-1]))


def test_a_none_target_returned_through_another_function_is_named_where_that_one_forgot_its_return():
    beta = tf.Variable([0.1, 0.2])
    with tape_doctor(report=False) as doctor:
        with tf.GradientTape() as tape:
            loss = _training_loss(beta)
        with pytest.raises(TypeError):
            tape.gradient(loss, beta)
    assert doctor.causes == ["no_target"], str(doctor)
    assert "nll = -tf.reduce_sum(" in doctor.findings[0].where
