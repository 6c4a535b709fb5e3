"""Write tests/fixtures/ops/eigen_pow.npz: TensorFlow's float32 Pow on the CPU.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_pow_fixtures.py`.
For each case, its inputs (x, y) and TensorFlow's tf.pow(x, y):
- `special`: every pair of special bases and exponents (zeros, negative bases with integer and
  non-integer exponents, infinities, NaN, denormals, huge and tiny results), as one tensor
  (Eigen's packet path) and each pair alone (`special__scalar`, the scalar path);
- `wide`: bases from 2**-130 to 2**128 of either sign, exponents of many scales, results over
  the whole float32 range (one tensor, with a tail of 5);
- `edge`: results near overflow and underflow (y * log2(x) in [-155, 130]);
- `lead`: the lead's 4,099 values (x in [0.5, 3], y in [-5, 5], a tail of 3), same shape, a
  scalar exponent (`lead_sexp`) and a scalar base (`lead_sbase`);
- `decay`: 0.96 ** (step / 100.0) for steps 0..4099, the learning-rate decay's form.

`--check` instead compares engine/kernels/cpu/eigen_pow.py with TensorFlow on a million
random pairs per case and prints how many differ (nothing is written).
"""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, BinaryRunner, check_binary, tf_v1

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "eigen_pow.npz"
_F = np.float32

_X = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 0.1, 10.0, -10.0, np.inf,
      -np.inf, np.nan, 1e-40, -1e-40, 1.2e-38, -1.2e-38, 3.4e38, -3.4e38,
      1.0000001, 0.99999994, 0.96, 2.718281828, 1e-45, -6.0]
_Y = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, 2.5, -2.5, np.inf, -np.inf,
      np.nan, 1e-40, -1e-40, 1e-30, -1e-30, 1e-7, 1e9, -1e9, 7.4e8, 7.5e8, 128.0, -128.0,
      149.0, -150.0, 0.33333334, 16777215.0, 16777216.0, -16777215.0, 126.5, -126.5]


def special_inputs():
    x, y = np.meshgrid(np.array(_X, _F), np.array(_Y, _F), indexing="ij")
    return x.reshape(-1), y.reshape(-1)  # 952 pairs, whole packets


def wide_inputs(n=3005, seed=1):
    rng = np.random.default_rng(seed)
    x = np.exp2(rng.uniform(-130, 128, n)) * rng.choice([-1.0, 1.0], n, p=[0.2, 0.8])
    scale = 10.0 ** rng.uniform(-8, 2.5, n)
    y = rng.uniform(-1, 1, n) * scale
    y[::7] = np.round(y[::7])  # integers (negative bases give finite values)
    return x.astype(_F), y.astype(_F)


def edge_inputs(n=1000, seed=2):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 3, n).astype(_F)
    target = rng.uniform(-155, 130, n)
    y = (target / np.log2(x.astype(np.float64))).astype(_F)
    return x, y


def lead_inputs(n=4099, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 3, n).astype(_F), rng.uniform(-5, 5, n).astype(_F)


def decay_inputs():
    steps = np.arange(4100, dtype=_F)
    return np.full(steps.shape, _F(0.96)), steps / _F(100.0)


def write_fixtures(tf):
    arrays = {}
    with tf.Graph().as_default():
        run = BinaryRunner(tf, tf.pow)
        for name, (x, y) in {"special": special_inputs(), "wide": wide_inputs(),
                             "edge": edge_inputs(), "lead": lead_inputs()}.items():
            arrays[f"{name}__x"], arrays[f"{name}__y"] = x, y
            arrays[f"{name}__out"] = run(x, y)
        x, y = special_inputs()
        arrays["special__scalar"] = run.one_at_a_time(x, y)
        x, y = lead_inputs()
        arrays["lead_sexp__out"] = run(x, y[0])
        arrays["lead_sbase__out"] = run(x[0], y)
        x, y = decay_inputs()
        arrays["decay__out"] = run(x[0], y)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")


def check(tf):
    from engine.kernels.cpu import eigen_pow
    rng = np.random.default_rng(7)
    n = 1 << 20
    cases = {
        "x in [0.5, 3], y in [-5, 5]": (rng.uniform(0.5, 3, n), rng.uniform(-5, 5, n)),
        "x in [0, 1e4], y in [-30, 30]": (rng.uniform(0, 1e4, n), rng.uniform(-30, 30, n)),
        "wide": wide_inputs(n, 3),
        "edge": edge_inputs(n, 4),
        "x < 0, integer y": (-rng.uniform(0, 20, n), np.round(rng.uniform(-40, 40, n))),
    }
    check_binary(tf, tf.pow, "pow", eigen_pow.packet_pow, eigen_pow.scalar_pow, cases)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    tf = tf_v1()
    check(tf) if args.check else write_fixtures(tf)


if __name__ == "__main__":
    main()
