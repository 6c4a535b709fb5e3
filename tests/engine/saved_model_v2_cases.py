"""tf.saved_model.save and load_v2 in graph mode, built alike for TensorFlow and the engine.

`tf` is `tensorflow.compat.v1` with v2 behaviour disabled (tools/make_saved_model_v2_fixtures.py)
or the engine. A small tf.Module (two resource variables, a tf.function with an input
signature returning a dict, one with a tf.while_loop, one with a tf.cond returning a tuple) is
saved with two signatures, and modules nested in a list with the default signature (PROGRAMS:
how each is saved, and what load_v2 of it runs to); `structure` is what
saved_model_cli show --all and the object graph say about a SavedModel, with the functions'
numbers left out (TensorFlow's are its process-wide uids); ERROR_CASES are the errors
TensorFlow gives in TensorFlow's words.
"""

import re

import numpy as np

X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 3.0]], np.float32)
N = np.float32(3.0)
V = np.array([1.5, -0.25], np.float32)
SIGNATURE_FEEDS = {"serving_default": {"x": X}, "clip": {"v": V}}


def module_class(tf):
    class Scaler(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w", use_resource=True)
            self.b = tf.Variable([0.5, 0.25], name="b", use_resource=True)

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def apply(self, x):
            return {"y": tf.matmul(x, self.w) + self.b}

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def loop(self, n):
            _, total = tf.while_loop(lambda i, s: i < n,
                                     lambda i, s: (i + 1.0, s + tf.reduce_sum(self.b) * i),
                                     [0.0, 0.0])
            return total

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="v")])
        def clip(self, v):
            scaled = tf.cond(tf.reduce_sum(v) > 0.0, lambda: v * self.b, lambda: v - self.b)
            return scaled, tf.reduce_max(v)

    return Scaler


def save(tf, export_dir):
    """Build the module in a new graph, change a variable, save it with two signatures."""
    with tf.Graph().as_default(), tf.Session() as sess:
        module = module_class(tf)()
        sess.run(tf.global_variables_initializer())
        sess.run(module.w.assign([[2.0, 0.0], [1.0, -1.0]]))
        tf.saved_model.save(module, str(export_dir),
                            signatures={"serving_default": module.apply, "clip": module.clip})


def outputs(tf, export_dir):
    """{name: value} of what load_v2 gives back, run in a new graph and session."""
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(export_dir))
        fetches = {"variables/w": loaded.w, "variables/b": loaded.b,
                   "apply/y": loaded.apply(tf.constant(X))["y"],
                   "loop": loaded.loop(tf.constant(N))}
        scaled, largest = loaded.clip(tf.constant(V))
        fetches.update({"clip/0": scaled, "clip/1": largest})
        for key in sorted(loaded.signatures):
            results = loaded.signatures[key](**{name: tf.constant(value) for name, value
                                                in SIGNATURE_FEEDS[key].items()})
            fetches.update({f"signatures/{key}/{name}": tensor for name, tensor in results.items()})
        sess.run(tf.global_variables_initializer())
        values = sess.run(fetches)
    return {key: np.asarray(value) for key, value in values.items()}


def nested_module(tf):
    """Modules in a list, a variable that is not trained, a tf.function without an input
    signature traced once (with a Python default) and one with: the default signature."""
    class Dense(tf.Module):
        def __init__(self, n_in, n_out, name=None):
            super().__init__(name=name)
            self.kernel = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32) / 10.0,
                                                 [n_in, n_out]), name="kernel", use_resource=True)
            self.bias = tf.Variable(tf.fill([n_out], -0.5), name="bias", use_resource=True)

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.kernel) + self.bias)

    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(3, 4, name="first"), Dense(4, 2, name="second")]
            self.step = tf.Variable(7, name="step", trainable=False, use_resource=True)

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="features")])
        def predict(self, features):
            for layer in self.layers:
                features = layer(features)
            return features

        @tf.function
        def scale(self, x, factor=2.0):
            return x * factor + tf.cast(self.step, tf.float32)

    return Net()


def save_nested(tf, export_dir):
    with tf.Graph().as_default(), tf.Session() as sess:
        module = nested_module(tf)
        module.scale(tf.constant([1.0, 2.0]))
        sess.run(tf.global_variables_initializer())
        tf.saved_model.save(module, str(export_dir))


def outputs_nested(tf, export_dir):
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(export_dir))
        fetches = {"predict": loaded.predict(tf.constant(X[:, [0, 1, 1]] + 1.0)),
                   "scale": loaded.scale(tf.constant([3.0, -4.0])),
                   "step": loaded.step, "second/bias": loaded.layers[1].bias,
                   "serving_default": loaded.signatures["serving_default"](
                       features=tf.constant(X[:, [1, 0, 0]]))["output_0"]}
        sess.run(tf.global_variables_initializer())
        values = sess.run(fetches)
    return {key: np.asarray(value) for key, value in values.items()}


def save_captured(tf, export_dir):
    """A tf.function reading a constant of the graph (saved as a constant it captures)."""
    with tf.Graph().as_default(), tf.Session():
        offset = tf.constant([0.5, -1.5], name="offset")

        class Shift(tf.Module):
            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
            def shift(self, x):
                return x + offset

        tf.saved_model.save(Shift(), str(export_dir))


def outputs_captured(tf, export_dir):
    with tf.Graph().as_default(), tf.Session() as sess:
        loaded = tf.saved_model.load_v2(str(export_dir))
        values = sess.run({"shift": loaded.shift(tf.constant(X[:2])),
                           "serving_default": loaded.signatures["serving_default"](
                               x=tf.constant(X))["output_0"]})
    return {key: np.asarray(value) for key, value in values.items()}


PROGRAMS = {"scaler": (save, outputs), "nested": (save_nested, outputs_nested),
            "captured": (save_captured, outputs_captured)}


def _function_name(name):
    """A function's name without its number: `__inference_apply`."""
    return re.sub(r"_\d+$", "", name)


def _shape(proto):
    return None if proto.unknown_rank else [d.size for d in proto.dim]


def _text(message):
    """A message in the text format, one line (TensorFlow's and the engine's protos alike)."""
    from google.protobuf import text_format
    return text_format.MessageToString(message, as_one_line=True)


def structure(saved_model, object_graph):
    """What a SavedModel message says of its signatures, objects and functions (a dict);
    object_graph: an empty TrackableObjectGraph message, which the graph's `Const` holds."""
    meta = saved_model.meta_graphs[0]
    for node in meta.graph_def.node:  # the one string Const (captured constants come first)
        if node.op == "Const" and node.attr["value"].tensor.dtype == 7:  # DT_STRING
            object_graph.ParseFromString(node.attr["value"].tensor.string_val[0])
    signatures = {}
    for key, signature in sorted(meta.signature_def.items()):
        signatures[key] = {
            "method_name": signature.method_name,
            "inputs": {name: [info.name, info.dtype, _shape(info.tensor_shape)]
                       for name, info in sorted(signature.inputs.items())},
            "outputs": {name: [info.name, info.dtype, _shape(info.tensor_shape)]
                        for name, info in sorted(signature.outputs.items())}}
    nodes = []
    for node in meta.object_graph_def.nodes:
        kind = node.WhichOneof("kind")
        entry = {"kind": kind, "children": [c.local_name for c in node.children]}
        if kind == "user_object":
            entry["identifier"] = node.user_object.identifier
        elif kind == "variable":
            entry["variable"] = [node.variable.name, node.variable.dtype,
                                 _shape(node.variable.shape), node.variable.trainable]
        elif kind == "function":
            entry["concrete_functions"] = [_function_name(n) for n in node.function.concrete_functions]
            entry["function_spec"] = _text(node.function.function_spec)
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            entry["bare"] = [_function_name(bare.concrete_function_name),
                             list(bare.argument_keywords), bare.allowed_positional_arguments]
            entry["function_spec"] = _text(bare.function_spec)
        nodes.append(entry)
    concrete = {_function_name(name): {"bound_inputs": list(saved.bound_inputs),
                                       "input_signature": _text(saved.canonicalized_input_signature),
                                       "output_signature": _text(saved.output_signature)}
                for name, saved in meta.object_graph_def.concrete_functions.items()}
    # TensorFlow's bodies call If and While functions (cond_true_N, while_body_N), the
    # engine's hold v1 control flow: the functions compared are the __inference_ ones.
    functions = sorted(_function_name(f.signature.name) for f in meta.graph_def.library.function
                       if f.signature.name.startswith("__inference_"))
    return {"tags": list(meta.meta_info_def.tags), "signatures": signatures, "nodes": nodes,
            "concrete_functions": dict(sorted(concrete.items())),
            "collections": sorted(meta.collection_def),
            "saver_def": _text(meta.saver_def),
            "graph": [[node.op, node.name] + list(node.input) for node in meta.graph_def.node],
            "functions": functions, "checkpoint_object_graph": _text(object_graph)}


def _not_trackable(tf, export_dir):
    with tf.Graph().as_default(), tf.Session():
        tf.saved_model.save(3, str(export_dir))


def _signature_without_input_signature(tf, export_dir):
    class Untyped(tf.Module):
        @tf.function
        def double(self, x):
            return x * 2.0

    with tf.Graph().as_default(), tf.Session():
        module = Untyped()
        tf.saved_model.save(module, str(export_dir), signatures=module.double)


def _no_session(tf, export_dir):
    with tf.Graph().as_default():
        tf.saved_model.save(module_class(tf)(), str(export_dir))


def _ref_variable(tf, export_dir):
    with tf.Graph().as_default(), tf.Session() as sess:
        module = tf.Module()
        module.v = tf.Variable(1.0, name="v", use_resource=False)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def times(x):
            return x * module.v

        module.times = times
        sess.run(tf.global_variables_initializer())
        tf.saved_model.save(module, str(export_dir))


def _untracked_variable(tf, export_dir):
    with tf.Graph().as_default(), tf.Session() as sess:
        hidden = tf.Variable(3.0, name="hidden", use_resource=True)

        class Untracked(tf.Module):
            @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
            def times(self, x):
                return x * hidden

        module = Untracked()
        sess.run(tf.global_variables_initializer())
        tf.saved_model.save(module, str(export_dir))


def _placeholder_capture(tf, export_dir):
    with tf.Graph().as_default(), tf.Session():
        fed = tf.placeholder(tf.float32, [], name="fed")

        class Fed(tf.Module):
            @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
            def times(self, x):
                return x * fed

        tf.saved_model.save(Fed(), str(export_dir))


def _wrong_tags(tf, export_dir):
    save_captured(tf, export_dir)
    with tf.Graph().as_default():
        tf.saved_model.load_v2(str(export_dir), tags="train")


def _restored_function_wrong_shape(tf, export_dir):
    save(tf, export_dir)
    with tf.Graph().as_default():
        loaded = tf.saved_model.load_v2(str(export_dir))
        loaded.apply(tf.constant([1.0, 2.0, 3.0], name="wrong"))


def _missing_directory(tf, export_dir):
    with tf.Graph().as_default():
        tf.saved_model.load_v2(str(export_dir))


def _damaged_file(tf, export_dir):
    export_dir.mkdir(parents=True, exist_ok=True)
    (export_dir / "saved_model.pb").write_bytes(b"\xff\xff not a SavedModel")
    with tf.Graph().as_default():
        tf.saved_model.load_v2(str(export_dir))


# name -> (function(tf, export_dir), how the message is compared: the whole of it, without
# the functions' numbers, without the object reprs, which name TensorFlow's classes, its
# first words, or not at all (the class only))
ERROR_CASES = {
    "save_not_trackable": (_not_trackable, "whole"),
    "save_signature_without_input_signature": (_signature_without_input_signature, "repr"),
    "save_without_session": (_no_session, "whole"),
    "save_ref_variable": (_ref_variable, "class"),
    "save_untracked_variable": (_untracked_variable, "numbers"),
    "save_placeholder_capture": (_placeholder_capture, "numbers"),
    "load_wrong_tags": (_wrong_tags, "whole"),
    "call_restored_function_wrong_shape": (_restored_function_wrong_shape, "whole"),
    "load_missing_directory": (_missing_directory, "whole"),
    "load_damaged_file": (_damaged_file, "prefix"),
}


def error_of(tf, name, export_dir):
    """(error class name, message as compared) of one error case; export_dir is replaced by
    DIR in the message."""
    function, compare = ERROR_CASES[name]
    try:
        function(tf, export_dir)
    except Exception as error:  # noqa: BLE001 (the class is what is compared)
        message = str(error).replace(str(export_dir), "DIR")
        if compare == "class":  # TensorFlow's words come from deep inside its tracing
            message = ""
        elif compare == "numbers":  # a function's number is TensorFlow's uid
            message = re.sub(r"(__inference_\w+?)_\d+", r"\1_N", message)
        elif compare == "repr":
            message = re.sub(r"<[^>]*>", "<...>", message)
        elif compare == "prefix":
            # TensorFlow names the file as bytes (b'DIR/saved_model.pb'), the engine as text.
            message = " ".join(message.split(" ")[:3])
        return [type(error).__name__, message]
    return ["no error", ""]
