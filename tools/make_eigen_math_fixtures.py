"""Write tests/fixtures/ops/eigen_float32.npz and eigen_reciprocal.npz: TensorFlow's float32 exp,
log, log1p, expm1, tanh, sigmoid, softplus, rsqrt, reciprocal, sin and cos on the CPU, on the inputs of
tests/engine/eigen_math_cases.py; and its float16 Rsqrt, Reciprocal, Sin and Cos, and SqrtGrad,
RsqrtGrad, ReciprocalGrad and InvGrad in float32, float64, float16 and complex64.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_eigen_math_fixtures.py`.
For each function: its outputs on a sample grid (Eigen's packet path), a digest of its outputs
on a dense grid, its outputs on values run one at a time (the scalar path) and on a tensor
with a tail; SigmoidGrad's and SoftplusGrad's on a tensor with a tail. For float16: a digest
of the outputs on every half, and one at a time on a sample. For the gradient ops: outputs
on a tensor with a tail and one value at a time on its first 64. For a LayerNorm (BERT's,
with rsqrt) on [1024, 768] values: its moments and a digest of its output.

Rsqrt's and Reciprocal's float32 packet path depends on the CPU's rsqrtps and rcpps
(engine/kernels/cpu/x86_reciprocal.py): run it on the CPU the module's tables are of.

`--exhaustive [NAME...]` instead compares TensorFlow with engine/kernels/cpu/eigen_float32.py
(eigen_trig.py) on every float32 of each function's range (`--whole`: every float32 but NaNs), packet path
and scalar path, and prints how many differ (nothing is written). It takes minutes per
function.
"""

import argparse
import sys

import numpy as np

from fixture_common import FIXTURES, ROOT, tf_v1

import eigen_math_cases as cases  # noqa: E402 (tests/engine, on the path by fixture_common)

sys.path.insert(0, str(ROOT))
OUT = FIXTURES / "ops" / "eigen_float32.npz"
RECIPROCAL_OUT = FIXTURES / "ops" / "eigen_reciprocal.npz"
GRAD_SCALARS = 64  # the first values of the gradient ops' inputs, run one at a time
CHUNK = 1 << 24


def tf_function(tf, name):
    function = tf
    for part in cases.FUNCTIONS[name][0].split("."):
        function = getattr(function, part)
    return function


class Runner:
    """One session and placeholder; `packet(x)` runs the function on x as one tensor,
    `one_at_a_time(x)` runs it on each value alone."""

    def __init__(self, tf, name):
        self.input = tf.placeholder(tf.float32, [None])
        self.output = tf_function(tf, name)(self.input)
        self.session = tf.Session()

    def packet(self, x):
        return self.session.run(self.output, {self.input: x})

    def one_at_a_time(self, x):
        return np.concatenate([self.packet(x[i:i + 1]) for i in range(x.size)])


def write_fixtures(tf):
    arrays = {}
    for name in cases.FUNCTIONS:
        with tf.Graph().as_default():
            run = Runner(tf, name)
            arrays[f"{name}__sample"] = run.packet(cases.sample_inputs(name))
            arrays[f"{name}__digest"] = np.array(cases.digest(
                run.packet(cases.grid(name, cases.DIGEST_SIZE))))
            arrays[f"{name}__scalar"] = run.one_at_a_time(cases.scalar_inputs(name))
            arrays[f"{name}__mixed"] = run.packet(cases.mixed_inputs(name))
        print(name)
    for name, (y, dy) in cases.GRAD_INPUTS.items():
        with tf.Graph().as_default(), tf.Session() as session:
            op = getattr(tf.raw_ops, name)
            arrays[f"{name}__mixed"] = session.run(
                op(y=y, dy=dy) if name == "SigmoidGrad" else op(gradients=dy, features=y))
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}")
    write_reciprocal_fixtures(tf)


def write_reciprocal_fixtures(tf):
    arrays = {}
    x = cases.every_half()
    for name in cases.HALF_FUNCTIONS:
        with tf.Graph().as_default(), tf.Session() as session:
            p = tf.placeholder(tf.float16, [None])
            y = getattr(tf, name)(p)
            arrays[f"{name}_float16__digest"] = np.array(cases.digest(
                session.run(y, {p: x}).astype(np.float32)))
            few = x[::257]
            arrays[f"{name}_float16__scalar"] = np.concatenate(
                [session.run(y, {p: few[i:i + 1]}) for i in range(few.size)])
            arrays[f"{name}_float16__mixed"] = session.run(y, {p: x[0x3C00:0x3C00 + 21]})
    for op in cases.RECIPROCAL_GRADS:
        for dtype in cases.GRAD_DTYPES:
            y, dy = cases.grad_inputs(dtype)
            with tf.Graph().as_default(), tf.Session() as session:
                py, pdy = (tf.placeholder(getattr(tf, dtype), [None]) for _ in range(2))
                out = getattr(tf.raw_ops, op)(y=py, dy=pdy)
                arrays[f"{op}_{dtype}__mixed"] = session.run(out, {py: y, pdy: dy})
                arrays[f"{op}_{dtype}__scalar"] = np.concatenate(
                    [session.run(out, {py: y[i:i + 1], pdy: dy[i:i + 1]})
                     for i in range(GRAD_SCALARS)])
        print(op)
    with tf.Graph().as_default(), tf.Session() as session:
        x = tf.placeholder(tf.float32, cases.LAYER_NORM_SHAPE)
        mean, variance, y = session.run(cases.layer_norm(tf, x), {x: cases.layer_norm_input()})
        arrays.update(layer_norm__mean=mean, layer_norm__variance=variance,
                      layer_norm__digest=np.array(cases.digest(y)))
    np.savez_compressed(RECIPROCAL_OUT, **arrays)
    print(f"wrote {RECIPROCAL_OUT}")


def differing(ours, theirs):
    return np.nonzero((ours.view(np.uint32) != theirs.view(np.uint32))
                      & ~(np.isnan(ours) & np.isnan(theirs)))[0]


def exhaustive(tf, names, whole=False):
    for name in names:
        _, packet, scalar = cases.reference(name)
        with tf.Graph().as_default():
            run = Runner(tf, name)
            start, stop = cases.key_range(name)
            if whole:
                start, stop = -0x7F800000, 0x7F800001  # -inf to inf
            checked = bad = 0
            for first in range(start, stop, CHUNK):
                x = (cases.all_floats(name, first, first + CHUNK) if not whole else
                     cases.from_ordered(np.arange(first, min(first + CHUNK, stop))))
                x = x[:x.size - x.size % 8]  # whole packets (the tail is the scalar path)
                wrong = differing(packet(x), run.packet(x))
                checked, bad = checked + x.size, bad + wrong.size
                for i in wrong[:3]:
                    print(f"  {name}({x[i]!r}) packet differs")
            sample = cases.grid(name, 20000)
            wrong = differing(scalar(sample), run.one_at_a_time(sample))
            print(f"{name}: {bad} of {checked} float32 differ on the packet path; "
                  f"{wrong.size} of {sample.size} on the scalar path")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exhaustive", nargs="*", metavar="NAME")
    parser.add_argument("--whole", action="store_true",
                        help="with --exhaustive: every float32 from -inf to inf, any range")
    args = parser.parse_args()
    tf = tf_v1()
    if args.exhaustive is None:
        write_fixtures(tf)
    else:
        exhaustive(tf, args.exhaustive or list(cases.FUNCTIONS), args.whole)


if __name__ == "__main__":
    main()
