"""The float32 inputs TensorFlow's CPU exp, log, log1p, expm1, tanh, sigmoid, softplus, rsqrt,
reciprocal, sin and cos are checked on: a range per function (outside it the result is a constant or
the input), grids of evenly spaced float32 bit patterns over it, and the special values; and
the inputs of float16 Rsqrt and Reciprocal and of SqrtGrad, RsqrtGrad and ReciprocalGrad.
Shared by tools/make_eigen_math_fixtures.py (TensorFlow's outputs) and
tests/engine/test_eigen_float32.py and test_eigen_reciprocal.py (the engine's)."""

import hashlib
import importlib

import numpy as np

# name -> (the TF1 function's path under tf, the lowest and highest input of interest)
FUNCTIONS = {
    "exp": ("exp", -105.0, 89.0),
    "log": ("log", 0.0, float(np.finfo(np.float32).max)),
    "log1p": ("log1p", -1.0, float(np.finfo(np.float32).max)),
    "expm1": ("expm1", -89.0, 89.0),
    "tanh": ("tanh", -9.0, 9.0),
    "sigmoid": ("sigmoid", -105.0, 18.0),
    "softplus": ("nn.softplus", -105.0, 89.0),
    "rsqrt": ("rsqrt", -1.0, float("inf")),
    "reciprocal": ("reciprocal", -float("inf"), float("inf")),
    "sin": ("sin", -float("inf"), float("inf")),
    "cos": ("cos", -float("inf"), float("inf")),
}
# The engine's modules holding a function's reference (engine/kernels/cpu) and its compiled
# lanes (engine/kernels/compiled), where not eigen_float32 and eigen_numba.
_MODULES = {"sin": ("eigen_trig", "eigen_trig_numba"), "cos": ("eigen_trig", "eigen_trig_numba")}


def reference(name):
    """(the engine's NumPy reference module of `name`, its packet path, its scalar path)."""
    module = importlib.import_module(
        "engine.kernels.cpu." + _MODULES.get(name, ("eigen_float32",))[0])
    packet = getattr(module, f"packet_{name}", None) or module.tanh_float
    scalar = getattr(module, f"scalar_{name}", None) or module.tanh_float
    return module, packet, scalar


def lanes_module(name):
    """The module of engine/kernels/compiled holding `name`'s numba lanes."""
    return importlib.import_module(
        "engine.kernels.compiled." + _MODULES.get(name, (None, "eigen_numba"))[1])

SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-40, -1e-40, 1.2e-38, -1.2e-38,
                     1e-30, -1e-30, 1e-7, -1e-7, 8.0, -8.0, 16.6355324, 17.0, 20.0, -20.0, 87.0,
                     -87.0, 88.0, -88.0, 88.7, 88.8, -103.0, -104.0, -110.0, 1e30, -1e30,
                     3.4e38, -3.4e38, np.inf, -np.inf, np.nan, -np.nan], np.float32)

SAMPLE_SIZE = 4096        # the grid whose outputs the fixture holds
DIGEST_SIZE = 1 << 20     # the grid whose outputs it holds a digest of
SCALAR_SAMPLE_SIZE = 256  # the grid run one value at a time (Eigen's scalar path)
MIXED_SIZE = 21           # a tensor of two packets and a tail of five


# The gradient kernels whose float32 order is Eigen's: (y or features, dy) of 21 elements.
_GRAD_RNG = np.random.RandomState(21)
GRAD_INPUTS = {"SigmoidGrad": (_GRAD_RNG.uniform(0, 1, 21).astype(np.float32),
                               _GRAD_RNG.uniform(-3, 3, 21).astype(np.float32)),
               "SoftplusGrad": (_GRAD_RNG.uniform(-20, 20, 21).astype(np.float32),
                                _GRAD_RNG.uniform(-3, 3, 21).astype(np.float32))}


# Rsqrt, Reciprocal, Sin and Cos in float16 (packets through float32's functions): every half.
HALF_FUNCTIONS = ("rsqrt", "reciprocal", "sin", "cos")

# SqrtGrad, RsqrtGrad, ReciprocalGrad and InvGrad (y, dy): GRAD_SIZE values, whole packets and a
# tail of 3 (floats and doubles), with zeros, infinities, NaN and denormals among both.
RECIPROCAL_GRADS = ("SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad")
GRAD_DTYPES = ("float32", "float64", "float16", "complex64")
GRAD_SIZE = 259
_GRAD_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e-310, 3e38, -3e38,
                  1e-20, 1.0, -1.0, 65504.0, 6e-8]


def grad_inputs(dtype):
    """(y, dy) of GRAD_SIZE values of `dtype` for the *Grad ops of RECIPROCAL_GRADS."""
    rng = np.random.RandomState(42)
    y = np.exp(rng.uniform(-12, 12, GRAD_SIZE)) * rng.choice([-1.0, 1.0], GRAD_SIZE)
    dy = rng.uniform(-3, 3, GRAD_SIZE)
    y[:len(_GRAD_SPECIALS)] = _GRAD_SPECIALS
    dy[len(_GRAD_SPECIALS):2 * len(_GRAD_SPECIALS)] = _GRAD_SPECIALS
    dy[::23], y[5::29] = 0.0, 0.0
    dy[-3:] = [0.0, -0.0, 1e-40]  # in the tail (the scalar path)
    y[-2:] = [np.inf, 2.5]
    if dtype.startswith("complex"):
        y = y + 1j * rng.uniform(-2, 2, GRAD_SIZE)
        dy = dy + 1j * rng.uniform(-2, 2, GRAD_SIZE)
    with np.errstate(over="ignore"):
        return y.astype(dtype), dy.astype(dtype)


# A LayerNorm as BERT writes it, (x - mean) * rsqrt(var + 1e-12) with tf.nn.moments over the
# last axis, on LAYER_NORM_SHAPE float32 values.
LAYER_NORM_SHAPE = (1024, 768)


def layer_norm_input():
    return np.random.RandomState(7).normal(0.3, 2.0, LAYER_NORM_SHAPE).astype(np.float32)


def layer_norm(tf, x, mean=None, variance=None):
    """The LayerNorm's (mean, variance, output) tensors; `mean` and `variance` (tensors) stand
    in for the moments where given."""
    if mean is None:
        mean, variance = tf.nn.moments(x, [-1], keep_dims=True)
    return mean, variance, (x - mean) * tf.rsqrt(variance + 1e-12)


def every_half():
    """Every float16 bit pattern (65,536: whole packets)."""
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)


def _ordered(x):
    """float32 -> int64 keeping the order (negative floats are sign and magnitude)."""
    bits = np.asarray(x, np.float32).view(np.int32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)


def from_ordered(keys):
    keys = np.asarray(keys, np.int64)
    bits = np.where(keys < 0, (-keys) | 0x80000000, keys)
    return bits.astype(np.uint32).view(np.float32)


def grid(name, count):
    """`count` float32 inputs of `name`'s range, evenly spaced by bit pattern, ends included."""
    _, low, high = FUNCTIONS[name]
    keys = np.linspace(_ordered(np.float32(low)), _ordered(np.float32(high)), count)
    return from_ordered(np.round(keys).astype(np.int64))


def all_floats(name, start=None, stop=None):
    """Every float32 of `name`'s range, by ordered key from `start` to `stop` (a chunk)."""
    _, low, high = FUNCTIONS[name]
    first, last = _ordered(np.float32(low)), _ordered(np.float32(high))
    start = first if start is None else max(start, first)
    stop = last + 1 if stop is None else min(stop, last + 1)
    return from_ordered(np.arange(start, stop, dtype=np.int64))


def key_range(name):
    _, low, high = FUNCTIONS[name]
    return int(_ordered(np.float32(low))), int(_ordered(np.float32(high))) + 1


def sample_inputs(name):
    """The sample grid and the special values, padded to whole packets (all packet path)."""
    values = np.concatenate([grid(name, SAMPLE_SIZE), SPECIALS])
    return np.concatenate([values, np.zeros(-values.size % 8, np.float32)])


def scalar_inputs(name):
    return np.concatenate([grid(name, SCALAR_SAMPLE_SIZE), SPECIALS])


def mixed_inputs(name):
    return grid(name, MIXED_SIZE + 2)[1:-1][::-1].copy()


def digest(values):
    """sha256 of float32 values, every NaN counted as one (TensorFlow's NaN signs vary)."""
    values = np.asarray(values, np.float32).copy()
    values[np.isnan(values)] = np.float32(np.nan)
    return hashlib.sha256(values.tobytes()).hexdigest()
