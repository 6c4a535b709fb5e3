"""tf.nn.embedding_lookup, the candidate samplers, nce_loss, sampled_softmax_loss and
in_top_k, built the same way by real TensorFlow and by the engine (run by
layers_cases.run_case; fixtures in tests/fixtures/layers/ by tools/make_layers_fixtures.py).
Samplers are fetched twice ("rerun:"), since their streams move on every run."""

import numpy as np

INPUTS = np.random.RandomState(41).uniform(-1, 1, size=(4, 3)).astype(np.float32)
LABELS = np.array([[1], [4], [2], [9]], np.int64)


def build_embedding(tf):
    """A lookup, its IndexedSlices gradient, and one GradientDescent step through it."""
    tf.set_random_seed(9)
    embeddings = tf.Variable(tf.random_uniform([10, 3], -1.0, 1.0), name="embeddings")
    ids = tf.constant([[1, 3], [0, 3]], name="ids")
    looked_up = tf.nn.embedding_lookup(embeddings, ids)
    loss = tf.reduce_sum(tf.square(looked_up))
    grad = tf.gradients(loss, embeddings)[0]
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    out = {"looked_up": looked_up, "grad_values": grad.values, "grad_indices": grad.indices,
           "grad_dense_shape": grad.dense_shape,
           "grad_is_indexed_slices": tf.constant(type(grad).__name__ == "IndexedSlices")}
    return out, {}, [train]


def build_samplers(tf):
    """Log-uniform and uniform samplers, unique or not, with op seeds and the graph seed."""
    tf.set_random_seed(10)
    true_classes = tf.constant([[0, 3], [7, 1], [2, 2]], tf.int64, name="true_classes")
    out = {}
    for unique in (True, False):
        tag = "unique" if unique else "repeated"
        for label, sampler in (("log_uniform", tf.nn.log_uniform_candidate_sampler),
                               ("uniform", tf.nn.uniform_candidate_sampler)):
            sampled, true_count, sampled_count = sampler(true_classes, num_true=2,
                                                         num_sampled=6, unique=unique,
                                                         range_max=20)
            out[f"sampler:{label}_{tag}"] = sampled
            out[f"sampler:{label}_{tag}_true_count"] = true_count
            out[f"sampler:{label}_{tag}_sampled_count"] = sampled_count
    seeded = tf.nn.log_uniform_candidate_sampler(true_classes, 2, 50, True, 1000, seed=77)
    out["sampler:log_uniform_wide"], out["sampler:log_uniform_wide_count"] = seeded[0], seeded[2]
    hits = tf.nn.compute_accidental_hits(true_classes, tf.constant([2, 5, 0, 1], tf.int64), 2)
    out["hits_rows"], out["hits_ids"], out["hits_weights"] = hits
    return out, {}, []


def build_sampled_losses(tf):
    """nce_loss and sampled_softmax_loss (accidental hits removed), their gradients, a step."""
    tf.set_random_seed(11)
    weights = tf.Variable(tf.truncated_normal([10, 3], stddev=0.5), name="weights")
    biases = tf.Variable(tf.zeros([10]), name="biases")
    inputs = tf.constant(INPUTS, name="inputs")
    nce = tf.reduce_mean(tf.nn.nce_loss(weights, biases, LABELS, inputs, num_sampled=4,
                                        num_classes=10))
    softmax = tf.reduce_mean(tf.nn.sampled_softmax_loss(weights, biases, LABELS, inputs,
                                                        num_sampled=5, num_classes=10))
    loss = nce + softmax
    grads = tf.gradients(loss, [weights, biases, inputs])
    out = {"nce": nce, "softmax": softmax, "grad:inputs": grads[2],
           "grad:weights": tf.convert_to_tensor(grads[0]),
           "grad:biases": tf.convert_to_tensor(grads[1]),
           "logistic": tf.nn.sigmoid_cross_entropy_with_logits(labels=[[0.0, 1.0, 0.5]],
                                                               logits=[[-3.0, 0.5, 20.0]])}
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    return out, {}, [train]


def build_in_top_k(tf):
    predictions = tf.constant([[0.1, 0.8, 0.1, 0.0], [0.3, 0.3, 0.2, 0.2],
                               [0.5, np.inf, 0.1, 0.0], [0.0, 0.2, 0.7, 0.1]], name="p")
    targets = tf.constant([1, 1, 0, 3], name="targets")
    return {f"k{k}": tf.nn.in_top_k(predictions, targets, k) for k in (1, 2, 3)}, {}, []


CASES = {
    "embedding": build_embedding,
    "samplers": build_samplers,
    "sampled_losses": build_sampled_losses,
    "in_top_k": build_in_top_k,
}
