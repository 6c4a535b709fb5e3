"""Batch renormalization (Ioffe 2017) in TF 1.x through tf.layers.batch_normalization(
renorm=True, renorm_clipping, renorm_momentum) beside plain batch norm, trained on small
non-i.i.d. batches fed by a tf.data pipeline whose augmentation runs in NumPy through
tf.py_func (set_shape after it, as the era's input pipelines had to); the UPDATE_OPS run with
the train op, and the inference-mode outputs compared with the training-mode ones."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf


def augment(features, label):
    # NumPy work inside the pipeline: a deterministic jitter keyed on the label
    noise = np.sin(np.arange(features.shape[0], dtype=np.float32) * (label + 1)) * 0.05
    return (features + noise).astype(np.float32), label


def network(x, training, renorm):
    with tf.variable_scope("renorm" if renorm else "plain"):
        h = tf.layers.dense(x, 16, use_bias=False, name="fc1",
                            kernel_initializer=tf.glorot_uniform_initializer(seed=1))
        kwargs = dict(renorm=True, renorm_clipping={"rmax": 2.0, "rmin": 0.5, "dmax": 1.0},
                      renorm_momentum=0.9) if renorm else {}
        h = tf.layers.batch_normalization(h, training=training, momentum=0.9, name="bn",
                                          **kwargs)
        h = tf.nn.relu(h)
        return tf.layers.dense(h, 3, name="fc2",
                               kernel_initializer=tf.glorot_uniform_initializer(seed=2))


def main():
    tf.reset_default_graph()
    tf.set_random_seed(12)
    rng = np.random.RandomState(12)
    labels = np.repeat(np.arange(3), 40)  # sorted: each small batch mostly one class
    centers = rng.randn(3, 6).astype(np.float32) * 2.0
    features = (centers[labels] + rng.randn(120, 6).astype(np.float32)).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels.astype(np.int64)))

    def py_augment(x, y):
        x, y = tf.py_func(augment, [x, y], [tf.float32, tf.int64])
        x.set_shape([6])
        y.set_shape([])
        return x, y

    dataset = dataset.map(py_augment).batch(8).repeat(3)
    x, y = dataset.make_one_shot_iterator().get_next()
    training = tf.placeholder_with_default(True, [])
    losses, accuracies, trains = [], [], []
    for renorm in (False, True):
        logits = network(x, training, renorm)
        loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
        scope = "renorm" if renorm else "plain"
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope)):
            trains.append(tf.train.MomentumOptimizer(0.05, 0.9).minimize(
                loss, var_list=tf.trainable_variables(scope)))
        losses.append(loss)
        accuracies.append(tf.reduce_mean(tf.to_float(tf.equal(tf.argmax(logits, 1), y))))
    print("renorm variables", sorted(v.name for v in tf.global_variables()
                                     if v.name.startswith("renorm/bn")))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        step = 0
        try:
            while True:
                values = sess.run(losses + trains)
                if step % 10 == 0:
                    print("step %2d plain %.5f renorm %.5f" % (step, values[0], values[1]))
                step += 1
        except tf.errors.OutOfRangeError:
            print("pipeline done after", step, "steps")
        feed = {x: features, y: labels, training: False}
        print("inference accuracy plain %.4f renorm %.4f" % tuple(sess.run(accuracies, feed)))
        for name in ("plain/bn/moving_mean", "renorm/bn/moving_mean",
                     "renorm/bn/renorm_mean", "renorm/bn/renorm_stddev"):
            value = [v for v in tf.global_variables() if v.op.name == name][0]
            print(name, np.round(sess.run(value)[:4], 4).tolist())


if __name__ == "__main__":
    main()
