"""Low-rank (LoRA) adaptation of a frozen linear layer: the trainer opens the tape with
watch_accessed_variables=False and watches only the two adapter matrices."""
# cause: connected
# depth: method
import tensorflow as tf

tf.random.set_seed(34)


class LoRALinear(tf.Module):
    def __init__(self, d_in, d_out, rank=2, alpha=4.0):
        super().__init__()
        self.w = tf.Variable(tf.random.normal((d_in, d_out)), name="w")  # pretrained, stays fixed
        self.a = tf.Variable(tf.random.normal((d_in, rank), stddev=0.01), name="lora_a")
        self.b = tf.Variable(tf.zeros((rank, d_out)), name="lora_b")
        self.scale = alpha / rank

    def __call__(self, x):
        return x @ self.w + self.scale * (x @ self.a) @ self.b


class AdapterTrainer:
    def __init__(self, layer, lr=0.05):
        self.layer = layer
        self.lr = lr

    def loss(self, x, y):
        return tf.reduce_mean(tf.square(self.layer(x) - y))

    def step(self, x, y):
        adapters = [self.layer.a, self.layer.b]
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(adapters)
            loss = self.loss(x, y)
        grads = tape.gradient(loss, adapters)
        for v, g in zip(adapters, grads):
            v.assign_sub(self.lr * g)
        return loss


layer = LoRALinear(6, 3)
trainer = AdapterTrainer(layer)
x = tf.random.normal((16, 6))
y = x @ (layer.w + 0.1 * tf.random.normal((6, 3)))
for step in range(3):
    loss = trainer.step(x, y)
print("loss:", float(loss))


def computation():
    return (lambda a, b: trainer.loss(x, y)), [layer.a, layer.b]
