"""The cases of tests/fixtures/ops/bias_add_grad.npz (tools/make_bias_grad_fixtures.py):
channels-last BiasAddGrad on seeded inputs that span twelve binades (so the order of the
additions shows in the last bits), float32 and float64, made again by the test."""

import numpy as np

SHAPES = [(96, 27), (6400, 32), (50, 14, 14, 64), (7, 3), (1000, 8), (20, 100), (5, 1),
          (33, 17), (100000, 8), (3000, 1), (4000, 3), (2000, 16), (300, 512), (64, 7, 7, 64),
          (128, 28, 28, 32), (9, 13, 11, 130)]
DTYPES = ("float32", "float64")


def cases():
    """{name: (shape, dtype)}"""
    return {f"{dtype}_{'x'.join(map(str, shape))}": (shape, dtype)
            for shape in SHAPES for dtype in DTYPES}


def case_input(name):
    shape, dtype = cases()[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    x = rng.standard_normal(shape) * 2.0 ** rng.uniform(-6, 6, shape)
    x = x.astype(dtype)
    if name.endswith("x3"):
        x[..., 1] = -0.0  # a column of negative zeros sums to +0.0
    return x
