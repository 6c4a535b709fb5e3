"""Write tests/fixtures/stateless_random/keras_random/: a TF2 SavedModel whose signature runs
Keras 3 Dropout and RandomFlip with training=True (their seed generators' state variables
feed StatelessRandomUniformV2 through StatelessRandomGetKeyCounter), and expected.npz: the
input and what the SavedModel, loaded back into TensorFlow 2.21, returned on its first call
(a call before saving would move the seed variables on).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_stateless_saved_model_fixtures.py`.
"""

import os
import shutil

import numpy as np

from fixture_common import FIXTURES

OUT = FIXTURES / "stateless_random" / "keras_random"


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    keras.utils.set_random_seed(0)

    class RandomLayers(tf.Module):
        def __init__(self):
            self.dropout = keras.layers.Dropout(0.4, seed=7)
            self.flip = keras.layers.RandomFlip("horizontal", seed=3)
            # the seed generators' state variables, tracked so that the export keeps them
            self.seed_states = [self.dropout.seed_generator.state.value,
                                self.flip.generator.state.value]

        @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32),
                                      tf.TensorSpec([None, 4, 5, 1], tf.float32)])
        def run(self, x, image):
            return {"dropped": self.dropout(x, training=True),
                    "flipped": self.flip(image, training=True)}

    module = RandomLayers()
    shutil.rmtree(OUT, ignore_errors=True)
    tf.saved_model.save(module, str(OUT), signatures={"serving_default": module.run})
    assets = OUT / "assets"
    if assets.is_dir() and not any(assets.iterdir()):
        assets.rmdir()
    inputs = {"x": np.linspace(-1.0, 2.0, 18, dtype=np.float32).reshape(3, 6),
              "image": np.arange(60, dtype=np.float32).reshape(3, 4, 5, 1)}
    loaded = tf.saved_model.load(str(OUT))
    outputs = loaded.signatures["serving_default"](**{k: tf.constant(v)
                                                      for k, v in inputs.items()})
    expected = {f"serving_default/{key}": value for key, value in inputs.items()}
    expected.update({f"serving_default/{key}": value.numpy() for key, value in outputs.items()})
    np.savez_compressed(OUT / "expected.npz", **expected)
    print(sorted(expected))


if __name__ == "__main__":
    main()
