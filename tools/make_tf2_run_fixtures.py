"""Write tests/fixtures/tf2_run/: TF2 SavedModels a user might run with `graph-inspector run`,
beyond tests/fixtures/tf2/'s five, with TensorFlow 2.21's outputs for fixed inputs.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_tf2_run_fixtures.py`.
- loop_tensor_array: a tf.Module whose loop (`for i in tf.range(steps)`) writes a
  dynamic-size TensorArray with a tf.cond in the body, then stacks and gathers it;
- rnn_train: a GradientTape step through a tf.range loop (while_v2's gradient keeps each
  step's values in TensorLists: EmptyTensorList, PushBack, PopBack; a variable read's
  gradient asks VariableShape) that updates two variables and returns their gradients;
- bn_cnn: Keras 3 Conv2D, BatchNormalization, MaxPooling2D, Dropout and Dense, exported;
- masked_lookup: Keras 3 StringLookup with a mask token and an out-of-vocabulary word, then
  Embedding, pooling and Dense, exported;
- file_vocabulary: a tf.Module's StaticHashTable read from a vocabulary file, which the
  SavedModel keeps in assets/ and its init op is fed;
- greedy_decode: a tf.Module decoding greedily in a tf.while_loop (gather, argmax,
  log_softmax, a TensorArray), its sequences printed with tf.strings.as_string,
  reduce_join, regex_replace and length;
- preprocessing: Keras 3 Normalization (adapted), Discretization (Bucketize), CategoryEncoding
  and Hashing, unsalted (StringToHashBucketFast) and salted (StringToHashBucketStrong).
expected.npz holds `<model>/<signature>/<input key>` (the inputs) and
`<model>/<signature>/<output key>` (what the model's own Python call returned, before it was
saved; string inputs as bytes arrays). Each SavedModel is as TensorFlow wrote it, less an
empty assets/ directory.
"""

import os
import shutil

from fixture_common import FIXTURES

import numpy as np  # noqa: E402

OUT = FIXTURES / "tf2_run"


def loop_tensor_array(tf, path, expected):
    class Loop(tf.Module):
        def __init__(self):
            self.scale = tf.Variable([0.5, -1.0, 2.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                      tf.TensorSpec([], tf.int32)])
        def run(self, x, steps):
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            acc = tf.zeros([3])
            for i in tf.range(steps):
                row = x[i % tf.shape(x)[0]]
                acc = acc * 0.9 + row * self.scale if tf.reduce_sum(row) > 0 else acc - row
                ta = ta.write(i, acc)
            stacked = ta.stack()
            return {"stacked": stacked, "norm": tf.norm(stacked),
                    "reads": ta.gather([0, steps - 1])}

    module = Loop()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    inputs = {"x": np.array([[1, 2, 3], [-1, -2, 0.5], [0.3, 0.1, -0.2]], np.float32),
              "steps": np.array(7, np.int32)}
    record(expected, "loop_tensor_array/serving_default", inputs, module.run(**inputs))


def rnn_train(tf, path, expected):
    class RNN(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.random.RandomState(1).randn(3, 3).astype(np.float32) * 0.5)
            self.u = tf.Variable(np.random.RandomState(2).randn(3, 3).astype(np.float32) * 0.5)

        @tf.function(input_signature=[tf.TensorSpec([None, 4, 3], tf.float32),
                                      tf.TensorSpec([], tf.float32)])
        def train(self, xs, lr):
            with tf.GradientTape() as tape:
                h = tf.zeros([tf.shape(xs)[0], 3])
                hs = tf.TensorArray(tf.float32, size=4)
                for t in tf.range(4):
                    h = tf.tanh(tf.matmul(xs[:, t], self.w) + tf.matmul(h, self.u))
                    hs = hs.write(t, h)
                loss = tf.reduce_mean(tf.square(hs.stack()))
            gw, gu = tape.gradient(loss, [self.w, self.u])
            self.w.assign_sub(lr * gw)
            self.u.assign_sub(lr * gu)
            return {"loss": loss, "gw": gw, "gu": gu}

    module = RNN()
    tf.saved_model.save(module, str(path), signatures={"train": module.train})
    inputs = {"xs": np.random.RandomState(3).randn(2, 4, 3).astype(np.float32),
              "lr": np.array(0.1, np.float32)}
    record(expected, "rnn_train/train", inputs, module.train(**inputs))


def bn_cnn(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    inputs = keras.Input((10, 10, 2), name="image")
    hidden = keras.layers.Conv2D(3, 3, activation="relu")(inputs)
    hidden = keras.layers.BatchNormalization()(hidden)
    hidden = keras.layers.MaxPooling2D()(hidden)
    hidden = keras.layers.Dropout(0.2)(keras.layers.Flatten()(hidden))
    model = keras.Model(inputs, keras.layers.Dense(4, activation="softmax")(hidden))
    model.export(str(path), verbose=False)
    image = np.random.RandomState(0).rand(2, 10, 10, 2).astype(np.float32)
    record(expected, "bn_cnn/serve", {"image": image}, {"output_0": model(image, training=False)})


def masked_lookup(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    words = keras.Input((None,), dtype="string", name="words")
    ids = keras.layers.StringLookup(vocabulary=["the", "cat", "sat", "on", "mat", "dog"],
                                    mask_token="")(words)
    pooled = keras.layers.GlobalAveragePooling1D()(keras.layers.Embedding(8, 4)(ids))
    model = keras.Model(words, keras.layers.Dense(2)(pooled))
    model.export(str(path), verbose=False)
    text = np.array([[b"the", b"cat", b"flew"], [b"", b"dog", b"mat"]])
    record(expected, "masked_lookup/serve", {"words": text},
           {"output_0": model(tf.constant(text))})


def file_vocabulary(tf, path, expected):
    import tempfile
    with tempfile.TemporaryDirectory() as directory:
        words = os.path.join(directory, "words.txt")
        with open(words, "w") as out:
            out.write("red\ngreen\nblue\n")

        class Vocabulary(tf.Module):
            def __init__(self):
                self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                    words, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                    tf.lookup.TextFileIndex.LINE_NUMBER), -1)

            @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
            def ids(self, words):
                return {"ids": self.table.lookup(words)}

        module = Vocabulary()
        tf.saved_model.save(module, str(path), signatures={"serving_default": module.ids})
    text = np.array([b"blue", b"pink", b"red"])
    record(expected, "file_vocabulary/serving_default", {"words": text},
           module.ids(tf.constant(text)))


def greedy_decode(tf, path, expected):
    class Decode(tf.Module):
        def __init__(self):
            self.emb = tf.Variable(np.random.RandomState(5).randn(6, 3).astype(np.float32))
            self.out = tf.Variable(np.random.RandomState(6).randn(3, 6).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int32),
                                      tf.TensorSpec([], tf.int32)])
        def decode(self, start, steps):
            def body(t, token, ta, score):
                logits = tf.matmul(tf.gather(self.emb, token), self.out)
                token = tf.argmax(logits, axis=-1, output_type=tf.int32)
                score += tf.reduce_max(tf.nn.log_softmax(logits), axis=-1)
                return t + 1, token, ta.write(t, token), score

            _, _, ta, score = tf.while_loop(
                lambda t, *_: t < steps, body,
                [0, start, tf.TensorArray(tf.int32, size=steps), tf.zeros(tf.shape(start))])
            seqs = tf.transpose(ta.stack())
            text = tf.strings.reduce_join(tf.strings.as_string(seqs), axis=1, separator="-")
            return {"seqs": seqs, "score": score, "text": text,
                    "tagged": tf.strings.regex_replace(text, "([0-9])-([0-9])", "<\\2\\1>"),
                    "length": tf.strings.length(text)}

    module = Decode()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.decode})
    inputs = {"start": np.array([0, 3, 5], np.int32), "steps": np.array(4, np.int32)}
    outputs = {key: np.asarray(value.numpy()) for key, value in module.decode(**inputs).items()}
    outputs["text"] = outputs["text"].astype(bytes)  # an .npz holds no object arrays
    outputs["tagged"] = outputs["tagged"].astype(bytes)
    record(expected, "greedy_decode/serving_default", inputs, outputs)


def preprocessing(tf, path, expected):
    import keras
    keras.utils.set_random_seed(3)
    numbers = keras.Input((3,), name="numbers")
    category = keras.Input((1,), dtype="int64", name="category")
    normalize = keras.layers.Normalization()
    normalize.adapt(np.random.RandomState(4).randn(50, 3).astype(np.float32))
    buckets = keras.layers.Discretization(bin_boundaries=[-0.5, 0.0, 0.5])(numbers)
    features = keras.layers.Concatenate()([
        normalize(numbers), keras.ops.cast(buckets, "float32"),
        keras.layers.CategoryEncoding(num_tokens=5, output_mode="one_hot")(category),
        keras.ops.cast(keras.layers.Hashing(num_bins=4)(category), "float32"),
        keras.ops.cast(keras.layers.Hashing(num_bins=3, salt=[7, 9])(category), "float32")])
    model = keras.Model([numbers, category], keras.layers.Dense(2)(features))
    model.export(str(path), verbose=False)
    inputs = {"numbers": np.random.RandomState(5).randn(4, 3).astype(np.float32),
              "category": np.array([[0], [3], [4], [1]], np.int64)}
    record(expected, "preprocessing/serve", inputs,
           {"output_0": model([inputs["numbers"], inputs["category"]])})


def record(expected, prefix, inputs, outputs):
    for key, value in inputs.items():
        expected[f"{prefix}/{key}"] = np.asarray(value)
    for key, value in outputs.items():
        expected[f"{prefix}/{key}"] = np.asarray(value)


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    tf.random.set_seed(0)
    expected = {}
    for make in (loop_tensor_array, rnn_train, bn_cnn, masked_lookup, file_vocabulary,
                 greedy_decode, preprocessing):
        path = OUT / make.__name__
        shutil.rmtree(path, ignore_errors=True)
        make(tf, path, expected)
        assets = path / "assets"
        if assets.is_dir() and not any(assets.iterdir()):
            assets.rmdir()
        print(make.__name__)
    np.savez(OUT / "expected.npz", **expected)


if __name__ == "__main__":
    main()
