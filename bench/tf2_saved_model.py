"""Benchmark: `info` and the find across function bodies on a 6,000-node TF2 SavedModel.

The SavedModel is made here with our own protos (no TensorFlow), shaped as Keras 2's
`tf.saved_model.save` of a deep convolutional model: the top-level graph is a VarHandleOp and a
ReadVariableOp per variable, the signatures' calls and the saver's; the library holds, per layer,
its call functions in training=True/False variants (7 nodes each), the model's call functions
(a call per layer), the signature wrappers, and the save and restore functions (a RestoreV2 and
an AssignVariableOp per variable); the SavedObjectGraph names every object and concrete function;
the checkpoint holds small variables under TF2 object-path keys with their object graph.

`run()` returns `info`'s wall and CPU time as a user runs it (a fresh process, reading the
directory, printing the summary), beside the same for a one-layer model of the same shape
(what starting Python and importing costs), the in-process phases, `info --json`'s time, and
the find across every body (the graph's and all 645 functions'): the first query (building the
search text) and the median of later ones. Goals: info under 1 s, a find under 0.2 s.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engine.proto import saved_model_pb2, trackable_object_graph_pb2, types_pb2

LAYERS = 160          # two variables each: 320 variables
CHANNELS = 8
QUERIES = ("Relu", "^layer_12[0-9]/conv/Conv2D$", "BiasAdd/ReadVariableOp", "AssignVariableOp",
           "no_such_node")
REPEATS = 3
DT_FLOAT, DT_RESOURCE, DT_STRING = types_pb2.DT_FLOAT, types_pb2.DT_RESOURCE, types_pb2.DT_STRING


def _attr_type(node, key, dtype):
    node.attr[key].type = dtype


def _call(node, function, inputs, outputs=1):
    node.op = "StatefulPartitionedCall"
    node.input.extend(inputs)
    node.attr["f"].func.name = function
    node.attr["Tin"].list.type.extend([DT_FLOAT] + [DT_RESOURCE] * (len(inputs) - 1))
    node.attr["Tout"].list.type.extend([DT_FLOAT] * outputs)


def _layer_function(library, name, layer):
    """A layer's call: read kernel and bias, Conv2D, BiasAdd, Relu (7 nodes)."""
    function = library.function.add()
    signature = function.signature
    signature.name = name
    signature.input_arg.add(name="inputs", type=DT_FLOAT)
    signature.input_arg.add(name="conv2d_readvariableop_resource", type=DT_RESOURCE)
    signature.input_arg.add(name="biasadd_readvariableop_resource", type=DT_RESOURCE)
    signature.output_arg.add(name="identity", type=DT_FLOAT)
    signature.is_stateful = True
    scope = f"layer_{layer}/conv"
    nodes = [(f"{scope}/Conv2D/ReadVariableOp", "ReadVariableOp", ["conv2d_readvariableop_resource"]),
             (f"{scope}/Conv2D", "Conv2D", ["inputs", f"{scope}/Conv2D/ReadVariableOp:value:0"]),
             (f"{scope}/BiasAdd/ReadVariableOp", "ReadVariableOp", ["biasadd_readvariableop_resource"]),
             (f"{scope}/BiasAdd", "BiasAdd", [f"{scope}/Conv2D:output:0",
                                              f"{scope}/BiasAdd/ReadVariableOp:value:0"]),
             (f"{scope}/Relu", "Relu", [f"{scope}/BiasAdd:output:0"]),
             ("NoOp", "NoOp", [f"^{scope}/Conv2D/ReadVariableOp", f"^{scope}/BiasAdd/ReadVariableOp"]),
             ("Identity", "Identity", [f"{scope}/Relu:activations:0", "^NoOp"])]
    for node_name, op, inputs in nodes:
        node = function.node_def.add(name=node_name, op=op, input=inputs)
        if op == "ReadVariableOp":
            _attr_type(node, "dtype", DT_FLOAT)
        elif op != "NoOp":
            _attr_type(node, "T", DT_FLOAT)
        if op == "Conv2D":
            node.attr["strides"].list.i.extend([1, 1, 1, 1])
            node.attr["padding"].s = b"SAME"
    function.ret["identity"] = "Identity:output:0"
    return function


def _model_function(library, name, callee_of_layer, layers):
    """The model's call: a StatefulPartitionedCall per layer, each feeding the next."""
    function = library.function.add()
    signature = function.signature
    signature.name = name
    signature.input_arg.add(name="inputs", type=DT_FLOAT)
    for layer in range(layers):
        signature.input_arg.add(name=f"unknown_{2 * layer}", type=DT_RESOURCE)
        signature.input_arg.add(name=f"unknown_{2 * layer + 1}", type=DT_RESOURCE)
    signature.output_arg.add(name="identity", type=DT_FLOAT)
    signature.is_stateful = True
    previous = "inputs"
    for layer in range(layers):
        node = function.node_def.add(name=f"layer_{layer}/StatefulPartitionedCall")
        _call(node, callee_of_layer(layer), [previous, f"unknown_{2 * layer}",
                                             f"unknown_{2 * layer + 1}"])
        previous = f"layer_{layer}/StatefulPartitionedCall:output:0"
    identity = function.node_def.add(name="Identity", op="Identity", input=[previous])
    _attr_type(identity, "T", DT_FLOAT)
    function.ret["identity"] = "Identity:output:0"


def _wrapper(library, name, model, layers):
    function = library.function.add()
    signature = function.signature
    signature.name = name
    signature.input_arg.add(name="inputs", type=DT_FLOAT)
    for index in range(2 * layers):
        signature.input_arg.add(name=f"unknown_{index}", type=DT_RESOURCE)
    signature.output_arg.add(name="output_0", type=DT_FLOAT)
    signature.is_stateful = True
    node = function.node_def.add(name="StatefulPartitionedCall")
    _call(node, model, ["inputs"] + [f"unknown_{i}" for i in range(2 * layers)])
    identity = function.node_def.add(name="Identity", op="Identity",
                                     input=["StatefulPartitionedCall:output:0"])
    _attr_type(identity, "T", DT_FLOAT)
    function.ret["output_0"] = "Identity:output:0"


def _saver_function(library, name, keys, restore):
    """The saver's restore (RestoreV2, an Identity and AssignVariableOp per variable) or save
    (a ReadVariableOp per variable, SaveV2)."""
    function = library.function.add()
    signature = function.signature
    signature.name = name
    signature.input_arg.add(name="file_prefix", type=DT_STRING)
    for index in range(len(keys)):
        signature.input_arg.add(name=f"variable_{index}", type=DT_RESOURCE)
    signature.output_arg.add(name="identity", type=DT_STRING)
    signature.is_stateful = True
    names = function.node_def.add(name="tensor_names", op="Const")
    _attr_type(names, "dtype", DT_STRING)
    names.attr["value"].tensor.dtype = DT_STRING
    names.attr["value"].tensor.tensor_shape.dim.add(size=len(keys))
    names.attr["value"].tensor.string_val.extend(key.encode() for key in keys)
    slices = function.node_def.add(name="shape_and_slices", op="Const")
    _attr_type(slices, "dtype", DT_STRING)
    slices.attr["value"].tensor.dtype = DT_STRING
    slices.attr["value"].tensor.tensor_shape.dim.add(size=len(keys))
    slices.attr["value"].tensor.string_val.extend([b""] * len(keys))
    done = []
    if restore:
        node = function.node_def.add(name="RestoreV2", op="RestoreV2", input=[
            "file_prefix", "tensor_names:output:0", "shape_and_slices:output:0"])
        node.attr["dtypes"].list.type.extend([DT_FLOAT] * len(keys))
        for index in range(len(keys)):
            identity = function.node_def.add(name=f"Identity_{index}", op="Identity",
                                             input=[f"RestoreV2:tensors:{index}"])
            _attr_type(identity, "T", DT_FLOAT)
            assign = function.node_def.add(name=f"AssignVariableOp_{index}", op="AssignVariableOp",
                                           input=[f"variable_{index}", f"Identity_{index}:output:0"])
            _attr_type(assign, "dtype", DT_FLOAT)
            done.append(f"^AssignVariableOp_{index}")
    else:
        reads = []
        for index in range(len(keys)):
            read = function.node_def.add(name=f"Read_{index}/ReadVariableOp", op="ReadVariableOp",
                                         input=[f"variable_{index}"])
            _attr_type(read, "dtype", DT_FLOAT)
            reads.append(f"Read_{index}/ReadVariableOp:value:0")
        node = function.node_def.add(name="SaveV2", op="SaveV2", input=[
            "file_prefix", "tensor_names:output:0", "shape_and_slices:output:0", *reads])
        node.attr["dtypes"].list.type.extend([DT_FLOAT] * len(keys))
        done.append("^SaveV2")
    identity = function.node_def.add(name="Identity", op="Identity", input=["file_prefix", *done])
    _attr_type(identity, "T", DT_STRING)
    function.ret["identity"] = "Identity:output:0"


def _object_graph(objects, keys_by_path, layers):
    """The SavedObjectGraph (into `objects`) and the checkpoint's TrackableObjectGraph of the
    model: root -> layer_with_weights-i -> kernel, bias, __call__; root __call__; signatures."""
    checkpoint = trackable_object_graph_pb2.TrackableObjectGraph()

    def add(kind, **fields):
        node = objects.nodes.add()
        getattr(node, kind).CopyFrom(type(getattr(node, kind))(**fields))
        checkpoint.nodes.add()
        return len(objects.nodes) - 1

    root = add("user_object", identifier="_tf_keras_network")
    for layer in range(layers):
        layer_id = add("user_object", identifier="_tf_keras_layer")
        objects.nodes[root].children.add(node_id=layer_id, local_name=f"layer_with_weights-{layer}")
        checkpoint.nodes[root].children.add(node_id=layer_id, local_name=f"layer_with_weights-{layer}")
        for local in ("kernel", "bias"):
            variable = add("variable", dtype=DT_FLOAT, name=f"layer_{layer}/conv/{local}")
            for graph in (objects, checkpoint):
                graph.nodes[layer_id].children.add(node_id=variable, local_name=local)
            path = f"layer_with_weights-{layer}/{local}"
            checkpoint.nodes[variable].attributes.add(
                name="VARIABLE_VALUE", full_name=f"layer_{layer}/conv/{local}",
                checkpoint_key=keys_by_path[path])
        call = add("function", concrete_functions=[f"__inference_layer_{layer}_call_fn_{n}"
                                                   for n in (0, 1)])
        objects.nodes[layer_id].children.add(node_id=call, local_name="__call__")
        for training, number in ((True, 0), (False, 1)):
            concrete = objects.concrete_functions[f"__inference_layer_{layer}_call_fn_{number}"]
            _spec(concrete, training)
    call = add("function", concrete_functions=["__inference_model_call_0", "__inference_model_call_1"])
    objects.nodes[root].children.add(node_id=call, local_name="__call__")
    for training, number in ((True, 1), (False, 0)):
        _spec(objects.concrete_functions[f"__inference_model_call_{number}"], training)
    signatures = add("user_object", identifier="signature_map")
    objects.nodes[root].children.add(node_id=signatures, local_name="signatures")
    wrapper = add("bare_concrete_function",
                  concrete_function_name="__inference_signature_wrapper_serving_default")
    objects.nodes[signatures].children.add(node_id=wrapper, local_name="serving_default")
    return checkpoint


def _spec(concrete, training):
    arguments = concrete.canonicalized_input_signature.tuple_value.values.add().tuple_value
    spec = arguments.values.add().tensor_spec_value
    spec.name, spec.dtype = "inputs", DT_FLOAT
    for size in (-1, 32, 32, CHANNELS):
        spec.shape.dim.add(size=size)
    arguments.values.add().bool_value = training
    concrete.canonicalized_input_signature.tuple_value.values.add().dict_value.SetInParent()


def synthesize(path, layers=LAYERS):
    """Write the SavedModel directory of a model of `layers` layers; (top-level nodes,
    functions, nodes in functions)."""
    path = Path(path)
    (path / "variables").mkdir(parents=True)
    saved = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    meta = saved.meta_graphs.add()
    meta.meta_info_def.tags.append("serve")
    meta.meta_info_def.tensorflow_version = "2.21.0"
    graph = meta.graph_def
    library = graph.library
    for layer in range(layers):
        for number in (0, 1):
            _layer_function(library, f"__inference_layer_{layer}_call_fn_{number}", layer)
            _layer_function(library, f"__inference_layer_{layer}_call_and_return_conditional_losses_{number}", layer)
    _model_function(library, "__inference_model_call_0",
                    lambda layer: f"__inference_layer_{layer}_call_fn_1", layers)
    _model_function(library, "__inference_model_call_1",
                    lambda layer: f"__inference_layer_{layer}_call_fn_0", layers)
    _wrapper(library, "__inference_signature_wrapper_serving_default", "__inference_model_call_0",
             layers)
    keys, handles = [], []
    for layer in range(layers):
        for local in ("kernel", "bias"):
            keys.append(f"layer_with_weights-{layer}/{local}/.ATTRIBUTES/VARIABLE_VALUE")
            handle = graph.node.add(name=f"layer_{layer}/conv/{local}", op="VarHandleOp")
            _attr_type(handle, "dtype", DT_FLOAT)
            handle.attr["shared_name"].s = handle.name.encode()
            read = graph.node.add(name=f"{handle.name}/Read/ReadVariableOp", op="ReadVariableOp",
                                  input=[handle.name])
            _attr_type(read, "dtype", DT_FLOAT)
            handles.append(handle.name)
    _saver_function(library, "__inference__traced_save_0", keys, restore=False)
    _saver_function(library, "__inference__traced_restore_0", keys, restore=True)
    placeholder = graph.node.add(name="serving_default_inputs", op="Placeholder")
    _attr_type(placeholder, "dtype", DT_FLOAT)
    _call(graph.node.add(name="StatefulPartitionedCall"), "__inference_signature_wrapper_serving_default",
          ["serving_default_inputs"] + handles)
    filename = graph.node.add(name="saver_filename", op="Placeholder")
    _attr_type(filename, "dtype", DT_STRING)
    for name, function in (("StatefulPartitionedCall_1", "__inference__traced_save_0"),
                           ("StatefulPartitionedCall_2", "__inference__traced_restore_0")):
        node = graph.node.add(name=name, op="StatefulPartitionedCall",
                              input=["saver_filename"] + handles)
        node.attr["f"].func.name = function
    graph.node.add(name="NoOp", op="NoOp")
    meta.saver_def.filename_tensor_name = "saver_filename:0"
    meta.saver_def.restore_op_name = "StatefulPartitionedCall_2"
    signature = meta.signature_def["serving_default"]
    signature.method_name = "tensorflow/serving/predict"
    signature.inputs["inputs"].name = "serving_default_inputs:0"
    signature.inputs["inputs"].dtype = DT_FLOAT
    signature.outputs["output_0"].name = "StatefulPartitionedCall:0"
    signature.outputs["output_0"].dtype = DT_FLOAT
    object_graph = _object_graph(meta.object_graph_def, dict(
        (key.rsplit("/.ATTRIBUTES/", 1)[0], key) for key in keys), layers)
    (path / "saved_model.pb").write_bytes(saved.SerializeToString())
    from engine.checkpoint.bundle import BundleWriter
    writer = BundleWriter(path / "variables" / "variables")
    rng = np.random.RandomState(0)
    for key in keys:
        shape = (3, 3, CHANNELS, CHANNELS) if "/kernel/" in key else (CHANNELS,)
        writer.add(key, rng.standard_normal(shape).astype(np.float32), DT_FLOAT)
    writer.add("_CHECKPOINTABLE_OBJECT_GRAPH", np.array(object_graph.SerializeToString(), dtype=object),
               DT_STRING)
    writer.finish()
    return len(graph.node), len(library.function), sum(len(f.node_def) for f in library.function)


def _info_times(path):
    """(wall, CPU) seconds of `python -m inspector info PATH`, a fresh process, as a user runs
    it (CPU: user + system, less moved by other work on shared cores than the wall time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "inspector", "info", str(path)], check=True,
                   stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _ms(seconds):
    return round(seconds * 1000, 1)


def run():
    import parsers
    from inspector import cmd_info
    from views.body_search import BodySearch

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deep_cnn"
        top, functions, body_nodes = synthesize(path)
        small = Path(folder) / "one_layer"
        synthesize(small, layers=1)
        _info_times(path)  # the first run writes the modules' bytecode caches
        times = [_info_times(path) for _ in range(REPEATS)]
        baseline = [_info_times(small) for _ in range(REPEATS)]
        walls = [wall for wall, _ in times]
        start = time.perf_counter()
        loaded = parsers.load(path)
        loaded_s = time.perf_counter() - start
        start = time.perf_counter()
        lines = cmd_info.summary_lines(loaded)
        summary_s = time.perf_counter() - start
        start = time.perf_counter()
        cmd_info.to_json(parsers.load(path))
        json_s = time.perf_counter() - start
        search = BodySearch(loaded.functions, "serve")
        start = time.perf_counter()
        first = search.find(QUERIES[0])
        first_s = time.perf_counter() - start
        later = []
        for _ in range(REPEATS):
            for query in QUERIES:
                start = time.perf_counter()
                found = search.find(query)
                later.append(time.perf_counter() - start)
        head = next(line for line in lines if line.startswith("graph 'serve'"))
    info_s = statistics.median(walls)
    find_s = statistics.median(later)
    return {
        "row": "TF2 SavedModel, 6,000 nodes with its functions: info; find across every body",
        "value": f"{info_s:.2f} s; {_ms(find_s)} ms ({_ms(first_s)} ms the first)",
        "tensorflow": "saved_model_cli show --all: 5-10 s",
        "target": "< 1 s; < 0.2 s", "met": info_s < 1.0 and max(find_s, first_s) < 0.2,
        "top_level_nodes": top, "functions": functions, "nodes_in_functions": body_nodes,
        "info_summary": head,
        "info_wall_s_median": round(info_s, 3), "info_wall_s_all": [round(w, 3) for w in walls],
        "info_cpu_s_median": round(statistics.median(cpu for _, cpu in times), 3),
        "info_one_layer_wall_s_median": round(statistics.median(w for w, _ in baseline), 3),
        "info_one_layer_cpu_s_median": round(statistics.median(c for _, c in baseline), 3),
        "load_s": round(loaded_s, 3), "summary_s": round(summary_s, 3),
        "info_json_s": round(json_s, 3),
        "find_first_ms": _ms(first_s), "find_median_ms": _ms(find_s), "find_max_ms": _ms(max(later)),
        "find_first_matches": len(first), "searched_graphs": len(search.graphs),
        "searched_nodes": len(search.search_lines()[0]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }


if __name__ == "__main__":
    print(run())
