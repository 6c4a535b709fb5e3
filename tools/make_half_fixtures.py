"""Write tests/fixtures/ops/half_math.npz: TensorFlow 2.21's float16 Sum and Mean over
innermost axes and over leading or middle ones (the kept innermost), Softmax and LogSoftmax (Eigen's half order: packets of 8 halves, predux in
float32, leaves of 8 * 200 values; engine/kernels/cpu/eigen_reduce.py) and
DepthwiseConv2dNative (accumulated in half tap by tap; engine/kernels/cpu/nn_extra.py),
Sigmoid and Softplus (engine/kernels/cpu/math.py), bit for bit.

    .venv-tf/bin/python tools/make_half_fixtures.py

Keys: `x__<case>` the float16 input, `axes__<case>` the axes its Sum and Mean reduce,
`<op>__<case>` TensorFlow's output (op: sum, mean, softmax, log_softmax; the softmaxes over
the last axis);
`depthwise__<case>` DEPTHWISE_CASES' output, `dwx__<case>`, `dwf__<case>` its input and
filter; `act_x` and `act__<op>`: ACTIVATIONS of it. Each case runs at intra_op_parallelism_threads 1 and 2: the same bits.
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

OUT = FIXTURES / "ops" / "half_math.npz"

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
    # kept axes innermost (InnerMostDimPreserver): Keras's GlobalAveragePooling2D, a leading
    # axis (rows of packets and a lone tail), a middle one (fewer than 16 rows: in order)
    "height_width": ((2, 6, 6, 20), (1, 2)),
    "leading_axis": ((40, 13), (0,)),
    "middle_axis": ((3, 10, 8), (1,)),
}

# name: (input shape, filter shape, strides, padding).
DEPTHWISE_CASES = {
    "valid_3x3": ((2, 6, 6, 4), (3, 3, 4, 1), [1, 1, 1, 1], "VALID"),
    "same_stride2_multiplier2": ((2, 7, 6, 3), (3, 2, 3, 2), [1, 2, 2, 1], "SAME"),
    "explicit_multiplier3": ((1, 5, 5, 2), (2, 3, 2, 3), [1, 1, 1, 1],
                             [[0, 0], [1, 0], [2, 1], [0, 0]]),
}


# Sigmoid and Softplus of every half from -12 to 12 in steps of 1/64 (past Softplus's
# thresholds, +-7.0078 with Eigen's half epsilon) and of random values.
ACTIVATIONS = ("sigmoid", "softplus")


def activation_input():
    steps = np.arange(-12 * 64, 12 * 64 + 1) / 64
    return np.concatenate([steps, np.random.RandomState(5).randn(300) * 4]).astype(np.float16)


def case_input(name, shape, scale=3.0):
    seed = sum(name.encode())
    return (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float16)


def tensorflow_outputs(tf, threads):
    config = tf.ConfigProto(intra_op_parallelism_threads=threads,
                            inter_op_parallelism_threads=1)
    out = {}
    with tf.Graph().as_default(), tf.Session(config=config) as session:
        x = tf.placeholder(tf.float16)
        for name, (shape, axes) in CASES.items():
            value = case_input(name, shape)
            out[f"x__{name}"], out[f"axes__{name}"] = value, np.array(axes)
            out.update({f"{op}__{name}": result for op, result in session.run(
                {"sum": tf.reduce_sum(x, list(axes)), "mean": tf.reduce_mean(x, list(axes)),
                 "softmax": tf.nn.softmax(x), "log_softmax": tf.nn.log_softmax(x)},
                {x: value}).items()})
        value = activation_input()
        out["act_x"] = value
        out.update({f"act__{op}": result for op, result in session.run(
            {"sigmoid": tf.sigmoid(x), "softplus": tf.nn.softplus(x)}, {x: value}).items()})
        f = tf.placeholder(tf.float16)
        for name, (x_shape, f_shape, strides, padding) in DEPTHWISE_CASES.items():
            x_value, f_value = case_input(name, x_shape), case_input(name + "f", f_shape, 0.5)
            out[f"dwx__{name}"], out[f"dwf__{name}"] = x_value, f_value
            out[f"depthwise__{name}"] = session.run(tf.nn.depthwise_conv2d_native(
                x, f, strides, padding), {x: x_value, f: f_value})
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
