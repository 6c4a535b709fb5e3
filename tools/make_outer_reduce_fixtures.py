"""Write tests/fixtures/ops/outer_reduce.npz: TensorFlow 2.21's Sum and Mean over leading or
middle axes (tests/engine/outer_reduce_cases.py), bit for bit, at intra_op_parallelism_threads
1 and 2 (the same bits at both, checked): Eigen's reduction preserving the inner dimension,
whose order engine/kernels/cpu/eigen_reduce.outer_sums follows.

    .venv-tf/bin/python tools/make_outer_reduce_fixtures.py"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

import outer_reduce_cases as cases

OUT = FIXTURES / "ops" / "outer_reduce.npz"


def outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        for name, (shape, axes, dtype) in cases.CASES.items():
            x = tf.placeholder(dtype)  # fed: Grappler would fold a constant's reduction
            feed = {x: cases.case_input(name)}
            out[f"sum__{name}"], out[f"mean__{name}"] = session.run(
                [tf.reduce_sum(x, list(axes)), tf.reduce_mean(x, list(axes))], feed)
    return out


def main():
    tf = tf_v1()
    one, two = outputs(tf, 1), outputs(tf, 2)
    for key in one:
        assert one[key].tobytes() == two[key].tobytes(), key
    np.savez_compressed(OUT, **one)
    print(f"{len(cases.CASES)} cases, the same bits at 1 and 2 threads; wrote {OUT} "
          f"({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
