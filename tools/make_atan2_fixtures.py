"""Write tests/fixtures/ops/eigen_atan2.npz: TensorFlow's float32 Atan2 on the CPU.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_atan2_fixtures.py`.
For each case, its inputs (y, x) and TensorFlow's tf.atan2(y, x):
- `special`: every pair of special values (signed zeros, ones, infinities, NaN, denormals,
  huge and tiny values whose ratio overflows or underflows), as one tensor (Eigen's packet
  path) and each pair alone (`special__scalar`, the scalar path);
- `wide`: magnitudes from 2**-130 to 2**128 of either sign (a tail of 5);
- `unit`: y in [-5, 5], x in [0.5, 3] (the lead's 4,099 values, a tail of 3), same shape,
  a scalar y (`unit_sy`) and a scalar x (`unit_sx`).

`--check` instead compares engine/kernels/cpu/eigen_atan2.py with TensorFlow on a million
random pairs per case and prints how many differ (nothing is written). The packet path's
reciprocal is the CPU's rcpps (engine/kernels/cpu/x86_reciprocal.py): run it on that CPU.
"""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, BinaryRunner, check_binary, tf_v1

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "eigen_atan2.npz"
_F = np.float32

_V = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -7.0, np.inf, -np.inf, np.nan,
      1e-40, -1e-40, 1.2e-38, -1.2e-38, 3.4e38, -3.4e38, 1e30, -1e-30, 1e-45, 0.99999994,
      1.0000001]  # 24 values, 576 pairs: whole packets


def special_inputs():
    y, x = np.meshgrid(np.array(_V, _F), np.array(_V, _F), indexing="ij")
    return y.reshape(-1), x.reshape(-1)


def wide_inputs(n=3005, seed=1):
    rng = np.random.default_rng(seed)
    def one():
        return (np.exp2(rng.uniform(-130, 128, n)) * rng.choice([-1.0, 1.0], n)).astype(_F)
    return one(), one()


def unit_inputs(n=4099, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 3, n).astype(_F)
    return rng.uniform(-5, 5, n).astype(_F), x


def write_fixtures(tf):
    arrays = {}
    with tf.Graph().as_default():
        run = BinaryRunner(tf, tf.atan2)
        for name, (y, x) in {"special": special_inputs(), "wide": wide_inputs(),
                             "unit": unit_inputs()}.items():
            arrays[f"{name}__y"], arrays[f"{name}__x"] = y, x
            arrays[f"{name}__out"] = run(y, x)
        y, x = special_inputs()
        arrays["special__scalar"] = run.one_at_a_time(y, x)
        y, x = unit_inputs()
        arrays["unit_sy__out"] = run(y[0], x)
        arrays["unit_sx__out"] = run(y, x[0])
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")


def check(tf):
    from engine.kernels.cpu import eigen_atan2
    rng = np.random.default_rng(7)
    n = 1 << 20
    cases = {
        "y in [-5, 5], x in [0.5, 3]": unit_inputs(n, 3),
        "y, x in [-1e3, 1e3]": (rng.uniform(-1e3, 1e3, n), rng.uniform(-1e3, 1e3, n)),
        "wide": wide_inputs(n, 4),
        "y, x integers in [-8, 8]": (rng.integers(-8, 9, n), rng.integers(-8, 9, n)),
    }
    check_binary(tf, tf.atan2, "atan2", eigen_atan2.packet_atan2, eigen_atan2.scalar_atan2, cases)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    tf = tf_v1()
    check(tf) if args.check else write_fixtures(tf)


if __name__ == "__main__":
    main()
