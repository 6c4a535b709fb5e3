"""tf.HistogramProto, tf.SummaryMetadata, tf.LogMessage, tf.TensorInfo, tf.train.ServerDef and
the TF 2 summary helpers of tf.summary against TensorFlow (tests/fixtures/summary_protos,
tools/make_summary_proto_fixtures.py)."""

import json
import logging
import sys
from pathlib import Path

import pytest

import engine as tf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "summary_protos"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
sys.path.insert(0, str(Path(__file__).resolve().parent))
from summary_proto_messages import messages  # noqa: E402


@pytest.mark.parametrize("name", ["HistogramProto", "SummaryMetadata", "LogMessage",
                                  "TensorInfo", "ServerDef"])
def test_messages_serialize_and_print_as_tensorflows(name):
    made = messages(tf)[name]
    expected = EXPECTED["messages"][name]
    assert str(made) == expected["text"]
    parsed = type(made)()
    parsed.ParseFromString(bytes.fromhex(expected["hex"]))
    assert parsed == made
    if name != "ServerDef":  # a map's entries are written in no fixed order
        assert made.SerializeToString(deterministic=True).hex() == expected["hex"]


def test_get_summary_description():
    node = tf.NodeDef(name="s", op="TensorSummary")
    node.attr["description"].s = b'{"typeHint": "scalar"}'
    assert str(tf.summary.get_summary_description(node)) == EXPECTED["description"]
    with pytest.raises(ValueError) as raised:
        tf.summary.get_summary_description(tf.NodeDef(name="a", op="Add"))
    assert str(raised.value) == EXPECTED["description_error"]


def test_v2_summary_ops_and_initialize():
    with tf.Graph().as_default():
        tf.summary.scalar("loss", tf.constant(1.0))
        assert len(tf.summary.all_v2_summary_ops()) == EXPECTED["all_v2_summary_ops"]
        with tf.Session():
            with pytest.raises(RuntimeError) as raised:
                tf.summary.initialize()
    assert [type(raised.value).__name__, str(raised.value)] == EXPECTED["initialize_error"]


def test_task_level_status_message_logs_an_error(caplog):
    with caplog.at_level(logging.INFO):
        tf.logging.TaskLevelStatusMessage("task 3 is done")
    assert [(r.levelno, r.getMessage()) for r in caplog.records
            if r.getMessage() == "task 3 is done"] == [(logging.ERROR, "task 3 is done")]
