"""tests/fixtures/tf2/ (tools/make_tf2_fixtures.py): TF2 SavedModels, Keras files and TensorBoard
logdirs TensorFlow 2.21 wrote read with our readers, against what TensorFlow said of them in
tf2/reference/. Only what the readers do today: each SavedModel is one meta graph whose
library holds the functions TensorFlow listed, node for node; its signatures are those
expected.npz was computed for; its checkpoint keys and object graph are TensorFlow's; each
signature's traced TF1 run parses, and its step stats name the function bodies' nodes, inlined.
"""

import ast
import json
import re
import zipfile

import numpy as np
import pytest
from google.protobuf import json_format

import parsers
from engine.proto import config_pb2, event_pb2, trackable_object_graph_pb2, types_pb2
from parsers import tfrecord
from parsers_testing import FIXTURES

TF2 = FIXTURES / "tf2"
REFERENCE = TF2 / "reference"
SAVED_MODELS = ("while_cond", "train_step", "text_model", "keras_cnn", "transformer", "tf_keras_mlp")
# The ops TensorFlow runs a function call or functional control flow as: none is left once it
# has inlined the calls and lowered While/If, which is what its step stats show.
CALL_OPS = {"PartitionedCall", "StatefulPartitionedCall", "While", "StatelessWhile", "If",
            "StatelessIf", "Case", "StatelessCase"}
CNN_LAYERS = ["image", "conv", "pool", "flatten", "dense"]
NUMPY_DTYPES = {"DT_FLOAT": "float32", "DT_INT32": "int32", "DT_INT64": "int64"}


def functions_json(name):
    return json.loads((REFERENCE / name / "functions.json").read_text())


def meta_graph(name):
    """The one meta graph of SavedModel `name` as parsers.load reads it, and TensorFlow's account."""
    loaded = parsers.load(TF2 / name)
    assert loaded.kind == "saved_model"
    [meta] = loaded.meta_graphs
    [tf_meta] = functions_json(name)["meta_graphs"]
    return loaded, meta.meta_graph_def, tf_meta


def called(node, library):
    """The rule functions.json's `calls` was made with: func-valued attrs by attr name, then the op
    when a library function has its name."""
    names = [node.op] if node.op in library else []
    for key in sorted(node.attr):
        value = node.attr[key]
        if value.HasField("func"):
            names.append(value.func.name)
        names.extend(func.name for func in value.list.func)
    return names


def arg_list(args):
    return [[arg.name, types_pb2.DataType.Name(arg.type) if arg.type else f"attr:{arg.type_attr}"]
            for arg in args]


def op_of(timeline_label):
    """`name = Op(inputs)` -> Op."""
    return timeline_label.split(" = ", 1)[1].split("(", 1)[0]


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_saved_model_loads_as_one_meta_graph_with_its_checkpoint(name):
    loaded, meta_def, tf_meta = meta_graph(name)
    assert list(meta_def.meta_info_def.tags) == tf_meta["tags"] == ["serve"]
    assert meta_def.meta_info_def.tensorflow_version == tf_meta["tensorflow_version"] == "2.21.0"
    assert len(meta_def.graph_def.node) == tf_meta["graph_node_count"]
    assert [[n.name, n.op, list(n.input)] for n in meta_def.graph_def.node] == tf_meta["graph_nodes"]
    assert [g.label for g in loaded.graphs] == ["serve"]
    assert loaded.checkpoint is not None
    assert str(TF2 / name / "variables" / "variables.index") in loaded.files


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_library_holds_exactly_tensorflows_functions(name):
    _, meta_def, tf_meta = meta_graph(name)
    library = {fdef.signature.name: fdef for fdef in meta_def.graph_def.library.function}
    expected = {record["name"]: record for record in tf_meta["functions"]}
    assert sorted(library) == sorted(expected)
    assert len(library) == tf_meta["function_count"]
    assert sum(len(f.node_def) for f in library.values()) == tf_meta["function_node_count"]
    assert sorted({n.op for f in library.values() for n in f.node_def}) == tf_meta["function_ops"]
    gradients = meta_def.graph_def.library.gradient
    assert {g.function_name: g.gradient_func for g in gradients} == tf_meta["gradients"]
    for function_name, fdef in library.items():
        record = expected[function_name]
        assert [[n.name, n.op] for n in fdef.node_def] == record["nodes"], function_name
        assert arg_list(fdef.signature.input_arg) == record["input_arg"], function_name
        assert arg_list(fdef.signature.output_arg) == record["output_arg"], function_name
        assert fdef.signature.is_stateful == record["is_stateful"], function_name
        assert dict(fdef.ret) == record["ret"] and dict(fdef.control_ret) == record["control_ret"]
        calls = []
        for node in fdef.node_def:
            calls += [c for c in called(node, library) if c not in calls]
        assert calls == record["calls"], function_name
        assert set(calls) <= set(library)  # every callee is in the library
        # TensorFlow's function_def_to_graph_def: a Placeholder per input arg, then the body.
        body = record["body"]
        args = [a.name for a in fdef.signature.input_arg]
        assert [n[0] for n in body] == args + [n.name for n in fdef.node_def]
        assert {n[1] for n in body[:len(fdef.signature.input_arg)]} <= {"Placeholder"}
        assert set(record["ret_flat"]) == set(fdef.ret)
    top_calls = []
    for node in meta_def.graph_def.node:
        top_calls += [c for c in called(node, library) if c not in top_calls]
    assert top_calls == tf_meta["graph_calls"]
    concrete = set(meta_def.object_graph_def.concrete_functions)
    assert sorted(concrete) == tf_meta["concrete_functions"] and concrete <= set(library)


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_signatures_are_the_ones_expected_npz_was_computed_for(name):
    loaded, meta_def, tf_meta = meta_graph(name)
    assert [s.key for s in loaded.signatures] == sorted(tf_meta["signatures"])
    expected = np.load(REFERENCE / name / "expected.npz")
    keys = set()
    for key, signature in meta_def.signature_def.items():
        tf_signature = tf_meta["signatures"][key]
        assert {k: v.name for k, v in signature.inputs.items()} == tf_signature["inputs"]
        assert {k: v.name for k, v in signature.outputs.items()} == tf_signature["outputs"]
        assert signature.method_name == tf_signature["method_name"]
        if key == "__saved_model_init_op":
            continue
        for part in (signature.inputs, signature.outputs):
            for arg, info in part.items():
                value = expected[f"{key}/{arg}"]
                keys.add(f"{key}/{arg}")
                dtype = types_pb2.DataType.Name(info.dtype)
                assert value.dtype.kind == "S" if dtype == "DT_STRING" else value.dtype == NUMPY_DTYPES[dtype]
                dims = [d.size for d in info.tensor_shape.dim]
                assert len(dims) == value.ndim and all(d in (-1, v) for d, v in zip(dims, value.shape))
    assert keys == {k for k in expected.files if not k.startswith("after_train/")}


def cli_ops(graph_def):
    """The ops `saved_model_cli show` lists (meta_graph.ops_used_by_graph_def): the graph's, and
    those of functions reached by op name or by a (Stateful)PartitionedCall's `f`, but not of
    While/If bodies and branches."""
    library = {f.signature.name: f for f in graph_def.library.function}
    used, todo = set(), []

    def mark(op):
        if op not in used and op in library:
            todo.append(library[op])
        used.add(op)

    def visit(node):
        mark(node.op)
        if node.op in ("PartitionedCall", "StatefulPartitionedCall"):
            mark(node.attr["f"].func.name)

    for node in graph_def.node:
        visit(node)
    while todo:
        for node in todo.pop().node_def:
            visit(node)
    return used - set(library)


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_saved_model_cli_lists_the_signatures_and_its_ops(name):
    _, meta_def, tf_meta = meta_graph(name)
    text = (REFERENCE / name / "saved_model_cli.txt").read_text()
    assert re.findall(r"^signature_def\['(.*)'\]:$", text, re.M) == sorted(meta_def.signature_def)
    listed = ast.literal_eval(re.search(r"contains the following ops: (\{.*\})$", text, re.M).group(1))
    assert listed == cli_ops(meta_def.graph_def)
    every_op = {n.op for n in meta_def.graph_def.node} | set(tf_meta["function_ops"])
    if name == "while_cond":  # the loop body's and the branches' ops are missing from its list
        assert every_op - listed == {"AddV2", "Greater", "Less", "Mul", "StatelessIf", "Sub",
                                     "TensorListSetItem"}
    elif name == "tf_keras_mlp":  # no signature calls the training=True functions: Dropout's
        # random mask and BatchNormalization's moving-average updates are missing from its list
        assert {"RandomUniform", "AssignSubVariableOp"} <= every_op - listed
    else:
        assert listed == every_op


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_checkpoint_keys_and_object_graph_are_tensorflows(name):
    loaded, _, _ = meta_graph(name)
    document = json.loads((REFERENCE / name / "checkpoint.json").read_text())
    assert [[v.key, list(v.shape), v.dtype] for v in loaded.checkpoint.variables] == [
        v for v in document["variables"] if v[0] != "_CHECKPOINTABLE_OBJECT_GRAPH"]
    raw = loaded.checkpoint.value("_CHECKPOINTABLE_OBJECT_GRAPH").item()
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(raw)
    assert json_format.MessageToDict(graph, preserving_proto_field_name=True) == document["object_graph"]
    keys = {attribute.checkpoint_key for node in graph.nodes for attribute in node.attributes}
    assert keys == {v.key for v in loaded.checkpoint.variables}


def test_train_step_checkpoint_computes_tensorflows_prediction():
    checkpoint = parsers.load(TF2 / "train_step").checkpoint
    w1, b1, w2, b2 = (checkpoint.value(f"{v}/.ATTRIBUTES/VARIABLE_VALUE") for v in ("w1", "b1", "w2", "b2"))
    expected = np.load(REFERENCE / "train_step" / "expected.npz")
    logits = np.maximum(expected["predict/x"] @ w1 + b1, 0) @ w2 + b2
    np.testing.assert_allclose(logits, expected["predict/logits"], rtol=1e-5, atol=1e-6)
    assert int(checkpoint.value("step/.ATTRIBUTES/VARIABLE_VALUE")) == 0
    assert int(expected["after_train/step"]) == 1


def run_metadata_cases():
    return [(name, key) for name in SAVED_MODELS
            for key in json.loads((REFERENCE / name / "run_metadata.json").read_text())]


@pytest.mark.parametrize("name,key", run_metadata_cases())
def test_run_metadata_parses_and_its_step_stats_run_the_function_bodies(name, key):
    manifest = json.loads((REFERENCE / name / "run_metadata.json").read_text())[key]
    loaded = parsers.load(REFERENCE / name / f"run_metadata_{key}.pb")
    assert loaded.kind == "run_metadata"
    [run] = loaded.run_metadata
    run_metadata = run.run_metadata
    stats = [n for d in run_metadata.step_stats.dev_stats for n in d.node_stats]
    assert len(stats) == manifest["step_stats_nodes"]
    assert [len(g.graph_def.node) for g in loaded.graphs] == manifest["partition_graph_nodes"]

    _, meta_def, tf_meta = meta_graph(name)
    signature = meta_def.signature_def[key]
    assert sorted(manifest["feeds"]) == sorted(v.name for v in signature.inputs.values())
    assert sorted(manifest["fetches"]) == sorted(v.name for v in signature.outputs.values())
    # The top-level nodes the fetches reach: the feeds, the call, the variables it captures.
    nodes = {n.name: n for n in meta_def.graph_def.node}
    reached, todo = set(), [v.name.split(":")[0] for v in signature.outputs.values()]
    while todo:
        node = todo.pop()
        if node not in reached:
            reached.add(node)
            todo += [i.lstrip("^").split(":")[0] for i in nodes[node].input]
    assert len(stats) > len(reached)
    if name in ("while_cond", "train_step"):  # a tf.Module's graph holds little but calls
        assert len(stats) > tf_meta["graph_node_count"]

    # TensorFlow inlined every call and lowered every While/If before running: no call op ran,
    # and the nodes that ran are named after the function bodies' nodes.
    ops = {op_of(n.timeline_label) for n in stats}
    assert not ops & CALL_OPS
    partition_nodes = {n.name for g in loaded.graphs for n in g.graph_def.node}
    assert {n.node_name for n in stats} <= partition_nodes | {"_SOURCE"}
    library = {f["name"]: f for f in tf_meta["functions"]}
    callees, todo = set(), [c for output in signature.outputs.values()
                            for c in called(nodes[output.name.split(":")[0]], library)]
    while todo:
        callee = todo.pop()
        if callee not in callees:
            callees.add(callee)
            todo += library[callee]["calls"]
    body_nodes = {node for callee in callees for node, op in library[callee]["nodes"]
                  if op not in CALL_OPS | {"Identity", "NoOp", "Const"}}
    ran = {n.node_name for n in stats}
    assert body_nodes and any(any(r.endswith("/" + b) for r in ran) for b in body_nodes)


def test_the_while_loop_ran_once_per_element():
    """while_cond's loop body, lowered to frames, ran once per input element: its
    TensorListSetItem (the TensorArray write) shows three times for three elements."""
    expected = np.load(REFERENCE / "while_cond" / "expected.npz")
    run = parsers.load(REFERENCE / "while_cond" / "run_metadata_serving_default.pb").run_metadata[0]
    stats = [n for d in run.run_metadata.step_stats.dev_stats for n in d.node_stats]
    writes = [n for n in stats if op_of(n.timeline_label) == "TensorListSetItem"]
    assert len(writes) == len(expected["serving_default/x"]) == 3
    np.testing.assert_allclose(expected["serving_default/cumulative"],
                               np.cumsum(np.where(expected["serving_default/x"] > 0,
                                                  2 * expected["serving_default/x"],
                                                  1 - expected["serving_default/x"])))


def test_text_model_has_its_lookup_table():
    _, meta_def, tf_meta = meta_graph("text_model")
    ops = {n.op for n in meta_def.graph_def.node} | set(tf_meta["function_ops"])
    assert {"HashTableV2", "LookupTableImportV2", "LookupTableFindV2"} <= ops
    words = np.load(REFERENCE / "text_model" / "expected.npz")["serving_default/words"]
    assert words.dtype.kind == "S" and words[1, 0] == b"a"  # out of the vocabulary


def test_transformer_gathers_with_int32_indices():
    _, meta_def, _ = meta_graph("transformer")
    gathers = [n for f in meta_def.graph_def.library.function for n in f.node_def if n.op == "ResourceGather"]
    assert len(gathers) == 2
    assert {types_pb2.DataType.Name(n.attr["Tindices"].type) for n in gathers} == {"DT_INT32"}


def events(path):
    """Every Event of every events file under `path`, in file order."""
    found = []
    for file_path in sorted(path.rglob("events.out.tfevents.*")):
        found += [event_pb2.Event.FromString(data) for _, _, data in tfrecord.read_records(file_path)]
    return found


def test_logdir_trace_holds_trace_exports_run_metadata():
    loaded = parsers.load(TF2 / "logdir_trace")
    assert loaded.kind == "events"
    assert loaded.event_counts == {"file_version": 1, "summary": 1}
    [value] = [v for e in events(TF2 / "logdir_trace") for v in e.summary.value]
    assert (value.tag, value.metadata.plugin_data.plugin_name) == ("affine_relu", "graph_run_metadata_graph")
    run_metadata = config_pb2.RunMetadata.FromString(value.tensor.string_val[0])
    graphs = [f.pre_optimization_graph for f in run_metadata.function_graphs]
    assert any({"MatMul", "AddV2", "Relu", "Sum"} <= {n.op for n in g.node} for g in graphs)


def test_logdir_fit_holds_the_keras_conceptual_graph():
    """Keras 3's TensorBoard callback writes the model's config (graph_keras_model), no op graph."""
    loaded = parsers.load(TF2 / "logdir_fit")
    assert loaded.kind == "events"
    assert loaded.event_counts == {"file_version": 1, "summary": 3}
    values = {v.tag: v for e in events(TF2 / "logdir_fit") for v in e.summary.value}
    assert sorted(values) == ["epoch_learning_rate", "epoch_loss", "keras"]
    assert values["keras"].metadata.plugin_data.plugin_name == "graph_keras_model"
    config = json.loads(values["keras"].tensor.string_val[0])
    assert config["class_name"] == "Functional"
    assert [layer["name"] for layer in config["config"]["layers"]] == CNN_LAYERS


def test_logdir_fit_tf_keras_holds_the_train_functions_op_graph():
    loaded = parsers.load(TF2 / "logdir_fit_tf_keras")
    assert loaded.kind == "events"
    assert loaded.event_counts["graph_def"] == 1
    [graph] = [g for g in loaded.graphs if g.label.endswith(": graph, step 0")]  # and Keras's model
    ops = {n.op for n in graph.graph_def.node}
    assert {"Conv2D", "Conv2DBackpropFilter", "MaxPoolGrad", "SparseSoftmaxCrossEntropyWithLogits",
            "IteratorGetNext"} <= ops


def test_keras_files_are_a_keras_zip_and_hdf5():
    with zipfile.ZipFile(TF2 / "keras_cnn.keras") as archive:
        assert {"config.json", "metadata.json", "model.weights.h5"} <= set(archive.namelist())
        config = json.loads(archive.read("config.json"))
    assert [layer["name"] for layer in config["config"]["layers"]] == CNN_LAYERS
    assert (TF2 / "keras_cnn.h5").read_bytes()[:8] == b"\x89HDF\r\n\x1a\n"
    files = np.load(REFERENCE / "keras_cnn_files.npz")
    exported = np.load(REFERENCE / "keras_cnn" / "expected.npz")
    np.testing.assert_array_equal(files["image"], exported["serve/image"])
    np.testing.assert_allclose(files["output"], exported["serve/output_0"], rtol=1e-6)
