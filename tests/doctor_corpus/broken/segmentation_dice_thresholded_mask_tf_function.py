"""Binary segmentation with a Dice loss in a tf.function train step; tracing fails with
"No gradients provided for any variable"."""
# cause: not_differentiable
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)
images = tf.random.uniform((4, 16, 16, 3))
masks = tf.cast(tf.random.uniform((4, 16, 16, 1)) > 0.7, tf.float32)

model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)


def dice_loss(y_true, y_pred, eps=1e-6):
    inter = tf.reduce_sum(y_true * y_pred, axis=[1, 2, 3])
    union = tf.reduce_sum(y_true, axis=[1, 2, 3]) + tf.reduce_sum(y_pred, axis=[1, 2, 3])
    return 1.0 - tf.reduce_mean((2.0 * inter + eps) / (union + eps))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        probs = model(x, training=True)
        pred_mask = tf.cast(probs > 0.5, tf.float32)  # <- expected
        loss = dice_loss(y, pred_mask)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def computation():
    def compute(*params):
        return dice_loss(masks, tf.cast(model(images) > 0.5, tf.float32))
    return compute, model.trainable_variables


for epoch in range(2):
    print("dice loss", float(train_step(images, masks)))
