"""Knowledge distillation: a Distiller model runs a teacher and a student and the loss is the
temperature-scaled KL between them; every gradient for the teacher's weights comes back None."""
# cause: none_is_correct
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(23)
keras.utils.set_random_seed(23)

n_classes = 4


def make_mlp(width, name):
    return keras.Sequential([
        keras.Input(shape=(10,)),
        keras.layers.Dense(width, activation="relu"),
        keras.layers.Dense(n_classes),
    ], name=name)


class Distiller(keras.Model):
    def __init__(self, teacher, student, temperature=3.0):
        super().__init__()
        self.teacher = teacher
        self.student = student
        self.temperature = temperature

    def call(self, x, training=False):
        teacher_logits = tf.stop_gradient(self.teacher(x, training=False))  # <- expected
        student_logits = self.student(x, training=training)
        return teacher_logits, student_logits


def distillation_loss(teacher_logits, student_logits, temperature):
    soft_targets = tf.nn.softmax(teacher_logits / temperature)
    log_student = tf.nn.log_softmax(student_logits / temperature)
    kl = tf.reduce_sum(soft_targets * (tf.math.log(soft_targets + 1e-9) - log_student), axis=-1)
    return tf.reduce_mean(kl) * temperature ** 2


teacher = make_mlp(64, "teacher")
student = make_mlp(8, "student")
distiller = Distiller(teacher, student)

x_batch = tf.constant(rng.normal(size=(32, 10)), dtype=tf.float32)
distiller(x_batch)

with tf.GradientTape() as tape:
    t_logits, s_logits = distiller(x_batch, training=True)
    loss = distillation_loss(t_logits, s_logits, distiller.temperature)

grads = tape.gradient(loss, distiller.trainable_variables)
print("loss:", float(loss))
for var, g in zip(distiller.trainable_variables, grads):
    print(f"{var.path:40s}", "None" if g is None else f"norm={float(tf.norm(g)):.4f}")


def computation():
    def compute():
        t_logits, s_logits = distiller(x_batch, training=True)
        return distillation_loss(t_logits, s_logits, distiller.temperature)

    return compute, list(distiller.trainable_variables)
