"""Write tests/fixtures/ops/eigen_erf.npz: TensorFlow's Erf and Erfc on the CPU in float32 and
float64 (and float16), on the inputs of tests/engine/eigen_erf_cases.py.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_erf_fixtures.py`.
For each function and dtype: its outputs on a sample (Eigen's packet path), a digest of its
outputs on two dense grids, its outputs on values run one at a time (the scalar path) and on
a tensor with a tail.

`--exhaustive [erf|erfc]` instead compares TensorFlow with engine/kernels/cpu/eigen_erf.py on
every float32 of the function's range, packet path and scalar path, and prints how many
differ (nothing is written). The float32 Erfc it checks depends on the CPU's rcpps
(engine/kernels/cpu/x86_reciprocal.py): run it on the CPU the fixtures were made on.
"""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, tf_v1

import eigen_erf_cases as cases  # noqa: E402 (tests/engine, on the path by fixture_common)

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "eigen_erf.npz"
CHUNK = 1 << 24


class Runner:
    """One session and placeholder; `packet(x)` runs the op on x as one tensor,
    `one_at_a_time(x)` on each value alone."""

    def __init__(self, tf, name, dtype):
        self.input = tf.placeholder(getattr(tf, dtype), [None])
        self.output = getattr(tf.math, name)(self.input)
        self.session = tf.Session()

    def packet(self, x):
        return self.session.run(self.output, {self.input: x})

    def one_at_a_time(self, x):
        return np.concatenate([self.packet(x[i:i + 1]) for i in range(x.size)])


def write_fixtures(tf):
    arrays = {}
    for name, dtype in cases.CASES:
        key = f"{name}_{dtype}"
        with tf.Graph().as_default():
            run = Runner(tf, name, dtype)
            arrays[f"{key}__sample"] = run.packet(cases.sample_inputs(name, dtype))
            arrays[f"{key}__digest"] = np.array(cases.digest(
                run.packet(cases.dense_inputs(name, dtype))))
            arrays[f"{key}__scalar"] = run.one_at_a_time(cases.scalar_inputs(name, dtype))
            arrays[f"{key}__mixed"] = run.packet(cases.mixed_inputs(name, dtype))
        print(key)
    for name, dtype in cases.HALF_CASES:
        with tf.Graph().as_default():
            run = Runner(tf, name, dtype)
            x = cases.half_inputs()
            arrays[f"{name}_{dtype}__sample"] = run.packet(x)
            arrays[f"{name}_{dtype}__scalar"] = run.one_at_a_time(x[::16])
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")


def differing(ours, theirs):
    return np.nonzero((ours.view(np.uint32) != theirs.view(np.uint32))
                      & ~(np.isnan(ours) & np.isnan(theirs)))[0]


def exhaustive(tf, names):
    from engine.kernels.cpu import eigen_erf
    paths = {"erf": (eigen_erf.erf_float32, eigen_erf.erf_float32),
             "erfc": (eigen_erf.packet_erfc_float32, eigen_erf.scalar_erfc_float32)}
    for name in names:
        packet, scalar = paths[name]
        low, high = cases.RANGES[name, "float32"]
        with tf.Graph().as_default():
            run = Runner(tf, name, "float32")
            start, stop = cases._ordered(low, "float32"), cases._ordered(high, "float32") + 1
            checked = bad = 0
            for first in range(start, stop, CHUNK):
                x = cases._from_ordered(np.arange(first, min(first + CHUNK, stop)), "float32")
                x = x[:x.size - x.size % 8]  # whole packets (the tail is the scalar path)
                wrong = differing(packet(x), run.packet(x))
                checked, bad = checked + x.size, bad + wrong.size
                for i in wrong[:3]:
                    print(f"  {name}({x[i]!r}) packet differs")
            sample = np.concatenate([cases.bit_grid(name, "float32", 10000),
                                     cases.value_grid(name, "float32", 10000)])
            wrong = differing(np.concatenate([scalar(sample[i:i + 1])
                                              for i in range(sample.size)]),
                              run.one_at_a_time(sample))
            print(f"{name}: {bad} of {checked} float32 differ on the packet path; "
                  f"{wrong.size} of {sample.size} on the scalar path")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exhaustive", nargs="*", metavar="NAME")
    args = parser.parse_args()
    tf = tf_v1()
    if args.exhaustive is None:
        write_fixtures(tf)
    else:
        exhaustive(tf, args.exhaustive or ["erf", "erfc"])


if __name__ == "__main__":
    main()
