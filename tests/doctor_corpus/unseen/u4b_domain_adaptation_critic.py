"""Adversarial domain adaptation (ADDA-style alternating steps) between a labelled
source domain and a shifted, unlabelled target domain.  When the asker inspects the
gradient of the domain-critic loss with respect to the encoder, every entry is None."""
# cause: none_is_correct
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

N_FEATURES, N_CLASSES = 10, 3


class DomainAdaptNet(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = keras.Sequential([
            keras.layers.Dense(32, activation="relu"),
            keras.layers.Dense(16, activation="relu"),
        ], name="encoder")
        self.label_head = keras.layers.Dense(N_CLASSES, name="label_head")
        self.domain_head = keras.Sequential([
            keras.layers.Dense(16, activation="relu"),
            keras.layers.Dense(1),
        ], name="domain_head")

    def call(self, x, training=False):
        features = self.encoder(x, training=training)
        class_logits = self.label_head(features)
        domain_logits = self.domain_head(tf.stop_gradient(features))  # <- expected
        return class_logits, domain_logits, features


def make_domains(n=256):
    centers = np.random.randn(N_CLASSES, N_FEATURES) * 2.0
    y_src = np.random.randint(0, N_CLASSES, n)
    x_src = centers[y_src] + np.random.randn(n, N_FEATURES)
    y_tgt = np.random.randint(0, N_CLASSES, n)
    x_tgt = 1.3 * centers[y_tgt] + 0.8 + np.random.randn(n, N_FEATURES)
    return (x_src.astype(np.float32), y_src.astype(np.int32), x_tgt.astype(np.float32))


x_src, y_src, x_tgt = make_domains()
model = DomainAdaptNet()
model(x_src[:2])

ce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
bce = keras.losses.BinaryCrossentropy(from_logits=True)
task_opt = keras.optimizers.Adam(1e-3)
critic_opt = keras.optimizers.Adam(1e-3)
enc_opt = keras.optimizers.Adam(1e-4)

enc_vars = model.encoder.trainable_variables
critic_vars = model.domain_head.trainable_variables
task_vars = enc_vars + model.label_head.trainable_variables

for step in range(3):
    # 1) supervised loss on the labelled source domain
    with tf.GradientTape() as tape:
        class_logits, _, _ = model(x_src, training=True)
        task_loss = ce(y_src, class_logits)
    task_opt.apply_gradients(zip(tape.gradient(task_loss, task_vars), task_vars))

    # 2) domain critic: source = 1, target = 0
    with tf.GradientTape(persistent=True) as tape:
        _, d_src, _ = model(x_src, training=True)
        _, d_tgt, _ = model(x_tgt, training=True)
        critic_loss = bce(tf.ones_like(d_src), d_src) + bce(tf.zeros_like(d_tgt), d_tgt)
    critic_opt.apply_gradients(zip(tape.gradient(critic_loss, critic_vars), critic_vars))
    enc_grads = tape.gradient(critic_loss, enc_vars)
    print(f"step {step}: critic loss {float(critic_loss):.4f}, "
          f"encoder grads from critic loss: {enc_grads}")
    del tape

    # 3) encoder tries to make target features look like source features
    with tf.GradientTape() as tape:
        _, _, f_tgt = model(x_tgt, training=True)
        confusion = model.domain_head(f_tgt)
        adv_loss = bce(tf.ones_like(confusion), confusion)
    enc_opt.apply_gradients(zip(tape.gradient(adv_loss, enc_vars), enc_vars))
    print(f"         task loss {float(task_loss):.4f}, adversarial loss {float(adv_loss):.4f}")


def computation():
    def compute():
        _, d_src, _ = model(x_src, training=True)
        _, d_tgt, _ = model(x_tgt, training=True)
        return bce(tf.ones_like(d_src), d_src) + bce(tf.zeros_like(d_tgt), d_tgt)

    return compute, list(enc_vars)
