"""Distilling a large ECG arrhythmia classifier into a tiny on-device student.

The wrapper model runs teacher and student in one call and returns both logits.
I put tf.stop_gradient on the teacher output on purpose, because the teacher is
already trained and only the student should learn. A colleague says stop_gradient
inside call() will "kill the gradients" of the whole model. I only ask for the
student's variables. Are my gradients actually OK?
"""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(14)

N_CLASSES, T = 5, 128


def conv_net(width, name):
    return tf.keras.Sequential([
        tf.keras.Input((T, 1)),
        tf.keras.layers.Conv1D(width, 7, strides=2, activation="relu"),
        tf.keras.layers.Conv1D(width, 5, strides=2, activation="relu"),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(N_CLASSES),
    ], name=name)


class Distiller(tf.keras.Model):
    def __init__(self, teacher, student, temperature=4.0):
        super().__init__()
        self.teacher, self.student, self.temperature = teacher, student, temperature

    def call(self, ecg, training=False):
        teacher_logits = tf.stop_gradient(self.teacher(ecg, training=False))
        student_logits = self.student(ecg, training=training)
        return teacher_logits / self.temperature, student_logits


distiller = Distiller(conv_net(32, "teacher"), conv_net(4, "student"))
ecg = tf.constant(np.random.randn(16, T, 1).astype(np.float32))
labels = tf.constant(np.random.randint(0, N_CLASSES, size=(16,)))


def distill_loss():
    t_logits, s_logits = distiller(ecg, training=True)
    soft = tf.nn.softmax(t_logits)
    kd = tf.keras.losses.KLD(soft, tf.nn.softmax(s_logits / distiller.temperature))
    ce = tf.keras.losses.sparse_categorical_crossentropy(labels, s_logits, from_logits=True)
    return tf.reduce_mean(0.7 * distiller.temperature ** 2 * kd + 0.3 * ce)


with tf.GradientTape() as tape:
    loss = distill_loss()
grads = tape.gradient(loss, distiller.student.trainable_variables)
print("loss:", float(loss))
for v, g in zip(distiller.student.trainable_variables, grads):
    print(f"{v.path:30s}", "finite" if g is not None and bool(tf.reduce_all(tf.math.is_finite(g))) else g)


def computation():
    return distill_loss, distiller.student.trainable_variables
