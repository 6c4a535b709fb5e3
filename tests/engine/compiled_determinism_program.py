"""A small TF1-style training program for tests/engine/test_compiled_determinism.py: prints
each step's loss (repr, every bit) and, last, the compiled modules loaded by then.

    python compiled_determinism_program.py cnn|pool [cold] [fused]

cnn: conv2d (SAME and a strided VALID), depthwise conv2d, bias_add, relu, max_pool, a dense
layer, softmax cross entropy, Adam. pool: the same without convolutions (avg_pool and
max_pool of the images, bias_add, relu, dense layers, GELU). `cold`: as where the kernel cache is
not stamped warm: modules other than the convolutions load on a background thread, the run
taking NumPy's path until they are ready. `fused`: remapping ON (elementwise chains fused,
engine/kernels/compiled/fused_numba.py) and a hidden layer of 2^11 units, whose GELU chain's
2^15 values have the fused kernel compiled at once.
"""

import sys

import numpy as np

import engine as tf
from engine.kernels import compiled

STEPS = 24


def build(kind, hidden_units=32):
    tf.set_random_seed(3)
    images = tf.placeholder(tf.float32, [None, 12, 12, 3])
    labels = tf.placeholder(tf.float32, [None, 4])

    def weight(shape, seed):
        return tf.Variable(tf.truncated_normal(shape, stddev=0.2, seed=seed))

    if kind == "cnn":
        net = tf.nn.conv2d(images, weight([3, 3, 3, 8], 1), [1, 1, 1, 1], "SAME")
        net = tf.nn.relu(tf.nn.bias_add(net, tf.Variable(tf.zeros([8]))))
        net = tf.nn.depthwise_conv2d(net, weight([3, 3, 8, 2], 2), [1, 1, 1, 1], "SAME")
        net = tf.nn.max_pool(net, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        net = tf.nn.conv2d(net, weight([3, 3, 16, 8], 3), [1, 2, 2, 1], "VALID")
        net = tf.nn.relu(tf.nn.bias_add(net, tf.Variable(tf.zeros([8]))))
        flat = tf.reshape(net, [-1, 2 * 2 * 8])
        width = 2 * 2 * 8
    else:
        averaged = tf.nn.avg_pool(images, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        pooled = tf.nn.max_pool(averaged, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        net = tf.nn.relu(tf.nn.bias_add(pooled, tf.Variable(tf.zeros([3]))))
        flat = tf.reshape(net, [-1, 3 * 3 * 3])
        hidden = tf.nn.bias_add(tf.matmul(flat, weight([27, hidden_units], 4)),
                                tf.Variable(tf.zeros([hidden_units])))
        hidden = 0.5 * hidden * (1.0 + tf.erf(hidden * 0.7071067811865476))  # GELU
        flat, width = hidden, hidden_units
    logits = tf.nn.bias_add(tf.matmul(flat, weight([width, 4], 5)), tf.Variable(tf.zeros([4])))
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels,
                                                                     logits=logits))
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    return images, labels, loss, train


def main():
    kind = sys.argv[1]
    if "cold" in sys.argv[2:]:
        compiled._warm = False  # as with no `graph-inspector warm` stamp
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (16, 12, 12, 3)).astype(np.float32)
    y = np.eye(4, dtype=np.float32)[rng.randint(0, 4, 16)]
    fused = "fused" in sys.argv[2:]
    images, labels, loss, train = build(kind, 1 << 11 if fused else 32)
    config = tf.ConfigProto()
    if fused:
        from engine.proto import rewriter_config_pb2
        config.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.ON
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(STEPS):
            value, _ = sess.run([loss, train], {images: x, labels: y})
            print(repr(float(value)))
    print("loaded", *sorted(name for name in compiled.names() if compiled.loaded(name)))


if __name__ == "__main__":
    main()
