"""tf.distributions.Dirichlet and StudentT built the same way by TensorFlow and the engine:
seeded samples (RandomGamma; StudentT's RandomStandardNormal and a RandomGamma seeded by
gen_new_seed), log_prob, prob, cdf, entropy, mean, mode, stddev, variance (NaN and inf where
df is small), Dirichlet's covariance, KL(Dirichlet || Dirichlet), broadcasting, float64, static
shapes, names, the graph's nodes and the errors of invalid constructions.
Fixture tests/fixtures/mathops/dirichlet_student_t_distributions.json
(tools/make_dirichlet_student_t_fixtures.py)."""

import numpy as np

from gamma_beta_cases import run_checked
from string_cases import _jsonable as jsonable

ALPHA = np.array([[0.5, 1.0, 2.5], [4.0, 0.8, 1.7]], np.float32)
SIMPLEX = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], np.float32)
DF = np.array([0.8, 1.5, 3.0, 30.0], np.float32)
LOC = np.array([[0.5, -1.0, 2.0, 0.0], [0.0, 0.3, -0.7, 1.0]], np.float32)
X = np.array([[0.1, -2.0, 3.5, 0.0], [1.0, 0.0, -4.0, 2.5]], np.float32)


def build(tf):
    d = tf.distributions
    tf.set_random_seed(29)
    dirichlet = d.Dirichlet(ALPHA)
    flat = d.Dirichlet([1.0, 1.0, 1.0], name="flat")
    peaked = d.Dirichlet([2.0, 3.0, 4.0], name="peaked")
    dirichlet64 = d.Dirichlet(np.array([0.7, 1.3], np.float64), name="dirichlet64")
    student = d.StudentT(df=DF, loc=LOC, scale=1.5)
    tails = d.StudentT(df=np.broadcast_to(DF, LOC.shape), loc=LOC, scale=1.5, name="tails")
    student64 = d.StudentT(df=np.float64(4.0), loc=np.array([0.0, 1.0]),
                           scale=np.array([1.0, 2.0]), name="student64")
    out = {
        "dirichlet/sample": dirichlet.sample(seed=3),
        "dirichlet/sample_n": dirichlet.sample([2], seed=4),
        "dirichlet/log_prob": dirichlet.log_prob(SIMPLEX),
        "dirichlet/prob": dirichlet.prob(SIMPLEX[::-1]),
        "dirichlet/prob_broadcast": dirichlet.prob(SIMPLEX[0]),
        "dirichlet/entropy": dirichlet.entropy(),
        "dirichlet/mean": dirichlet.mean(),
        "dirichlet/variance": dirichlet.variance(),
        "dirichlet/stddev": dirichlet.stddev(),
        "dirichlet/covariance": dirichlet.covariance(),
        "dirichlet/batch_shape": dirichlet.batch_shape_tensor(),
        "dirichlet/event_shape": dirichlet.event_shape_tensor(),
        "dirichlet/kl": d.kl_divergence(dirichlet, flat),
        "peaked/mode": peaked.mode(),
        "flat/mode": flat.mode(),
        "flat/sample": flat.sample(4, seed=5),
        "peaked/kl": peaked.kl_divergence(flat),
        "dirichlet64/sample": dirichlet64.sample(3, seed=6),
        "dirichlet64/log_prob": dirichlet64.log_prob([0.25, 0.75]),
        "dirichlet64/entropy": dirichlet64.entropy(),
        "student/sample": student.sample(seed=7),
        "student/sample_n": student.sample([3], seed=8),
        "student/log_prob": student.log_prob(X),
        "student/prob": student.prob(X),
        "tails/cdf": tails.cdf(X),
        "tails/log_cdf": tails.log_cdf(X),
        "tails/survival": tails.survival_function(X),
        "student/entropy": student.entropy(),
        "student/mean": student.mean(),
        "student/mode": student.mode(),
        "student/variance": student.variance(),
        "student/stddev": student.stddev(),
        "student/batch_shape": student.batch_shape_tensor(),
        "student64/sample": student64.sample(2, seed=9),
        "student64/log_prob": student64.log_prob([0.5, -1.0]),
        "student64/cdf": student64.cdf([0.5, -1.0]),
        "student64/entropy": student64.entropy(),
        "student64/mean": student64.mean(),
    }
    shapes = {"batch": [str(x.batch_shape) for x in (dirichlet, flat, dirichlet64, student,
                                                         student64)],
              "event": [str(x.event_shape) for x in (dirichlet, flat, student)],
              "names": [x.name for x in (dirichlet, flat, peaked, dirichlet64, student,
                                         student64)],
              "dtypes": [x.dtype.name for x in (dirichlet, dirichlet64, student, student64)],
              "parameters": [sorted(x.parameters) for x in (dirichlet, student)],
              "sample_shapes": [str(out[k].shape) for k in ("dirichlet/sample_n",
                                                            "student/sample_n",
                                                            "flat/sample")],
              "printed": [str(dirichlet), repr(flat), str(student), repr(student64),
                          dirichlet.total_concentration.name, student.df.name,
                          student.scale.name]}
    return out, shapes


def errors(tf):
    """What each invalid construction raises: [error class, message]."""
    d = tf.distributions
    attempts = {
        "student_mixed_dtypes": lambda: d.StudentT(np.float32(3.0), np.float64(0.0), 1.0),
        "student_integer": lambda: d.StudentT(3, 0, 1),
        "kl_dirichlet_student": lambda: d.kl_divergence(d.Dirichlet([1.0, 2.0]),
                                                        d.StudentT(3.0, 0.0, 1.0)),
    }
    found = {}
    for key, attempt in attempts.items():
        with tf.Graph().as_default():
            try:
                attempt()
            except Exception as error:  # noqa: BLE001  (the class is what is compared)
                found[key] = [type(error).__name__, str(error)]
            else:
                found[key] = None
    return found


def _checked_graph(tf):
    d = tf.distributions
    alpha = tf.placeholder(tf.float32, [None, None], name="alpha")
    x = tf.placeholder(tf.float32, [None, None], name="x")
    df = tf.placeholder(tf.float32, [None], name="df")
    dirichlet = d.Dirichlet(alpha, validate_args=True, allow_nan_stats=False)
    student = d.StudentT(df, 0.5, 2.0, validate_args=True, allow_nan_stats=False)
    fetches = {"dirichlet/log_prob": dirichlet.log_prob(x), "dirichlet/mode": dirichlet.mode(),
               "dirichlet/mean": dirichlet.mean(), "student/mean": student.mean(),
               "student/variance": student.variance(), "student/log_prob": student.log_prob(
                   x[0, :2])}
    return fetches, [alpha, x, df]


def checked(tf):
    """validate_args=True and allow_nan_stats=False, valid and invalid arguments."""
    simplex = [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]
    return run_checked(tf, _checked_graph, {
        "valid": ([[1.5, 2.0, 3.0], [2.0, 1.2, 4.0]], simplex, [3.0, 4.0]),
        "zero_alpha": ([[0.0, 2.0, 3.0], [2.0, 1.2, 4.0]], simplex, [3.0, 4.0]),
        "one_class": ([[1.5], [2.0]], [[1.0], [1.0]], [3.0, 4.0]),
        "not_simplex": ([[1.5, 2.0, 3.0], [2.0, 1.2, 4.0]], [[0.2, 0.3, 0.6], [0.6, 0.1, 0.3]],
                        [3.0, 4.0]),
        "mode_undefined": ([[0.5, 2.0, 3.0], [2.0, 1.2, 4.0]], simplex, [3.0, 4.0]),
        "small_df": ([[1.5, 2.0, 3.0], [2.0, 1.2, 4.0]], simplex, [0.5, 1.5]),
        "negative_df": ([[1.5, 2.0, 3.0], [2.0, 1.2, 4.0]], simplex, [-1.0, 4.0])})


def run(tf):
    """{key: value as JSON}, the static shapes and names, the graph's nodes, the errors."""
    with tf.Graph().as_default() as graph:
        fetches, shapes = build(tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
        nodes = [f"{node.name} {node.op}" for node in graph.as_graph_def().node]
    return {"values": {key: jsonable(value) for key, value in values.items()},
            "shapes": shapes, "nodes": nodes, "errors": errors(tf), "checked": checked(tf)}
