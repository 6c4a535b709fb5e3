"""TF 1.x initializers: callables (shape, dtype) -> Tensor, used by get_variable (TensorFlow's
init_ops.py, the same ops in the same order so that a seeded graph draws the same values)."""

import math

import numpy as np

from engine.framework import dtypes
from engine.ops import array_ops, linalg_ops, math_ops, random_ops
from engine.ops.constant_op import constant


class Initializer:
    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}


class Zeros(Initializer):
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.zeros(shape, dtype or self.dtype)


class Ones(Initializer):
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.ones(shape, dtype or self.dtype)


class Constant(Initializer):
    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        self.value, self.dtype, self._verify_shape = value, dtypes.as_dtype(dtype), verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        verify = self._verify_shape if verify_shape is None else verify_shape
        return constant(self.value, dtype=dtype or self.dtype, shape=shape, verify_shape=verify)


class RandomUniform(Initializer):
    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_uniform(shape, self.minval, self.maxval, dtype or self.dtype,
                                         seed=self.seed)


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_normal(shape, self.mean, self.stddev, dtype or self.dtype,
                                        seed=self.seed)


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(shape, self.mean, self.stddev, dtype or self.dtype,
                                           seed=self.seed)


def _compute_fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(Initializer):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=dtypes.float32):
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.seed, self.dtype = seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype or self.dtype
        scale = self.scale
        scale_shape = shape if partition_info is None else partition_info.full_shape
        fan_in, fan_out = _compute_fans(list(scale_shape))
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        if self.distribution in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


class UniformUnitScaling(Initializer):
    """Uniform in [-m, m], m = factor * sqrt(3 / product of all dimensions but the last)."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor, self.seed = factor, seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        scale_shape = shape if partition_info is None else partition_info.full_shape
        input_size = 1.0
        for dim in scale_shape[:-1]:
            input_size *= float(dim)
        max_val = math.sqrt(3 / max(input_size, 1.0)) * self.factor
        return random_ops.random_uniform(shape, -max_val, max_val, dtype or self.dtype,
                                         seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


class Orthogonal(Initializer):
    """Q of the QR of a random normal matrix, its columns' signs those of R's diagonal."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain, self.seed = gain, seed
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype or self.dtype
        if len(shape) < 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             f"at least two-dimensional. Received shape={shape}")
        num_rows = int(np.prod([int(dim) for dim in shape[:-1]]))
        num_cols = int(shape[-1])
        flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
        a = random_ops.random_normal(flat_shape, dtype=dtype, seed=self.seed)
        q, r = linalg_ops.qr(a, full_matrices=False)
        q *= math_ops.sign(linalg_ops.diag_part(r))
        if num_rows < num_cols:
            q = linalg_ops.matrix_transpose(q)
        return self.gain * array_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class Identity(Initializer):
    """gain times the identity matrix (2-D only); a partition takes its slice of it."""

    def __init__(self, gain=1.0, dtype=dtypes.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        full_shape = shape if partition_info is None else partition_info.full_shape
        if len(full_shape) != 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             f"at least two-dimensional. Received shape={shape}")
        full_shape = [int(dim) for dim in full_shape]
        initializer = linalg_ops.eye(*full_shape, dtype=dtype or self.dtype)
        if partition_info is not None:
            initializer = array_ops.slice(initializer, partition_info.var_offset, shape)
        return self.gain * initializer

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


def _assert_float_dtype(dtype):
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
    return dtype


def lecun_normal(seed=None):
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
uniform_unit_scaling_initializer = UniformUnitScaling
orthogonal_initializer = Orthogonal
identity_initializer = Identity
