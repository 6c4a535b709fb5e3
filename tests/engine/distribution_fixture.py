"""What the tf.distributions tests share: their TensorFlow-written fixtures
(tests/fixtures/mathops/NAME.json, from tools/make_*_fixtures.py), the numbers in them (floats
as hex text, exactly), and the comparison most values take."""

import json
from pathlib import Path

import numpy as np


def load(name):
    return json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "mathops"
                       / f"{name}.json").read_text())


def numbers(entry):
    values = entry["values"]
    if entry["dtype"].startswith("float"):
        return np.array([float.fromhex(v) if v.startswith(("0x", "-0x")) else float(v)
                         for v in values])
    return np.array(values)


def assert_value_is_tensorflows(key, got, want):
    """Seeded draws and integers exactly (TensorFlow's streams), the rest at rtol 1e-6."""
    if "sample" in key or not want["dtype"].startswith("float"):
        assert got["values"] == want["values"]
    else:
        np.testing.assert_allclose(numbers(got), numbers(want), rtol=1e-6, atol=1e-7)


def assert_checked_values_are_tensorflows(got, want):
    """The values of the validate_args / allow_nan_stats=False runs, at rtol 1e-6."""
    assert sorted(got["values"]) == sorted(want["values"])
    for key, value in want["values"].items():
        np.testing.assert_allclose(numbers(got["values"][key]), numbers(value), rtol=1e-6)
