"""BERT-12 for bench/bert_signature.py, run by TensorFlow's Python (.venv-tf): writes the
SavedModel and times TensorFlow 2.21 on it. Not imported by the engine's side.

    .venv-tf/bin/python bench/bert_tf.py OUT_DIR [--measure N]

BERT-base's shapes (12 layers, hidden 768, 12 heads, FFN 3072 with exact GELU, vocabulary
30522), written with tf ops in a tf.Module (the word embedding read, then gathered: a
GatherV2, as a Keras Embedding on a fresh read is), weights seeded normal(0, 0.02). With
--measure it loads the SavedModel in a tf.compat.v1 Session as the engine does
(saved_model.loader.load) and prints JSON: import, load and first-run seconds and the median
of N runs of the serving signature on a batch of 8 x 128 tokens (inputs seeded too).
"""

import json
import os
import sys
import time

START = time.perf_counter()
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

LAYERS, HIDDEN, HEADS, FFN, VOCAB, POSITIONS = 12, 768, 12, 3072, 30522, 512
BATCH, SEQUENCE = 8, 128


def inputs():
    rng = np.random.RandomState(1)
    ids = rng.randint(0, VOCAB, (BATCH, SEQUENCE)).astype(np.int32)
    mask = np.ones((BATCH, SEQUENCE), np.int32)
    mask[:, SEQUENCE - 16:] = 0  # padding at the end of every row
    return ids, mask


def build(tf, path):
    rng = np.random.RandomState(0)

    def var(shape, name, value=None):
        init = rng.normal(0.0, 0.02, shape) if value is None else np.full(shape, value)
        return tf.Variable(init.astype(np.float32), name=name)

    def layer_norm(x, gamma, beta):
        mean, variance = tf.nn.moments(x, axes=[-1], keepdims=True)
        return (x - mean) * tf.math.rsqrt(variance + 1e-12) * gamma + beta

    def dense(x, w, b):
        return tf.nn.bias_add(tf.matmul(x, w), b)

    class Bert(tf.Module):
        def __init__(self):
            super().__init__(name="bert")
            self.word = var([VOCAB, HIDDEN], "word_embeddings")
            self.position = var([POSITIONS, HIDDEN], "position_embeddings")
            self.token_type = var([2, HIDDEN], "token_type_embeddings")
            self.embedding_norm = (var([HIDDEN], "ln_gamma", 1.0), var([HIDDEN], "ln_beta", 0.0))
            self.layers = []
            for i in range(LAYERS):
                names = ("q", "k", "v", "o")
                layer = {n: (var([HIDDEN, HIDDEN], f"l{i}_{n}_w"), var([HIDDEN], f"l{i}_{n}_b", 0.0))
                         for n in names}
                layer["norm1"] = (var([HIDDEN], f"l{i}_ln1_g", 1.0), var([HIDDEN], f"l{i}_ln1_b", 0.0))
                layer["ffn_in"] = (var([HIDDEN, FFN], f"l{i}_ffn_in_w"), var([FFN], f"l{i}_ffn_in_b", 0.0))
                layer["ffn_out"] = (var([FFN, HIDDEN], f"l{i}_ffn_out_w"), var([HIDDEN], f"l{i}_ffn_out_b", 0.0))
                layer["norm2"] = (var([HIDDEN], f"l{i}_ln2_g", 1.0), var([HIDDEN], f"l{i}_ln2_b", 0.0))
                self.layers.append(layer)
            self.pooler = (var([HIDDEN, HIDDEN], "pooler_w"), var([HIDDEN], "pooler_b", 0.0))

        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32, name="input_ids"),
                                      tf.TensorSpec([None, None], tf.int32, name="attention_mask")])
        def serve(self, input_ids, attention_mask):
            batch, length = tf.shape(input_ids)[0], tf.shape(input_ids)[1]
            x = tf.gather(self.word.read_value(), input_ids)
            x += tf.gather(self.position.read_value(), tf.range(length))[tf.newaxis]
            x += self.token_type[0]
            x = layer_norm(x, *self.embedding_norm)
            mask = tf.cast(attention_mask[:, tf.newaxis, tf.newaxis, :], tf.float32)
            bias = (1.0 - mask) * -10000.0
            h = tf.reshape(x, [-1, HIDDEN])
            head = HIDDEN // HEADS

            def split(t):
                return tf.transpose(tf.reshape(t, [batch, length, HEADS, head]), [0, 2, 1, 3])

            for layer in self.layers:
                q, k, v = (split(dense(h, *layer[n])) for n in ("q", "k", "v"))
                scores = tf.matmul(q, k, transpose_b=True) * (1.0 / float(np.sqrt(head))) + bias
                context = tf.matmul(tf.nn.softmax(scores), v)
                context = tf.reshape(tf.transpose(context, [0, 2, 1, 3]), [-1, HIDDEN])
                h = layer_norm(dense(context, *layer["o"]) + h, *layer["norm1"])
                inner = tf.nn.gelu(dense(h, *layer["ffn_in"]), approximate=False)
                h = layer_norm(dense(inner, *layer["ffn_out"]) + h, *layer["norm2"])
            sequence = tf.reshape(h, [batch, length, HIDDEN])
            pooled = tf.tanh(dense(sequence[:, 0], *self.pooler))
            return {"sequence_output": sequence, "pooled_output": pooled}

    model = Bert()
    tf.saved_model.save(model, path, signatures={"serving_default": model.serve})


def measure(tf, path, runs, then=None):
    """Load, first-run and median-of-`runs` seconds of the serving signature in a
    tf.compat.v1 Session of `tf` (TensorFlow, or the engine for bench/bert_signature.py);
    `then(sess, fetches, feeds)`, where given, runs in the same session after them and its
    result comes back under "then"."""
    v1 = tf.compat.v1
    ids, mask = inputs()
    with tf.Graph().as_default() as graph, v1.Session(graph=graph) as sess:
        started = time.perf_counter()
        meta = v1.saved_model.loader.load(sess, ["serve"], path)
        load_s = time.perf_counter() - started
        signature = meta.signature_def["serving_default"]
        fetches = {k: v.name for k, v in signature.outputs.items()}
        feeds = {signature.inputs["input_ids"].name: ids,
                 signature.inputs["attention_mask"].name: mask}
        started = time.perf_counter()
        first = sess.run(fetches, feeds)
        first_s = time.perf_counter() - started
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            sess.run(fetches, feeds)
            times.append(time.perf_counter() - started)
        result = {"load_s": load_s, "first_run_s": first_s,
                  "run_s": sorted(times)[len(times) // 2],
                  "pooled_checksum": float(np.abs(first["pooled_output"]).sum())}
        if then is not None:
            result["then"] = then(sess, fetches, feeds)
    return result


def main():
    path = sys.argv[1]
    import tensorflow as tf
    import_s = time.perf_counter() - START
    if not os.path.exists(os.path.join(path, "saved_model.pb")):
        build(tf, path)
    if "--measure" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--measure") + 1])
        result = measure(tf, path, runs)
        result["import_s"] = import_s
        result["onednn"] = os.environ.get("TF_ENABLE_ONEDNN_OPTS", "default")
        print(json.dumps(result))


if __name__ == "__main__":
    main()
