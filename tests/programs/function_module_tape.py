"""tf.function, tf.Module and tf.GradientTape as a TF 1.14/1.15 program used them in a graph
with a Session: a small regression model whose layers are tf.Modules with tf.function
__call__s, a loss under a GradientTape, the tape's gradients applied by an optimizer, and a
traced helper with an input_signature; the losses and weights it prints."""
import numpy as np

import engine as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, activation=None, name=None):
        super(Dense, self).__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.random_normal([n_in, n_out], stddev=0.5, seed=3),
                                 name="w", use_resource=True)
            self.b = tf.Variable(tf.zeros([n_out]), name="b", use_resource=True)
        self.activation = activation

    @tf.function
    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return self.activation(y) if self.activation else y


class Regressor(tf.Module):
    def __init__(self):
        super(Regressor, self).__init__()
        with self.name_scope:
            self.hidden = Dense(2, 8, tf.nn.tanh, name="hidden")
            self.out = Dense(8, 1, name="out")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return self.out(self.hidden(x))


@tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32),
                              tf.TensorSpec([None, 1], tf.float32)])
def mse(predictions, labels):
    return tf.reduce_mean(tf.square(predictions - labels))


def main():
    tf.set_random_seed(0)
    model = Regressor()
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    with tf.GradientTape() as tape:
        loss = mse(model(x), y)
    variables = model.trainable_variables
    grads = tape.gradient(loss, variables)
    global_step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.05).apply_gradients(zip(grads, variables),
                                                         global_step=global_step)
    print("model:", model.name, [v.name for v in variables])
    print("submodules:", [m.name for m in model.submodules])
    print("loss:", loss.name, loss.op.type, [str(g.shape) for g in grads])
    rng = np.random.RandomState(1)
    data = rng.uniform(-1.0, 1.0, size=(32, 2)).astype(np.float32)
    target = (np.sin(2.0 * data[:, :1]) + data[:, 1:] ** 2).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            value, _ = sess.run([loss, train], {x: data, y: target})
            if step % 5 == 0:
                print("step %d loss %.6f" % (step, value))
        print("final loss %.6f" % sess.run(loss, {x: data, y: target}))
        print("global step", sess.run(global_step))
        print("out/b", np.round(sess.run(model.out.b), 5).tolist())


if __name__ == "__main__":
    main()
