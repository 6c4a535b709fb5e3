"""tf.train.Saver builds TensorFlow's graph, and TensorFlow's checkpoints restore in the engine with its values."""

import builtins
import errno
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.framework import dtypes
from engine.proto import graph_pb2

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CHECKPOINTS = FIXTURES / "checkpoints"
TF_VALUES = json.loads((CHECKPOINTS / "values.json").read_text())
INTERNAL_ATTRS = {"_has_manual_control_dependencies", "_output_shapes"}

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "programs"))
import saver_checkpoints  # noqa: E402


def save_nodes(graph_def):
    """{name: (op, inputs, device, attrs)} of the Saver's nodes; Const values as text."""
    nodes = {}
    for node in graph_def.node:
        if node.name.startswith("save/"):
            attrs = {key: text_format.MessageToString(value, as_one_line=True)
                     for key, value in node.attr.items() if key not in INTERNAL_ATTRS}
            nodes[node.name] = (node.op, list(node.input), node.device, attrs)
    return nodes


@pytest.mark.parametrize("kind", ["plain", "sharded"])
def test_saver_graph_is_tensorflows(kind):
    expected = text_format.Parse((CHECKPOINTS / f"saver_graph_{kind}.pbtxt").read_text(), graph_pb2.GraphDef())
    with tf.Graph().as_default() as graph:
        saver_checkpoints.build(sharded=kind == "sharded")
        ours = save_nodes(graph.as_graph_def())
    theirs = save_nodes(expected)
    assert sorted(ours) == sorted(theirs)
    for name in theirs:
        assert ours[name] == theirs[name], name


def expected_value(entry):
    values = entry["values"]
    if entry["dtype"] == "string":
        values = [v.encode("latin-1") for v in values]
    elif entry["dtype"].startswith("complex"):
        values = [complex(re, im) for re, im in values]
    return np.array(values, dtype=object if entry["dtype"] == "string" else None).reshape(entry["shape"])


@pytest.mark.parametrize("prefix", ["partitioned/model.ckpt", "sharded/model.ckpt-3"])
def test_tensorflows_meta_graph_and_checkpoint_restore(prefix):
    """import_meta_graph of TensorFlow's .meta, then its restore op over its checkpoint."""
    config = tf.ConfigProto(device_count={"CPU": 2})
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(str(CHECKPOINTS / f"{prefix}.meta"))
        with tf.Session(config=config) as sess:
            saver.restore(sess, str(CHECKPOINTS / prefix))
            restored = {v.op.name: sess.run(v) for v in tf.global_variables()}
    expected = TF_VALUES[prefix]
    if prefix.startswith("partitioned"):
        # Each part holds its rows of the full tensor TensorFlow read back.
        full = {name: expected_value(entry) for name, entry in expected.items()}
        offsets = {}
        for name in sorted(restored):
            base = name.split("/part_")[0]
            start = offsets.get(base, 0)
            part = restored[name]
            np.testing.assert_array_equal(part, full[base][start:start + len(part)])
            offsets[base] = start + len(part)
        assert {b: o for b, o in offsets.items()} == {b: full[b].shape[0] for b in full}
        return
    assert sorted(restored) == sorted(expected)
    for name, value in restored.items():
        np.testing.assert_array_equal(value, expected_value(expected[name]))


def test_every_engine_dtype_restores_from_tensorflows_checkpoint():
    """var_list as a dict: engine variables of TensorFlow's dtypes take its saved values."""
    entries = {name: entry for name, entry in TF_VALUES["dtypes/model.ckpt-7"].items()
               if entry["dtype"] != "bfloat16"}  # the engine has no bfloat16 arrays
    with tf.Graph().as_default():
        variables = {}
        for index, (name, entry) in enumerate(sorted(entries.items())):
            dtype = dtypes.as_dtype(entry["dtype"])
            zeros = (np.full(entry["shape"], b"", dtype=object) if dtype == dtypes.string
                     else np.zeros(entry["shape"], dtype=dtype.as_numpy_dtype))
            variables[name] = tf.Variable(zeros, dtype=dtype, name=f"v{index}")
        saver = tf.train.Saver(variables)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.restore(sess, str(CHECKPOINTS / "dtypes" / "model.ckpt-7"))
            for name, variable in variables.items():
                np.testing.assert_array_equal(sess.run(variable), expected_value(entries[name]), err_msg=name)


def test_restore_of_a_missing_checkpoint_says_so(tmp_path):
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess, pytest.raises(ValueError, match="not a valid checkpoint"):
            saver.restore(sess, str(tmp_path / "nothing"))


def test_restore_of_a_key_the_checkpoint_lacks_is_not_found():
    with tf.Graph().as_default():
        tf.Variable(1.0, name="not_saved")
        saver = tf.train.Saver()
        with tf.Session() as sess, pytest.raises(tf.errors.NotFoundError, match="Key not_saved not found"):
            saver.restore(sess, str(CHECKPOINTS / "dtypes" / "model.ckpt-7"))


def test_latest_checkpoint_follows_the_state_file():
    assert tf.train.latest_checkpoint(str(CHECKPOINTS / "dtypes")) == str(CHECKPOINTS / "dtypes" / "model.ckpt-7")
    state = tf.train.get_checkpoint_state(str(CHECKPOINTS / "sharded"))  # absolute paths, moved here
    assert state.model_checkpoint_path == str(CHECKPOINTS / "sharded" / "model.ckpt-3")


def test_a_relative_save_dir_writes_paths_relative_to_it(tmp_path, monkeypatch):
    # What TensorFlow 2.21 wrote for saver.save(sess, "ckpt/model.ckpt", global_step=...)
    # from the directory holding ckpt/: names relative to ckpt/, so latest_checkpoint finds them.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ckpt").mkdir()
    with tf.Graph().as_default():
        step = tf.Variable(0, name="global_step")
        bump = tf.assign_add(step, 10)
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(bump)
                saver.save(sess, "ckpt/model.ckpt", global_step=step)
    assert (tmp_path / "ckpt" / "checkpoint").read_text() == (
        'model_checkpoint_path: "model.ckpt-20"\n'
        'all_model_checkpoint_paths: "model.ckpt-10"\n'
        'all_model_checkpoint_paths: "model.ckpt-20"\n')
    assert tf.train.latest_checkpoint("ckpt") == "ckpt/model.ckpt-20"


def test_save_makes_the_missing_directory_as_tensorflow_does(tmp_path):
    """TensorFlow 2.21's v1 Saver saves into a directory that does not exist yet (its
    BundleWriter makes it); seen failing here with "Parent directory ... doesn't exist"."""
    import engine as tf
    graph = tf.Graph()
    with graph.as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = str(tmp_path / "new" / "deeper" / "model")
            path = saver.save(sess, prefix, global_step=3)
    assert path == prefix + "-3"
    assert tf.train.latest_checkpoint(str(tmp_path / "new" / "deeper")) == path
    assert (tmp_path / "new" / "deeper" / "model-3.meta").exists()


class _FullDisk:
    """A file that takes 10 bytes, then fails as a full disk does (ENOSPC)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data):
        self._stream.write(data[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self._stream.close()


@pytest.mark.parametrize("full_at", ["model-2.data-00000-of-00001", "model-2.index",
                                     "checkpoint", "model-2.meta"])
def test_a_save_to_a_full_disk_names_the_file_and_keeps_the_last_checkpoint(
        tmp_path, monkeypatch, full_at):
    # TensorFlow's IOError for ENOSPC: ResourceExhaustedError "PATH; No space left on device".
    # Seen before: InternalError "OSError: [Errno 28] ..." naming no file, a .tempstate file
    # left behind filling the disk, a bare OSError from the state file and the .meta.
    real_open = builtins.open

    def open_on_a_full_disk(path, mode="r", *args, **kwargs):
        stream = real_open(path, mode, *args, **kwargs)
        return _FullDisk(stream) if Path(path).name.startswith(f"{full_at}.") else stream

    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        bump = tf.assign_add(v, [1.0, 1.0])
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = saver.save(sess, str(tmp_path / "model"), global_step=1)
            before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
            sess.run(bump)
            monkeypatch.setattr(builtins, "open", open_on_a_full_disk)
            with pytest.raises(tf.errors.ResourceExhaustedError) as raised:
                saver.save(sess, str(tmp_path / "model"), global_step=2)
            monkeypatch.undo()
            assert f"{tmp_path / full_at}; No space left on device" in raised.value.message
            assert not [p.name for p in tmp_path.iterdir() if ".tempstate" in p.name]
            after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
            # The state file moves on only once model-2's .data and .index are whole (a .meta
            # that fails comes after it, as in TensorFlow's Saver.save).
            kept = [name for name in before if name != "checkpoint" or full_at != "model-2.meta"]
            assert {name: after.get(name) for name in kept} == {n: before[n] for n in kept}
            saver.restore(sess, first)
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
            saver.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))
