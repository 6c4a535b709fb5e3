"""The MLP of mlp_train_sgd trained with AdamOptimizer instead; loss per step."""

import engine as tf

import mlp_train_sgd

INPUTS, LABELS = mlp_train_sgd.INPUTS, mlp_train_sgd.LABELS


def build():
    return mlp_train_sgd.build(tf.train.AdamOptimizer(0.05))


def main():
    mlp_train_sgd.train_and_print(build())


if __name__ == "__main__":
    main()
