"""TensorFlow's deep MNIST tutorial CNN (bench/programs/mnist_deep_cnn.py: 2 conv + 2 pool +
2 dense, Adam), its training loop's compute time on the engine against TensorFlow 2.21's."""

from bench import cnn_program

STEPS = 40


def run():
    return cnn_program.compare("mnist_deep_cnn.py", STEPS,
                               f"MNIST deep CNN tutorial, {STEPS} training steps (compute)")


if __name__ == "__main__":
    print(run())
