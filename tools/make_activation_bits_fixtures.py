"""Write tests/fixtures/ops/activation_bits.npz: TensorFlow 2.21's float32 Elu, Selu, EluGrad
and SeluGrad, bit for bit, on values that take both sides of 0, Eigen's packet path and its
scalar tail (a tensor of 8k + 5 values), and the special values.

    TF_ENABLE_ONEDNN_OPTS=0 .venv-tf/bin/python tools/make_activation_bits_fixtures.py

tests/engine/test_activation_bits.py runs the same ops through engine sessions and asks for
the same bits (the op fixtures of make_op_fixtures.py compare at a tolerance, under which an
Elu of expm1(x) passed for TensorFlow's exp(x) - 1, up to 1.3e-4 apart near 0).
"""

import numpy as np

from fixture_common import FIXTURES, tf_v1

SPECIALS = [0.0, -0.0, 1e-8, -1e-8, 1e-30, -1e-30, 1e-40, -1e-40, -88.0, -104.0, 88.0,
            np.inf, -np.inf, np.nan]


def inputs():
    rng = np.random.RandomState(11)
    values = np.concatenate([np.array(SPECIALS), rng.uniform(-1e-3, 1e-3, 1000),
                             rng.uniform(-20.0, 20.0, 1000)]).astype(np.float32)
    return values[:8 * 250 + 5]  # whole packets and a tail of 5


def main():
    tf = tf_v1()
    x = inputs()
    g = np.random.RandomState(12).uniform(-2.0, 2.0, x.size).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        feature, gradient = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
        elu, selu = tf.nn.elu(feature), tf.nn.selu(feature)
        elu_y, selu_y = sess.run([elu, selu], {feature: x})
        outputs = sess.run({
            "Elu": elu, "Selu": selu,
            "EluGrad": tf.raw_ops.EluGrad(gradients=gradient, outputs=elu_y),
            "SeluGrad": tf.raw_ops.SeluGrad(gradients=gradient, outputs=selu_y),
        }, {feature: x, gradient: g})
    out = FIXTURES / "ops" / "activation_bits.npz"
    np.savez_compressed(out, x=x, g=g, elu_y=elu_y, selu_y=selu_y, **outputs)
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
