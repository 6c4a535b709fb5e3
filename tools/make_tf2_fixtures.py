"""Write tests/fixtures/tf2/: TF2 SavedModels, Keras files and TensorBoard logdirs TensorFlow 2.21
wrote, with what TensorFlow itself says about each (its functions, its outputs, its traced run).

Run with the TensorFlow venv (tensorboard installed there too: the Keras TensorBoard callback
and tf.summary need it): `.venv-tf/bin/python tools/make_tf2_fixtures.py [--only NAME ...]`.

SavedModels (tf.saved_model.save, or Keras 3's model.export) are tf2/<name>/, each exactly as
TensorFlow wrote it (an empty assets/ dropped: git keeps no empty directory, and TensorFlow
loads without it), so that a reader sees a SavedModel directory and nothing else. What
TensorFlow says of each is in tf2/reference/<name>/:
- expected.npz: for each signature, the inputs fed (`<signature>/<input key>`) and the outputs
  TensorFlow computed (`<signature>/<output key>`), each signature called once on a freshly
  loaded model (`tf.saved_model.load(dir).signatures[key]`); string inputs are fixed-width bytes
  arrays (no pickle). train_step also has `after_train/<variable>`: its variables after the one
  train call;
- functions.json: for each meta graph, the top-level graph's nodes, the signatures, and each
  FunctionDef of graph_def.library: input/output args, node names and ops in order, ret and
  control_ret, the functions it calls (func-valued attrs and ops named after a function), and
  `body`: TensorFlow's own function_def_to_graph_def of it (node name, op, inputs: how
  `node:out_arg:index` inputs resolve to `node:flat_index`) with `ret_flat`, the ret map resolved
  the same way;
- saved_model_cli.txt: `saved_model_cli show --dir <name> --all`;
- run_metadata_<signature>.pb: RunMetadata (FULL_TRACE step stats, output_partition_graphs) of one
  tf.compat.v1 Session.run of the signature's output tensors after
  `tf.compat.v1.saved_model.loader.load`, on the inputs of expected.npz (one inter-op and one
  intra-op thread; the outputs are checked against expected.npz); run_metadata.json says what
  was fed and fetched, and how many nodes the step stats and partition graphs hold;
- checkpoint.json: `tf.train.list_variables` of variables/variables ([key, shape, dtype]) and its
  `_CHECKPOINTABLE_OBJECT_GRAPH` entry decoded (TrackableObjectGraph as JSON).

Values are the same on every run (seeds fixed, PYTHONHASHSEED=0, one thread). Bytes are not
always: generated function names (`__inference_serve_78`) keep their shape but change number
when TensorFlow or Keras change; a Keras 3 export lists its variables in the order of an
id-keyed set, so its top-level node order, restore function arguments and `_all_variables/N`
checkpoint keys can change from run to run (functions.json and checkpoint.json always agree
with the SavedModel beside them); fingerprint.pb follows; event files carry wall times (their
names do too: renamed here to one fixed name), the .keras zip its save date, RunMetadata its
timings.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

if os.environ.get("PYTHONHASHSEED") != "0":  # set iteration order reaches some function names
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

import fixture_common  # noqa: E402  (quiet TensorFlow, no oneDNN: set before it loads)
import numpy as np  # noqa: E402

OUT = fixture_common.FIXTURES / "tf2"
REFERENCE = OUT / "reference"  # beside the SavedModels: a SavedModel directory holds only itself
CLI = Path(sys.executable).with_name("saved_model_cli")
SEED = 0
SAVED_MODELS = ("while_cond", "train_step", "text_model", "keras_cnn", "transformer",
                "tf_keras_mlp", "while_scalar")
LOGDIRS = ("logdir_trace", "logdir_fit", "logdir_fit_tf_keras")
EVENTS_NAME = "events.out.tfevents.1700000000.graph-inspector.v2"


def tf_quiet():
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    return tf


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    return path


# ---------------------------------------------------------------- the models

def make_while_cond(path, decay=None):
    """tf.Module, one tf.function: tf.while_loop over a float vector, a tf.cond in its body,
    a tf.TensorArray written each step and stacked (TensorList ops under control flow v2).
    With `decay`, the running total is scaled by it each step (one more Mul in the loop body:
    while_cond_changed, the other side of a diff)."""
    tf = tf_quiet()

    class WhileCond(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def serve(self, x):
            n = tf.shape(x)[0]
            steps = tf.TensorArray(tf.float32, size=n, name="steps")

            def body(i, total, steps):
                value = x[i]
                value = tf.cond(value > 0.0, lambda: value * 2.0, lambda: 1.0 - value)
                total = (total if decay is None else total * decay) + value
                return i + 1, total, steps.write(i, total)

            _, total, steps = tf.while_loop(lambda i, total, steps: i < n, body,
                                            [tf.constant(0), tf.constant(0.0), steps])
            return {"cumulative": steps.stack(), "total": total}

    module = WhileCond()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})
    return {"serving_default": {"x": np.array([1.5, -2.0, 0.25], np.float32)}}


def write_while_cond_changed(name):
    """while_cond with a changed loop body (the total decays by half each step), the
    SavedModel alone: `diff while_cond while_cond_changed` shows the body's new nodes."""
    path = fresh(OUT / name)
    make_while_cond(path, decay=0.5)
    if (path / "assets").is_dir():
        (path / "assets").rmdir()  # empty: git keeps no empty directory


def make_while_scalar(path):
    """tf.Module, one tf.function: while_cond's loop and cond without the TensorArray (float
    and int32 loop variables only), so that a lowered loop runs on ops every build has."""
    tf = tf_quiet()

    class WhileScalar(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def serve(self, x):
            n = tf.shape(x)[0]

            def body(i, total):
                value = x[i]
                value = tf.cond(value > 0.0, lambda: value * 2.0, lambda: 1.0 - value)
                return i + 1, total + value

            _, total = tf.while_loop(lambda i, total: i < n, body,
                                     [tf.constant(0), tf.constant(0.0)])
            return {"total": total}

    module = WhileScalar()
    tf.saved_model.save(module, str(path), signatures={"serving_default": module.serve})
    return {"serving_default": {"x": np.array([1.5, -2.0, 0.25], np.float32)}}


def make_train_step(path):
    """tf.Module with a tiny dense model (3 -> 4 relu -> 2) in tf.Variables; `predict` gives the
    logits, `train` one GradientTape step of plain SGD (assign_sub) and a step counter, and
    returns the loss before the step."""
    tf = tf_quiet()
    rng = np.random.RandomState(SEED)

    def variable(shape, name):
        return tf.Variable(rng.uniform(-0.5, 0.5, shape).astype(np.float32), name=name)

    class TrainStep(tf.Module):
        def __init__(self):
            super().__init__(name="train_step")
            self.w1, self.b1 = variable([3, 4], "w1"), variable([4], "b1")
            self.w2, self.b2 = variable([4, 2], "w2"), variable([2], "b2")
            self.step = tf.Variable(0, dtype=tf.int64, name="step")

        def logits(self, x):
            hidden = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
            return tf.matmul(hidden, self.w2) + self.b2

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def predict(self, x):
            return {"logits": self.logits(x)}

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                      tf.TensorSpec([None], tf.int32, name="y")])
        def train(self, x, y):
            weights = [self.w1, self.b1, self.w2, self.b2]
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=y, logits=self.logits(x)))
            for weight, grad in zip(weights, tape.gradient(loss, weights)):
                weight.assign_sub(0.1 * grad)
            self.step.assign_add(1)
            return {"loss": loss}

    module = TrainStep()
    tf.saved_model.save(module, str(path),
                        signatures={"predict": module.predict, "train": module.train})
    x = np.random.RandomState(SEED + 1).uniform(-1, 1, [4, 3]).astype(np.float32)
    return {"predict": {"x": x}, "train": {"x": x, "y": np.array([0, 1, 1, 0], np.int32)}}


VOCABULARY = ["the", "cat", "sat", "on", "mat", "dog", "ran"]


def make_text_model(path):
    """Keras 3: StringLookup over a fixed vocabulary (a static hash table), Embedding,
    GlobalAveragePooling1D, Dense; exported with model.export."""
    tf_quiet()
    import keras
    keras.utils.set_random_seed(SEED)
    words = keras.Input((None,), dtype="string", name="words")
    ids = keras.layers.StringLookup(vocabulary=VOCABULARY, name="lookup")(words)
    x = keras.layers.Embedding(len(VOCABULARY) + 1, 4, name="embedding")(ids)
    x = keras.layers.GlobalAveragePooling1D(name="pool")(x)
    model = keras.Model(words, keras.layers.Dense(2, name="head")(x), name="text_model")
    model.export(str(path), verbose=False)
    words = np.array([[b"the", b"cat", b"sat"], [b"a", b"dog", b"ran"]])  # "a": out of vocabulary
    return {key: {"words": words} for key in ("serve", "serving_default")}


def cnn(keras):
    keras.utils.set_random_seed(SEED)
    image = keras.Input((8, 8, 1), name="image")
    x = keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="conv")(image)
    x = keras.layers.MaxPooling2D(2, name="pool")(x)
    x = keras.layers.Flatten(name="flatten")(x)
    return keras.Model(image, keras.layers.Dense(3, activation="softmax", name="dense")(x),
                       name="keras_cnn")


CNN_IMAGES = np.random.RandomState(SEED + 2).uniform(0, 1, [2, 8, 8, 1]).astype(np.float32)


def make_keras_cnn(path):
    """Keras 3: Conv2D (4 filters, 3x3, relu), MaxPooling2D, Flatten, Dense softmax; model.export."""
    tf_quiet()
    import keras
    cnn(keras).export(str(path), verbose=False)
    return {key: {"image": CNN_IMAGES} for key in ("serve", "serving_default")}


def make_transformer(path):
    """Keras 3: a one-layer transformer encoder over 6 int32 token ids (vocabulary 30, d_model 8):
    token and position embeddings gathered from their tf.Variables (ResourceGather, int32
    indices), MultiHeadAttention (2 heads), residuals with LayerNormalization, a ReLU
    feed-forward block, mean pooling and a Dense head; model.export."""
    tf = tf_quiet()
    import keras
    keras.utils.set_random_seed(SEED)
    vocab, length, d_model = 30, 6, 8

    class Embed(keras.layers.Layer):
        """Token plus position embeddings, read with tf.gather on the underlying tf.Variables:
        Keras 3's own Embedding reads the whole table (ReadVariableOp + GatherV2)."""

        def build(self, input_shape):
            self.tokens = self.add_weight(shape=(vocab, d_model), name="tokens",
                                          initializer="random_normal")
            self.positions = self.add_weight(shape=(length, d_model), name="positions",
                                             initializer="random_normal")

        def call(self, ids):
            positions = tf.range(tf.shape(ids)[1], dtype=tf.int32)
            return tf.gather(self.tokens.value, ids) + tf.gather(self.positions.value, positions)

    ids = keras.Input((length,), dtype="int32", name="ids")
    x = Embed(name="embed")(ids)
    attention = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="attention")(x, x)
    x = keras.layers.LayerNormalization(name="norm1")(x + attention)
    ffn = keras.layers.Dense(16, activation="relu", name="ffn1")(x)
    ffn = keras.layers.Dense(d_model, name="ffn2")(ffn)
    x = keras.layers.LayerNormalization(name="norm2")(x + ffn)
    x = keras.layers.GlobalAveragePooling1D(name="pool")(x)
    model = keras.Model(ids, keras.layers.Dense(3, name="head")(x), name="transformer")
    model.export(str(path), verbose=False)
    ids = np.random.RandomState(SEED + 3).randint(0, vocab, [2, length]).astype(np.int32)
    return {key: {"ids": ids} for key in ("serve", "serving_default")}


def make_tf_keras_mlp(path):
    """tf_keras (Keras 2): Dense(4, relu), Dropout, BatchNormalization, Dense(2), trained one
    step with the legacy Adam, saved with tf.saved_model.save: Keras 2 saves each layer's call
    functions in training=True and training=False variants (the concrete functions
    saved_model_cli lists as options), and the optimizer's slots in the checkpoint
    (`.OPTIMIZER_SLOT` keys)."""
    tf_quiet()
    import tensorflow as tf
    import tf_keras
    tf_keras.utils.set_random_seed(SEED)
    x = tf_keras.Input((3,), name="x")
    h = tf_keras.layers.Dense(4, activation="relu", name="hidden")(x)
    h = tf_keras.layers.Dropout(0.5, name="drop")(h)
    h = tf_keras.layers.BatchNormalization(name="norm")(h)
    model = tf_keras.Model(x, tf_keras.layers.Dense(2, name="logits")(h), name="mlp")
    model.compile(optimizer=tf_keras.optimizers.legacy.Adam(0.01), loss="mse")
    rng = np.random.RandomState(SEED + 5)
    model.fit(rng.uniform(-1, 1, [4, 3]).astype(np.float32),
              rng.uniform(-1, 1, [4, 2]).astype(np.float32), epochs=1, batch_size=4, verbose=0)
    tf.saved_model.save(model, str(path))
    return {"serving_default": {"x": rng.uniform(-1, 1, [2, 3]).astype(np.float32)}}


# ------------------------------------------------------- what TensorFlow says of a SavedModel

def expected_outputs(path, inputs):
    """{"<signature>/<key>": array} of the inputs and of what each signature gave, each signature
    called once on a freshly loaded model."""
    tf = tf_quiet()
    values = {}
    for key, feeds in inputs.items():
        loaded = tf.saved_model.load(str(path))
        outputs = loaded.signatures[key](**{name: tf.constant(v) for name, v in feeds.items()})
        values.update({f"{key}/{name}": v for name, v in feeds.items()})
        values.update({f"{key}/{name}": out.numpy() for name, out in outputs.items()})
        if key == "train":
            for name in ("w1", "b1", "w2", "b2", "step"):  # the variables after the step
                values[f"after_train/{name}"] = getattr(loaded, name).numpy()
    return values


def arg_list(args):
    from tensorflow.core.framework import types_pb2
    return [[arg.name, types_pb2.DataType.Name(arg.type) if arg.type else f"attr:{arg.type_attr}"]
            for arg in args]


def called_functions(node, library_names):
    """Functions a node calls: its func-valued attrs (f, body, cond, then_branch, else_branch,
    branches, ...; sorted by attr name) and its op when a library function has that name."""
    called = [node.op] if node.op in library_names else []
    for name in sorted(node.attr):
        value = node.attr[name]
        if value.HasField("func"):
            called.append(value.func.name)
        called.extend(func.name for func in value.list.func)
    return called


def function_record(fdef, library_names, graph):
    from tensorflow.python.framework import function_def_to_graph
    calls = []
    for node in fdef.node_def:
        calls.extend(name for name in called_functions(node, library_names) if name not in calls)
    with graph.as_default():
        body, flat = function_def_to_graph.function_def_to_graph_def(fdef)
    return {
        "name": fdef.signature.name,
        "input_arg": arg_list(fdef.signature.input_arg),
        "output_arg": arg_list(fdef.signature.output_arg),
        "is_stateful": fdef.signature.is_stateful,
        "nodes": [[node.name, node.op] for node in fdef.node_def],
        "ret": dict(sorted(fdef.ret.items())),
        "control_ret": dict(sorted(fdef.control_ret.items())),
        "calls": calls,
        "body": [[node.name, node.op, list(node.input)] for node in body.node],
        "ret_flat": {key: flat.get(value, value) for key, value in sorted(fdef.ret.items())},
    }


def functions_document(path):
    """functions.json: what TensorFlow's protos say of each meta graph and its FunctionDefs."""
    tf = tf_quiet()
    from tensorflow.core.protobuf import saved_model_pb2
    saved = saved_model_pb2.SavedModel.FromString((path / "saved_model.pb").read_bytes())
    meta_graphs = []
    for meta in saved.meta_graphs:
        library = meta.graph_def.library
        names = {fdef.signature.name for fdef in library.function}
        graph = tf.Graph()
        with graph.as_default():  # the library registered, so calls by op name resolve
            tf.graph_util.import_graph_def(meta.graph_def, name="")
        functions = [function_record(fdef, names, graph)
                     for fdef in sorted(library.function, key=lambda f: f.signature.name)]
        top_calls = []
        for node in meta.graph_def.node:
            top_calls.extend(n for n in called_functions(node, names) if n not in top_calls)
        meta_graphs.append({
            "tags": list(meta.meta_info_def.tags),
            "tensorflow_version": meta.meta_info_def.tensorflow_version,
            "graph_node_count": len(meta.graph_def.node),
            "graph_nodes": [[node.name, node.op, list(node.input)] for node in meta.graph_def.node],
            "graph_calls": top_calls,
            "signatures": {key: {"inputs": {k: v.name for k, v in sorted(sig.inputs.items())},
                                 "outputs": {k: v.name for k, v in sorted(sig.outputs.items())},
                                 "method_name": sig.method_name}
                           for key, sig in sorted(meta.signature_def.items())},
            "function_count": len(library.function),
            "function_node_count": sum(len(fdef.node_def) for fdef in library.function),
            "gradients": {g.function_name: g.gradient_func for g in library.gradient},
            "concrete_functions": sorted(meta.object_graph_def.concrete_functions),
            "function_ops": sorted({node.op for fdef in library.function for node in fdef.node_def}),
            "functions": functions,
        })
    return {"meta_graphs": meta_graphs}


def compact_json(document):
    """JSON text with every list of scalars (a node's [name, op, inputs], an arg) on one line,
    so that a diff of functions.json reads node by node."""
    def dump(value, indent):
        pad = " " * indent
        if isinstance(value, dict) and value:
            items = [f"{pad} {json.dumps(k)}: {dump(v, indent + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + f"\n{pad}}}"
        if isinstance(value, list) and any(isinstance(v, (dict, list)) and v for v in value):
            if all(isinstance(v, list) for v in value) and all(
                    not isinstance(x, (dict, list)) or not any(isinstance(y, (dict, list)) for y in x)
                    for v in value for x in v):
                items = [f"{pad} {json.dumps(v)}" for v in value]  # a node list: one node a line
            else:
                items = [f"{pad} {dump(v, indent + 1)}" for v in value]
            return "[\n" + ",\n".join(items) + f"\n{pad}]"
        return json.dumps(value)
    return dump(document, 0) + "\n"


def run_metadata_files(path, ref, inputs):
    """run_metadata_<signature>.pb of a tf.compat.v1 Session.run of each signature, and what was
    fed and fetched; None where loading or running failed (with the error)."""
    tf = tf_quiet()
    v1 = tf.compat.v1
    manifest = {}
    for key, feeds in inputs.items():
        with tf.Graph().as_default() as graph:
            config = v1.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
            with v1.Session(graph=graph, config=config) as sess:
                meta = v1.saved_model.loader.load(sess, ["serve"], str(path))
                signature = meta.signature_def[key]
                fetches = {name: info.name for name, info in sorted(signature.outputs.items())}
                feed_names = {signature.inputs[name].name: value for name, value in feeds.items()}
                options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE,
                                        output_partition_graphs=True)
                run_metadata = v1.RunMetadata()
                got = sess.run(fetches, feed_names, options=options, run_metadata=run_metadata)
        (ref / f"run_metadata_{key}.pb").write_bytes(run_metadata.SerializeToString(deterministic=True))
        expected = np.load(ref / "expected.npz")
        for name, value in got.items():
            np.testing.assert_allclose(value, expected[f"{key}/{name}"], rtol=1e-5, atol=1e-6)
        manifest[key] = {
            "feeds": {signature.inputs[name].name: f"{key}/{name}" for name in sorted(feeds)},
            "fetches": {info: f"{key}/{name}" for name, info in fetches.items()},
            "step_stats_nodes": sum(len(d.node_stats) for d in run_metadata.step_stats.dev_stats),
            "partition_graph_nodes": [len(g.node) for g in run_metadata.partition_graphs],
        }
    return manifest


def checkpoint_document(path):
    tf = tf_quiet()
    from google.protobuf import json_format
    from tensorflow.core.protobuf import trackable_object_graph_pb2
    prefix = str(path / "variables" / "variables")
    reader = tf.train.load_checkpoint(prefix)
    dtypes = reader.get_variable_to_dtype_map()
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    return {
        "variables": [[name, shape, dtypes[name].name] for name, shape in tf.train.list_variables(prefix)],
        "object_graph": json_format.MessageToDict(graph, preserving_proto_field_name=True),
    }


def saved_model_cli_text(path):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    result = subprocess.run([str(CLI), "show", "--dir", path.name, "--all"], cwd=path.parent,
                            env=env, capture_output=True, text=True, check=True)
    return result.stdout


def write_saved_model(name):
    path = fresh(OUT / name)
    inputs = MAKERS[name](path)
    assets = path / "assets"
    if assets.is_dir() and not any(assets.iterdir()):
        assets.rmdir()  # git keeps no empty directory; TensorFlow loads without it
    ref = fresh(REFERENCE / name)
    ref.mkdir(parents=True)
    np.savez(ref / "expected.npz", **expected_outputs(path, inputs))
    (ref / "functions.json").write_text(compact_json(functions_document(path)))
    (ref / "saved_model_cli.txt").write_text(saved_model_cli_text(path))
    manifest = run_metadata_files(path, ref, inputs)
    (ref / "run_metadata.json").write_text(json.dumps(manifest, indent=1) + "\n")
    (ref / "checkpoint.json").write_text(compact_json(checkpoint_document(path)))


# -------------------------------------------------------------------- logdirs and Keras files

def write_logdir_trace(name):
    """tf.summary.trace_on(graph=True) around the first call of a small tf.function, then
    tf.summary.trace_export: a graph_run_metadata_graph summary (a RunMetadata in a tensor)."""
    tf = tf_quiet()
    path = fresh(OUT / name)
    writer = tf.summary.create_file_writer(str(path))

    @tf.function
    def affine_relu(x, w, b):
        y = tf.matmul(x, w) + b
        return tf.nn.relu(y), tf.reduce_sum(y)

    x, w, b = tf.constant([[1.0, -2.0]]), tf.constant([[0.5, -1.0], [0.25, 2.0]]), tf.constant([0.1, 0.2])
    tf.summary.trace_on(graph=True, profiler=False)
    affine_relu(x, w, b)
    with writer.as_default():
        tf.summary.trace_export("affine_relu", step=0)
    writer.close()


def fit_data():
    rng = np.random.RandomState(SEED + 4)
    return rng.uniform(0, 1, [8, 8, 8, 1]).astype(np.float32), np.arange(8, dtype=np.int32) % 3


def write_logdir_fit(name):
    """Keras 3 model.fit, one epoch of 8 images in batches of 4, TensorBoard(write_graph=True):
    Keras 3 writes the conceptual graph (graph_keras_model) and epoch scalars, no op graph."""
    tf_quiet()
    import keras
    path = fresh(OUT / name)
    model = cnn(keras)
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    callback = keras.callbacks.TensorBoard(str(path), write_graph=True)
    model.fit(*fit_data(), epochs=1, batch_size=4, shuffle=False, callbacks=[callback], verbose=0)


def write_logdir_fit_tf_keras(name):
    """The same with tf_keras 2.21 (TF_USE_LEGACY_KERAS's Keras): its callback writes the
    train function's op graph only when batch hooks run, so write_steps_per_second=True."""
    tf_quiet()
    import tf_keras
    path = fresh(OUT / name)
    model = cnn(tf_keras)
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    callback = tf_keras.callbacks.TensorBoard(str(path), write_graph=True,
                                              write_steps_per_second=True)
    model.fit(*fit_data(), epochs=1, batch_size=4, shuffle=False, callbacks=[callback], verbose=0)


def write_keras_cnn_files(_):
    """keras_cnn.keras (Keras v3 zip) and keras_cnn.h5 (legacy HDF5) of the exported CNN, and
    reference/keras_cnn_files.npz: its predictions on the images of keras_cnn's expected.npz."""
    tf_quiet()
    import keras
    model = cnn(keras)
    model.save(str(OUT / "keras_cnn.keras"))
    model.save(str(OUT / "keras_cnn.h5"))
    REFERENCE.mkdir(parents=True, exist_ok=True)
    np.savez(REFERENCE / "keras_cnn_files.npz", image=CNN_IMAGES, output=model.predict(CNN_IMAGES, verbose=0))


def rename_event_files(logdir):
    """TensorFlow names an events file by wall time, host and pid; as in containers/events/,
    a fixed name instead, so that writing again replaces the file."""
    for path in logdir.rglob("events.out.tfevents.*"):
        path.rename(path.with_name(EVENTS_NAME))


MAKERS = {"while_cond": make_while_cond, "train_step": make_train_step,
          "text_model": make_text_model, "keras_cnn": make_keras_cnn,
          "transformer": make_transformer, "tf_keras_mlp": make_tf_keras_mlp,
          "while_scalar": make_while_scalar}
WRITERS = {**{name: write_saved_model for name in SAVED_MODELS},
           "logdir_trace": write_logdir_trace, "logdir_fit": write_logdir_fit,
           "logdir_fit_tf_keras": write_logdir_fit_tf_keras, "keras_cnn_files": write_keras_cnn_files,
           "while_cond_changed": write_while_cond_changed}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=sorted(WRITERS))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process writes one part
    args = parser.parse_args()
    if args.one:
        WRITERS[args.one](args.one)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.only or WRITERS:
        # Each part in its own process: Keras's layer-name counters, TensorFlow's function
        # uids and tf_keras against Keras 3 start fresh, so one part's names never depend on
        # which parts ran before it.
        subprocess.run([sys.executable, __file__, "--one", name], check=True)
        if name in LOGDIRS:
            rename_event_files(OUT / name)
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size:8d} {path.relative_to(OUT)}")


if __name__ == "__main__":
    main()
