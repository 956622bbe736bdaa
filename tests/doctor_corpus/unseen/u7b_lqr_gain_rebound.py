"""Learning a state-feedback gain for a cart (double integrator) by gradient descent.

I roll the closed loop out for 30 steps, sum the quadratic cost and differentiate with
respect to K. The first iteration works: the gradient is a proper 1x2 tensor and the cost
goes down. On the second call to update() the gradient printed is None and then it crashes
with "unsupported operand type(s) for *: 'float' and 'NoneType'". The rollout code does
not change between iterations, so why would the gradient disappear?
"""
# cause: variable_replaced
# depth: method
import numpy as np
import tensorflow as tf

tf.random.set_seed(0)
dt = 0.1
A = tf.constant([[1.0, dt], [0.0, 1.0]])
B = tf.constant([[0.0], [dt]])
Q = tf.constant(np.diag([1.0, 0.1]), tf.float32)
R = tf.constant([[0.01]])


class FeedbackController:
    def __init__(self, horizon=30):
        self.K = tf.Variable([[0.5, 0.5]], name="gain")
        self.horizon = horizon
        self.x0 = tf.constant([[1.0], [0.0]])  # 1 m off target, at rest

    def rollout_cost(self):
        x, cost = self.x0, 0.0
        for _ in range(self.horizon):
            u = -tf.matmul(self.K, x)
            cost += tf.matmul(tf.matmul(x, Q, transpose_a=True), x) + tf.matmul(tf.matmul(u, R, transpose_a=True), u)
            x = tf.matmul(A, x) + tf.matmul(B, u)
        return tf.squeeze(cost)

    def update(self, lr=0.05):
        with tf.GradientTape() as tape:
            cost = self.rollout_cost()
        grad = tape.gradient(cost, self.K)
        print(f"cost {float(cost):8.4f}  grad {grad}")
        self.K = self.K - lr * grad  # <- expected
        return cost


ctrl = FeedbackController()
for it in range(3):
    ctrl.update()
print("learned K:", ctrl.K.numpy())


def computation():
    return ctrl.rollout_cost, [ctrl.K]
