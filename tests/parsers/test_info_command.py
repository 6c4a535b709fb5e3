"""`graph-inspector info PATH [--json]`: the summary, and the exact JSON shape scripts rely on."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from parsers_testing import FIXTURES, importable_commands

ROOT = Path(__file__).resolve().parents[2]
NODE_KEYS = {"name", "op", "inputs", "device", "attr"}
STEP_KEYS = {"name", "op", "start_us", "op_us", "all_us"}
VARIABLE_KEYS = {"name", "key", "dtype", "shape", "size", "bytes", "min", "max", "mean", "nan", "inf"}


def assert_info_shape(document):
    """Exactly the documented shape: no key more, no key less, the right types."""
    assert set(document) == {"kind", "graphs", "run_metadata", "variables", "saved_objects",
                             "notes"}
    assert all(isinstance(note, str) for note in document["notes"])
    assert document["kind"] in {"graphdef", "metagraph", "saved_model", "events", "run_metadata", "vlog",
                                "dump_dir", "directory", "checkpoint"}
    for graph in document["graphs"]:
        if graph["label"].startswith("function "):  # a library's function, a graph of its own
            assert set(graph) == {"label", "nodes", "functions", "function"}
            assert_function_shape(graph["function"])
        else:
            assert set(graph) == {"label", "nodes", "functions"}
        assert isinstance(graph["label"], str)
        assert all(isinstance(name, str) for name in graph["functions"])
        for node in graph["nodes"]:
            assert set(node) == NODE_KEYS
            assert all(isinstance(node[key], str) for key in ("name", "op", "device"))
            assert all(isinstance(i, str) for i in node["inputs"])
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in node["attr"].items())
            assert all(len(v) <= 80 and "\n" not in v for v in node["attr"].values())
    for run in document["run_metadata"]:
        assert set(run) == {"tag", "step_stats", "partition_graphs"}
        assert isinstance(run["tag"], str) and isinstance(run["partition_graphs"], int)
        assert set(run["step_stats"]) == {"devices"}
        for device in run["step_stats"]["devices"]:
            assert set(device) == {"device", "nodes"}
            for node in device["nodes"]:
                assert set(node) == STEP_KEYS
                assert isinstance(node["name"], str) and isinstance(node["op"], str)
                assert all(isinstance(node[key], int) for key in ("start_us", "op_us", "all_us"))
    for entry in document["saved_objects"]:
        assert set(entry) == {"meta_graph", "objects", "functions", "signatures"}
        assert all(set(o) == {"path", "kind", "detail"} for o in entry["objects"])
        for function in entry["functions"]:
            assert set(function) == {"path", "options"}
            for option in function["options"]:
                assert set(option) == {"function", "args", "kwargs"}
                assert all(set(a) == {"name", "type", "value"}
                           for a in option["args"] + option["kwargs"])
        for signature in entry["signatures"]:
            assert set(signature) == {"key", "function", "calls"}
            assert all(set(c) == {"path", "function"} for c in signature["calls"])
    for variable in document["variables"]:
        assert set(variable) == VARIABLE_KEYS
        assert all(isinstance(variable[key], str) for key in ("name", "key", "dtype"))
        assert all(isinstance(d, int) for d in variable["shape"])
        assert all(isinstance(variable[key], int) for key in ("size", "bytes", "nan", "inf"))
        assert all(variable[key] is None or isinstance(variable[key], (int, float))
                   for key in ("min", "max", "mean"))


def assert_function_shape(function):
    assert set(function) == {"name", "inputs", "outputs", "calls", "called_by"}
    assert isinstance(function["name"], str)
    for arg in function["inputs"] + function["outputs"]:
        assert set(arg) == {"name", "dtype"} and all(isinstance(v, str) for v in arg.values())
    assert all(isinstance(name, str) for name in function["calls"])
    for site in function["called_by"]:
        assert set(site) == {"graph", "node"} and all(isinstance(v, str) for v in site.values())


INPUTS = [
    "parsers/functions.pb",
    "parsers/debug_info.pbtxt",
    "parsers/run_metadata.pb",
    "parsers/run_metadata.pbtxt",
    "parsers/events_dir",
    "parsers/saved_model_two",
    "parsers/dump_dir",
    "containers/mlp.meta",
    "graphs/cond_v2.pbtxt",
    "checkpoints/dtypes",
    "checkpoints/saved_model",
    "tf2/while_cond",
    "tf2/tf_keras_mlp",
]


@pytest.mark.parametrize("name", INPUTS)
def test_json_shape(run_info, name):
    if not (FIXTURES / name).exists():
        pytest.skip(f"{name} not generated yet")
    code, out, err = run_info(FIXTURES / name, "--json")
    assert (code, err) == (0, "")
    assert_info_shape(json.loads(out))


def test_json_of_a_graph(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "debug_info.pbtxt", "--json")
    document = json.loads(out)
    assert document["kind"] == "graphdef" and document["run_metadata"] == []
    (graph,) = document["graphs"]
    assert graph["label"] == "debug_info.pbtxt"
    nodes = {node["name"]: node for node in graph["nodes"]}
    assert nodes["x"] == {
        "name": "x",
        "op": "Placeholder",
        "inputs": [],
        "device": "",
        "attr": {"dtype": "DT_FLOAT", "shape": "[?,2]"},
    }
    assert nodes["w/initial_value"]["attr"]["value"] == "Tensor<float [2,2] 1 2 3 4>"
    assert nodes["w/Assign"]["attr"]["_class"] == '["loc:@w"]'
    assert nodes["w/Assign"]["inputs"] == ["w", "w/initial_value"]


def test_json_keeps_control_and_output_index_inputs(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "saved_model_two", "--json")
    inputs = [i for graph in json.loads(out)["graphs"] for node in graph["nodes"] for i in node["inputs"]]
    assert any(i.startswith("^") for i in inputs)
    assert any(":" in i and not i.startswith("^") for i in inputs)


def test_json_of_run_metadata(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "run_metadata.pbtxt", "--json")
    document = json.loads(out)
    assert document["kind"] == "run_metadata"
    (run,) = document["run_metadata"]
    assert run["tag"] == "" and run["partition_graphs"] == 1 == len(document["graphs"])
    (device,) = run["step_stats"]["devices"]
    assert device["device"] == "/job:localhost/replica:0/task:0/device:CPU:0"
    by_name = {node["name"]: node for node in device["nodes"]}
    assert by_name["_SOURCE"]["op"] == "NoOp"
    assert by_name["total"]["op"] == "Sum"
    from engine.proto import config_pb2
    from google.protobuf import text_format

    message = text_format.Parse((FIXTURES / "parsers" / "run_metadata.pbtxt").read_text(), config_pb2.RunMetadata())
    stats = next(s for s in message.step_stats.dev_stats[0].node_stats if s.node_name == "total")
    assert by_name["total"]["start_us"] == stats.all_start_micros
    assert by_name["total"]["op_us"] == stats.op_end_rel_micros - stats.op_start_rel_micros
    assert by_name["total"]["all_us"] == stats.all_end_rel_micros


def test_json_of_events(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "events_dir", "--json")
    document = json.loads(out)
    assert document["kind"] == "events"
    assert [run["tag"] for run in document["run_metadata"]] == ["step_1", "step_2"]


def test_summary_of_a_saved_model(run_info):
    code, out, err = run_info(FIXTURES / "parsers" / "saved_model_two")
    assert (code, err) == (0, "")
    assert "SavedModel" in out.splitlines()[0]
    assert "meta graph 'serve': tags [serve]" in out
    assert "meta graph 'train,gpu': tags [train, gpu]" in out
    assert "signature 'serving_default': tensorflow/serving/predict" in out
    assert "input x: x:0 DT_FLOAT [?,2]" in out
    assert "output total: total:0 DT_FLOAT []" in out
    assert "ops: Const 12," in out


def test_summary_of_events_and_runs(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "events_dir")
    assert "events: file_version 2, graph_def 1, meta_graph_def 2, summary 1, tagged_run_metadata 2" in out
    assert "run tags: step_1, step_2" in out
    assert "/job:localhost/replica:0/task:0/device:CPU:0: 10 nodes, op time" in out


def test_summary_of_a_graph_with_functions(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "functions.pb")
    assert "graph 'functions.pb': 15 nodes; 4 functions, 11 nodes in them\n" in out
    assert "    loop (body) -> loop_body_95: 5 nodes\n" in out
    assert "  ops in its functions: Const 5, AddV2 3, " in out


def test_summary_of_a_dump_dir(run_info):
    code, out, _ = run_info(FIXTURES / "parsers" / "dump_dir")
    assert "graph dump directory" in out.splitlines()[0]
    assert "19 files" in out


def test_bad_input_is_one_line_exit_2(run_info, tmp_path):
    path = tmp_path / "broken.pb"
    path.write_bytes(b"\x0a\xff\xff")
    code, out, err = run_info(path)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {path}: not a GraphDef") and err.count("\n") == 1


def test_python_dash_m_inspector_json():
    missing = set(__import__("inspector.cli").cli.COMMANDS) - set(importable_commands())
    if missing:
        pytest.skip(f"inspector/cli.py imports every command and {sorted(missing)} are not written yet")
    path = FIXTURES / "parsers" / "run_metadata.pb"
    result = subprocess.run(
        [sys.executable, "-m", "inspector", "info", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert_info_shape(json.loads(result.stdout))
    bad = subprocess.run(
        [sys.executable, "-m", "inspector", "info", str(ROOT / "nope.pb")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr == f"error: {ROOT / 'nope.pb'}: no such file or directory\n"


def test_info_on_saved_models_the_engine_and_tensorflow_wrote(run_info, tmp_path):
    """The engine's SavedModel (tests/programs/saved_model_serving.py) reads as TensorFlow's does:
    the same meta graphs, tags and signatures; a truncated saved_model.pb is one error line."""
    import sys
    sys.path.insert(0, str(FIXTURES.parent / "programs"))
    import saved_model_serving
    saved_model_serving.export(str(tmp_path))
    outputs = []
    for root in (tmp_path, FIXTURES / "saved_model"):
        code, out, err = run_info(root / "builder")
        assert (code, err) == (0, "")
        outputs.append([line for line in out.splitlines() if line.startswith(("meta graph", "  signature",
                                                                               "    input", "    output"))])
    assert outputs[0] == outputs[1]
    assert "meta graph 'serve': tags [serve]" in outputs[0]
    assert "meta graph 'train': tags [train]" in outputs[0]
    assert "  signature 'logits': tensorflow/serving/predict" in outputs[0]
    assert "    input features: x:0 DT_FLOAT [?,3]" in outputs[0]
    model = tmp_path / "builder" / "saved_model.pb"
    model.write_bytes(model.read_bytes()[:500])
    code, out, err = run_info(tmp_path / "builder")
    assert code == 2 and out == ""
    assert err.startswith(f"error: {model}: ") and err.count("\n") == 1 and "truncated" in err
