"""Products and quotients of normal floats too small for a normal float: TensorFlow's CPU
kernels run under FTZ/DAZ, so Mul, RealDiv, Square and SquaredDifference write a signed zero
where NumPy keeps a denormal (float32 and float64). Each operand comes through
placeholder_with_default, so no constant folding computes it elsewhere.
tools/make_ftz_fixtures.py writes TensorFlow's values to tests/fixtures/ftz/;
tests/engine/test_ftz_products.py compares the engine's, bit for bit."""

import numpy as np


def _large(dtype):
    return 1e20 if dtype == np.float32 else 1e150


def _operands(dtype):
    """(x, y) whose products and quotients run from normal through denormal to zero, with
    both signs, and a NaN and an infinity."""
    small = 1e-20 if dtype == np.float32 else 1e-160
    x = np.array([3.0, -2.5, 7.0, -1.5, 4.0, 0.5, 1.0, np.nan, np.inf, 0.0, -6.0, 2.0])
    y = np.array([0.5, 2.0, -3.0, -7.0, 0.25, 9.0, 1e-2, 1.0, 1.0, 5.0, 1e-3, 1e3])
    return ((x * small).astype(dtype), (y * small).astype(dtype))


def _held(tf, value):
    return tf.placeholder_with_default(value, value.shape)


def _binary(op, dtype):
    def build(tf):
        x, y = _operands(dtype)
        a, b = _held(tf, x), _held(tf, y)
        if op == "div":  # a small numerator over a large denominator
            return {"out": tf.realdiv(a, _held(tf, np.array(_large(dtype), dtype)))}
        return {"out": getattr(tf, op)(a, b)}
    return build


def _square(dtype):
    def build(tf):
        x, y = _operands(dtype)
        a, b = _held(tf, x), _held(tf, y)
        return {"square": tf.square(a), "squared_difference": tf.squared_difference(a, b)}
    return build


def chain_inputs(dtype):
    """The chain's three operands, 1200 values each (the scale held, not a constant, so
    that no ConstantPushDown reorders the products)."""
    x, y = _operands(dtype)
    return np.tile(x, 100), np.tile(y, 100), np.full(1200, _large(dtype), dtype)


# (a * b) * c + (a / c) * c + a as a fused chain's steps (tests/engine/test_ftz_products.py
# compiles it): a product and a quotient flushed, each scaled back up, added to an operand.
CHAIN_OPS = ["Mul", "Mul", "RealDiv", "Mul", "AddV2", "AddV2"]
CHAIN_ARGS = ["i0,i1", "t0,i2", "i0,i2", "t2,i2", "t1,t3", "t4,i0"]


def _chain(dtype):
    def build(tf):
        a, b, c = (_held(tf, v) for v in chain_inputs(dtype))
        return {"out": (a * b) * c + (a / c) * c + a}
    return build


CASES = {}
for _dtype in (np.float32, np.float64):
    _name = np.dtype(_dtype).name
    CASES[f"multiply_{_name}"] = _binary("multiply", _dtype)
    CASES[f"realdiv_{_name}"] = _binary("div", _dtype)
    CASES[f"square_{_name}"] = _square(_dtype)
    CASES[f"chain_{_name}"] = _chain(_dtype)
ERROR_CASES = {}


def _static(tensor):
    shape = tensor.shape
    return None if shape.ndims is None else shape.as_list()


def build_case(tf, name):
    return CASES[name](tf)


def run_case(tf, name):
    with tf.Graph().as_default():
        outputs = build_case(tf, name)
        shapes = {key: _static(t) for key, t in outputs.items()}
        with tf.Session() as sess:
            values = sess.run(outputs)
    return values, shapes


def run_error_case(tf, name):
    raise KeyError(name)
