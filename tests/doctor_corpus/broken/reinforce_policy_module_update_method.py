"""REINFORCE on a 3-armed bandit with a softmax policy written as a tf.Module; the second
update fails with "unsupported operand type(s) for *: 'float' and 'NoneType'"."""
# cause: variable_replaced
# depth: method
import tensorflow as tf

tf.random.set_seed(9)
true_means = tf.constant([0.1, 0.5, 0.9])


class SoftmaxPolicy(tf.Module):
    def __init__(self, n_arms, lr=0.1):
        super().__init__()
        self.logits = tf.Variable(tf.zeros([n_arms]), name="logits")
        self.lr = lr

    def surrogate(self, actions, rewards):
        log_probs = tf.nn.log_softmax(self.logits)
        return tf.reduce_mean(tf.gather(log_probs, actions) * rewards)

    def update(self, actions, rewards):
        with tf.GradientTape() as tape:
            objective = self.surrogate(actions, rewards)
        grad = tape.gradient(objective, self.logits)
        self.logits = self.logits + self.lr * grad  # <- expected
        return objective


policy = SoftmaxPolicy(3)


def computation():
    actions = tf.constant([0, 1, 2, 2])
    rewards = tf.constant([0.0, 1.0, 1.0, 0.0])
    return (lambda logits: policy.surrogate(actions, rewards)), policy.logits


for episode in range(3):
    actions = tf.random.categorical(policy.logits[None, :], 16)[0]
    rewards = tf.cast(tf.random.uniform([16]) < tf.gather(true_means, actions), tf.float32)
    policy.update(actions, rewards)
    print(episode, tf.nn.softmax(policy.logits).numpy())
