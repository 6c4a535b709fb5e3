"""A TF 1.x 3-D CNN over short video clips (C3D style, 2016-2018): tf.layers.conv3d (same and
valid padding, strides, no bias), max_pooling3d and average_pooling3d, a dense softmax and
Momentum; prints the variables, static shapes, the conv and pool nodes and the losses."""
# fixture threads: 1 2 4

import numpy as np

import engine as tf

FRAMES, SIZE, CLASSES = 4, 6, 2


def main():
    tf.reset_default_graph()
    tf.set_random_seed(17)
    rng = np.random.RandomState(8)
    clips = tf.placeholder(tf.float32, [None, FRAMES, SIZE, SIZE, 1], name="clips")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    h = tf.layers.conv3d(clips, 4, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.max_pooling3d(h, (1, 2, 2), (1, 2, 2))
    h = tf.layers.conv3d(h, 6, (2, 2, 2), strides=(2, 1, 1), use_bias=False, name="temporal")
    h = tf.layers.average_pooling3d(tf.nn.relu(h), 2, 1, padding="same")
    logits = tf.layers.dense(tf.layers.flatten(h), CLASSES)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
    print([v.name for v in tf.trainable_variables()])
    print([str(t.shape) for t in (h, logits)])
    print([n.name for n in tf.get_default_graph().as_graph_def().node
           if n.op in ("Conv3D", "MaxPool3D", "AvgPool3D")])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(10):
            y = rng.randint(0, CLASSES, size=6).astype(np.int32)
            x = rng.randn(6, FRAMES, SIZE, SIZE, 1) * 0.5
            x[y == 1, :, 2:4, 2:4] += np.linspace(0, 2, FRAMES)[:, None, None, None]
            value, _ = sess.run([loss, train], {clips: x, labels: y})
            if step % 3 == 0:
                print("step %d loss %.5f" % (step, value))


if __name__ == "__main__":
    main()
