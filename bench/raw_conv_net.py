"""A raw conv net (bench/programs/raw_conv_net.py: tf.nn.conv2d, bias_add, max_pool, dropout,
Adam, batches of 128), its training loop's compute time on the engine against TensorFlow
2.21's."""

from bench import cnn_program

STEPS = 20


def run():
    return cnn_program.compare("raw_conv_net.py", STEPS,
                               f"raw conv net, {STEPS} training steps (compute)")


if __name__ == "__main__":
    print(run())
