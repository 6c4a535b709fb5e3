"""Write tests/fixtures/keras/: Keras model files (.keras zips and legacy .h5) of a functional
model with two inputs, a Sequential CNN and nested models, from Keras 3 and from tf_keras, with
what Keras itself says of each (its layers, their inbound layers, their weights and values).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_keras_fixtures.py` (about 30 s).

Each model is written by a process of its own (Keras's name counters start fresh); the .keras
zip's metadata.json carries no save date (HDF5 still stamps its objects' times).
`reference/<model>.json` is Keras's account, walked as TensorBoard's graph plugin walks a
model config (the model and the models nested in it as name scopes, `model/block/layer`):

- `layers`: per layer [scoped name, class name, inbound layers (each call's inputs, by the
  scoped name of the layer that made them, a nested model's output layer for a model),
  output shape (null where a layer is called more than once)];
- `weights`: per layer with variables, [scoped name, [[variable path, shape, dtype], ...]] in
  the order the layer saves them (trainable, then non-trainable: a .keras file's `vars/<i>`);
- `optimizer`: [[variable path, shape, dtype], ...] of the optimizer's variables, or [];
and `reference/<model>.npz` the values, keyed `<scoped layer>--<index>` (npz keys hold no '/').
`tiny.tflite` is a TFLite model, for the one line that names the format.
"""

import argparse
import json
import os
import subprocess
import sys
import zipfile

import fixture_common  # noqa: E402  (quiet TensorFlow, no oneDNN: set before it loads)
import numpy as np  # noqa: E402

OUT = fixture_common.FIXTURES / "keras"
REFERENCE = OUT / "reference"
SEED = 0


def images(count):
    return np.random.RandomState(SEED + 1).uniform(0, 1, [count, 8, 8, 1]).astype(np.float32)


# ---------------------------------------------------------------- the models

def two_inputs(keras):
    """Functional: an 8x8 image through Conv2D and Flatten, three numbers through Dense,
    concatenated; two outputs (a softmax label and a score)."""
    image = keras.Input((8, 8, 1), name="image")
    meta = keras.Input((3,), name="meta")
    x = keras.layers.Conv2D(2, 3, activation="relu", name="conv")(image)
    x = keras.layers.Flatten(name="flatten")(x)
    m = keras.layers.Dense(4, activation="relu", name="meta_dense")(meta)
    both = keras.layers.Concatenate(name="concat")([x, m])
    label = keras.layers.Dense(3, activation="softmax", name="label")(both)
    score = keras.layers.Dense(1, name="score")(both)
    return keras.Model([image, meta], [label, score], name="two_inputs")


def sequential_cnn(keras):
    """Sequential: Conv2D, BatchNormalization (moving statistics: non-trainable weights),
    MaxPooling2D, Flatten, Dense; trained one step with Adam, so the file holds its slots."""
    model = keras.Sequential([
        keras.Input((8, 8, 1), name="image"),
        keras.layers.Conv2D(3, 3, padding="same", name="conv"),
        keras.layers.BatchNormalization(name="norm"),
        keras.layers.MaxPooling2D(2, name="pool"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(2, activation="softmax", name="dense"),
    ], name="sequential_cnn")
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy")
    model.fit(images(4), np.arange(4) % 2, epochs=1, batch_size=4, verbose=0)
    return model


def nested(keras):
    """A functional model around a Sequential block and a functional sub-model, and a Dense
    layer shared by both branches (called twice: two inbound nodes)."""
    block = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu", name="d1"),
                              keras.layers.Dense(3, name="d2")], name="block")
    inner_input = keras.Input((3,), name="inner_in")
    inner = keras.Model(inner_input, keras.layers.Dense(3, name="pre")(inner_input), name="inner")
    image, meta = keras.Input((4,), name="image"), keras.Input((3,), name="meta")
    shared = keras.layers.Dense(3, name="shared")
    both = keras.layers.Concatenate(name="cat")([shared(block(image)), shared(inner(meta))])
    return keras.Model([image, meta], keras.layers.Dense(1, name="head")(both), name="nested")


def dict_io(keras):
    """Keras 3 functional models keyed by name: dict inputs (config input_layers a dict), dict
    outputs, and an inner dict-input model called on a dict given in another key order
    (Keras flattens both in sorted key order)."""
    a_in, b_in = keras.Input((3,), name="inner_b"), keras.Input((3,), name="inner_a")
    inner = keras.Model({"b": a_in, "a": b_in},
                        keras.layers.Subtract(name="minus")([a_in, b_in]), name="inner")
    vol = keras.Input((4, 4, 4, 1), name="vol")
    seq = keras.Input((6, 2), name="seq")
    v = keras.layers.GlobalMaxPooling3D(name="vol_pool")(
        keras.layers.Conv3D(3, 2, name="conv3d")(vol))
    s = keras.layers.GlobalAveragePooling1D(name="seq_pool")(
        keras.layers.Conv1D(3, 2, name="conv1d")(seq))
    diff = inner({"a": s, "b": v})
    return keras.Model({"vol": vol, "seq": seq},
                       {"score": keras.layers.Dense(1, name="score")(diff),
                        "both": keras.layers.Concatenate(name="both")([v, s])}, name="dict_io")


# ---------------------------------------------------------------- Keras's account

def walk(model, scope=""):
    """(scoped name, layer) for every layer that is no model, the model and the models nested
    in it as name scopes (TensorBoard's keras_util)."""
    scope = f"{scope}/{model.name}" if scope else model.name
    for layer in model.layers:
        name = f"{scope}/{layer.name}"
        if hasattr(layer, "layers"):
            yield from walk(layer, scope)
        else:
            yield name, layer


def output_layer(layer, scope, index=0):
    """The scoped name of the layer making output `index` of `layer`: for a model, the layer
    making that model output (a Sequential's last layer), and so on down nested models."""
    while hasattr(layer, "layers"):
        scope = f"{scope}/{layer.name}"
        history = layer.outputs[index]._keras_history
        layer, index = history[0], history[2]
    return f"{scope}/{layer.name}"


def inbound_layers(layer, scope, keras2):
    """The scoped names of the layers whose outputs `layer`'s calls take, call by call."""
    names = []
    for node in layer._inbound_nodes:
        for tensor in (node.keras_inputs if keras2 else node.input_tensors):
            history = tensor._keras_history
            names.append(output_layer(history[0], scope, history[2]))
    return names


def variable_record(variable):
    path = getattr(variable, "path", None) or variable.name
    return [path, [int(d) for d in variable.shape], np.dtype(variable.dtype.name if hasattr(
        variable.dtype, "name") else variable.dtype).name]


def saved_variables(layer):
    """A layer's variables in the order its .keras `vars/<i>` holds them."""
    variables = getattr(layer, "_trainable_variables", None)
    if variables is None:  # tf_keras
        return list(layer.trainable_weights) + list(layer.non_trainable_weights)
    return list(layer._trainable_variables) + list(layer._non_trainable_variables)


def account(model, keras2=False):
    layers, weights, values = [], [], {}
    for name, layer in walk(model):
        scope = name.rpartition("/")[0]
        shape = None
        if len(layer._inbound_nodes) <= 1 and getattr(layer, "output", None) is not None:
            shape = [None if d is None else int(d) for d in layer.output.shape]
        layers.append([name, type(layer).__name__, inbound_layers(layer, scope, keras2), shape])
        variables = saved_variables(layer)
        if variables:
            weights.append([name, [variable_record(v) for v in variables]])
            for index, variable in enumerate(variables):
                values[fixture_common.npz_key(f"{name}/{index}")] = np.asarray(variable.numpy())
    optimizer = getattr(model, "optimizer", None)
    optimizer_variables = [variable_record(v) for v in optimizer.variables] if optimizer else []
    return {"layers": layers, "weights": weights, "optimizer": optimizer_variables}, values


def strip_date(path):
    """Rewrite a .keras zip with metadata.json's date_saved dropped and fixed member times."""
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    with zipfile.ZipFile(path, "w") as archive:
        for info, data in members:
            if info.filename == "metadata.json":
                metadata = json.loads(data)
                metadata.pop("date_saved", None)
                data = json.dumps(metadata).encode()
            fixed = zipfile.ZipInfo(info.filename, date_time=(2024, 1, 1, 0, 0, 0))
            fixed.compress_type = info.compress_type
            archive.writestr(fixed, data)


def save(model, name, keras2=False):
    for suffix in (".keras", ".h5"):
        path = OUT / f"{name}{suffix}"
        model.save(str(path))
        if suffix == ".keras":
            strip_date(path)
    document, values = account(model, keras2)
    REFERENCE.mkdir(parents=True, exist_ok=True)
    (REFERENCE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n")
    np.savez(REFERENCE / f"{name}.npz", **values)


def write_keras3(name):
    import keras
    keras.utils.set_random_seed(SEED)
    save({"two_inputs": two_inputs, "sequential_cnn": sequential_cnn, "nested": nested,
          "dict_io": dict_io}[name](keras), name)


def write_tf_keras_mlp(name):
    """tf_keras (Keras 2): its config's inbound_nodes are lists ([[layer, node, tensor, kwargs]]),
    its .h5 weight names end in ':0'."""
    import tf_keras
    tf_keras.utils.set_random_seed(SEED)
    x = tf_keras.Input((3,), name="x")
    h = tf_keras.layers.Dense(4, activation="relu", name="hidden")(x)
    h = tf_keras.layers.BatchNormalization(name="norm")(h)
    model = tf_keras.Model(x, tf_keras.layers.Dense(2, name="logits")(h), name="mlp")
    model.compile(optimizer="sgd", loss="mse")
    save(model, name, keras2=True)


def write_tflite(name):
    """tiny.tflite: a Dense layer converted by TFLiteConverter (a FlatBuffer, identifier TFL3),
    which graph-inspector names and does not read."""
    import keras
    import tensorflow as tf
    keras.utils.set_random_seed(SEED)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="dense")], name="tiny")
    (OUT / f"{name}.tflite").write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())


WRITERS = {"two_inputs": write_keras3, "sequential_cnn": write_keras3, "nested": write_keras3,
           "dict_io": write_keras3,
           "tf_keras_mlp": write_tf_keras_mlp, "tiny": write_tflite}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=sorted(WRITERS))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process writes one model
    args = parser.parse_args()
    if args.one:
        import tensorflow as tf
        tf.get_logger().setLevel("ERROR")
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        WRITERS[args.one](args.one)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for name in args.only or WRITERS:
        subprocess.run([sys.executable, __file__, "--one", name], check=True, env=env)
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size:8d} {path.relative_to(OUT)}")


if __name__ == "__main__":
    main()
