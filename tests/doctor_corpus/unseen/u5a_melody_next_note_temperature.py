"""A small next-note model for monophonic melodies with a learnable softmax temperature; the
embedding and output weights train, but the temperature's gradient is always None and it stays at 1."""
# cause: integer_dtype
# depth: method
import numpy as np
import tensorflow as tf

tf.random.set_seed(4)
rng = np.random.default_rng(4)

VOCAB, CONTEXT = 48, 8  # MIDI pitches 36..83 mapped to 0..47
melodies = np.clip(np.cumsum(rng.integers(-3, 4, size=(64, CONTEXT + 1)), axis=1) + 24, 0, VOCAB - 1)
prev_notes = tf.constant(melodies[:, :CONTEXT], dtype=tf.int32)
next_note = tf.constant(melodies[:, CONTEXT], dtype=tf.int32)


class NextNoteModel(tf.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.embed = tf.Variable(tf.random.normal([vocab, dim], stddev=0.1), name="embed")
        self.position = tf.Variable(tf.linspace(0.5, 1.5, CONTEXT)[:, None], name="position")
        self.w_out = tf.Variable(tf.random.normal([dim, vocab], stddev=0.1), name="w_out")
        self.temperature = tf.Variable(1, name="temperature")  # <- expected

    def logits(self, notes):
        h = tf.nn.embedding_lookup(self.embed, notes) * self.position
        h = tf.reduce_mean(h, axis=1)
        return tf.matmul(h, self.w_out) / tf.cast(self.temperature, tf.float32)

    def loss(self, notes, nxt):
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(nxt, self.logits(notes)))


model = NextNoteModel()
opt = tf.keras.optimizers.SGD(0.5)

for step in range(3):
    with tf.GradientTape() as tape:
        loss = model.loss(prev_notes, next_note)
    grads = tape.gradient(loss, model.trainable_variables)
    for v, g in zip(model.trainable_variables, grads):
        print(step, v.name, "None" if g is None else f"{float(tf.norm(g)):.4f}")
    pairs = [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None]
    opt.apply_gradients(pairs)

print("temperature after training:", model.temperature.numpy())


def computation():
    def compute():
        return model.loss(prev_notes, next_note)

    return compute, [model.embed, model.w_out, model.temperature]
