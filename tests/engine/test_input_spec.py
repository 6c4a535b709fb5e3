"""tf.layers.InputSpec and the check of a layer's input_spec on each call against TensorFlow 2.21
(tf.compat.v1, tf_keras's legacy layers): fields, repr, config and the errors, as JSON
(tests/engine/input_spec_cases.py; fixtures by tools/make_input_spec_fixtures.py)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import input_spec_cases as cases  # noqa: E402

TF = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "input_spec"
                 / "cases.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_results_equal_tensorflows(name):
    assert json.loads(json.dumps(cases.CASES[name](tf))) == TF[name]

