"""tf.nn.fractional_max_pool and fractional_avg_pool built the same way by real TensorFlow
and the engine and run twice in one session: the pooled values, the row and column
boundaries drawn from the node's Philox stream (random shuffles and pseudo-random
boundaries, overlapping or not), the gradients of the sum of squares, static shapes and
nodes. tools/make_fractional_pool_fixtures.py writes TensorFlow's to
tests/fixtures/fractional_pool/; tests/engine/test_fractional_pool.py compares the engine's."""

import numpy as np

_R = np.random.RandomState(13)
IMAGES = _R.uniform(-1.0, 1.0, (2, 11, 9, 3)).astype(np.float32)
TIED = np.round(IMAGES * 2.0) / 2.0
RUNS = 2


def _pool(kind, ratio, images=IMAGES, **kwargs):
    def build(tf):
        x = tf.constant(images)
        pool = tf.nn.fractional_max_pool if kind == "max" else tf.nn.fractional_avg_pool
        out, rows, cols = pool(x, ratio, **kwargs)
        return {"out": out, "rows": rows, "cols": cols,
                "grad": tf.gradients(tf.reduce_sum(out * out), x)[0]}
    return build


CASES = {
    "max_random": _pool("max", [1.0, 1.44, 1.73, 1.0], seed=1, seed2=2, deterministic=True),
    "max_pseudo_random_overlapping": _pool("max", [1.0, 1.6, 1.3, 1.0], pseudo_random=True,
                                           overlapping=True, seed=3, seed2=4, deterministic=True),
    "max_ties": _pool("max", [1.0, 2.2, 1.5, 1.0], images=TIED, overlapping=True, seed=5,
                      seed2=0, deterministic=True),
    "max_divisible": _pool("max", [1.0, 1.0, 3.0, 1.0], seed=6, seed2=1, deterministic=True),
    "avg_random": _pool("avg", [1.0, 1.44, 1.73, 1.0], seed=7, seed2=8, deterministic=True),
    "avg_pseudo_random": _pool("avg", [1.0, 2.5, 1.9, 1.0], pseudo_random=True, seed=9,
                               seed2=10, deterministic=True, name="avg"),
    "avg_overlapping": _pool("avg", [1.0, 1.3, 1.7, 1.0], overlapping=True, seed=11,
                             seed2=12, deterministic=True),
}


def _static(tensor):
    shape = tensor.shape
    return None if shape.ndims is None else shape.as_list()


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    """Each output of RUNS runs stacked, and the static shapes."""
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        shapes = {key: _static(t) for key, t in outputs.items()}
        with tf.Session() as sess:
            runs = [sess.run(outputs) for _ in range(RUNS)]
    return {key: np.stack([run[key] for run in runs]) for key in outputs}, shapes


ERROR_CASES = {
    "max_rank3": ("FractionalMaxPool", dict(value=IMAGES[0]),
                  dict(pooling_ratio=[1.0, 1.5, 1.5, 1.0])),
    "max_batch_ratio": ("FractionalMaxPool", dict(value=IMAGES),
                        dict(pooling_ratio=[2.0, 1.5, 1.5, 1.0])),
    "avg_channel_ratio": ("FractionalAvgPool", dict(value=IMAGES),
                          dict(pooling_ratio=[1.0, 1.5, 1.5, 2.0])),
    "max_seed_not_deterministic": ("FractionalMaxPool", dict(value=IMAGES),
                                   dict(pooling_ratio=[1.0, 1.5, 1.5, 1.0], seed=3)),
}


def run_error_case(tf, name):
    import image_cases
    return image_cases.run_error_case(tf, name, ERROR_CASES)
