"""The cases of tests/fixtures/ops/outer_reduce.npz (tools/make_outer_reduce_fixtures.py):
Sum and Mean over leading or middle axes, the axes kept after them innermost (a bias's
gradient through `x + b`, tf.nn.moments over N, H and W), float32 and float64, on seeded
inputs that span twelve binades (so the order of the additions shows in the last bits)."""

import numpy as np

# name: (shape, axes, dtype)
CASES = {
    "rows5_cols10": ((5, 10), (0,), "float32"),
    "rows16_cols8": ((16, 8), (0,), "float32"),
    "rows17_cols16": ((17, 16), (0,), "float32"),
    "rows45_cols20": ((45, 20), (0,), "float32"),
    "rows32_cols10": ((32, 10), (0,), "float32"),
    "rows1000_cols33": ((1000, 33), (0,), "float32"),
    "rows30_cols3": ((30, 3), (0,), "float32"),
    "nhwc_moments": ((8, 6, 6, 16), (0, 1, 2), "float32"),
    "middle_3x50x12": ((3, 50, 12), (1,), "float32"),
    "middle_4x19x2x9": ((4, 19, 2, 9), (1,), "float32"),
    "middle_2x3x40x24": ((2, 3, 40, 24), (1, 2), "float32"),
    "unit_dim_7x1x30x9": ((7, 1, 30, 9), (0, 2), "float32"),
    "rows20000_cols8": ((20000, 8), (0,), "float32"),
    "f64_rows45_cols10": ((45, 10), (0,), "float64"),
    "f64_rows17_cols4": ((17, 4), (0,), "float64"),
    "f64_middle_3x21x7": ((3, 21, 7), (1,), "float64"),
    "denormals_rows24_cols8": ((24, 8), (0,), "float32"),
    "denormals_middle_2x20x5": ((2, 20, 5), (1,), "float32"),
}


def case_input(name):
    shape, _, dtype = CASES[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    if name.startswith("denormals"):
        # values near the smallest normal and below it: under TensorFlow's FTZ/DAZ a
        # denormal reads as zero and a denormal partial sum is flushed
        return (rng.standard_normal(shape) * 2.0 ** rng.uniform(-130, -120, shape)).astype(dtype)
    return (rng.standard_normal(shape) * 2.0 ** rng.uniform(-6, 6, shape)).astype(dtype)
