"""WaveNet (van den Oord et al. 2016) in TF 1.x, as the ibab/tensorflow-wavenet repo built it,
shrunk: one-hot mu-law quantized audio, a causal 1x2 convolution, a stack of dilated causal
convolutions (tf.nn.convolution with dilation_rate, the causal left pad by tf.pad) with gated
tanh * sigmoid activations, residual and skip 1x1 convolutions, softmax cross-entropy on the
next sample; and the same dilated filter once through tf.nn.atrous_conv2d to check they agree."""
# fixture threads: 1 2 4
import numpy as np

import engine as tf

QUANT = 16
DILATIONS = [1, 2, 4, 8]
RES, SKIP = 8, 8


def mu_law_encode(audio, channels):
    mu = tf.to_float(channels - 1)
    safe = tf.minimum(tf.abs(audio), 1.0)
    magnitude = tf.log1p(mu * safe) / tf.log1p(mu)
    signal = tf.sign(audio) * magnitude
    return tf.to_int32((signal + 1) / 2 * mu + 0.5)


def causal_conv(x, w, dilation):
    width = w.get_shape()[0].value
    pad = (width - 1) * dilation
    x = tf.pad(x, [[0, 0], [pad, 0], [0, 0]])
    return tf.nn.convolution(x, w, padding="VALID", dilation_rate=[dilation])


def variable(name, shape):
    return tf.get_variable(name, shape, initializer=tf.glorot_uniform_initializer())


def network(encoded):
    with tf.variable_scope("wavenet"):
        h = causal_conv(encoded, variable("causal", [2, QUANT, RES]), 1)
        skips = []
        for i, d in enumerate(DILATIONS):
            with tf.variable_scope("layer%d" % i):
                filt = causal_conv(h, variable("filter", [2, RES, RES]), d)
                gate = causal_conv(h, variable("gate", [2, RES, RES]), d)
                out = tf.tanh(filt) * tf.sigmoid(gate)
                transformed = tf.nn.conv1d(out, variable("dense", [1, RES, RES]), 1, "SAME")
                skips.append(tf.nn.conv1d(out, variable("skip", [1, RES, SKIP]), 1, "SAME"))
                h = h + transformed
        total = tf.nn.relu(tf.add_n(skips))
        total = tf.nn.relu(tf.nn.conv1d(total, variable("post1", [1, SKIP, SKIP]), 1, "SAME"))
        return tf.nn.conv1d(total, variable("post2", [1, SKIP, QUANT]), 1, "SAME")


def main():
    tf.reset_default_graph()
    tf.set_random_seed(2016)
    np.random.seed(5)
    t = np.arange(64, dtype=np.float32)
    wave = (0.6 * np.sin(t / 3.0) + 0.3 * np.sin(t / 7.0)).astype(np.float32)
    audio = tf.placeholder(tf.float32, [1, None], name="audio")
    quantized = mu_law_encode(audio, QUANT)
    encoded = tf.one_hot(quantized, QUANT)
    logits = network(encoded)
    print("logits", logits.get_shape().as_list())
    prediction = tf.reshape(logits[:, :-1, :], [-1, QUANT])
    target = tf.reshape(encoded[:, 1:, :], [-1, QUANT])
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=target,
                                                                     logits=prediction))
    train = tf.train.AdamOptimizer(1e-2, epsilon=1e-4).minimize(loss)
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(tf.argmax(prediction, 1),
                                                   tf.argmax(target, 1))))
    # the same dilated filter as a 2-D atrous convolution over a 1 x T "image"
    kernel = tf.constant(np.random.randn(2, 3, 4).astype(np.float32))
    signal = tf.constant(np.random.randn(1, 20, 3).astype(np.float32))
    as_1d = tf.nn.convolution(signal, kernel, padding="SAME", dilation_rate=[3])
    as_2d = tf.nn.atrous_conv2d(tf.expand_dims(signal, 1), tf.expand_dims(kernel, 0), 3,
                                padding="SAME")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("quantized head", sess.run(quantized, {audio: wave[None]})[0, :12].tolist())
        for step in range(40):
            l, acc, _ = sess.run([loss, accuracy, train], {audio: wave[None]})
            if step % 8 == 0 or step == 39:
                print("step %d loss %.5f accuracy %.4f" % (step, l, acc))
        one, two = sess.run([as_1d, as_2d])
        print("atrous shapes", one.shape, two.shape,
              "max difference below 1e-5:", bool(np.abs(one - two[:, 0]).max() < 1e-5))
        print("atrous sum %.5f" % two.sum())


if __name__ == "__main__":
    main()
