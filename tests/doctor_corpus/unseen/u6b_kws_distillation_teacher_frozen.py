"""Knowledge distillation for a keyword-spotting model on synthetic MFCC frames.

A Keras Model wraps a large teacher and a small student. The asker printed the
gradients of the distillation loss for every trainable variable of the wrapper and
is worried that all of the teacher's gradients are None while the student's are fine.
"""
# cause: none_is_correct
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(11)
n_keywords, frames, n_mfcc = 4, 20, 13
centroids = rng.normal(0, 1, (n_keywords, frames * n_mfcc))
labels = rng.integers(0, n_keywords, 128)
mfcc = (centroids[labels] + rng.normal(0, 0.8, (128, frames * n_mfcc))).astype("float32")

keras.utils.set_random_seed(11)
teacher = keras.Sequential([keras.Input((frames * n_mfcc,)), keras.layers.Dense(128, activation="relu"),
                            keras.layers.Dense(128, activation="relu"), keras.layers.Dense(n_keywords)],
                           name="teacher")
student = keras.Sequential([keras.Input((frames * n_mfcc,)), keras.layers.Dense(16, activation="relu"),
                            keras.layers.Dense(n_keywords)], name="student")


class Distiller(keras.Model):
    def __init__(self, teacher, student, temperature=4.0):
        super().__init__()
        self.teacher = teacher
        self.student = student
        self.temperature = temperature

    def call(self, x):
        teacher_logits = tf.stop_gradient(self.teacher(x))  # <- expected
        student_logits = self.student(x)
        return teacher_logits, student_logits


distiller = Distiller(teacher, student)
x, y = tf.constant(mfcc), tf.constant(labels)


def distill_loss():
    t_logits, s_logits = distiller(x)
    T = distiller.temperature
    soft_targets = tf.nn.softmax(t_logits / T)
    kd = tf.reduce_mean(keras.losses.kl_divergence(soft_targets, tf.nn.softmax(s_logits / T))) * T**2
    ce = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(y, s_logits, from_logits=True))
    return 0.7 * kd + 0.3 * ce


with tf.GradientTape() as tape:
    loss = distill_loss()
grads = tape.gradient(loss, distiller.trainable_variables)
print("loss:", float(loss))
for v, g in zip(distiller.trainable_variables, grads):
    print(f"{v.path:40s}", "None" if g is None else f"{float(tf.norm(g)):.4f}")


def computation():
    return distill_loss, distiller.trainable_variables
