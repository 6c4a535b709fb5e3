"""Write tests/fixtures/ops/half_reduce.npz: TensorFlow 2.21's float16 Sum and Mean over
innermost axes, Softmax and LogSoftmax, bit for bit (Eigen's half order: packets of 8
halves, predux in float32, leaves of 8 * 200 values; engine/kernels/cpu/eigen_reduce.py).

    .venv-tf/bin/python tools/make_half_reduce_fixtures.py

Keys: `x__<case>` the float16 input, `<op>__<case>` TensorFlow's output (op: sum, mean,
softmax, log_softmax; sum and mean over CASES' axes, the softmaxes over the last axis).
Each case runs at intra_op_parallelism_threads 1 and 2: the same bits.
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

OUT = FIXTURES / "ops" / "half_reduce.npz"

# name: (shape, axes of Sum and Mean). Rows shorter than a packet (scalar adds only), of
# whole packets, past the four accumulators' 32 values, past a leaf (1,600: a tree, its cut
# depending on the row's first index), and two reduced axes of a 3-D tensor.
CASES = {
    "rows_of_3": ((5, 3), (1,)),
    "rows_of_8": ((4, 8), (1,)),
    "rows_of_9": ((4, 9), (1,)),
    "rows_of_37": ((3, 37), (1,)),
    "rows_of_100": ((3, 100), (1,)),
    "rows_of_1703": ((2, 1703), (1,)),
    "inner_two_axes": ((3, 4, 20), (1, 2)),
}


def case_input(name, shape):
    seed = sum(name.encode())
    return (np.random.RandomState(seed).randn(*shape) * 3).astype(np.float16)


def tensorflow_outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        x = tf.placeholder(tf.float16)
        for name, (shape, axes) in CASES.items():
            value = case_input(name, shape)
            out[f"x__{name}"] = value
            out.update({f"{op}__{name}": result for op, result in session.run(
                {"sum": tf.reduce_sum(x, list(axes)), "mean": tf.reduce_mean(x, list(axes)),
                 "softmax": tf.nn.softmax(x), "log_softmax": tf.nn.log_softmax(x)},
                {x: value}).items()})
    return out


def main():
    tf = tf_v1()
    one, two = tensorflow_outputs(tf, 1), tensorflow_outputs(tf, 2)
    for key in one:
        assert np.array_equal(one[key].view(np.uint16), two[key].view(np.uint16)), key
    np.savez_compressed(OUT, **one)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(one)} arrays)")


if __name__ == "__main__":
    main()
