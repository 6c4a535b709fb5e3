"""The cases of tests/fixtures/ops/batch_norm.npz (tools/make_batch_norm_fixtures.py):
FusedBatchNormV3 and FusedBatchNormGradV3 on seeded inputs, training and inference, NHWC and
NCHW, 4-D and 5-D, float32 and float16, with and without an exponential_avg_factor, depths
that fill Eigen's packets of 8 and depths that leave a tail, fewer and more than 16 rows."""

import numpy as np

# name: (shape, data_format, is_training, exponential_avg_factor, dtype)
CASES = {
    "nhwc_16": ((5, 3, 3, 16), "NHWC", True, 1.0, "float32"),
    "nhwc_3": ((8, 5, 5, 3), "NHWC", True, 1.0, "float32"),
    "nhwc_40": ((2, 4, 4, 40), "NHWC", True, 1.0, "float32"),
    "nhwc_100": ((4, 3, 3, 100), "NHWC", True, 1.0, "float32"),
    "nhwc_9_rows20": ((5, 2, 2, 9), "NHWC", True, 1.0, "float32"),
    "nhwc_12_rows6": ((3, 1, 2, 12), "NHWC", True, 1.0, "float32"),
    "nhwc_1_row": ((1, 1, 1, 8), "NHWC", True, 1.0, "float32"),
    "nchw_12": ((6, 12, 5, 5), "NCHW", True, 1.0, "float32"),
    "ndhwc_10": ((2, 3, 4, 4, 10), "NDHWC", True, 1.0, "float32"),
    "half_24": ((8, 4, 4, 24), "NHWC", True, 1.0, "float16"),
    "factor_16": ((6, 4, 4, 16), "NHWC", True, 0.3, "float32"),
    "inference_20": ((4, 4, 4, 20), "NHWC", False, 1.0, "float32"),
    "inference_nchw_8": ((4, 8, 3, 3), "NCHW", False, 1.0, "float32"),
}
EPSILON = 0.001


def inputs(name):
    """(x, y_backprop, scale, offset, running mean, running variance) of a case."""
    shape, data_format, _, _, dtype = CASES[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    depth = shape[1] if data_format.startswith("NC") else shape[-1]
    x = (rng.standard_normal(shape) * 2.0 ** rng.uniform(-3, 3, depth).reshape(
        (-1,) + (1,) * (len(shape) - 2) if data_format.startswith("NC") else -1)
         + rng.uniform(-1, 1, (depth,) + (1,) * (len(shape) - 2)
                       if data_format.startswith("NC") else depth))
    dy = rng.standard_normal(shape) * 0.1
    scale = rng.uniform(0.5, 1.5, depth)
    offset = rng.standard_normal(depth)
    mean = rng.standard_normal(depth) * 0.1
    variance = rng.uniform(0.5, 2.0, depth)
    return (x.astype(dtype), dy.astype(dtype), scale.astype(np.float32),
            offset.astype(np.float32), mean.astype(np.float32), variance.astype(np.float32))


OUTPUTS = ("y", "batch_mean", "batch_variance", "saved_mean", "saved_variance", "x_backprop",
           "scale_backprop", "offset_backprop")


def compared(name):
    """The outputs a case compares: in inference TensorFlow's kernel leaves reserve_space_1
    and 2 (saved_mean, saved_variance) unwritten, whatever memory they were given."""
    training = CASES[name][2]
    return [key for key in OUTPUTS if training or not key.startswith("saved_")]


def grad_refused(name):
    """Whether TensorFlow's CPU kernel refuses the case's gradient (inference in NCHW): its
    fixture then holds the forward outputs and the gradient's error message."""
    _, data_format, training, _, _ = CASES[name]
    return not training and data_format.startswith("NC")


def build(raw_ops, name, constant):
    """The case's eight outputs (OUTPUTS) as tensors, built with `raw_ops`-style calls:
    raw_ops("FusedBatchNormV3", ...) on TensorFlow, apply_op on the engine; where
    grad_refused(name), the forward five then the gradient op's first output."""
    _, data_format, training, factor, _ = CASES[name]
    x, dy, scale, offset, mean, variance = (constant(v) for v in inputs(name))
    forward = raw_ops("FusedBatchNormV3", x=x, scale=scale, offset=offset, mean=mean,
                      variance=variance, epsilon=EPSILON, exponential_avg_factor=factor,
                      data_format=data_format, is_training=training)
    # (in inference the gradient takes the population statistics, as TensorFlow's
    # _FusedBatchNormGradV3 registration passes them)
    saved = (forward[3], forward[4]) if training else (mean, variance)
    backward = raw_ops("FusedBatchNormGradV3", y_backprop=dy, x=x, scale=scale,
                       reserve_space_1=saved[0], reserve_space_2=saved[1],
                       reserve_space_3=forward[5], epsilon=EPSILON, data_format=data_format,
                       is_training=training)
    return list(forward[:5]) + list(backward[:3])
