"""tf.layers graphs built the same way by real TensorFlow and by the engine.

Each builder takes the `tf` module (tensorflow.compat.v1 with tf_keras's legacy layers for
tools/make_layers_fixtures.py, `engine` for tests/engine/test_layers.py) and returns the
tensors to fetch by key, the feeds, and the ops to run after the first fetch (the
UPDATE_OPS); `run_case` fetches everything, runs the updates and fetches the variables
again ("after:<name>"). Gradients are fetched as "grad:<variable or input>".
"""

import numpy as np

IMAGES = np.random.RandomState(31).uniform(-1, 1, size=(2, 6, 6, 2)).astype(np.float32)
ROWS = np.random.RandomState(32).uniform(-1, 1, size=(5, 3)).astype(np.float32)
SEQUENCES = np.random.RandomState(33).uniform(-1, 1, size=(2, 4, 3)).astype(np.float32)


def _with_gradients(tf, out, loss, inputs):
    """Adds the loss, and its gradient for every trainable variable and the given inputs."""
    out["loss"] = loss
    sources = list(tf.trainable_variables()) + list(inputs.values())
    names = [v.op.name for v in tf.trainable_variables()] + list(inputs)
    for name, grad in zip(names, tf.gradients(loss, sources)):
        out["grad:" + name] = grad
    return out


def build_dense(tf):
    """Dense layers: default names and glorot kernels, activation, no bias, a named layer
    reused, rank-3 inputs (tensordot), a custom initializer; seeded as TensorFlow."""
    tf.set_random_seed(5)
    x = tf.constant(ROWS, name="x")
    hidden = tf.layers.dense(x, 4, activation=tf.nn.relu)
    hidden = tf.layers.dense(hidden, 4, activation=tf.tanh, use_bias=False)
    logits = tf.layers.dense(hidden, 2, name="logits",
                             kernel_initializer=tf.truncated_normal_initializer(stddev=0.5),
                             bias_initializer=tf.constant_initializer(0.1))
    again = tf.layers.dense(hidden, 2, name="logits", reuse=True)
    seq = tf.constant(SEQUENCES, name="seq")
    projected = tf.layers.dense(seq, 5, name="projection")
    loss = (tf.reduce_mean(tf.square(logits)) + tf.reduce_sum(again)
            + tf.reduce_mean(projected))
    out = {"hidden": hidden, "logits": logits, "again": again, "projected": projected}
    return _with_gradients(tf, out, loss, {"x": x}), {}, []


def build_conv(tf):
    """conv2d (same and valid padding, strides, activation), both poolings, flatten."""
    tf.set_random_seed(6)
    images = tf.constant(IMAGES, name="images")
    conv = tf.layers.conv2d(images, 3, 3, padding="same", activation=tf.nn.relu)
    pooled = tf.layers.max_pooling2d(conv, 2, 2)
    averaged = tf.layers.average_pooling2d(conv, [3, 3], 2, padding="same")
    conv2 = tf.layers.conv2d(averaged, 4, [2, 2], strides=(1, 1), name="conv_b",
                             kernel_initializer=tf.random_normal_initializer(stddev=0.2))
    flat = tf.concat([tf.layers.flatten(pooled), tf.layers.flatten(conv2)], axis=1)
    logits = tf.layers.dense(flat, 3)
    loss = tf.reduce_mean(tf.square(logits))
    out = {"conv": conv, "pooled": pooled, "averaged": averaged, "conv2": conv2,
           "flat": flat, "logits": logits}
    return _with_gradients(tf, out, loss, {"images": images}), {}, []


def build_dropout(tf):
    """tf.layers.dropout: training False (identity), True, and a placeholder (a cond)."""
    tf.set_random_seed(7)
    x = tf.constant(np.arange(1, 25, dtype=np.float32).reshape(4, 6), name="x")
    training = tf.placeholder_with_default(False, [], name="training")
    out = {"off": tf.layers.dropout(x, 0.5),
           "on": tf.layers.dropout(x, 0.4, training=True),
           "seeded": tf.layers.dropout(x, 0.5, training=True, seed=3),
           "fed": tf.layers.dropout(x, 0.25, training=training, name="fed_dropout"),
           "noise": tf.layers.dropout(x, 0.5, noise_shape=[4, 1], training=True)}
    out["grad:x"] = tf.gradients(tf.reduce_sum(out["fed"] * x), x)[0]
    return out, {"training": True}, []


def build_batch_norm(tf, training_kind):
    """batch_normalization on images (fused) and rows (moments), trained one step of
    updates; `training_kind` is "true", "false" or "fed" (a placeholder fed True)."""
    tf.set_random_seed(8)
    images = tf.constant(IMAGES, name="images")
    rows = tf.constant(ROWS, name="rows")
    feeds = {}
    if training_kind == "fed":
        training = tf.placeholder(tf.bool, [], name="training")
        feeds["training"] = True
    else:
        training = training_kind == "true"
    fused = tf.layers.batch_normalization(images, training=training)
    plain = tf.layers.batch_normalization(rows, training=training, momentum=0.9,
                                          name="rows_bn", center=False)
    # weighted, so that the loss's gradient does not cancel to rounding noise per channel
    loss = tf.reduce_sum(tf.square(fused) * IMAGES[::-1]) + tf.reduce_sum(plain * rows)
    out = _with_gradients(tf, {"fused": fused, "plain": plain}, loss,
                          {"images": images, "rows": rows})
    return out, feeds, tf.get_collection(tf.GraphKeys.UPDATE_OPS)


def build_conv_dilated(tf):
    """tf.layers.conv1d with a dilation rate (valid, same, causal) over sequences of unknown
    length, and conv2d with one: tf.nn.convolution over SpaceToBatchND's blocks."""
    tf.set_random_seed(10)
    sequence = tf.constant(np.linspace(-1, 1, 30, dtype=np.float32).reshape(1, 10, 3),
                           name="sequence")
    held = tf.placeholder_with_default(sequence, [None, None, 3])
    out = {pad: tf.layers.conv1d(held, 4, 2, dilation_rate=3, padding=pad, name="c_" + pad)
           for pad in ("valid", "same", "causal")}
    images = tf.constant(IMAGES, name="images")
    out["conv2d"] = tf.layers.conv2d(images, 3, 3, dilation_rate=(2, 1), padding="same",
                                     activation=tf.nn.relu)
    loss = tf.add_n([tf.reduce_sum(tf.square(v)) for v in out.values()])
    return _with_gradients(tf, out, loss, {"sequence": sequence, "images": images}), {}, []


def build_batch_renorm(tf):
    """batch_normalization(renorm=True) on rows, training fed: the renorm correction clipped
    by rmax/rmin/dmax, its statistics and the moving stddev updated by the UPDATE_OPS."""
    tf.set_random_seed(9)
    rows = tf.constant(ROWS, name="rows")
    training = tf.placeholder(tf.bool, [], name="training")
    out = tf.layers.batch_normalization(
        rows * 3.0 + 1.0, training=training, momentum=0.8, renorm=True,
        renorm_clipping={"rmax": 1.5, "rmin": 0.8, "dmax": 0.5}, renorm_momentum=0.7)
    loss = tf.reduce_sum(out * rows)
    return (_with_gradients(tf, {"out": out}, loss, {"rows": rows}), {"training": True},
            tf.get_collection(tf.GraphKeys.UPDATE_OPS))


CASES = {
    "dense": build_dense,
    "conv": build_conv,
    "dropout": build_dropout,
    "batch_norm_true": lambda tf: build_batch_norm(tf, "true"),
    "batch_norm_false": lambda tf: build_batch_norm(tf, "false"),
    "batch_norm_fed": lambda tf: build_batch_norm(tf, "fed"),
    "batch_renorm": build_batch_renorm,
    "conv_dilated": build_conv_dilated,
}


def run_case(tf, name, cases=None):
    """(values by key, description: node names, variables and collections by name); the
    "sampler:" fetches again in a second run ("rerun:")."""
    graph = tf.Graph()
    with graph.as_default():
        fetches, feeds, updates = (cases or CASES)[name](tf)
        feed_dict = {graph.get_tensor_by_name(k + ":0"): v for k, v in feeds.items()}
        variables = tf.global_variables()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = {"init:" + v.op.name: sess.run(v) for v in variables}
            values.update(sess.run(fetches, feed_dict))
            samplers = {k: t for k, t in fetches.items() if k.startswith("sampler:")}
            values.update({"rerun:" + k: v for k, v in sess.run(samplers, feed_dict).items()})
            if updates:
                sess.run(updates, feed_dict)
                values.update({"after:" + v.op.name: sess.run(v) for v in variables})
    description = {
        "nodes": [n.name for n in graph.as_graph_def().node],
        "ops": [n.op for n in graph.as_graph_def().node],
        "global_variables": [v.name for v in variables],
        "trainable_variables": [v.name for v in graph.get_collection("trainable_variables")],
        "update_ops": [op.name for op in graph.get_collection("update_ops")],
    }
    return {k: np.asarray(v) for k, v in values.items()}, description
