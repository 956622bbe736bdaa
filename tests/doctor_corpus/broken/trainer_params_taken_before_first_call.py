"""A Trainer class around a subclassed regressor: no error, but the loss never goes down."""
# cause: wrong_variables
# depth: method
import tensorflow as tf
import keras

keras.utils.set_random_seed(1)
x = tf.random.uniform((32, 4), -1.0, 1.0)
y = tf.reduce_sum(x, axis=1, keepdims=True) ** 2


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="tanh")
        self.out = keras.layers.Dense(1)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.lr = lr
        self.params = model.trainable_variables  # <- expected

    def loss(self, x, y):
        return tf.reduce_mean(tf.square(self.model(x) - y))

    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss(x, y)
        grads = tape.gradient(loss, self.params)
        for g, v in zip(grads, self.params):
            v.assign_sub(self.lr * g)
        return loss


trainer = Trainer(Regressor())


def computation():
    return (lambda *params: trainer.loss(x, y)), trainer.params


for epoch in range(3):
    print(epoch, float(trainer.step(x, y)))
