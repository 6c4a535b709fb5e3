"""Write tests/fixtures/tf2_models/: TF2 SavedModels of kinds tests/fixtures/tf2* do not hold,
made as users make them today, with TensorFlow 2.21's outputs for fixed inputs.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_tf2_model_fixtures.py [OUT]
[MODEL ...]` (OUT defaults to tests/fixtures/tf2_models; no MODEL: those committed, COMMITTED).
- bilstm_gru: Keras 3 Embedding(mask_zero=True), Bidirectional(LSTM) and a GRU, exported;
- text_vectorization: Keras 3 TextVectorization (adapted) inside the model, exported;
- multi_signature: a tf.Module with three signatures over (None, None) batches and sequences;
- tf_keras_custom: tf_keras (Keras 2) with a custom layer, saved with a `train` signature
  that applies an SGD step to the variables;
- mixed_float16: Keras 3 under the mixed_float16 policy, int64 ids;
- lookup_module: a tf.Module with a MutableHashTable, a StaticVocabularyTable and a string
  preprocessing function (lower, split, to_number);
- scan_switch: tf.scan, tf.map_fn and tf.switch_case inside a tf.while_loop;
- separable_cnn: Keras 3 SeparableConv2D, DepthwiseConv2D, Conv2DTranspose, UpSampling2D;
- audio_stft: tf.signal.stft, a mel matrix variable, log and MFCCs, tf.math.angle;
- image_preprocessing: Keras 3 Resizing, Rescaling, CenterCrop, RandomFlip, GroupNormalization;
- feature_ops: unique_with_counts, unsorted segment sum/max, argsort, bincount, searchsorted,
  histogram_fixed_width, tf.scan and top_k in one signature;
- conv1d_attention: Keras 3 causal dilated Conv1D, Attention, Masking before a SimpleRNN;
- nested_functions: tf.functions calling tf.functions (one jit_compile=True), float64 and
  complex128, solve and cholesky;
- multi_hot: Keras 3 StringLookup(output_mode="multi_hot") (DenseBincount of a matrix);
- ragged_ops_module: a tf.Module of everyday RaggedTensor ops (split, unicode_split, ragged
  range, gather, ngrams, to_sparse, bounding_shape);
- image_ops: a tf.Module of everyday tf.image ops (resize with antialias and lanczos3 run
  ScaleAndTranslate);
- example_serving: a serving signature parsing tf.train.Examples (a RaggedFeature among them);
- linalg_ops: lstsq, expm, logdet, pinv, sqrtm, svd, eigvals (Eig) and the 2-norm;
- bfloat16_cast: a tf.Module computing in bfloat16 between casts (no outputs recorded: the
  engine holds no bfloat16 values, and says so);
- keras_in_module: a Keras 3 model in a tf.Module with a custom signature, through
  tf.saved_model.save: the signature reads other handles than the restore function restores
  (saved_model_cli fails on it; tf.saved_model.load runs it).
expected.npz holds `<model>/<signature>/<key>` for inputs and outputs (as in tf2_run/;
`<signature>@<case>` for further inputs), and
`ragged_to_tensor/<case>/result|error`: RaggedTensorToTensor on RAGGED_CASES' inputs;
`bincount/<case>`: BINCOUNT_CASES' counts; `ragged_ops/<case>/<output index>|grad`: the
RAGGED_OP_CASES; `scale/<case>[/grad]`: ScaleAndTranslate on SCALE_CASES;
`ragged_cross/<case>/values|splits`: RaggedCross on RAGGED_CROSS_CASES; `parse/<case>/...`:
ParseExampleV2 with ragged keys; `parse_sequence/<case>/...`: ParseSequenceExampleV2's; `eig/<case>/e|v`: Eig on EIG_CASES.
other_root/ck: a checkpoint of tf2_run/preprocessing under
another root object.
"""

import os
import shutil
import sys
from pathlib import Path

import numpy as np

# The tests import this module's case tables: the path here, not fixture_common's, whose import
# sets TensorFlow's environment (TF_CPP_MIN_LOG_LEVEL, oneDNN off) for the rest of a process
# (a test process then lost the INFO lines log_device_placement tests read). main() imports it.
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

COMMITTED = ("lookup_module", "multi_hot", "bfloat16_cast", "keras_in_module")


def bilstm_gru(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    ids = keras.Input((None,), dtype="int32", name="ids")
    x = keras.layers.Embedding(12, 4, mask_zero=True)(ids)
    x = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True))(x)
    x = keras.layers.GRU(3)(x)
    model = keras.Model(ids, keras.layers.Dense(2, activation="softmax")(x))
    model.export(str(path), verbose=False)
    batch = np.array([[3, 5, 7, 0, 0], [1, 2, 3, 4, 11], [9, 0, 0, 0, 0]], np.int32)
    record(expected, "bilstm_gru/serve", {"ids": batch}, {"output_0": model(batch)})


def text_vectorization(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    vectorize = keras.layers.TextVectorization(max_tokens=12, output_sequence_length=5)
    vectorize.adapt(["The cat sat on the mat.", "A dog ran!", "the Dog sat, the cat ran"])
    text = keras.Input((), dtype="string", name="text")
    x = keras.layers.Embedding(12, 3)(vectorize(text))
    model = keras.Model(text, keras.layers.Dense(2)(keras.layers.Flatten()(x)))
    model.export(str(path), verbose=False)
    batch = np.array([b"The CAT sat.", b"a bird on the mat, the end", b""])
    record(expected, "text_vectorization/serve", {"text": batch},
           {"output_0": model(tf.constant(batch))})


def multi_signature(tf, path, expected):
    class Sequences(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.random.RandomState(1).randn(4, 3).astype(np.float32))
            self.table = tf.Variable(np.random.RandomState(2).randn(10, 3).astype(np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32)])
        def encode(self, x):
            h = tf.einsum("btf,fh->bth", x, self.w)
            return {"steps": tf.math.cumsum(h, axis=1), "shape": tf.shape(h)}

        @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32),
                                      tf.TensorSpec([None], tf.int32)])
        def pool(self, x, lengths):
            mask = tf.sequence_mask(lengths, tf.shape(x)[1], dtype=x.dtype)
            total = tf.reduce_sum(x * mask[:, :, None], axis=1)
            return {"mean": total / tf.maximum(tf.cast(lengths, x.dtype)[:, None], 1.0),
                    "last": tf.gather(x, tf.maximum(lengths - 1, 0), batch_dims=1)}

        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int64)])
        def score(self, ids):
            vectors = tf.nn.embedding_lookup(self.table, ids)
            best = tf.argmax(tf.reduce_sum(vectors, axis=-1), axis=1)
            return {"vectors": vectors, "best": best, "top": tf.math.top_k(ids, k=2).values}

    module = Sequences()
    tf.saved_model.save(module, str(path), signatures={
        "encode": module.encode, "pool": module.pool, "score": module.score})
    rng = np.random.RandomState(3)
    x = rng.randn(2, 5, 4).astype(np.float32)
    record(expected, "multi_signature/encode", {"x": x}, module.encode(x))
    lengths = np.array([3, 5], np.int32)
    record(expected, "multi_signature/pool", {"x": x, "lengths": lengths},
           module.pool(x, lengths))
    ids = np.array([[1, 4, 9], [0, 7, 2], [5, 5, 3]], np.int64)
    record(expected, "multi_signature/score", {"ids": ids}, module.score(ids))


def tf_keras_custom(tf, path, expected):
    import tf_keras
    tf_keras.utils.set_random_seed(0)

    class Scaled(tf_keras.layers.Layer):
        def build(self, input_shape):
            self.kernel = self.add_weight("kernel", (input_shape[-1], 3))
            self.scale = self.add_weight("scale", (), initializer="ones")

        def call(self, x):
            return tf.nn.relu(tf.matmul(x, self.kernel)) * self.scale

        def get_config(self):
            return super().get_config()

    x = tf_keras.Input((4,), name="x")
    model = tf_keras.Model(x, tf_keras.layers.Dense(2, name="head")(Scaled(name="scaled")(x)))
    optimizer = tf_keras.optimizers.SGD(0.1, momentum=0.9)
    optimizer.build(model.trainable_variables)

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def train(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss, "iterations": optimizer.iterations}

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def serve(x):
        return {"logits": model(x, training=False)}

    model.optimizer_for_export = optimizer
    tf.saved_model.save(model, str(path), signatures={"serving_default": serve, "train": train})
    rng = np.random.RandomState(4)
    x = rng.randn(3, 4).astype(np.float32)
    y = np.array([0, 1, 1], np.int32)
    record(expected, "tf_keras_custom/serving_default", {"x": x}, serve(x))
    record(expected, "tf_keras_custom/train", {"x": x, "y": y}, train(x, y))


def mixed_float16(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        ids = keras.Input((4,), dtype="int64", name="ids")
        x = keras.layers.Embedding(20, 4)(ids)
        x = keras.layers.Dense(5, activation="gelu")(x)
        x = keras.layers.LayerNormalization()(x)
        x = keras.layers.GlobalAveragePooling1D()(x)
        out = keras.layers.Dense(3, activation="softmax", dtype="float32")(x)
        model = keras.Model(ids, out)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    model.export(str(path), verbose=False)
    batch = np.array([[1, 2, 3, 19], [0, 0, 5, 7]], np.int64)
    record(expected, "mixed_float16/serve", {"ids": batch}, {"output_0": model(batch)})


def lookup_module(tf, path, expected):
    class Lookup(tf.Module):
        def __init__(self):
            self.counts = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
            self.vocab = tf.lookup.StaticVocabularyTable(
                tf.lookup.KeyValueTensorInitializer(
                    ["red", "green", "blue"], tf.constant([0, 1, 2], tf.int64)), 2)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def tokens(self, lines):
            words = tf.strings.split(tf.strings.lower(tf.strings.strip(lines)))
            ids = self.vocab.lookup(words)
            return {"ids": ids.to_tensor(default_value=-1), "lengths": ids.row_lengths(),
                    "first": words.to_tensor(default_value="")[:, :1]}

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                      tf.TensorSpec([None], tf.string)])
        def count(self, keys, numbers):
            self.counts.insert(keys, tf.strings.to_number(numbers, tf.int64))
            return {"found": self.counts.lookup(tf.constant(["a", "b", "zz"])),
                    "size": self.counts.size()}

    module = Lookup()
    tf.saved_model.save(module, str(path),
                        signatures={"tokens": module.tokens, "count": module.count})
    lines = np.array([b"  Red blue  PINK ", b"green", b"Blue red green yellow"])
    record(expected, "lookup_module/tokens", {"lines": lines},
           {k: np.asarray(v).astype(bytes) if v.dtype == tf.string else v
            for k, v in module.tokens(tf.constant(lines)).items()})
    empty = tf.constant([], tf.string)  # `--feed 'lines=[]'`: JSON's empty list
    record(expected, "lookup_module/tokens@empty", {"lines": np.array([], bytes)},
           {k: np.asarray(v).astype(bytes) if v.dtype == tf.string else v
            for k, v in module.tokens(empty).items()})
    keys, numbers = np.array([b"a", b"zz"]), np.array([b"12", b"-7"])
    record(expected, "lookup_module/count", {"keys": keys, "numbers": numbers},
           module.count(tf.constant(keys), tf.constant(numbers)))


def scan_switch(tf, path, expected):
    class Scan(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[0.5, -0.2], [0.1, 0.3]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32),
                                      tf.TensorSpec([], tf.int32)])
        def run(self, x, mode):
            running = tf.scan(lambda acc, row: acc * 0.5 + tf.linalg.matvec(self.w, row), x)
            squares = tf.map_fn(lambda row: tf.reduce_sum(row * row), x)

            def body(i, total):
                branch = tf.switch_case(i % 3, [lambda: total + 1.0,
                                                lambda: total * 2.0,
                                                lambda: total - tf.reduce_sum(running[i])])
                return i + 1, tf.cond(mode > 0, lambda: branch, lambda: -branch)

            _, total = tf.while_loop(lambda i, _: i < tf.shape(x)[0], body, [0, 0.0])
            return {"running": running, "squares": squares, "total": total}

    module = Scan()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    x = np.random.RandomState(7).randn(5, 2).astype(np.float32)
    for mode in (1,):
        inputs = {"x": x, "mode": np.array(mode, np.int32)}
        record(expected, "scan_switch/serving_default", inputs, module.run(**inputs))


def separable_cnn(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    image = keras.Input((8, 8, 2), name="image")
    x = keras.layers.SeparableConv2D(4, 3, padding="same", activation="relu")(image)
    x = keras.layers.DepthwiseConv2D(3, strides=2, depth_multiplier=2)(x)
    x = keras.layers.BatchNormalization()(x)
    x = keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same")(x)
    x = keras.layers.UpSampling2D()(x)
    x = keras.layers.AveragePooling2D(3)(x)
    model = keras.Model(image, keras.layers.GlobalMaxPooling2D()(x))
    model.export(str(path), verbose=False)
    batch = np.random.RandomState(8).rand(2, 8, 8, 2).astype(np.float32)
    record(expected, "separable_cnn/serve", {"image": batch}, {"output_0": model(batch)})


RAGGED_CASES = {
    # name: (shape, values, default_value, row partitions, partition types)
    "splits": (np.int64(-1), np.arange(5, dtype=np.float32), np.float32(0),
               [np.array([0, 2, 2, 5], np.int64)], ["ROW_SPLITS"]),
    "splits_cut": (np.array([2, 2], np.int64), np.arange(5, dtype=np.float32), np.float32(0),
                   [np.array([0, 2, 2, 5], np.int64)], ["ROW_SPLITS"]),
    "splits_padded": (np.array([4, -1], np.int32), np.arange(5, dtype=np.int32), np.int32(9),
                      [np.array([0, 3, 3, 5], np.int32)], ["ROW_SPLITS"]),
    "two_levels": (np.int64(-1), np.array([b"a", b"b", b"c", b"d"]), np.array(b"-"),
                   [np.array([0, 2, 3], np.int64), np.array([0, 1, 1, 4], np.int64)],
                   ["ROW_SPLITS", "ROW_SPLITS"]),
    "inner_default": (np.array([-1, 3, 2], np.int64),
                      np.arange(10, dtype=np.float32).reshape(5, 2),
                      np.array([1.5, -1], np.float32), [np.array([0, 3, 5], np.int64)],
                      ["ROW_SPLITS"]),
    "rowids": (np.array([-1, 2], np.int64), np.arange(5, dtype=np.float64), np.float64(-1),
               [np.int64(4), np.array([0, 0, 2, 2, 2], np.int64)],
               ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]),
    "rowid_too_big": (np.int64(-1), np.arange(5, dtype=np.float32), np.float32(0),
                      [np.int64(2), np.array([0, 0, 2, 2, 2], np.int64)],
                      ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]),
    "rank_mismatch": (np.array([3, 2, 2], np.int64), np.arange(5, dtype=np.float32),
                      np.float32(0), [np.array([0, 2, 2, 5], np.int64)], ["ROW_SPLITS"]),
}


RAGGED_GRADIENT_CASES = ("splits_cut", "inner_default", "rowids")


def ragged_weights(shape, dtype):
    """The weights w of the loss sum(output * w) whose gradients the fixtures hold."""
    return (np.arange(np.prod(shape)).reshape(shape) % 5 - 1.5).astype(dtype)


def ragged_to_tensor(tf, path, expected):
    """RaggedTensorToTensor run by itself: each case's inputs, and TensorFlow's result or its
    error's message (`<case>/error`); for RAGGED_GRADIENT_CASES the gradients of
    sum(output * ragged_weights) to values and default_value (`<case>/grad_values|default`)."""
    for name in RAGGED_GRADIENT_CASES:
        shape, values, default, partitions, kinds = RAGGED_CASES[name]
        values, default = tf.constant(values), tf.constant(default)
        with tf.GradientTape() as tape:
            tape.watch([values, default])
            result = tf.raw_ops.RaggedTensorToTensor(
                shape=shape, values=values, default_value=default,
                row_partition_tensors=partitions, row_partition_types=kinds)
            loss = tf.reduce_sum(result * ragged_weights(result.shape, result.dtype.as_numpy_dtype))
        grad_values, grad_default = tape.gradient(loss, [values, default])
        expected[f"ragged_to_tensor/{name}/grad_values"] = tf.convert_to_tensor(grad_values).numpy()
        expected[f"ragged_to_tensor/{name}/grad_default"] = grad_default.numpy()
    for name, (shape, values, default, partitions, kinds) in RAGGED_CASES.items():
        prefix = f"ragged_to_tensor/{name}"
        try:
            result = tf.raw_ops.RaggedTensorToTensor(
                shape=shape, values=values, default_value=default,
                row_partition_tensors=partitions, row_partition_types=kinds).numpy()
            expected[f"{prefix}/result"] = (result.astype(bytes) if result.dtype == object
                                            else result)
        except tf.errors.InvalidArgumentError as error:
            message = error.message.split("[Op:")[0].split("}} ")[-1].strip()
            expected[f"{prefix}/error"] = np.array(message)


def audio_stft(tf, path, expected):
    class Spectrogram(tf.Module):
        def __init__(self):
            self.mel = tf.Variable(tf.signal.linear_to_mel_weight_matrix(
                num_mel_bins=4, num_spectrogram_bins=9, sample_rate=800,
                lower_edge_hertz=20.0, upper_edge_hertz=390.0))

        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
        def features(self, audio):
            stft = tf.signal.stft(audio, frame_length=16, frame_step=8, fft_length=16)
            power = tf.math.abs(stft) ** 2
            mel = tf.tensordot(power, self.mel, 1)
            log_mel = tf.math.log(mel + 1e-6)
            mfcc = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)
            return {"log_mel": log_mel, "mfcc": mfcc, "phase": tf.math.angle(stft)}

    module = Spectrogram()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.features})
    audio = np.sin(np.arange(2 * 64).reshape(2, 64) * 0.3).astype(np.float32)
    record(expected, "audio_stft/serving_default", {"audio": audio}, module.features(audio))


def image_preprocessing(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    image = keras.Input((None, None, 3), name="image")
    x = keras.layers.Resizing(6, 6)(image)
    x = keras.layers.Rescaling(1 / 255.0, offset=-0.5)(x)
    x = keras.layers.CenterCrop(4, 4)(x)
    x = keras.layers.RandomFlip()(x)
    x = keras.layers.Conv2D(4, 3, padding="same")(x)
    x = keras.layers.GroupNormalization(groups=2)(x)
    model = keras.Model(image, keras.layers.GlobalAveragePooling2D()(x))
    model.export(str(path), verbose=False)
    batch = (np.random.RandomState(9).rand(2, 9, 7, 3) * 255).astype(np.float32)
    # Keras 3's export traces RandomFlip's random branch (a stateless draw from its seed
    # variable): what the SavedModel gives is the reference, not model(batch, training=False)
    served = tf.saved_model.load(str(path)).signatures["serve"](image=tf.constant(batch))
    record(expected, "image_preprocessing/serve", {"image": batch}, served)


def feature_ops(tf, path, expected):
    class Features(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.int64),
                                      tf.TensorSpec([None], tf.float32)])
        def stats(self, ids, x):
            unique, index, counts = tf.unique_with_counts(ids)
            sums = tf.math.unsorted_segment_sum(x, index, tf.size(unique))
            order = tf.argsort(x, direction="DESCENDING", stable=True)
            return {"unique": unique, "counts": counts, "sums": sums, "order": order,
                    "sorted": tf.sort(x), "bins": tf.math.bincount(tf.cast(ids, tf.int32)),
                    "where": tf.searchsorted(tf.sort(x), [0.0, 0.5]),
                    "hist": tf.histogram_fixed_width(x, [-1.0, 1.0], nbins=4),
                    "cummax": tf.scan(tf.maximum, x),
                    "top": tf.math.top_k(x, k=2).indices,
                    "segment_max": tf.math.unsorted_segment_max(x, index, tf.size(unique))}

    module = Features()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.stats})
    ids = np.array([5, 3, 5, 9, 3, 5], np.int64)
    x = np.array([0.3, -0.7, 0.3, 0.9, 0.1, -0.2], np.float32)
    record(expected, "feature_ops/serving_default", {"ids": ids, "x": x}, module.stats(ids, x))


def conv1d_attention(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    seq = keras.Input((None, 3), name="seq")
    masked = keras.layers.Masking(mask_value=0.0)(seq)
    x = keras.layers.Conv1D(4, 3, padding="causal", dilation_rate=2, activation="relu")(seq)
    x = keras.layers.LayerNormalization()(x)
    attended = keras.layers.Attention(use_scale=True)([x, x])
    pooled = keras.layers.GlobalMaxPooling1D()(attended)
    recurrent = keras.layers.SimpleRNN(2)(masked)
    model = keras.Model(seq, keras.layers.Concatenate()([pooled, recurrent]))
    model.export(str(path), verbose=False)
    batch = np.random.RandomState(10).randn(2, 5, 3).astype(np.float32)
    batch[1, 3:] = 0.0
    record(expected, "conv1d_attention/serve", {"seq": batch}, {"output_0": model(batch)})


def nested_functions(tf, path, expected):
    class Nested(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.array([[1.5, -0.5], [0.25, 2.0]]), dtype=tf.float64)

        @tf.function(jit_compile=True)
        def inner(self, x):
            return tf.linalg.solve(self.w, tf.transpose(x)) + tf.reduce_sum(self.w)

        @tf.function
        def middle(self, x):
            return tf.cast(self.inner(x), tf.complex128) * tf.complex(
                tf.constant(0.5, tf.float64), tf.constant(-1.0, tf.float64))

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float64)])
        def run(self, x):
            z = self.middle(x)
            return {"real": tf.math.real(z), "abs": tf.abs(z),
                    "chol": tf.linalg.cholesky(tf.matmul(x, x, transpose_a=True)
                                               + tf.eye(2, dtype=tf.float64))}

    module = Nested()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    x = np.array([[1.0, 2.0], [-0.5, 0.25], [3.0, 1.0]])
    record(expected, "nested_functions/serving_default", {"x": x}, module.run(x))


def multi_hot(tf, path, expected):
    import keras
    words = keras.Input((None,), dtype="string", name="words")
    lookup = keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot",
                                       num_oov_indices=2)
    model = keras.Model(words, lookup(words))
    model.export(str(path), verbose=False)
    batch = np.array([[b"a", b"z", b"c"], [b"b", b"b", b"q"]])
    served = tf.saved_model.load(str(path)).signatures["serve"](words=tf.constant(batch))
    record(expected, "multi_hot/serve", {"words": batch}, served)


def ragged_ops_module(tf, path, expected):
    class Ragged(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                      tf.TensorSpec([None], tf.int64)])
        def run(self, text, lengths):
            words = tf.strings.split(text)
            rows = tf.RaggedTensor.from_row_lengths(tf.range(tf.reduce_sum(lengths)), lengths)
            ranges = tf.ragged.range(lengths)
            return {"chars": tf.strings.unicode_split(text, "UTF-8").row_lengths(),
                    "sums": tf.reduce_sum(rows, axis=1), "range": ranges.to_tensor(),
                    "gathered": tf.gather(rows, [1, 0]).to_tensor(-1),
                    "ngrams": tf.strings.ngrams(words, 2, separator="+").to_tensor(""),
                    "sparse": words.to_sparse().indices, "bound": words.bounding_shape()}

    module = Ragged()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    inputs = {"text": np.array([b"hello big world", "h\u00e9llo".encode(), b"a b"]),
              "lengths": np.array([2, 0, 3], np.int64)}
    outputs = module.run(**{k: tf.constant(v) for k, v in inputs.items()})
    record(expected, "ragged_ops_module/serving_default", inputs, outputs)


def image_ops(tf, path, expected):
    class Images(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
        def run(self, img):
            return {"antialias": tf.image.resize(img, [5, 4], antialias=True),
                    "bicubic": tf.image.resize(img, [7, 9], method="bicubic"),
                    "lanczos": tf.image.resize(img, [3, 3], method="lanczos3"),
                    "area": tf.image.resize(img, [3, 2], method="area"),
                    "pad": tf.image.resize_with_pad(img, 8, 8),
                    "gray": tf.image.rgb_to_grayscale(img),
                    "std": tf.image.per_image_standardization(img),
                    "hue": tf.image.adjust_hue(img / 255.0, 0.1),
                    "patches": tf.image.extract_patches(img, [1, 2, 2, 1], [1, 2, 2, 1],
                                                        [1, 1, 1, 1], "VALID"),
                    "sobel": tf.image.sobel_edges(img),
                    "ssim": tf.image.ssim(img, img[:, ::-1], 255.0, filter_size=3),
                    "crop": tf.image.central_crop(img, 0.5)}

    module = Images()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    img = (np.random.RandomState(0).rand(2, 6, 7, 3) * 255).astype(np.float32)
    record(expected, "image_ops/serving_default", {"img": img}, module.run(img))


def example_serving(tf, path, expected):
    spec = {"age": tf.io.FixedLenFeature([], tf.int64, default_value=0),
            "score": tf.io.FixedLenFeature([2], tf.float32),
            "tags": tf.io.VarLenFeature(tf.string), "words": tf.io.RaggedFeature(tf.string)}

    class Serving(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[0.5], [-1.0]])

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="examples")])
        def serve(self, examples):
            features = tf.io.parse_example(examples, spec)
            tags = tf.sparse.to_dense(features["tags"], default_value="")
            return {"pred": tf.matmul(features["score"], self.w)
                    + tf.cast(features["age"][:, None], tf.float32),
                    "tags": tags, "nwords": features["words"].row_lengths(),
                    "joined": tf.strings.reduce_join(features["words"], axis=1, separator=" "),
                    "hash": tf.strings.to_hash_bucket_fast(tags, 10)}

    module = Serving()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})
    examples = np.array([_example(tf, age=[3], score=[1.0, 2.0], tags=[b"ab", b"bc"],
                                  words=[b"hi", b"there"]),
                         _example(tf, score=[0.5, -1.0], tags=[b"b"])], dtype=object)
    outputs = {k: np.asarray(v.numpy()) for k, v in module.serve(examples).items()}
    record(expected, "example_serving/serving_default", {"examples": examples.astype(bytes)},
           outputs)


def linalg_ops(tf, path, expected):
    class Linalg(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3, 3], tf.float64),
                                      tf.TensorSpec([None, 3, 2], tf.float64)])
        def run(self, a, b):
            spd = tf.matmul(a, a, transpose_b=True) + 3 * tf.eye(3, dtype=tf.float64)
            return {"lstsq": tf.linalg.lstsq(a, b), "expm": tf.linalg.expm(a * 0.1),
                    "logdet": tf.linalg.logdet(spd), "pinv": tf.linalg.pinv(a),
                    "sqrtm": tf.linalg.sqrtm(spd), "svd": tf.linalg.svd(a, compute_uv=False),
                    "eigvals": tf.math.real(tf.linalg.eigvals(spd)),
                    "norm2": tf.norm(a, ord=2, axis=[-2, -1])}

    module = Linalg()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.run})
    rng = np.random.RandomState(0)
    inputs = {"a": rng.randn(2, 3, 3), "b": rng.randn(2, 3, 2)}
    record(expected, "linalg_ops/serving_default", inputs, module.run(**inputs))


def bfloat16_cast(tf, path, expected):
    class Scaled(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def serve(self, x):
            low = tf.cast(x, tf.bfloat16)
            return {"y": tf.cast(tf.matmul(low, low, transpose_b=True), tf.float32)}

    module = Scaled()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})


def keras_in_module(tf, path, expected):
    import keras
    keras.utils.set_random_seed(0)
    x = keras.Input((4,))
    model = keras.Model(x, keras.layers.Dense(2)(keras.layers.Dense(3, activation="relu")(x)))

    class Wrapper(tf.Module):
        def __init__(self, model):
            self.model = model

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
        def scores(self, x):
            logits = self.model(x)
            return {"logits": logits, "best": tf.argmax(logits, axis=1)}

    module = Wrapper(model)
    tf.saved_model.save(module, str(path), signatures={"scores": module.scores})
    x = np.random.RandomState(12).randn(3, 4).astype(np.float32)
    record(expected, "keras_in_module/scores", {"x": x}, module.scores(x))


MODELS = (bilstm_gru, text_vectorization, multi_signature, tf_keras_custom, mixed_float16,
          lookup_module, scan_switch, separable_cnn, audio_stft, image_preprocessing, feature_ops,
          conv1d_attention, nested_functions, multi_hot, ragged_ops_module, image_ops,
          example_serving, linalg_ops, bfloat16_cast, keras_in_module)
BINCOUNT_CASES = {
    # name: (op, inputs, binary_output)
    "dense_rows": ("DenseBincount", dict(input=np.array([[1, 1, 4], [0, 3, 9]], np.int32),
                                         size=np.int32(5), weights=np.array([], np.float32)),
                   False),
    "dense_rows_weighted": ("DenseBincount", dict(
        input=np.array([[1, 1, 4], [0, 3, 9]], np.int64), size=np.int64(5),
        weights=np.array([[0.5, 2, 1], [1, -1, 3]], np.float32)), False),
    "dense_rows_binary": ("DenseBincount", dict(input=np.array([[2, 2], [0, 7]], np.int64),
                                                size=np.int64(3),
                                                weights=np.array([], np.int64)), True),
    "ragged": ("RaggedBincount", dict(splits=np.array([0, 3, 3, 5], np.int64),
                                      values=np.array([1, 1, 4, 0, 6], np.int64),
                                      size=np.int64(5), weights=np.array([], np.int32)), False),
    "ragged_weighted": ("RaggedBincount", dict(
        splits=np.array([0, 2, 5], np.int64), values=np.array([2, 2, 0, 1, 2], np.int32),
        size=np.int32(3), weights=np.array([0.5, 1.5, 2, -1, 4], np.float64)), False),
    "ragged_binary": ("RaggedBincount", dict(splits=np.array([0, 2, 5], np.int64),
                                             values=np.array([2, 2, 0, 1, 2], np.int64),
                                             size=np.int64(4), weights=np.array([], np.int64)),
                      True),
}


def bincount_rows(tf, path, expected):
    """DenseBincount of matrices and RaggedBincount: each row counted (`bincount/<case>`)."""
    for name, (op, inputs, binary) in BINCOUNT_CASES.items():
        expected[f"bincount/{name}"] = getattr(tf.raw_ops, op)(
            **inputs, binary_output=binary).numpy()


SPLITS2 = [np.array([0, 2, 2, 3], np.int64), np.array([0, 1, 4, 6], np.int64)]
RAGGED_OP_CASES = {
    # name: (op, inputs, attrs); gradients of sum(values * ragged_weights) where "grad"
    "range": ("RaggedRange", dict(starts=np.array([0, 5, 2], np.int32), limits=np.int32(4),
                                  deltas=np.array([1, -2, 3], np.int32)), {}),
    "range_float": ("RaggedRange", dict(starts=np.float32(0.5), limits=np.array([2, 0.5, 3],
                                                                                 np.float32),
                                        deltas=np.float32(0.75)), {"Tsplits": "int32"}),
    "gather": ("RaggedGather", dict(params_nested_splits=SPLITS2,
                                    params_dense_values=np.arange(12.0).reshape(6, 2),
                                    indices=np.array([2, 0, 0], np.int32)),
               {"OUTPUT_RAGGED_RANK": 2, "grad": True}),
    "gather_matrix": ("RaggedGather", dict(params_nested_splits=SPLITS2[:1],
                                           params_dense_values=np.arange(3, dtype=np.float32),
                                           indices=np.array([[2, 0], [1, 2]], np.int64)),
                      {"OUTPUT_RAGGED_RANK": 2}),
    "gather_scalar": ("RaggedGather", dict(params_nested_splits=SPLITS2,
                                           params_dense_values=np.arange(6, dtype=np.int32),
                                           indices=np.int32(0)), {"OUTPUT_RAGGED_RANK": 1}),
    "to_sparse": ("RaggedTensorToSparse", dict(rt_nested_splits=SPLITS2,
                                               rt_dense_values=np.arange(12.0).reshape(6, 2)),
                  {"grad": True}),
}


def ragged_ops(tf, path, expected):
    """RaggedRange, RaggedGather and RaggedTensorToSparse: each output (`ragged_ops/<case>/<i>`)
    and, for cases marked "grad", the flat values' gradient (`ragged_ops/<case>/grad`)."""
    for name, (op, inputs, attrs) in RAGGED_OP_CASES.items():
        attrs = {k: (tf.as_dtype(v) if k == "Tsplits" else v) for k, v in attrs.items()
                 if k != "grad"}
        tensors = {k: ([tf.constant(a) for a in v] if isinstance(v, list) else tf.constant(v))
                   for k, v in inputs.items()}
        with tf.GradientTape() as tape:
            watched = tensors.get("params_dense_values", tensors.get("rt_dense_values"))
            if watched is not None:
                tape.watch(watched)
            outputs = getattr(tf.raw_ops, op)(**tensors, **attrs)
            flat = tf.nest.flatten(outputs)
            values = flat[1] if op == "RaggedTensorToSparse" else flat[-1]
            loss = tf.reduce_sum(tf.cast(values, tf.float64) * ragged_weights(
                values.shape, np.float64))
        for index, output in enumerate(flat):
            expected[f"ragged_ops/{name}/{index}"] = output.numpy()
        if RAGGED_OP_CASES[name][2].get("grad"):
            expected[f"ragged_ops/{name}/grad"] = tf.convert_to_tensor(
                tape.gradient(loss, watched)).numpy()


SCALE_IMAGE = (np.random.RandomState(11).rand(2, 6, 7, 2) * 255).astype(np.float32)
SCALE_CASES = {
    # name: (size, scale, translation, kernel_type, antialias, gradient too)
    "lanczos3_down": ([3, 4], [0.5, 4 / 7], [0, 0], "lanczos3", True, True),
    "lanczos5_up": ([9, 10], [1.5, 10 / 7], [0, 0], "lanczos5", True, False),
    "triangle_down": ([4, 3], [4 / 6, 3 / 7], [0, 0], "triangle", True, True),
    "keyscubic_shifted": ([6, 7], [1.2, 0.9], [0.7, -0.4], "keyscubic", False, True),
    "gaussian": ([5, 5], [5 / 6, 5 / 7], [0, 0], "gaussian", True, False),
    "box": ([3, 3], [0.5, 3 / 7], [0, 0], "box", True, False),
    "mitchellcubic": ([8, 4], [8 / 6, 4 / 7], [0, 0], "mitchellcubic", True, False),
    "lanczos1_plain": ([4, 9], [4 / 6, 9 / 7], [0.25, 0.5], "lanczos1", False, False),
}


def scale_and_translate(tf, path, expected):
    """ScaleAndTranslate of SCALE_IMAGE (`scale/<case>`) and, where marked, ScaleAndTranslate's
    gradient of sum(output * ragged_weights) (`scale/<case>/grad`)."""
    for name, (size, scale, translation, kind, antialias, grad) in SCALE_CASES.items():
        image = tf.constant(SCALE_IMAGE)
        with tf.GradientTape() as tape:
            tape.watch(image)
            out = tf.raw_ops.ScaleAndTranslate(
                images=image, size=np.array(size, np.int32), scale=np.array(scale, np.float32),
                translation=np.array(translation, np.float32), kernel_type=kind,
                antialias=antialias)
            loss = tf.reduce_sum(out * ragged_weights(out.shape, np.float32))
        expected[f"scale/{name}"] = out.numpy()
        if grad:
            expected[f"scale/{name}/grad"] = tape.gradient(loss, image).numpy()


_WORDS = dict(ragged_values=[np.array([b"a", b"b", b"c"])],
              ragged_row_splits=[np.array([0, 2, 2, 3], np.int64)])
RAGGED_CROSS_CASES = {
    # name: RaggedCross's arguments (tf.ragged.cross, cross_hashed)
    "strings": dict(**_WORDS, sparse_indices=[np.array([[0, 0], [1, 0], [2, 0], [2, 1]],
                                                        np.int64)],
                    sparse_values=[np.array([b"x", b"y", b"z", b"w"])],
                    sparse_shape=[np.array([3, 2], np.int64)],
                    dense_inputs=[np.array([[1], [2], [3]], np.int64)], input_order="RDS",
                    hashed_output=False, num_buckets=0, hash_key=0,
                    out_values_type="string", out_row_splits_type="int64"),
    "hashed": dict(**_WORDS, sparse_indices=[], sparse_values=[], sparse_shape=[],
                   dense_inputs=[np.array([[1, 5], [2, 6], [3, 7]], np.int64)],
                   input_order="DR", hashed_output=True, num_buckets=100, hash_key=7,
                   out_values_type="int64", out_row_splits_type="int64"),
    "hashed_ints": dict(ragged_values=[np.array([4, 9, 9], np.int64),
                                       np.array([1, 2, 3], np.int64)],
                        ragged_row_splits=[np.array([0, 1, 3], np.int32),
                                           np.array([0, 2, 3], np.int32)],
                        sparse_indices=[], sparse_values=[], sparse_shape=[], dense_inputs=[],
                        input_order="RR", hashed_output=True, num_buckets=0,
                        hash_key=956888297470, out_values_type="int64",
                        out_row_splits_type="int32"),
}


def ragged_cross(tf, path, expected):
    """RaggedCross's values and row splits (`ragged_cross/<case>/values|splits`)."""
    for name, arguments in RAGGED_CROSS_CASES.items():
        arguments = {k: (tf.as_dtype(v) if k.startswith("out_") else v)
                     for k, v in arguments.items()}
        values, splits = tf.raw_ops.RaggedCross(**arguments)
        values = values.numpy()
        expected[f"ragged_cross/{name}/values"] = (values.astype(bytes) if values.dtype == object
                                                   else values)
        expected[f"ragged_cross/{name}/splits"] = splits.numpy()


def _example(tf, **features):
    """A serialized tf.train.Example of int64 (int), float (float) and bytes lists."""
    def feature(values):
        if values and isinstance(values[0], bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        if values and isinstance(values[0], float):
            return tf.train.Feature(float_list=tf.train.FloatList(value=values))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature={
        key: feature(values) for key, values in features.items()})).SerializeToString()


def store_records(expected, prefix, records):
    """Serialized protos as their bytes one after another (`<prefix>/serialized`, uint8) and
    each one's length (`<prefix>/lengths`): a bytes array would drop a record's trailing
    NULs."""
    expected[f"{prefix}/serialized"] = np.frombuffer(b"".join(records), np.uint8)
    expected[f"{prefix}/lengths"] = np.array([len(r) for r in records], np.int64)


def load_records(expected, prefix):
    """The serialized protos store_records wrote, as an object array of bytes."""
    data = expected[f"{prefix}/serialized"].tobytes()
    ends = np.cumsum(expected[f"{prefix}/lengths"])
    return np.array([data[end - length:end] for end, length in
                     zip(ends, expected[f"{prefix}/lengths"])] + [b""], dtype=object)[:-1]


PARSE_RAGGED = dict(ragged_keys=["ids", "words", "weights"],
                    ragged_value_types=["int64", "string", "float32"])
PARSE_CASES = {
    # name: (examples as features, scalar input, ragged split types)
    "batch": ([dict(ids=[3, 1, 4], words=[b"a", b"b"], weights=[0.5], age=[7]),
               dict(ids=[], words=[b"c"], age=[9]), dict(ids=[5], weights=[1.5, 2.5], age=[1])],
              False, ["int64", "int32", "int64"]),
    "single": ([dict(ids=[2, 7], words=[b"x"], weights=[0.25], age=[4])], True,
               ["int32", "int64", "int64"]),
    "wrong_kind": ([dict(ids=[b"not", b"ints"], age=[1])], False, ["int64", "int64", "int64"]),
}


def parse_ragged(tf, path, expected):
    """ParseExampleV2 with ragged keys beside a dense one (`parse/<case>/serialized`, then each
    output `parse/<case>/<i>`, or `parse/<case>/error`)."""
    for name, (features, scalar, split_types) in PARSE_CASES.items():
        records = np.array([_example(tf, **f) for f in features], dtype=object)
        serialized = records[0] if scalar else records
        store_records(expected, f"parse/{name}", records)
        try:
            outputs = tf.raw_ops.ParseExampleV2(
                serialized=serialized, names=[], sparse_keys=[], dense_keys=["age"],
                ragged_keys=PARSE_RAGGED["ragged_keys"], dense_defaults=[np.int64(0)],
                num_sparse=0, sparse_types=[], dense_shapes=[[]],
                ragged_value_types=[tf.as_dtype(t) for t in PARSE_RAGGED["ragged_value_types"]],
                ragged_split_types=[tf.as_dtype(t) for t in split_types])
        except tf.errors.InvalidArgumentError as error:
            expected[f"parse/{name}/error"] = np.array(error.message.split(" [Op:")[0]
                                                       .split("}} ")[-1])
            continue
        for index, output in enumerate(tf.nest.flatten(outputs)):
            value = output.numpy()
            expected[f"parse/{name}/{index}"] = (value.astype(bytes) if value.dtype == object
                                                 else value)


SEQUENCE_CASES = {
    # name: (context features, feature lists {key: [step features]}) per example; scalar input
    "batch": ([({"user": [b"u1", b"u2"]}, {"clicks": [[1, 2], [], [3]], "terms": [[b"a"]]}),
               ({"user": []}, {"clicks": [[4]]})], False),
    "single": ([({"user": [b"u9"]}, {"clicks": [[5, 6, 7]], "terms": [[b"b"], [b"c", b"d"]]})],
               True),
}


def parse_sequence_ragged(tf, path, expected):
    """ParseSequenceExampleV2 with a ragged context key and two ragged feature-list keys
    (`parse_sequence/<case>/serialized`, each output `parse_sequence/<case>/<i>`)."""
    for name, (examples, scalar) in SEQUENCE_CASES.items():
        records = []
        for context, lists in examples:
            sequence = tf.train.SequenceExample()
            for key, values in context.items():
                sequence.context.feature[key].bytes_list.value.extend(values)
            for key, steps in lists.items():
                for step in steps:
                    feature = sequence.feature_lists.feature_list[key].feature.add()
                    if step and isinstance(step[0], bytes):
                        feature.bytes_list.value.extend(step)
                    else:
                        feature.int64_list.value.extend(step)
            records.append(sequence.SerializeToString())
        records = np.array(records, dtype=object)
        store_records(expected, f"parse_sequence/{name}", records)
        outputs = tf.raw_ops.ParseSequenceExampleV2(
            serialized=records[0] if scalar else records, debug_name=[],
            context_sparse_keys=[], context_dense_keys=[], context_ragged_keys=["user"],
            feature_list_sparse_keys=[], feature_list_dense_keys=[],
            feature_list_ragged_keys=["clicks", "terms"], feature_list_dense_missing_assumed_empty=[],
            context_dense_defaults=[], context_sparse_types=[],
            context_ragged_value_types=[tf.string], context_ragged_split_types=[tf.int64],
            feature_list_dense_types=[], feature_list_sparse_types=[],
            feature_list_ragged_value_types=[tf.int64, tf.string],
            feature_list_ragged_split_types=[tf.int32, tf.int64])
        for index, output in enumerate(tf.nest.flatten(outputs)):
            value = output.numpy()
            expected[f"parse_sequence/{name}/{index}"] = (value.astype(bytes)
                                                          if value.dtype == object else value)


EIG_CASES = {
    # name: (matrix, compute_v, Tout)
    "real_distinct": (np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, -2]]), True, "complex128"),
    "rotation_batch": (np.array([[[0.0, -2, 0], [2, 0, 0], [0, 0, 0.5]],
                                 [[1.0, 2, 3], [0, 4, 5], [0, 0, -6]]], np.float32), True,
                       "complex64"),
    "complex_values_only": (np.array([[1 + 1j, 2], [0.5j, -1]], np.complex64), False,
                            "complex64"),
}


def eig_cases(tf, path, expected):
    """Eig's eigenvalues and eigenvectors (`eig/<case>/e|v`)."""
    for name, (matrix, compute_v, tout) in EIG_CASES.items():
        e, v = tf.raw_ops.Eig(input=matrix, Tout=tf.as_dtype(tout), compute_v=compute_v)
        expected[f"eig/{name}/e"], expected[f"eig/{name}/v"] = e.numpy(), v.numpy()


def other_root_checkpoint(tf, path, expected):
    """other_root/ck: tf2_run/preprocessing's variables written by tf.train.Checkpoint(model=
    the loaded model), so every key sits under `model/`, where the SavedModel's restore
    function does not look (`--restore` of it: one line, exit 2)."""
    loaded = tf.saved_model.load(str(FIXTURES / "tf2_run" / "preprocessing"))
    shutil.rmtree(path / "other_root", ignore_errors=True)
    tf.train.Checkpoint(model=loaded).write(str(path / "other_root" / "ck"))


KERNEL_CASES = (ragged_to_tensor, bincount_rows, ragged_ops, scale_and_translate, ragged_cross,
                parse_ragged, parse_sequence_ragged, eig_cases, other_root_checkpoint)


def record(expected, prefix, inputs, outputs):
    for key, value in {**inputs, **outputs}.items():
        value = np.asarray(value)
        expected[f"{prefix}/{key}"] = value.astype(bytes) if value.dtype == object else value


def main(argv):
    out = Path(argv[0]) if argv else FIXTURES / "tf2_models"
    names = argv[1:] or COMMITTED
    import fixture_common  # noqa: F401  (TensorFlow's environment, before it loads)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    tf.random.set_seed(0)
    out.mkdir(parents=True, exist_ok=True)
    expected = {}
    for make in KERNEL_CASES:
        make(tf, out, expected)
    for make in MODELS:
        if make.__name__ not in names:
            continue
        path = out / make.__name__
        shutil.rmtree(path, ignore_errors=True)
        make(tf, path, expected)
        assets = path / "assets"
        if assets.is_dir() and not any(assets.iterdir()):
            assets.rmdir()
        print(make.__name__)
    np.savez(out / "expected.npz", **expected)


if __name__ == "__main__":
    main(sys.argv[1:])
