"""Trains an adaptive-cruise-control policy that outputs an acceleration command, penalizing
a low time-to-collision with the lead vehicle plus jerk-free comfort; the compiled train
step returns NaN gradients from the first batch and the policy weights become NaN."""
# cause: nan_unsafe_where
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(41)
n, dt = 256, 0.1
# logged speeds are quantized to 0.5 m/s by the CAN bus decoder
v_ego = np.round(rng.uniform(10.0, 30.0, size=(n, 1)) * 2.0) / 2.0
v_lead = np.round((v_ego + rng.normal(0.0, 1.5, size=(n, 1))) * 2.0) / 2.0
gap = rng.uniform(5.0, 60.0, size=(n, 1))
obs = tf.constant(np.concatenate([v_ego / 30.0, v_lead / 30.0, gap / 60.0], axis=1), tf.float32)
v_ego, v_lead, gap = (tf.constant(a, tf.float32) for a in (v_ego, v_lead, gap))

policy = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(32, activation="tanh"),
    tf.keras.layers.Dense(1, activation="tanh"),
])
optimizer = tf.keras.optimizers.Adam(1e-3)
initial_weights = policy.get_weights()
max_accel = 3.0


def acc_loss(obs, v_ego, v_lead, gap):
    accel = max_accel * policy(obs, training=True)
    next_v = v_ego + accel * dt
    next_gap = gap + (v_lead - next_v) * dt
    closing = v_ego - v_lead
    ttc = tf.where(closing > 0.0, next_gap / closing, tf.fill(tf.shape(closing), 100.0))  # <- expected
    safety = tf.exp(-ttc / 2.0)
    comfort = 0.01 * tf.square(accel)
    tracking = 0.001 * tf.square(next_gap - 2.0 * next_v)
    return tf.reduce_mean(safety + comfort + tracking)


@tf.function
def train_step(obs, v_ego, v_lead, gap):
    with tf.GradientTape() as tape:
        loss = acc_loss(obs, v_ego, v_lead, gap)
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
    finite = tf.reduce_all([tf.reduce_all(tf.math.is_finite(g)) for g in grads])
    return loss, finite


for step in range(3):
    loss, finite = train_step(obs, v_ego, v_lead, gap)
    print(f"step {step}: loss={float(loss):.4f}  grads finite: {bool(finite)}")


def computation():
    policy.set_weights(initial_weights)
    return (lambda: acc_loss(obs, v_ego, v_lead, gap)), policy.trainable_variables
