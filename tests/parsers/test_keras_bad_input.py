"""Keras and TFLite files that cannot be read as they claim: one `error:` line naming the file,
exit 2, no traceback; zip bombs and inflating datasets refused before they fill memory; h5py
loaded only for these files, and its absence named with the extra that brings it."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import parsers
from parsers import keras_files
from parsers_testing import FIXTURES

KERAS = FIXTURES / "keras"
ROOT = Path(__file__).resolve().parents[2]
h5py = pytest.importorskip("h5py")


def error_line(run_info, path):
    code, out, err = run_info(path)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert err.startswith(f"error: {path}: ")
    return err[len(f"error: {path}: "):-1]


def keras_zip(path, members, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def config_text(layers):
    return json.dumps({"class_name": "Functional", "config": {"name": "m", "layers": layers}})


def test_a_tflite_model_is_named_with_what_to_do(run_info):
    message = error_line(run_info, KERAS / "tiny.tflite")
    assert message.startswith("a TensorFlow Lite model (.tflite FlatBuffer): graph-inspector does not read")
    assert "tf.lite.experimental.Analyzer" in message


def test_a_truncated_keras_zip(tmp_path, run_info):
    data = (KERAS / "two_inputs.keras").read_bytes()
    path = tmp_path / "cut.keras"
    path.write_bytes(data[: len(data) // 2])
    assert error_line(run_info, path).startswith("a zip archive that cannot be read: ")


def test_a_zip_without_a_config_is_no_keras_model(tmp_path, run_info):
    path = keras_zip(tmp_path / "other.zip", {"saved_model.pb": b"x"})
    assert error_line(run_info, path) == ("a zip archive without config.json: not a Keras model "
                                          "(.keras); unzip it and open what it holds")


def test_a_config_that_inflates_past_the_limit_is_refused(tmp_path, run_info, monkeypatch):
    monkeypatch.setattr(keras_files, "JSON_LIMIT", 10_000)
    path = keras_zip(tmp_path / "bomb.keras", {"config.json": " " * 1_000_000}, zipfile.ZIP_DEFLATED)
    assert path.stat().st_size < 10_000
    assert error_line(run_info, path) == "config.json: inflates past 10000 bytes: not a Keras model's"


def test_a_member_that_lies_about_its_size_is_refused(tmp_path, run_info):
    path = keras_zip(tmp_path / "liar.keras", {"config.json": config_text([])})
    data = bytearray(path.read_bytes())
    central = data.rindex(b"PK\x01\x02")
    data[central + 24:central + 28] = (3).to_bytes(4, "little")  # uncompressed size: 3 bytes
    path.write_bytes(bytes(data))
    assert error_line(run_info, path).startswith("a zip archive that cannot be read: ")


@pytest.mark.parametrize("config,message", [
    ("{not json", "config.json: not JSON: "),
    ("[1, 2]", "config.json: not a Keras model config (no class_name and config)"),
    ('{"class_name": "Functional", "config": {"name": "m", "layers": 7}}',
     "config.json: m: layers is a int, not a list"),
    (config_text([{"class_name": "Dense", "config": {}}]), "config.json: m layer 0: no name"),
    (config_text([{"config": {"name": "d"}}]), "config.json: m layer 0: no class_name"),
    (config_text([{"class_name": "Dense", "config": {"name": "d"}, "inbound_nodes": [[["x", 0]]]}]),
     'config.json: m layer 0 inbound_nodes: ["x",0] is not [layer, node index, tensor index]'),
    (config_text([{"class_name": "Dense", "config": {"name": "d"}, "inbound_nodes": [{"args": [
        {"class_name": "__keras_tensor__", "config": {"keras_history": "x"}}]}]}]),
     'config.json: m layer 0 keras_history: "x" is not [layer, node index, tensor index]'),
    ("[" * 100_000 + "]" * 100_000, "config.json: not JSON: "),
    ('"\\ud800"', "config.json: not a Keras model config"),
])
def test_a_config_that_is_no_keras_config_is_one_error(tmp_path, run_info, config, message):
    path = keras_zip(tmp_path / "bad.keras", {"config.json": config})
    assert error_line(run_info, path).startswith(message)


def test_models_nested_past_any_real_depth_are_refused(tmp_path, run_info):
    layer = {"class_name": "Dense", "config": {"name": "d"}}
    for depth in range(80):
        layer = {"class_name": "Sequential", "config": {"name": f"s{depth}", "layers": [layer]}}
    path = keras_zip(tmp_path / "deep.keras", {"config.json": json.dumps(layer)})
    assert "models nested more than 64 deep" in error_line(run_info, path)


def test_config_text_not_utf8(tmp_path, run_info):
    path = keras_zip(tmp_path / "latin.keras", {"config.json": b'{"x": "\xe9"}'})
    assert error_line(run_info, path) == "config.json: not UTF-8 text (byte 7)"


def test_a_keras_zip_whose_weights_are_not_hdf5(tmp_path, run_info):
    config = zipfile.ZipFile(KERAS / "two_inputs.keras").read("config.json")
    path = keras_zip(tmp_path / "w.keras", {"config.json": config, "model.weights.h5": b"not hdf5 at all"})
    assert error_line(run_info, path).startswith("not a readable HDF5 file: ")


def test_compressed_weights_are_read_from_memory(tmp_path):
    with zipfile.ZipFile(KERAS / "two_inputs.keras") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    path = keras_zip(tmp_path / "deflated.keras", members, zipfile.ZIP_DEFLATED)
    stored = parsers.load(KERAS / "two_inputs.keras").checkpoint
    deflated = parsers.load(path).checkpoint
    assert [v.name for v in deflated.variables] == [v.name for v in stored.variables]
    name = stored.variables[0].name
    assert (deflated.value(name) == stored.value(name)).all()


def test_a_truncated_h5(tmp_path, run_info):
    data = (KERAS / "nested.h5").read_bytes()
    path = tmp_path / "cut.h5"
    path.write_bytes(data[: len(data) // 3])
    assert error_line(run_info, path).startswith("not a readable HDF5 file: ")


def test_hdf5_that_is_no_keras_model(tmp_path, run_info):
    path = tmp_path / "data.h5"
    with h5py.File(path, "w") as h5file:
        h5file["x"] = [1.0, 2.0]
    assert error_line(run_info, path) == ("an HDF5 file, but not a Keras model: no model_config "
                                          "attribute and no Keras weights")


def legacy_h5(path, weight_names, make_weights):
    with h5py.File(path, "w") as h5file:
        h5file.attrs["model_config"] = config_text([{"class_name": "Dense", "config": {"name": "d"}}])
        layer = h5file.create_group("model_weights").create_group("d")
        h5file["model_weights"].attrs["layer_names"] = ["d"]
        layer.attrs["weight_names"] = weight_names
        make_weights(layer)
    return path


def test_an_external_link_is_never_followed(tmp_path, run_info):
    secret = tmp_path / "elsewhere.h5"
    with h5py.File(secret, "w") as h5file:
        h5file["kernel"] = [1.0]

    def link(layer):
        layer["kernel"] = h5py.ExternalLink(str(secret), "/kernel")
    path = legacy_h5(tmp_path / "link.h5", ["kernel"], link)
    assert error_line(run_info, path) == "model_weights/d/kernel: named as a weight but no dataset"


def test_a_dataset_that_would_inflate_is_refused_when_read(tmp_path, run_info):
    def empty(layer):  # 400 MB of fill value, no byte of it stored
        layer.create_dataset("kernel", shape=(10**8,), dtype="float32", chunks=(10**6,))
    path = legacy_h5(tmp_path / "bomb.h5", ["kernel"], empty)
    loaded = parsers.load(path)
    assert loaded.checkpoint.info("m/d/kernel").nbytes == 4 * 10**8
    with pytest.raises(parsers.InputError, match="inflates more than any weight file does"):
        loaded.checkpoint.value("m/d/kernel")
    assert error_line(run_info, path).endswith("inflates more than any weight file does; not read")


def test_a_weight_name_that_is_a_group(tmp_path, run_info):
    path = legacy_h5(tmp_path / "group.h5", ["sub"], lambda layer: layer.create_group("sub"))
    assert error_line(run_info, path) == "model_weights/d/sub: named as a weight but no dataset"


@pytest.mark.parametrize("value, words", [
    (np.void(b"{}"), "a |V2 (opaque) attribute, not JSON text"),
    (np.arange(3), "a int64 (array) attribute, not JSON text"),
    (7, "a int64 (array) attribute, not JSON text")])
def test_a_model_config_that_is_no_text_is_one_error(tmp_path, run_info, value, words):
    path = legacy_h5(tmp_path / "config.h5", ["kernel"], lambda layer: layer.create_dataset("kernel", data=[1.0]))
    with h5py.File(path, "r+") as h5file:
        h5file.attrs["model_config"] = value
    assert error_line(run_info, path) == f"model_config: {words}"


@pytest.mark.parametrize("make, words", [
    (lambda layer: layer.create_dataset("kernel", data=h5py.Empty("f")),
     "an empty dataset (null dataspace), not a tensor"),
    (lambda layer: layer.create_dataset("kernel", (2,), dtype=h5py.vlen_dtype("float32")),
     "a variable-length float32 dataset, not a tensor")])
def test_a_weight_that_is_no_tensor_is_named(tmp_path, run_info, make, words):
    path = legacy_h5(tmp_path / "weights.h5", ["kernel"], make)
    assert error_line(run_info, path) == f"model_weights/d/kernel: {words}"


def test_a_string_weight_is_still_read(tmp_path):
    def strings(layer):
        layer.create_dataset("kernel", data=[b"ab", b"c"], dtype=h5py.string_dtype())
    loaded = parsers.load(legacy_h5(tmp_path / "strings.h5", ["kernel"], strings))
    assert loaded.checkpoint.info("m/d/kernel").dtype == "string"
    assert loaded.checkpoint.value("m/d/kernel").tolist() == [b"ab", b"c"]


def run_python(code):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_without_h5py_a_keras_zip_is_its_graph_and_an_h5_names_the_extra():
    result = run_python(f"""
import sys
sys.modules["h5py"] = None  # import h5py raises ImportError, as where it is not installed
import parsers
loaded = parsers.load({str(KERAS / 'two_inputs.keras')!r})
print(len(loaded.graphs[0].graph_def.node), loaded.checkpoint, loaded.notes)
try:
    parsers.load({str(KERAS / 'two_inputs.h5')!r})
except parsers.InputError as error:
    print(error.message)
""")
    assert result.returncode == 0, result.stderr
    graph_line, error = result.stdout.splitlines()
    assert graph_line.startswith("8 None [") and "weights not read: an HDF5 file (Keras .h5 weights): " \
        "reading it needs h5py, the `keras` extra" in graph_line
    assert error == ("an HDF5 file (Keras .h5 weights): reading it needs h5py, the `keras` extra: "
                     "pip install 'graph-inspector[keras]'")


def test_h5py_is_loaded_only_for_keras_files():
    result = run_python(f"""
import sys
import parsers
parsers.load({str(FIXTURES / 'parsers' / 'functions.pb')!r})
parsers.load({str(FIXTURES / 'tf2' / 'logdir_fit')!r})
print("h5py" in sys.modules)
parsers.load({str(KERAS / 'two_inputs.h5')!r})
print("h5py" in sys.modules)
""")
    assert result.stdout.split() == ["False", "True"], result.stderr


def test_a_file_that_crashes_libhdf5_is_one_error(run_info):
    """nested.h5 with a few bits flipped (case 641 of the Keras fuzz test): libhdf5 2.0
    segfaults reading its attributes; the read runs in a child, so it is an error line."""
    path = KERAS / "damaged_segfaults_libhdf5.h5"
    assert error_line(run_info, path) == "the reader crashed on it (SIGSEGV in the HDF5 library): a damaged file"
