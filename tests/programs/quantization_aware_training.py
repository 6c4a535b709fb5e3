"""Quantization-aware training of a small regression net, TF1 style: weights through
tf.fake_quant_with_min_max_vars with trained min/max variables, activations through
tf.fake_quant_with_min_max_args; then the weights quantized to quint8 and back."""

import numpy as np

import engine as tf


def build():
    rng = np.random.RandomState(3)
    x = tf.constant(rng.uniform(-1, 1, [16, 4]).astype(np.float32))
    y = tf.constant(rng.uniform(-1, 1, [16, 1]).astype(np.float32))
    w = tf.Variable(rng.uniform(-0.5, 0.5, [4, 1]).astype(np.float32), name="w")
    w_min = tf.Variable(-0.1, name="w_min")
    w_max = tf.Variable(0.1, name="w_max")
    w_q = tf.fake_quant_with_min_max_vars(w, w_min, w_max, num_bits=4, narrow_range=True)
    hidden = tf.quantization.fake_quant_with_min_max_args(tf.matmul(x, w_q), min=-2.0,
                                                          max=2.0, num_bits=8)
    loss = tf.reduce_mean(tf.square(hidden - y))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    q = tf.quantization.quantize(w, -1.0, 1.0, tf.quint8)
    back = tf.quantization.dequantize(q.output, q.output_min, q.output_max)
    return dict(loss=loss, train=train, w=w, w_min=w_min, w_max=w_max, q=q, back=back)


def main():
    g = build()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(6):
            loss, _ = sess.run([g["loss"], g["train"]])
            print(f"step {step}: loss {loss:.6f}")
        w_min, w_max = sess.run([g["w_min"], g["w_max"]])
        print(f"range [{w_min:.6f}, {w_max:.6f}]")
        print("w", np.round(sess.run(g["w"]).ravel(), 6).tolist())
        q, back = sess.run([g["q"], g["back"]])
        print("quint8", q.output.ravel().tolist(), q.output.dtype)
        print("dequantized", np.round(back.ravel(), 6).tolist())


if __name__ == "__main__":
    main()
