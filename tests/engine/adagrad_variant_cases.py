"""tf.train.ProximalAdagradOptimizer and AdagradDAOptimizer built the same way by real
TensorFlow and the engine: three minimize steps on ref and resource variables, dense
gradients and sparse ones (a gather with a repeated row), with and without l1/l2; the
variables and every slot (by TensorFlow's slot names) after each step, and the nodes.
tools/make_adagrad_variant_fixtures.py writes TensorFlow's to
tests/fixtures/adagrad_variants/; tests/engine/test_adagrad_variants.py compares the
engine's."""

import numpy as np

_R = np.random.RandomState(5)
INIT = _R.uniform(-1.0, 1.0, (4, 3)).astype(np.float32)
TARGET = _R.uniform(-1.0, 1.0, (4, 3)).astype(np.float32)
ROWS = np.array([2, 0, 2], np.int32)
STEPS = 3
SLOTS = {"ProximalAdagrad": ["accumulator"],
         "AdagradDA": ["gradient_accumulator", "gradient_squared_accumulator"]}


def _optimizer(tf, kind, regularized):
    strengths = dict(l1_regularization_strength=0.05, l2_regularization_strength=0.1) \
        if regularized else {}
    if kind == "ProximalAdagrad":
        return tf.train.ProximalAdagradOptimizer(0.3, initial_accumulator_value=0.2,
                                                 **strengths)
    return tf.train.AdagradDAOptimizer(0.3, tf.train.get_or_create_global_step(),
                                       initial_gradient_squared_accumulator_value=0.2,
                                       **strengths)


def _case(kind, resource=False, sparse=False, regularized=False):
    def build(tf):
        w = tf.get_variable("w", initializer=INIT, use_resource=resource)
        if sparse:
            loss = tf.reduce_sum(tf.square(tf.gather(w, ROWS) - TARGET[:3]))
        else:
            loss = tf.reduce_sum(tf.square(w - TARGET))
        optimizer = _optimizer(tf, kind, regularized)
        step = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        fetch = {"w": w, **{slot: optimizer.get_slot(w, slot) for slot in SLOTS[kind]}}
        return step, {key: v.read_value() if resource else tf.identity(v)
                      for key, v in fetch.items()}, optimizer
    return build


CASES = {
    f"{kind}_{tag}": _case(kind, **options)
    for kind in SLOTS
    for tag, options in {"dense": {}, "dense_regularized": dict(regularized=True),
                         "resource": dict(resource=True, regularized=True),
                         "sparse": dict(sparse=True),
                         "sparse_regularized": dict(sparse=True, regularized=True),
                         "resource_sparse": dict(resource=True, sparse=True,
                                                 regularized=True)}.items()
}


def build_case(tf, name):
    with tf.variable_scope("model"):
        tf.train.get_or_create_global_step()
        return CASES[name](tf)


def run_case(tf, name):
    """Each fetch after each of STEPS steps (stacked), and the slot variables' names."""
    with tf.Graph().as_default():
        step, fetches, optimizer = build_case(tf, name)
        names = {"slot_names": " ".join(sorted(
            optimizer.get_slot(v, s).op.name for v in tf.trainable_variables()
            for s in optimizer.get_slot_names()))}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            runs = []
            for _ in range(STEPS):
                sess.run(step)
                # copies: the engine hands out a ref variable's live buffer through Identity
                runs.append({k: np.array(v) for k, v in sess.run(fetches).items()})
    values = {key: np.stack([run[key] for run in runs]) for key in fetches}
    values["slot_names"] = np.array(names["slot_names"])
    return values, {}


ERROR_CASES = {}


def run_error_case(tf, name):
    raise KeyError(name)
