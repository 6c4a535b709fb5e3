"""tf.train.Checkpoint and CheckpointManager in graph mode against TensorFlow 2.21's
tf.compat.v1 (tests/fixtures/checkpoint_v2, tools/make_checkpoint_v2_fixtures.py): the same
training program prints the same lines, writes the same files, keys and object graph, and
each side restores what the other wrote."""

import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.proto import trackable_object_graph_pb2

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "checkpoint_v2"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
sys.path.insert(0, str(Path(__file__).resolve().parent))
import checkpoint_v2_programs as programs  # noqa: E402


def state_without_times(directory):
    lines = (Path(directory) / "checkpoint").read_text().splitlines()
    return [line for line in lines if "timestamp" not in line]


def checkpoint_contents(prefix):
    reader = tf.train.load_checkpoint(prefix)
    keys = {}
    for name, dtype in sorted(reader.get_variable_to_dtype_map().items()):
        value = reader.get_tensor(name)
        if name == "_CHECKPOINTABLE_OBJECT_GRAPH":
            proto = trackable_object_graph_pb2.TrackableObjectGraph()
            proto.ParseFromString(value)
            graph_text = text_format.MessageToString(proto)
            continue
        keys[name] = {"dtype": dtype.name, "shape": list(reader.get_variable_to_shape_map()[name]),
                      "values": np.asarray(value).reshape(-1).tolist()}
    return {"keys": keys, "object_graph": graph_text}


def test_training_program_saves_what_tensorflow_saves(tmp_path):
    """Prints (float32 losses and values, bit for bit), manager state and files, keys,
    values and object graph proto of every checkpoint are TensorFlow's."""
    run = tmp_path / "run"
    lines, checkpoints = programs.train_with_manager(tf, str(run), steps=4)
    assert lines == EXPECTED["first_lines"]
    assert checkpoints == EXPECTED["first_checkpoints"]
    assert sorted(os.listdir(run)) == EXPECTED["first_files"]
    assert state_without_times(run) == EXPECTED["first_state"]
    for name in checkpoints:
        assert checkpoint_contents(str(run / name)) == EXPECTED["contents"][name]
        # Same keys, values and proto: the files are byte for byte TensorFlow's.
        for suffix in (".index", ".data-00000-of-00001"):
            assert (run / (name + suffix)).read_bytes() == \
                (FIXTURES / "tf_written" / (name + suffix)).read_bytes()
    lines, checkpoints = programs.train_with_manager(tf, str(run), steps=3)
    assert lines == EXPECTED["second_lines"]
    assert checkpoints == EXPECTED["second_checkpoints"]
    assert sorted(os.listdir(run)) == EXPECTED["second_files"]
    assert state_without_times(run) == EXPECTED["second_state"]
    assert os.path.basename(tf.train.latest_checkpoint(str(run))) == EXPECTED["latest_checkpoint"]


def test_restarts_from_tensorflows_checkpoints(tmp_path):
    """The engine resumes the run TensorFlow saved and prints what TensorFlow printed."""
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "tf_written", run)
    lines, checkpoints = programs.train_with_manager(tf, str(run), steps=3)
    assert lines == EXPECTED["second_lines"]
    assert checkpoints == EXPECTED["second_checkpoints"]
    assert sorted(os.listdir(run)) == EXPECTED["second_files"]
    assert state_without_times(run) == EXPECTED["second_state"]


def test_manager_state_file_keeps_timestamps(tmp_path):
    """The state file carries TensorFlow's timestamps; a new manager recovers its list."""
    programs.train_with_manager(tf, str(tmp_path), steps=4)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert len(state.all_model_checkpoint_timestamps) == 2
    assert state.last_preserved_timestamp > 0
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(), str(tmp_path), max_to_keep=3)
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-1", "ckpt-2"]
    assert manager.latest_checkpoint == str(tmp_path / "ckpt-2")


def build_graph_case():
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    r = tf.get_variable("r", initializer=tf.constant(5.0), use_resource=True)
    optimizer = tf.train.AdamOptimizer(0.1)
    train = optimizer.minimize(tf.reduce_sum(w * w) + r * r)
    return w, r, train, tf.train.Checkpoint(w=w, r=r, opt=optimizer)


def op_rows(ops):
    return [[op.name, op.type, op.device, [t.name for t in op.inputs],
             [c.name for c in op.control_inputs]] for op in ops]


def test_save_and_restore_build_tensorflows_ops(tmp_path):
    """Checkpoint.save adds save_counter and TensorFlow's sharded SaveV2/MergeV2Checkpoints
    nodes; restore adds one RestoreV2 per slot and one for the rest; both once."""
    expected = EXPECTED["graph"]
    with tf.Graph().as_default() as graph:
        w, r, train, checkpoint = build_graph_case()
        before = len(graph.get_operations())
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            session.run(train)
            path = checkpoint.save(str(tmp_path / "ck"))
        saved = graph.get_operations()[before:]
        before = len(graph.get_operations())
        status = checkpoint.restore(path)
        restored = graph.get_operations()[before:]
        with tf.Session() as session:
            status.run_restore_ops(session)
            values = [np.asarray(v).tolist() for v in session.run([w, r])]
            status.assert_consumed()
            again = checkpoint.save(str(tmp_path / "ck"), session=session)
        assert len(graph.get_operations()) == before + len(restored)  # nothing rebuilt
    assert op_rows(saved) == expected["save_ops"]
    assert op_rows(restored) == expected["restore_ops"]
    assert values == expected["restored_values"]
    assert [os.path.basename(path), os.path.basename(again)] == expected["paths"]
    assert state_without_times(tmp_path) == expected["state"]
    assert checkpoint_contents(again) == expected["contents"]


def test_status_assertions_and_partial_restore(tmp_path):
    messages = EXPECTED["messages"]
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        optimizer = tf.train.GradientDescentOptimizer(0.5)
        optimizer.minimize(tf.reduce_sum(w * w))
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            path = tf.train.Checkpoint(w=w, opt=optimizer).save(str(tmp_path / "m"),
                                                                session=session)
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([0.0, 0.0]))
        extra = tf.get_variable("extra", initializer=tf.constant(1.0))
        status = tf.train.Checkpoint(w=w, extra=extra).restore(path)
        for method in ("assert_consumed", "assert_existing_objects_matched"):
            with pytest.raises(AssertionError) as raised:
                getattr(status, method)()
            assert str(raised.value).split("\n")[0].split(":")[0] == messages[method]
        assert status.assert_nontrivial_match() is status
        assert status.expect_partial() is status
        with tf.Session() as session:
            status.initialize_or_restore(session)
            assert [session.run(w).tolist(), float(session.run(extra))] == \
                messages["partial_values"]
        empty = tf.train.Checkpoint(w=w).restore(None)
        for method in ("assert_consumed", "run_restore_ops"):
            with pytest.raises(AssertionError, match=None) as raised:
                getattr(empty, method)()
            assert str(raised.value) == messages["none_" + method]
    with pytest.raises(ValueError) as raised:
        tf.train.Checkpoint(x=1)
    assert str(raised.value) == messages["not_trackable"]
    with pytest.raises(ValueError) as raised:
        tf.train.CheckpointManager(None, str(tmp_path), max_to_keep=0)
    assert str(raised.value) == messages["max_to_keep"]


def test_restore_before_minimize_restores_slots_made_later(tmp_path):
    """TensorFlow's documented order: restore, then build the train op, then
    initialize_or_restore: the optimizer's slots and beta powers are restored too."""
    run = tmp_path / "run"
    programs.train_with_manager(tf, str(run), steps=2)
    prefix = tf.train.latest_checkpoint(str(run))
    reader = tf.train.load_checkpoint(prefix)
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0, 0.5]))
        r = tf.get_variable("r", initializer=tf.constant(3.0), use_resource=True)
        step = tf.train.get_or_create_global_step()
        optimizer = tf.train.AdamOptimizer(0.05)
        checkpoint = tf.train.Checkpoint(model_w=w, model_r=r, step=step, optimizer=optimizer)
        status = checkpoint.restore(prefix)
        optimizer.minimize(r * tf.reduce_sum(w), global_step=step)
        with tf.Session() as session:
            status.assert_consumed()
            status.initialize_or_restore(session)
            slot = session.run(optimizer.get_slot(w, "m"))
            beta1 = session.run(optimizer._get_non_slot_variable("beta1_power", w.graph))
    np.testing.assert_array_equal(
        slot, reader.get_tensor("model_w/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE"))
    assert beta1 == reader.get_tensor("optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE")


def test_checkpoint_restores_a_name_based_checkpoint(tmp_path):
    """A tf.compat.v1.train.Saver checkpoint (no object graph) restores by variable names."""
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([4.0, 5.0]))
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            path = tf.train.Saver().save(session, str(tmp_path / "named"))
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([0.0, 0.0]))
        status = tf.train.Checkpoint(w=w).restore(path)
        with tf.Session() as session:
            status.initialize_or_restore(session)
            assert session.run(w).tolist() == [4.0, 5.0]
            status.assert_consumed()


def test_checkpoint_options_and_write(tmp_path):
    written = []
    options = tf.train.CheckpointOptions(experimental_write_callbacks=[written.append])
    with tf.Graph().as_default():
        v = tf.Variable(2.0, name="v")
        checkpoint = tf.train.Checkpoint(v=v)
        with tf.Session() as session:
            session.run(v.initializer)
            path = checkpoint.write(str(tmp_path / "plain"), options=options)
    assert path == str(tmp_path / "plain") and written == [path]
    assert not (tmp_path / "checkpoint").exists()  # write() keeps no state file
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE") == 2.0


def test_lists_dicts_and_nested_checkpoints_take_tensorflows_paths(tmp_path):
    prefix = programs.structures_checkpoint(tf, str(tmp_path))
    assert checkpoint_contents(prefix) == EXPECTED["structures"]


class ModuleShaped:
    """Stands for tf.Module (another branch adds it to the engine): TensorFlow's class
    attribute marks it, its attributes are its dependencies in the order they were set."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset()


def test_modules_take_tensorflows_paths(tmp_path):
    prefix = programs.module_checkpoint(tf, ModuleShaped, str(tmp_path))
    assert checkpoint_contents(prefix) == EXPECTED["module"]


def test_restore_before_minimize_adds_tensorflows_ops_as_variables_are_made(tmp_path):
    """Each beta power and slot gets its RestoreV2 when the optimizer makes it, and
    save_counter when restore() makes it, node for node as in TensorFlow."""
    assert programs.restore_before_minimize(tf, str(tmp_path)) == \
        EXPECTED["restore_before_minimize"]


def test_manager_options_as_tensorflow(tmp_path):
    assert programs.manager_options(tf, str(tmp_path)) == EXPECTED["manager_options"]
