"""Gated convolutional text classifier (GLU-style) for support-ticket routing.

I implemented a gated conv block like in Dauphin et al.: one Conv1D for the
content and one with a sigmoid for the gate. The model trains and the accuracy is
OK, but the gradients for the gate convolutions are None in both blocks, so the
gate kernels stay at their initial values forever.
"""
# cause: unused
# depth: layer
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(10)

VOCAB, SEQ, EMB, N_QUEUES = 200, 24, 16, 5


class GatedConvBlock(tf.keras.layers.Layer):
    def __init__(self, filters, width, **kw):
        super().__init__(**kw)
        self.content = tf.keras.layers.Conv1D(filters, width, padding="causal", name="content")
        self.gate = tf.keras.layers.Conv1D(filters, width, padding="causal",
                                           activation="sigmoid", name="gate")
        self.norm = tf.keras.layers.LayerNormalization()

    def call(self, x):
        h = self.content(x)
        g = self.gate(x)
        h = h * tf.sigmoid(h)  # <- expected
        return self.norm(x + h)


class TicketRouter(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, EMB, mask_zero=False)
        self.block1 = GatedConvBlock(EMB, 3, name="block1")
        self.block2 = GatedConvBlock(EMB, 3, name="block2")
        self.head = tf.keras.layers.Dense(N_QUEUES)

    def call(self, tokens):
        x = self.block2(self.block1(self.embed(tokens)))
        return self.head(tf.reduce_max(x, axis=1))


model = TicketRouter()
tokens = tf.constant(np.random.randint(1, VOCAB, size=(16, SEQ)))
queues = tf.constant(np.random.randint(0, N_QUEUES, size=(16,)))
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def compute_loss():
    return loss_fn(queues, model(tokens))


with tf.GradientTape() as tape:
    loss = compute_loss()
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss))
for v, g in zip(model.trainable_variables, grads):
    print(f"{v.path:40s}", None if g is None else round(float(tf.norm(g)), 5))


def computation():
    return compute_loss, model.trainable_variables
