"""Per-example gradients of a softmax policy's log-probabilities with tape.jacobian, used to build
the Fisher matrix for a natural-gradient step."""
# cause: connected
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(30)

policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(2)])
states = tf.random.normal((5, 3))
actions = tf.constant([0, 1, 1, 0, 1])
advantages = tf.constant([0.5, -0.2, 1.0, 0.3, -0.7])


def action_log_probs():
    log_pi = tf.nn.log_softmax(policy(states), axis=-1)
    return tf.gather(log_pi, actions, axis=1, batch_dims=1)  # shape (5,)


with tf.GradientTape() as tape:
    logp = action_log_probs()
jac = tape.jacobian(logp, policy.trainable_variables)  # one (5, *var.shape) tensor per variable

per_example = tf.concat([tf.reshape(j, (5, -1)) for j in jac], axis=1)  # (5, n_params)
fisher = tf.matmul(per_example, per_example, transpose_a=True) / 5.0
pg = tf.reduce_mean(per_example * advantages[:, None], axis=0)
natural_grad = tf.linalg.solve(fisher + 1e-2 * tf.eye(fisher.shape[0]), pg[:, None])
print("Fisher", fisher.shape, "| natural gradient norm:", float(tf.norm(natural_grad)))


def computation():
    return (lambda *variables: action_log_probs()), policy.trainable_variables
