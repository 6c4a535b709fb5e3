"""tf.function, tf.Module, tf.GradientTape and the gradient helpers against TensorFlow 2.21's
tf.compat.v1 in graph mode (tests/engine/function_module_cases.py builds each case for both;
tools/make_function_module_fixtures.py wrote TensorFlow's results)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf
from engine.framework.api_namespace import NotSupportedError

sys.path.insert(0, str(Path(__file__).resolve().parent))

import function_module_cases as cases  # noqa: E402

DIFFERENT = set()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "function_module"
TF = json.loads((FIXTURES / "cases.json").read_text())


def _engine(name):
    return json.loads(json.dumps(cases.CASES[name](tf), sort_keys=True))


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_equals_tensorflows(name):
    ours, theirs = _engine(name), TF[name]
    for key in theirs:
        if (name, key) in DIFFERENT:
            continue
        assert ours[key] == theirs[key], key


def test_enable_v2_behavior_says_why_not():
    with pytest.raises(NotSupportedError, match="graph mode"):
        tf.enable_v2_behavior()
