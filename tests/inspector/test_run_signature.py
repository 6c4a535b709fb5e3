"""`graph-inspector run SAVED_MODEL --signature NAME`: the TF2 fixtures' signatures run from the
command line give TensorFlow 2.21's outputs (tests/fixtures/tf2/reference/*/expected.npz), and
bad input is one line, exit 2."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.proto import config_pb2, saved_model_pb2
from inspector.cli import main
from inspector.run_report import format_value

ROOT = Path(__file__).resolve().parents[2]
TF2 = ROOT / "tests" / "fixtures" / "tf2"
REFERENCE = TF2 / "reference"
MODELS = ("while_cond", "train_step", "text_model", "keras_cnn", "transformer")


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _signatures():
    """(model, signature) for every signature TensorFlow ran in expected.npz."""
    cases = []
    for model in MODELS:
        keys = np.load(REFERENCE / model / "expected.npz").files
        cases += [(model, s) for s in sorted({k.split("/")[0] for k in keys})
                  if s != "after_train"]
    return cases


def _feeds(tmp_path, model, signature):
    """--feed KEY=FILE.npy for each input TensorFlow was given, and TensorFlow's outputs."""
    expected = np.load(REFERENCE / model / "expected.npz")
    saved = saved_model_pb2.SavedModel.FromString((TF2 / model / "saved_model.pb").read_bytes())
    signature_def = saved.meta_graphs[0].signature_def[signature]
    feeds = []
    for key in signature_def.inputs:
        path = tmp_path / f"{key}.npy"
        np.save(path, expected[f"{signature}/{key}"])
        feeds += ["--feed", f"{key}={path}"]
    return feeds, {key: expected[f"{signature}/{key}"] for key in signature_def.outputs}


@pytest.mark.parametrize("model, signature", _signatures())
def test_every_fixture_signature_gives_tensorflows_outputs(capsys, tmp_path, model, signature):
    feeds, wanted = _feeds(tmp_path, model, signature)
    saved = tmp_path / "out.npz"
    status, out, err = run(capsys, "run", TF2 / model, "--signature", signature, *feeds,
                           "--save", saved)
    assert (status, err) == (0, "")
    got = np.load(saved)
    assert sorted(got.files) == sorted(wanted)
    for key, value in wanted.items():
        assert got[key].dtype == value.dtype and got[key].shape == value.shape, key
        np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-6)
        assert out.count(f"{key} = ") == 1


def _printed(model, signature, keys):
    """What run prints for TensorFlow's outputs of a signature, key by key."""
    expected = np.load(REFERENCE / model / "expected.npz")
    return "".join(f"{key} = {format_value(key, expected[f'{signature}/{key}'])}\n"
                   for key in keys)


WHILE_X = "x=[1.5, -2.0, 0.25]"  # expected.npz's serving_default/x, as JSON


def test_one_signature_runs_without_naming_it_and_strings_come_from_json(capsys):
    status, out, err = run(capsys, "run", TF2 / "while_cond", "--feed", WHILE_X)
    assert (status, err) == (0, "")
    assert out == _printed("while_cond", "serving_default", ("cumulative", "total"))
    words = '[["the","cat","sat"],["a","dog","ran"]]'
    status, out, err = run(capsys, "run", TF2 / "text_model", "--signature", "serve",
                           "--feed", f"words={words}")
    expected = np.load(REFERENCE / "text_model" / "expected.npz")["serve/output_0"]
    assert status == 0 and out.startswith("output_0 = [[")
    values = np.array([float(v) for v in out.replace("output_0 =", "").replace("[", " ")
                       .replace("]", " ").split()]).reshape(expected.shape)
    np.testing.assert_allclose(values, expected, rtol=1e-5)


def test_trace_holds_the_signature_run(capsys, tmp_path):
    trace = tmp_path / "run.pb"
    status, _, err = run(capsys, "run", TF2 / "train_step", "--signature", "predict",
                         "--feed", "x=[[1, 2, 3]]", "--trace", trace)
    assert (status, err) == (0, "")
    metadata = config_pb2.RunMetadata.FromString(trace.read_bytes())
    names = {s.node_name for d in metadata.step_stats.dev_stats for s in d.node_stats}
    assert "StatefulPartitionedCall" in names and "w1" in names
    assert len(metadata.partition_graphs) == 1


@pytest.mark.parametrize("argv, message", [
    (["--signature", "nope"], "no signature 'nope' (signatures: predict, train)"),
    ([], "holds 2 signatures (predict, train): pick one with --signature"),
    (["--signature", "predict"],
     "signature 'predict' needs input 'x' (float32, shape (-1, 3)): give --feed x=FILE.npy "
     "or JSON"),
    (["--signature", "predict", "--feed", "z=[1]"],
     "signature 'predict' has no input 'z' (inputs: x)"),
    (["--signature", "predict", "--feed", "x=[[1, 2]]"],
     "--feed x: a value of shape (1, 2) for an input of float32, shape (-1, 3)"),
    (["--signature", "train", "--feed", "x=[[1, 2, 3]]", "--feed", "y=[0.5]"],
     "--feed y: float64 values for an input of int32, shape (-1,)"),
    (["--signature", "train", "--feed", "x=[[1, 2, 3]]", "--feed", 'y=["a"]'],
     "--feed y: string values for an input of int32, shape (-1,)"),
    (["--signature", "train", "--feed", "x=[[1, 2, 3]]", "--feed", "y=[4294967296]"],
     "--feed y: values out of range for an input of int32, shape (-1,)"),
    (["--signature", "predict", "--feed", "x=[[1, 2, 3], [4]]"],
     "--feed x: not a rectangular array (rows of different lengths)"),
    (["--signature", "predict", "--feed", "x=" + "[" * 100 + "1" + "]" * 100],
     "--feed x: not an array (setting an array element with a sequence. The requested array "
     "would exceed the maximum number of dimension of 64.)"),
    (["--signature", "predict", "--feed", "x=" + "[" * 100000 + "]" * 100000],
     "--feed x: not a .npy file or JSON value (nested too deeply)"),
    (["--signature", "predict", "--feed", 'x={"a": 1}'],
     "--feed x: object values for an input of float32, shape (-1, 3)"),
    (["--signature", "train", "--feed", "x=[[1, 2, 3]]", "--feed", "y=[99999999999999999999]"],
     "--feed y: integers past int64's range for an input of int32, shape (-1,)"),
    (["--signature", "train", "--feed", "x=[[1, 2, 3]]", "--feed", "y=[1, null]"],
     "--feed y: values of mixed kinds (integer, null) for an input of int32, shape (-1,)"),
    (["--signature", "predict", "--tag", "train", "--feed", "x=[[1, 2, 3]]"],
     "no meta graph with tag-set 'train' (tag-sets: 'serve'): pick one with --tag"),
    (["--signature", "predict", "--fetch", "x", "--feed", "x=[[1, 2, 3]]"],
     "--signature runs what the signature names: give it without --fetch, --target or "
     "--before"),
])
def test_bad_signature_runs_are_one_line_exit_2(capsys, argv, message):
    model = TF2 / "train_step"
    status, out, err = run(capsys, "run", model, *argv)
    assert (status, out, err) == (2, "", f"error: {model}: {message}\n")


def test_without_signature_a_keras_export_runs_serving_default(capsys, tmp_path):
    # model.export() writes `serve` and `serving_default` (one function): TensorFlow Serving
    # runs serving_default for a request naming none, and so does `run`, saying so
    feeds, wanted = _feeds(tmp_path, "keras_cnn", "serving_default")
    saved = tmp_path / "out.npz"
    status, out, err = run(capsys, "run", TF2 / "keras_cnn", *feeds, "--save", saved)
    assert (status, err) == (0, "graph-inspector: running signature 'serving_default' (also: "
                                "serve; pick one with --signature)\n")
    got = np.load(saved)
    assert sorted(got.files) == sorted(wanted)
    for key, value in wanted.items():
        np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-6)


def _edited_copy(tmp_path, edit):
    """train_step with its meta graph changed by `edit`."""
    copy = tmp_path / "model"
    shutil.copytree(TF2 / "train_step", copy)
    saved = saved_model_pb2.SavedModel.FromString((copy / "saved_model.pb").read_bytes())
    edit(saved.meta_graphs[0])
    (copy / "saved_model.pb").write_bytes(saved.SerializeToString())
    return copy


def _predict_function(meta_graph_def):
    return next(f for f in meta_graph_def.graph_def.library.function
                if f.signature.name.startswith("__inference_predict"))


def _call_itself(meta_graph_def):
    function = _predict_function(meta_graph_def)
    call = function.node_def.add(name="again", op="PartitionedCall")
    call.input.append("x")
    call.attr["Tin"].list.type.append(1)
    call.attr["Tout"].list.type.append(1)
    call.attr["f"].func.name = function.signature.name


def _call_a_missing_function(meta_graph_def):
    node = next(n for n in meta_graph_def.graph_def.node if n.name == "StatefulPartitionedCall")
    node.attr["f"].func.name = "__inference_nowhere_1"


def _name_a_missing_tensor(meta_graph_def):
    meta_graph_def.signature_def["predict"].outputs["logits"].name = "NoSuchNode:0"


@pytest.mark.parametrize("edit, message", [
    (_call_itself, "function '__inference_predict_32' calls itself (__inference_predict_32 -> "
                   "__inference_predict_32): the engine does not run recursive functions"),
    (_call_a_missing_function, "node 'StatefulPartitionedCall' (StatefulPartitionedCall) calls "
                               "function '__inference_nowhere_1', which the graph's library "
                               "does not define"),
    (_name_a_missing_tensor, "signature 'predict' output 'logits' names 'NoSuchNode:0', which "
                             "the graph does not hold"),
])
def test_hostile_saved_models_are_one_line_exit_2(capsys, tmp_path, edit, message):
    model = _edited_copy(tmp_path, edit)
    status, out, err = run(capsys, "run", model, "--signature", "predict",
                           "--feed", "x=[[1, 2, 3]]")
    assert (status, out, err) == (2, "", f"error: {model}: {message}\n")
    status, out, err = run(capsys, "run", model, "--fetch", "StatefulPartitionedCall",
                           "--feed", "predict_x=[[1, 2, 3]]")
    if edit is not _name_a_missing_tensor:  # the graph itself is fine; only its signature lies
        assert (status, out, err) == (2, "", f"error: {model}: {message}\n")


def test_a_node_failing_in_a_function_names_it_and_its_callers(capsys, tmp_path):
    ids = np.load(REFERENCE / "transformer" / "expected.npz")["serve/ids"].copy()
    ids[0, 1] = 40
    np.save(tmp_path / "ids.npy", ids)
    status, out, err = run(capsys, "run", TF2 / "transformer", "--signature", "serve",
                           "--feed", f"ids={tmp_path / 'ids.npy'}")
    assert status == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("error: InvalidArgumentError: node 'transformer_1/embed_1/Gather' "
                          "(ResourceGather) in function '__inference___call___")
    assert "(called from '__inference_signature_wrapper___call___" in err
    assert err.endswith("by node 'StatefulPartitionedCall'): indices[0,1] = 40 is not in "
                        "[0, 30)\n")


def test_a_tf2_checkpoint_restores_into_the_graph(capsys, tmp_path):
    """As a graph: --restore goes through the model's restore function, --before runs the
    restore op fed its filename, and a GraphDef without a saver finds each variable through
    the checkpoint's object graph (Keras' `conv/kernel_1` is `conv/kernel`)."""
    model = TF2 / "train_step"
    fetch = ["--fetch", "StatefulPartitionedCall", "--feed", "predict_x=[[1, 2, 3]]"]
    status, restored, err = run(capsys, "run", model, *fetch, "--restore", model)
    assert (status, err) == (0, "")
    prefix = model / "variables" / "variables"
    status, by_hand, err = run(capsys, "run", model, *fetch, "--before",
                               "StatefulPartitionedCall_3", "--feed", f'saver_filename="{prefix}"')
    assert (status, err) == (0, "") and by_hand == restored
    status, signature_out, _ = run(capsys, "run", model, "--signature", "predict",
                                   "--feed", "x=[[1, 2, 3]]")
    assert signature_out.split("=")[1] == restored.split("=")[1]

    saved = saved_model_pb2.SavedModel.FromString((TF2 / "keras_cnn" / "saved_model.pb")
                                                  .read_bytes())
    graph = tmp_path / "cnn.pb"
    graph.write_bytes(saved.meta_graphs[0].graph_def.SerializeToString())
    expected = np.load(REFERENCE / "keras_cnn" / "expected.npz")
    np.save(tmp_path / "image.npy", expected["serve/image"])
    status, _, err = run(capsys, "run", graph, "--fetch", "StatefulPartitionedCall",
                         "--feed", f"serve_image={tmp_path / 'image.npy'}",
                         "--restore", TF2 / "keras_cnn", "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    np.testing.assert_allclose(np.load(tmp_path / "out.npz")["StatefulPartitionedCall:0"],
                               expected["serve/output_0"], rtol=1e-5)


def test_debug_steps_a_signature_run():
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "run", str(TF2 / "while_cond"),
         "--feed", WHILE_X, "--debug", "--cli"],
        input="s\nc\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "PartitionedCall:0, PartitionedCall:1 paused at its start" in done.stdout
    assert "-- stepped" in done.stdout
    assert done.stdout.endswith(_printed("while_cond", "serving_default",
                                         ("cumulative", "total")))


RUN_MODELS = ROOT / "tests" / "fixtures" / "tf2_run"


def _run_model_signatures():
    keys = np.load(RUN_MODELS / "expected.npz").files
    return sorted({tuple(key.split("/")[:2]) for key in keys})


@pytest.mark.parametrize("model, signature", _run_model_signatures())
def test_models_a_user_would_make_give_tensorflows_outputs(capsys, tmp_path, model, signature):
    """A dynamic TensorArray in a loop, a GradientTape step through a loop (TensorList
    accumulators), BatchNormalization and Dropout, a StringLookup with a mask token, a greedy
    decode printed with tf.strings (ReduceJoin, StaticRegexReplace, StringLength)."""
    expected = np.load(RUN_MODELS / "expected.npz")
    saved = saved_model_pb2.SavedModel.FromString(
        (RUN_MODELS / model / "saved_model.pb").read_bytes())
    signature_def = saved.meta_graphs[0].signature_def[signature]
    feeds = []
    for key in signature_def.inputs:
        np.save(tmp_path / f"{key}.npy", expected[f"{model}/{signature}/{key}"])
        feeds += ["--feed", f"{key}={tmp_path / f'{key}.npy'}"]
    status, _, err = run(capsys, "run", RUN_MODELS / model, "--signature", signature, *feeds,
                         "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    got = np.load(tmp_path / "out.npz", allow_pickle=True)  # string outputs: object arrays
    assert sorted(got.files) == sorted(signature_def.outputs)
    for key in signature_def.outputs:
        want = expected[f"{model}/{signature}/{key}"]
        if want.dtype.kind == "S":
            assert got[key].astype(bytes).tolist() == want.tolist(), f"{model} {key}"
            continue
        np.testing.assert_allclose(got[key], want, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{model} {key}")


def test_a_tf2_models_save_function_writes_its_checkpoint(capsys, tmp_path):
    """The saver's save op (DisableCopyOnRead, SaveV2 under object-path keys, merged shards)
    writes what the model restored."""
    from parsers.checkpoint import Checkpoint
    model = TF2 / "keras_cnn"
    prefix = tmp_path / "saved" / "ckpt"
    status, _, err = run(capsys, "run", model, "--restore", model, "--fetch",
                         "StatefulPartitionedCall_2", "--feed", f'saver_filename="{prefix}"')
    assert (status, err) == (0, "")
    original, written = Checkpoint(model), Checkpoint(prefix)
    keys = [info.name for info in original.variables if info.name != "_CHECKPOINTABLE_OBJECT_GRAPH"]
    assert sorted(info.name for info in written.variables) == sorted(
        info.name for info in original.variables)
    for key in keys:
        np.testing.assert_array_equal(written.value(key), original.value(key))


TF1_MODELS = ROOT / "tests" / "fixtures" / "saved_model"


@pytest.mark.parametrize("model, signature", [("simple", "serving_default"),
                                              ("builder", "serving_default"),
                                              ("builder", "logits")])
def test_tf1_saved_models_restore_through_their_saver(capsys, tmp_path, model, signature):
    """SavedModelBuilder and simple_save exports (save/restore_all, a main op) give what
    TensorFlow served (tests/fixtures/saved_model/expected.json)."""
    sys.path.insert(0, str(ROOT / "tests" / "programs"))
    import saved_model_serving
    expected = json.loads((TF1_MODELS / "expected.json").read_text())[model]["serve"]["outputs"]
    saved = saved_model_pb2.SavedModel.FromString(
        (TF1_MODELS / model / "saved_model.pb").read_bytes())
    signature_def = next(m for m in saved.meta_graphs
                         if list(m.meta_info_def.tags) == ["serve"]).signature_def[signature]
    np.save(tmp_path / "x.npy", saved_model_serving.INPUTS)
    feeds = [a for key in signature_def.inputs for a in ("--feed", f"{key}={tmp_path / 'x.npy'}")]
    status, _, err = run(capsys, "run", TF1_MODELS / model, "--signature", signature, *feeds,
                         "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    got = np.load(tmp_path / "out.npz")
    for key in signature_def.outputs:
        entry = expected[f"{signature}/{key}"]
        want = np.array(entry["values"], entry["dtype"]).reshape(entry["shape"])
        np.testing.assert_allclose(got[key], want, rtol=1e-5)


def test_an_asset_named_outside_assets_is_refused(capsys, tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(RUN_MODELS / "file_vocabulary", copy)
    saved = saved_model_pb2.SavedModel.FromString((copy / "saved_model.pb").read_bytes())
    saved.meta_graphs[0].asset_file_def[0].filename = "../../secrets.txt"
    (copy / "saved_model.pb").write_bytes(saved.SerializeToString())
    status, out, err = run(capsys, "run", copy, "--feed", 'words=["red"]')
    assert (status, out) == (2, "")
    assert err == f"error: {copy}: asset file name '../../secrets.txt' leaves the assets directory\n"


@pytest.mark.parametrize("damage, message", [
    ("truncate_data", "variables.data-00000-of-00001: _CHECKPOINTABLE_OBJECT_GRAPH: bytes "
                      "256..1261 run past the end of the shard (100 bytes; truncated?)"),
    ("remove_data", "variables.data-00000-of-00001: missing: the data shard holding "
                    "_CHECKPOINTABLE_OBJECT_GRAPH"),
    ("truncate_index", "variables.index: 30 bytes, shorter than the 48-byte footer "
                       "(truncated?)"),
    ("remove_index", "variables.index: missing: the index of the model's variables"),
])
def test_damaged_variables_are_bad_input_before_anything_runs(capsys, tmp_path, damage, message):
    """A SavedModel whose variables/ was cut short or lost a shard or its index: one error line
    naming the file, exit 2 (the restore op, or with no index the first variable read, used to
    fail mid-run, exit 1)."""
    copy = tmp_path / "preprocessing"
    shutil.copytree(RUN_MODELS / "preprocessing", copy)
    data = copy / "variables" / "variables.data-00000-of-00001"
    index = copy / "variables" / "variables.index"
    if damage == "truncate_data":
        data.write_bytes(data.read_bytes()[:100])
    elif damage == "remove_data":
        data.unlink()
    elif damage == "remove_index":
        index.unlink()
    else:
        index.write_bytes(index.read_bytes()[:30])
    expected = np.load(RUN_MODELS / "expected.npz")
    feeds = []
    for key in ("numbers", "category"):
        np.save(tmp_path / f"{key}.npy", expected[f"preprocessing/serve/{key}"])
        feeds += ["--feed", f"{key}={tmp_path / f'{key}.npy'}"]
    status, out, err = run(capsys, "run", copy, "--signature", "serve", *feeds)
    assert (status, out) == (2, "")
    assert err == f"error: {copy / 'variables'}/{message}\n"
