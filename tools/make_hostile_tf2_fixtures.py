"""Write tests/fixtures/hostile/tf2_checkpoints/: TF2 checkpoints whose object graph lies.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_hostile_tf2_fixtures.py`.
Each case is a checkpoint TensorFlow 2.21 writes with SaveV2 (a variable `v` = [1, 2] and a
hand-made `_CHECKPOINTABLE_OBJECT_GRAPH`): a slot variable id that is negative or past the
graph, a child id past the graph, a child that is its own parent, an object graph that is not
a protobuf, names with terminal escapes, newlines and an RTL mark. outcomes.json: what
tf.train.load_checkpoint read for `v` and what tf.train.Checkpoint(v=...).read raised.
escaped_keys/: a SavedModel whose signature key and output key hold a terminal escape, a
newline and an RTL mark; outcomes.json's `escaped_keys` is what its signature gave for x=[1, 2].
"""

import json
import os
import shutil
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "hostile" / "tf2_checkpoints"
KEY = "v/.ATTRIBUTES/VARIABLE_VALUE"
HOSTILE = "v\x1b[2J\n\u202eevil"


def object_graphs(tog):
    def graph(*nodes):
        return tog.TrackableObjectGraph(nodes=list(nodes)).SerializeToString()

    value = {"name": "VARIABLE_VALUE", "checkpoint_key": KEY}
    return {
        "slot_id_negative": graph({"attributes": [value], "slot_variables": [
            {"original_variable_node_id": 0, "slot_name": "m", "slot_variable_node_id": -100}]}),
        "slot_id_past_the_graph": graph({"attributes": [value], "slot_variables": [
            {"original_variable_node_id": 7, "slot_name": "m", "slot_variable_node_id": 9}]}),
        "child_id_past_the_graph": graph({"children": [{"node_id": 57, "local_name": "v"}]},
                                         {"attributes": [value]}),
        "child_is_its_parent": graph({"children": [{"node_id": 0, "local_name": "me"},
                                                   {"node_id": -1, "local_name": "neg"}],
                                      "attributes": [value]}),
        "not_a_protobuf": b"\xff\xff\xff\x01garbage",
        "escapes_in_names": graph({"children": [{"node_id": 1, "local_name": HOSTILE}]},
                                  {"attributes": [dict(value, full_name=HOSTILE)]}),
    }


def outcome(call):
    try:
        return ["OK", call()]
    except Exception as error:  # noqa: BLE001  (what TF raised is the fixture)
        return [type(error).__name__, str(error).splitlines()[0][:120]]


SIGNATURE_KEY = "sig\x1b[2J\n\u202ekey"
OUTPUT_KEY = "out\x1b[2J\u202e"


def write_escaped_keys(tf):
    module = tf.Module()
    module.f = tf.function(lambda x: {OUTPUT_KEY: x * 2.0},
                           input_signature=[tf.TensorSpec([2], tf.float32, name="x")])
    path = str(OUT / "escaped_keys")
    tf.saved_model.save(module, path, signatures={SIGNATURE_KEY: module.f})
    (OUT / "escaped_keys" / "fingerprint.pb").unlink()
    result = tf.saved_model.load(path).signatures[SIGNATURE_KEY](x=tf.constant([1.0, 2.0]))
    return {"signature": SIGNATURE_KEY, "feed": {"x": [1.0, 2.0]},
            "outputs": {key: value.numpy().tolist() for key, value in result.items()}}


def main():
    import tensorflow as tf
    from tensorflow.core.protobuf import trackable_object_graph_pb2 as tog

    shutil.rmtree(OUT, ignore_errors=True)
    outcomes = {}
    for case, data in object_graphs(tog).items():
        (OUT / case).mkdir(parents=True)
        prefix = str(OUT / case / "ckpt")
        tf.raw_ops.SaveV2(prefix=prefix, tensor_names=["_CHECKPOINTABLE_OBJECT_GRAPH", KEY],
                          shape_and_slices=["", ""], tensors=[tf.constant(data), tf.constant([1., 2.])])
        restored = tf.Variable([0., 0.])
        outcomes[case] = {
            "read": outcome(lambda: tf.train.load_checkpoint(prefix).get_tensor(KEY).tolist()),
            "restore": outcome(lambda: tf.train.Checkpoint(v=restored).read(prefix).expect_partial()
                               and restored.numpy().tolist()),
        }
        print(case, outcomes[case])
    outcomes["escaped_keys"] = write_escaped_keys(tf)
    (OUT / "outcomes.json").write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
