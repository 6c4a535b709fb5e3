"""tf.PaddingFIFOQueue and tf.PriorityQueue against TensorFlow 2.21 (tf.compat.v1): padded
batches, priority order, static shapes, node names and op types, the closed-queue
OutOfRange/Cancelled errors and the shape errors with TensorFlow's texts
(tests/engine/padding_queue_cases.py; fixtures by tools/make_padding_queue_fixtures.py)."""

import json
import re
from pathlib import Path

import pytest

import engine as tf
from tests.engine.padding_queue_cases import dynamic_pad, padding_fifo, priority

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "queues" / "padding_priority.json"
TF = json.loads(FIXTURE.read_text())
# Every session names its queue "_<id>_<node>"; ids are counted per process in TensorFlow.
RESULTS = {"padding_fifo": padding_fifo(tf), "priority": priority(tf),
           "dynamic_pad": dynamic_pad(tf)}


def _normal(value):
    """The value with each queue id in a message as N, at any depth (the ids depend on how
    many sessions the process made before)."""
    if isinstance(value, dict):
        value = {k: _normal(v) for k, v in value.items()}
        if isinstance(value.get("message"), str):
            value["message"] = re.sub(r"'_\d+_", "'_N_", value["message"])
        return value
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


@pytest.mark.parametrize("script,key", [(s, k) for s in TF for k in TF[s]])
def test_matches_tensorflow(script, key):
    assert _normal(RESULTS[script][key]) == _normal(TF[script][key])
