"""SimCLR-style contrastive learning on two augmented views of log-mel spectrogram
clips, with a CLIP-style learnable logit scale.  The encoder weights get gradients,
but the gradient for the logit scale is None and it never moves off 1/0.07."""
# cause: not_trainable
# depth: method
import numpy as np
import tensorflow as tf

np.random.seed(0)
tf.random.set_seed(0)

N_MELS, N_FRAMES, EMB = 16, 24, 32


class AudioContrastiveModel(tf.Module):
    def __init__(self, n_mels, emb_dim, name=None):
        super().__init__(name=name)
        init = tf.keras.initializers.GlorotUniform(seed=0)
        self.conv = tf.Variable(init((3, n_mels, 64)), name="conv")
        self.conv_b = tf.Variable(tf.zeros(64), name="conv_b")
        self.proj = tf.Variable(init((64, emb_dim)), name="proj")
        self.log_scale = tf.Variable(np.log(1 / 0.07), dtype=tf.float32,
                                     trainable=False, name="log_scale")  # <- expected

    def embed(self, spec):
        h = tf.nn.conv1d(spec, self.conv, stride=1, padding="SAME") + self.conv_b
        h = tf.reduce_mean(tf.nn.gelu(h), axis=1)
        return tf.math.l2_normalize(h @ self.proj, axis=-1)

    def logits(self, view_a, view_b):
        za, zb = self.embed(view_a), self.embed(view_b)
        return tf.exp(self.log_scale) * tf.matmul(za, zb, transpose_b=True)


def augment(spec):
    gain = tf.random.uniform((tf.shape(spec)[0], 1, 1), -0.3, 0.3)
    noise = 0.1 * tf.random.normal(tf.shape(spec))
    return spec + gain + noise


def info_nce(logits):
    labels = tf.range(tf.shape(logits)[0])
    loss_ab = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    loss_ba = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, tf.transpose(logits))
    return tf.reduce_mean(loss_ab + loss_ba) / 2.0


clips = tf.constant(np.random.randn(32, N_FRAMES, N_MELS).astype(np.float32))
model = AudioContrastiveModel(N_MELS, EMB)
optimizer = tf.keras.optimizers.Adam(1e-3)
params = [model.conv, model.conv_b, model.proj, model.log_scale]

for step in range(3):
    view_a, view_b = augment(clips), augment(clips)
    with tf.GradientTape() as tape:
        loss = info_nce(model.logits(view_a, view_b))
    grads = tape.gradient(loss, params)
    print(f"step {step} loss={float(loss):.4f}",
          {p.name: (None if g is None else float(tf.norm(g))) for p, g in zip(params, grads)})
    optimizer.apply_gradients([(g, p) for g, p in zip(grads, params) if g is not None])

print("logit scale:", float(tf.exp(model.log_scale)))


def computation():
    view_a, view_b = augment(clips), augment(clips)
    return (lambda: info_nce(model.logits(view_a, view_b))), params
