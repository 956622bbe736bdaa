"""GRU encoder-decoder that reverses short digit sequences, with a custom train_step under
model.fit: the encoder, the embedding and the decoder GRU never learn; their gradients are None
and Keras warns that gradients do not exist for them."""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)
VOCAB, START = 12, 11


class Reverser(keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = keras.layers.Embedding(VOCAB, 16)
        self.encoder = keras.layers.GRU(32, return_state=True)
        self.decoder = keras.layers.GRU(32, return_sequences=True)
        self.project = keras.layers.Dense(VOCAB, kernel_regularizer=keras.regularizers.L2(1e-4))
        self.xent = keras.metrics.SparseCategoricalCrossentropy(from_logits=True, name="xent")

    def call(self, inputs):
        source, decoder_input = inputs
        _, state = self.encoder(self.embed(source))
        hidden = self.decoder(self.embed(decoder_input), initial_state=state)
        return self.project(hidden)

    def train_step(self, data):
        (source, decoder_input), target = data
        with tf.GradientTape() as tape:
            logits = self((source, decoder_input), training=True)
            loss = self.xent(target, logits) + tf.add_n(self.losses)  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


rng = np.random.default_rng(8)
source = rng.integers(1, 10, size=(32, 5))
target = source[:, ::-1].copy()
decoder_input = np.concatenate([np.full((32, 1), START), target[:, :-1]], axis=1)

model = Reverser()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
history = model.fit((source, decoder_input), target, batch_size=32, epochs=1, verbose=0)
print("loss:", history.history["loss"][-1])


def computation():
    def loss():
        logits = model((source, decoder_input), training=True)
        return model.xent(target, logits) + tf.add_n(model.losses)
    return loss, model.trainable_variables
