"""tf.ConditionalAccumulator on the engine does what it did on TensorFlow 2.21: the same
script (tests/engine/accumulator_cases.py) gives tests/fixtures/cluster/accumulators.json
(tools/make_accumulator_fixtures.py): fresh gradients averaged (or summed), stale ones
dropped, counts, steps set back and ahead, and TensorFlow's errors."""

import json
from pathlib import Path

import engine as tf
from tests.engine.accumulator_cases import replay

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cluster" / "accumulators.json"


def test_the_accumulator_script_gives_tensorflows_results():
    assert replay(tf) == json.loads(FIXTURE.read_text())
