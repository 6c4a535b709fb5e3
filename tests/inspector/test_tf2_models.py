"""`graph-inspector run` on TF2 models of kinds tests/fixtures/tf2* did not hold
(tests/fixtures/tf2_models/, tools/make_tf2_model_fixtures.py): every signature gives what
TensorFlow 2.21 returned, exactly where integer or string."""

import numpy as np
import pytest

from engine.proto import saved_model_pb2
from inspector.cli import main
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "tests" / "fixtures" / "tf2_models"
EXPECTED = np.load(MODELS / "expected.npz")


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _signature_def(model, signature):
    saved = saved_model_pb2.SavedModel.FromString((MODELS / model / "saved_model.pb").read_bytes())
    return saved.meta_graphs[0].signature_def[signature]


# Models whose run says a note on stderr (test_..._reads_other_handles_...).
NOTED = {"keras_in_module"}


def _signatures():
    """(model, signature) of each input set; `<signature>@<case>` for further ones."""
    return sorted({tuple(key.split("/")[:2]) for key in EXPECTED.files
                   if (MODELS / key.split("/")[0]).is_dir() and key.split("/")[0] not in NOTED})


def _feeds(tmp_path, model, signature_def, signature):
    feeds = []
    for key in signature_def.inputs:
        np.save(tmp_path / f"{key}.npy", EXPECTED[f"{model}/{signature}/{key}"])
        feeds += ["--feed", f"{key}={tmp_path / f'{key}.npy'}"]
    return feeds


@pytest.mark.parametrize("model, signature", _signatures())
def test_every_signature_gives_tensorflows_outputs(capsys, tmp_path, model, signature):
    """lookup_module's `tokens`: tf.strings.split of a vector, a StaticVocabularyTable and
    RaggedTensor.to_tensor (RaggedTensorToTensor), row_lengths; `count`: a MutableHashTable
    filled from tf.strings.to_number; multi_hot: Keras 3 StringLookup's multi_hot counts of
    each example (DenseBincount of a matrix, which gave one row for the whole batch)."""
    signature_def = _signature_def(model, signature.split("@")[0])
    feeds = _feeds(tmp_path, model, signature_def, signature)
    status, _, err = run(capsys, "run", MODELS / model, "--signature", signature.split("@")[0],
                         *feeds, "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    _assert_outputs(tmp_path / "out.npz", model, signature, signature_def)


def test_an_empty_json_list_feeds_an_empty_batch(capsys, tmp_path):
    """`--feed 'lines=[]'` for a string input: JSON's empty list holds no value to lose, so it
    is an empty batch of the input's dtype (it was refused as `float64 values`, the dtype
    NumPy gives [])."""
    signature_def = _signature_def("lookup_module", "tokens")
    status, _, err = run(capsys, "run", MODELS / "lookup_module", "--signature", "tokens",
                         "--feed", "lines=[]", "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    _assert_outputs(tmp_path / "out.npz", "lookup_module", "tokens@empty", signature_def)


def _assert_outputs(saved, model, signature, signature_def):
    got = np.load(saved, allow_pickle=True)
    assert sorted(got.files) == sorted(signature_def.outputs)
    for key in signature_def.outputs:
        want = EXPECTED[f"{model}/{signature}/{key}"]
        assert got[key].shape == want.shape, key
        if want.dtype.kind == "S":
            assert got[key].astype(bytes).tolist() == want.tolist(), key
        elif want.dtype.kind in "iub":
            assert got[key].dtype == want.dtype, key
            np.testing.assert_array_equal(got[key], want, err_msg=key)
        else:
            np.testing.assert_allclose(got[key], want, rtol=1e-5, err_msg=key)


def test_a_checkpoint_under_another_root_is_refused_before_anything_runs(capsys, tmp_path):
    """`--restore` of a tf.train.Checkpoint(model=...) holding the model's variables under
    `model/`: the SavedModel's restore function looks for `<object>/.ATTRIBUTES/...` keys, so
    one line names the checkpoint and the first key it lacks, exit 2 (RestoreV2 failed
    mid-run with NotFoundError, exit 1)."""
    model = ROOT / "tests" / "fixtures" / "tf2_run" / "preprocessing"
    run_expected = np.load(model.parent / "expected.npz")
    feeds = []
    for key in ("numbers", "category"):
        np.save(tmp_path / f"{key}.npy", run_expected[f"preprocessing/serve/{key}"])
        feeds += ["--feed", f"{key}={tmp_path / f'{key}.npy'}"]
    checkpoint = MODELS / "other_root" / "ck"
    status, out, err = run(capsys, "run", model, "--signature", "serve", *feeds,
                           "--restore", checkpoint)
    assert (status, out) == (2, "")
    assert err == (f"error: {checkpoint}.index: holds no 'variables/0/.ATTRIBUTES/VARIABLE_VALUE'"
                   ", which the model restores (7 of its 8 keys missing; the checkpoint's "
                   "objects: model)\n")


def test_at_files_feed_their_bytes_as_strings(capsys, tmp_path):
    """`--feed lines=@A,@B,@C`: each file's bytes one string of the batch (a bytes .npy drops
    trailing NULs, so a serialized tf.Example or a WAV file could not be fed whole);
    lookup_module's tokens then give TensorFlow's outputs."""
    from inspector.cmd_run import parse_feed
    lines = EXPECTED["lookup_module/tokens/lines"]
    files = []
    for i, line in enumerate(lines.tolist()):
        (tmp_path / f"{i}.txt").write_bytes(line)
        files.append(f"@{tmp_path / f'{i}.txt'}")
    status, _, err = run(capsys, "run", MODELS / "lookup_module", "--signature", "tokens",
                         "--feed", "lines=" + ",".join(files), "--save", tmp_path / "out.npz")
    assert (status, err) == (0, "")
    _assert_outputs(tmp_path / "out.npz", "lookup_module", "tokens",
                    _signature_def("lookup_module", "tokens"))
    (tmp_path / "nul.bin").write_bytes(b"\x08\x00")
    name, value = parse_feed("m", f"x=@{tmp_path / 'nul.bin'}", raw_name=True)
    assert (name, value.shape, value.item()) == ("x", (), b"\x08\x00")
    status, out, err = run(capsys, "run", MODELS / "lookup_module", "--signature", "tokens",
                           "--feed", f"lines=@{tmp_path / 'missing.txt'},")
    assert (status, out) == (2, "")
    assert err == (f"error: {tmp_path / 'missing.txt'}: cannot read the feed for lines: "
                   f"No such file or directory\n")


def test_a_bfloat16_model_fails_in_one_line_naming_the_node(capsys, tmp_path):
    """bfloat16_cast computes in bfloat16 between casts, which TensorFlow runs and the engine
    cannot hold (NumPy has no bfloat16): exit 1, one UnimplementedError line naming the Cast
    and its function (it was a traceback out of the elementwise chains' fusing)."""
    status, _, err = run(capsys, "run", MODELS / "bfloat16_cast", "--feed", "x=[[1, 2, 3]]")
    assert status == 1
    assert err.startswith("error: UnimplementedError: node 'Cast' (Cast) in function "
                          "'__inference_serve_") and err.count("\n") == 1
    assert "Cast makes a bfloat16 tensor, a dtype the engine does not hold" in err


def test_a_signature_that_reads_other_handles_than_the_restore_function_restores(capsys,
                                                                                 tmp_path):
    """keras_in_module: a Keras 3 model in a tf.Module, saved by tf.saved_model.save; its
    signature reads `dense/kernel`..., its restore function restores `Variable`... (the
    Keras variables' save hooks' handles). saved_model_cli fails on it ('Could not find
    variable dense/bias'), and so did `run`; tf.saved_model.load binds the signature's
    captures to the object graph's variables: its outputs, with a note saying so."""
    signature_def = _signature_def("keras_in_module", "scores")
    feeds = _feeds(tmp_path, "keras_in_module", signature_def, "scores")
    status, _, err = run(capsys, "run", MODELS / "keras_in_module", *feeds,
                         "--save", tmp_path / "out.npz")
    assert status == 0
    assert err == (f"note: {MODELS / 'keras_in_module'}: 4 variables the signatures read "
                   f"(dense/bias, dense/kernel, dense_1/bias, ...) are not the ones its restore "
                   f"function restores: restored by their objects' paths, as "
                   f"tf.saved_model.load binds them (saved_model_cli and TensorFlow Serving "
                   f"fail on them)\n")
    _assert_outputs(tmp_path / "out.npz", "keras_in_module", "scores", signature_def)
