"""An encoder-decoder whose encoder output goes through Lambda(argmax) and a cast before the
decoder; fit trains only the decoder and Keras warns that the encoder's variables have no
gradients."""
# cause: not_differentiable
# depth: fit
# thread: keras-team/keras#11157
import numpy as np
import keras
from keras import ops
from keras.layers import Input, Dense, Embedding, Dropout, Lambda
from keras.models import Model

keras.utils.set_random_seed(0)
vocabulary = 12
latent_dim = 8
train_data = np.random.randint(0, vocabulary, (16, 5))
train_label = np.random.rand(16, 3).astype("float32")

encoder_inputs = Input(shape=(train_data.shape[1],))
encoder_dense = Dense(vocabulary, activation='softmax')
encoder_outputs = Embedding(vocabulary, latent_dim)(encoder_inputs)
encoder_outputs = Dropout(0.5)(encoder_outputs)
encoder_outputs = encoder_dense(encoder_outputs)
encoder_outputs = Lambda(ops.argmax, arguments={'axis': -1})(encoder_outputs)  # <- expected
encoder_outputs = Lambda(ops.cast, arguments={'dtype': 'float32'})(encoder_outputs)

encoder_dense1 = Dense(train_label.shape[1], activation='softmax')
decoder_outputs = encoder_dense1(encoder_outputs)

model = Model(encoder_inputs, decoder_outputs)
model.compile(optimizer='adam', loss='categorical_crossentropy')


def computation():
    loss_fn = keras.losses.CategoricalCrossentropy()
    return (lambda *params: loss_fn(train_label, model(train_data, training=True))), model.trainable_variables


model.fit(train_data, train_label, batch_size=8, epochs=1, verbose=0)
