"""Small training and loss graphs, built the same way by real TensorFlow and by the engine.

Each builder takes the `tf` module (tensorflow.compat.v1 for tools/make_training_fixtures.py,
`engine` for the tests) and returns what to run. tests/fixtures/training/ holds TensorFlow's
values; tests/engine/test_optimizers.py and test_losses.py compare the engine's with them.
"""

import numpy as np

STEPS = 3
X = np.random.RandomState(11).uniform(-1, 1, size=(5, 3)).astype(np.float32)
TARGET = np.random.RandomState(12).uniform(-1, 1, size=(5, 2)).astype(np.float32)
W0 = np.random.RandomState(13).uniform(-1, 1, size=(3, 2)).astype(np.float32)
B0 = np.array([0.1, -0.2], np.float32)

OPTIMIZERS = {
    "sgd": lambda tf: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.1, 0.9),
    "nesterov": lambda tf: tf.train.MomentumOptimizer(0.05, 0.8, use_nesterov=True),
    "adam": lambda tf: tf.train.AdamOptimizer(0.05),
    "rmsprop": lambda tf: tf.train.RMSPropOptimizer(0.01),
    "rmsprop_momentum": lambda tf: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5),
    "rmsprop_centered": lambda tf: tf.train.RMSPropOptimizer(0.01, centered=True),
    "adagrad": lambda tf: tf.train.AdagradOptimizer(0.2),
}
CASES = [(name, resource) for name in OPTIMIZERS for resource in (False, True)]


def case_id(name, resource):
    return f"{name}_{'resource' if resource else 'ref'}"


def build_optimizer_case(tf, name, resource):
    """A linear model with a squared loss, minimised with a global step."""
    x = tf.constant(X, name="x")
    w = tf.Variable(W0, name="weights", use_resource=resource)
    b = tf.Variable(B0, name="biases", use_resource=resource)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - TARGET), name="loss")
    global_step = tf.train.get_or_create_global_step()
    optimizer = OPTIMIZERS[name](tf)
    train = optimizer.minimize(loss, global_step=global_step, name="train")
    slots = {f"{slot}/{v.op.name}": optimizer.get_slot(v, slot)
             for slot in optimizer.get_slot_names() for v in (w, b)}
    return {"loss": loss, "train": train, "weights": w, "biases": b,
            "global_step": global_step, "slots": slots,
            "slot_names": optimizer.get_slot_names(), "init": tf.global_variables_initializer()}


def run_optimizer_case(tf, name, resource):
    """Values after each step: loss (before the step), weights, biases, global step; and the
    slots after the last step, and the names of the graph's nodes."""
    graph = tf.Graph()
    with graph.as_default():
        g = build_optimizer_case(tf, name, resource)
        with tf.Session() as sess:
            sess.run(g["init"])
            rows = [sess.run([g["loss"], g["train"]])[0] for _ in range(STEPS)]
            values = {"loss": np.array(rows), "weights": sess.run(g["weights"]),
                      "biases": sess.run(g["biases"]),
                      "global_step": np.asarray(sess.run(g["global_step"]))}
            for key, slot in g["slots"].items():
                values["slot:" + key] = sess.run(slot)
    names = [n.name for n in graph.as_graph_def().node]
    return values, {"slot_names": g["slot_names"], "nodes": names}


LABELS = np.eye(4, dtype=np.float32)[[0, 3, 1, 3, 2, 0]]
SPARSE = np.array([0, 3, 1, 3, 2, 0], np.int32)
LOGITS = np.random.RandomState(21).uniform(-2, 2, size=(6, 4)).astype(np.float32)
PREDICTIONS = np.random.RandomState(22).uniform(-1, 1, size=(6, 2)).astype(np.float32)
REGRESSION = np.random.RandomState(23).uniform(-1, 1, size=(6, 2)).astype(np.float32)
ROW_WEIGHTS = np.array([1.0, 0.0, 2.0, 0.5, 0.0, 1.0], np.float32)


def build_loss_cases(tf):
    """Loss values and their gradients with respect to the logits or predictions."""
    logits = tf.constant(LOGITS, name="logits")
    predictions = tf.constant(PREDICTIONS, name="predictions")
    out = {
        "mse": tf.losses.mean_squared_error(REGRESSION, predictions),
        "mse_weighted": tf.losses.mean_squared_error(REGRESSION, predictions,
                                                     weights=ROW_WEIGHTS[:, None]),
        "mse_sum": tf.losses.mean_squared_error(REGRESSION, predictions, weights=0.5,
                                                reduction=tf.losses.Reduction.SUM),
        "mse_none": tf.losses.mean_squared_error(REGRESSION, predictions,
                                                 reduction=tf.losses.Reduction.NONE),
        "mse_batch": tf.losses.mean_squared_error(
            REGRESSION, predictions, weights=ROW_WEIGHTS[:, None],
            reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE),
        "mse_mean": tf.losses.mean_squared_error(REGRESSION, predictions,
                                                 weights=ROW_WEIGHTS[:, None],
                                                 reduction=tf.losses.Reduction.MEAN),
        "softmax": tf.losses.softmax_cross_entropy(LABELS, logits),
        "softmax_smoothed": tf.losses.softmax_cross_entropy(LABELS, logits,
                                                            weights=ROW_WEIGHTS,
                                                            label_smoothing=0.1),
        "sparse": tf.losses.sparse_softmax_cross_entropy(SPARSE, logits),
        "sparse_weighted": tf.losses.sparse_softmax_cross_entropy(SPARSE, logits,
                                                                  weights=ROW_WEIGHTS[:, None]),
        "nn_softmax_v1": tf.nn.softmax_cross_entropy_with_logits(labels=LABELS,
                                                                 logits=logits),
        "nn_softmax_v2": tf.nn.softmax_cross_entropy_with_logits_v2(labels=LABELS,
                                                                    logits=logits),
        "nn_sparse": tf.nn.sparse_softmax_cross_entropy_with_logits(labels=SPARSE,
                                                                    logits=logits),
        "l2_loss": tf.nn.l2_loss(predictions),
        "absdiff": tf.losses.absolute_difference(REGRESSION, predictions,
                                                 weights=ROW_WEIGHTS[:, None]),
        "cosine": tf.losses.cosine_distance(tf.nn.l2_normalize(REGRESSION, 1),
                                            tf.nn.l2_normalize(predictions, 1), axis=1),
        "log_loss": tf.losses.log_loss(REGRESSION > 0, tf.sigmoid(predictions)),
        "pairwise": tf.losses.mean_pairwise_squared_error(REGRESSION, predictions,
                                                          weights=ROW_WEIGHTS[:, None]),
        "hinge": tf.losses.hinge_loss(LABELS, logits, reduction=tf.losses.Reduction.SUM),
        "sigmoid": tf.losses.sigmoid_cross_entropy(LABELS, logits, weights=ROW_WEIGHTS[:, None],
                                                   label_smoothing=0.2),
        "sigmoid_none": tf.losses.sigmoid_cross_entropy(LABELS, logits, loss_collection=None,
                                                        reduction=tf.losses.Reduction.NONE),
    }
    tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, tf.nn.l2_loss(predictions * 0.1))
    out["l2_regularization"] = tf.losses.get_regularization_loss()
    out["losses_collected"] = tf.stack([tf.reduce_sum(loss) for loss in tf.losses.get_losses()])
    for key in list(out):
        if key.startswith(("mse", "l2", "absdiff", "cosine", "log_loss", "pairwise")):
            out["grad:" + key] = tf.gradients(out[key], predictions)[0]
        else:
            out["grad:" + key] = tf.gradients(out[key], logits)[0]
    return out


def build_dropout_cases(tf):
    """Seeded dropout: graph-level seed 4, op seeds, keep_prob and rate forms."""
    tf.set_random_seed(4)
    x = tf.constant(np.arange(1, 41, dtype=np.float32).reshape(5, 8), name="x")
    out = {
        "keep_prob": tf.nn.dropout(x, keep_prob=0.6, seed=7),
        "rate": tf.nn.dropout(x, rate=0.25, seed=8),
        "rate_tensor": tf.nn.dropout(x, rate=tf.constant(0.5), seed=9),
        "noise_shape": tf.nn.dropout(x, rate=0.5, noise_shape=[5, 1], seed=10),
    }
    out["grad:rate"] = tf.gradients(tf.reduce_sum(out["rate"] * x), x)[0]
    return out


def run_named(tf, build):
    graph = tf.Graph()
    with graph.as_default():
        fetches = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
    return values, [n.name for n in graph.as_graph_def().node]
