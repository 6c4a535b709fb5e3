"""Write tests/fixtures/checkpoint_v2/: what TensorFlow's tf.compat.v1.train.Checkpoint and
CheckpointManager do in graph mode.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_checkpoint_v2_fixtures.py`.
  tf_written/     the checkpoints (and `checkpoint` state file) of 4 training steps saved by
                  a CheckpointManager every 2 steps (tests/engine/checkpoint_v2_programs.py)
  expected.json   that program's printed lines, first run and restarted run; the manager's
                  checkpoints; the files and state file (timestamps dropped) after each; per
                  checkpoint its keys (dtype, shape, values) and object graph proto as text
                  (and of a checkpoint of a list, a dict and a nested Checkpoint, and of
                  nested tf.Modules); the ops a restore before minimize() adds as the
                  optimizer makes its variables; CheckpointManager's options;
                  the ops Checkpoint.save and restore add to a graph; assertion messages
"""

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf_root  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.protobuf import trackable_object_graph_pb2  # noqa: E402

tf = tf_root.compat.v1
tf.disable_v2_behavior()

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "checkpoint_v2"
sys.path.insert(0, str(REPO / "tests" / "engine"))
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
                      "values": value.reshape(-1).tolist()}
    return {"keys": keys, "object_graph": graph_text}


def op_rows(ops):
    return [[op.name, op.type, op.device, [t.name for t in op.inputs],
             [c.name for c in op.control_inputs]] for op in ops]


def graph_case(directory):
    """The ops save() and restore() add for w (ref), r (resource) and Adam."""
    with tf.Graph().as_default() as graph:
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        r = tf.get_variable("r", initializer=tf.constant(5.0), use_resource=True)
        optimizer = tf.train.AdamOptimizer(0.1)
        train = optimizer.minimize(tf.reduce_sum(w * w) + r * r)
        checkpoint = tf.train.Checkpoint(w=w, r=r, opt=optimizer)
        before = len(graph.get_operations())
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            session.run(train)
            path = checkpoint.save(os.path.join(directory, "ck"))
        saved = graph.get_operations()[before:]
        before = len(graph.get_operations())
        status = checkpoint.restore(path)
        restored = graph.get_operations()[before:]
        with tf.Session() as session:
            status.run_restore_ops(session)
            values = [v.tolist() for v in session.run([w, r])]
            status.assert_consumed()
            again = checkpoint.save(os.path.join(directory, "ck"), session=session)
    return {"save_ops": op_rows(saved), "restore_ops": op_rows(restored),
            "restored_values": values, "paths": [os.path.basename(path), os.path.basename(again)],
            "state": state_without_times(directory), "contents": checkpoint_contents(again)}


def first_line(error):
    return str(error).split("\n")[0]


def assertion_messages(directory):
    """What the statuses say when the checkpoint and the program differ."""
    messages = {}
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        optimizer = tf.train.GradientDescentOptimizer(0.5)
        optimizer.minimize(tf.reduce_sum(w * w))
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            path = tf.train.Checkpoint(w=w, opt=optimizer).save(os.path.join(directory, "m"),
                                                                session=session)
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=tf.constant([0.0, 0.0]))
        extra = tf.get_variable("extra", initializer=tf.constant(1.0))
        status = tf.train.Checkpoint(w=w, extra=extra).restore(path)
        for method in ("assert_consumed", "assert_existing_objects_matched"):
            try:
                getattr(status, method)()
                messages[method] = None
            except AssertionError as error:
                messages[method] = first_line(error).split(":")[0]
        status.assert_nontrivial_match()
        with tf.Session() as session:
            status.initialize_or_restore(session)
            messages["partial_values"] = [session.run(w).tolist(), float(session.run(extra))]
        empty = tf.train.Checkpoint(w=w).restore(None)
        for method in ("assert_consumed", "run_restore_ops"):
            try:
                getattr(empty, method)()
            except AssertionError as error:
                messages["none_" + method] = str(error)
    try:
        tf.train.Checkpoint(x=1)
    except ValueError as error:
        messages["not_trackable"] = str(error)
    try:
        tf.train.CheckpointManager(None, directory, max_to_keep=0)
    except ValueError as error:
        messages["max_to_keep"] = str(error)
    return messages


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected = {}
    with tempfile.TemporaryDirectory() as work:
        run = os.path.join(work, "run")
        expected["first_lines"], expected["first_checkpoints"] = programs.train_with_manager(
            tf, run, steps=4)
        expected["first_files"] = sorted(os.listdir(run))
        expected["first_state"] = state_without_times(run)
        expected["contents"] = {name: checkpoint_contents(os.path.join(run, name))
                                for name in expected["first_checkpoints"]}
        shutil.copytree(run, OUT / "tf_written")
        expected["second_lines"], expected["second_checkpoints"] = programs.train_with_manager(
            tf, run, steps=3)
        expected["second_files"] = sorted(os.listdir(run))
        expected["second_state"] = state_without_times(run)
        expected["latest_checkpoint"] = os.path.basename(tf.train.latest_checkpoint(run))
        expected["structures"] = checkpoint_contents(
            programs.structures_checkpoint(tf, work))
        expected["module"] = checkpoint_contents(
            programs.module_checkpoint(tf, tf.Module, work))
        expected["restore_before_minimize"] = programs.restore_before_minimize(tf, work)
        expected["manager_options"] = programs.manager_options(tf, work)
        os.mkdir(os.path.join(work, "graph"))
        expected["graph"] = graph_case(os.path.join(work, "graph"))
        os.mkdir(os.path.join(work, "messages"))
        expected["messages"] = assertion_messages(os.path.join(work, "messages"))
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
