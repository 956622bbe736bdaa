"""REINFORCE on a toy contextual bandit with a tf.function train step; the policy gradients are all None."""
# cause: outside_tape
# depth: tf.function
import tensorflow as tf
import keras

tf.random.set_seed(2)

n_actions = 3
policy = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(n_actions),
])


@tf.function
def policy_gradients(states, actions, returns):
    with tf.GradientTape() as tape:
        logits = policy(states)
        log_probs = tf.nn.log_softmax(logits)
        chosen = tf.gather(log_probs, actions, batch_dims=1)
        objective = tf.reduce_mean(chosen * returns)
    # gradient ascent on the expected return = descent on its negative
    loss = -objective  # <- expected
    grads = tape.gradient(loss, policy.trainable_variables)
    return loss, grads


states = tf.random.normal((8, 4))
actions = tf.random.uniform((8,), maxval=n_actions, dtype=tf.int32)
returns = tf.random.normal((8,))
loss, grads = policy_gradients(states, actions, returns)
print("loss:", float(loss))
print("grads:", grads)
