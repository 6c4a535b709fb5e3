"""tf.gather on resource variables (ResourceGather, VariableShape) against TensorFlow: rows,
a batch dimension, the sparse gradient and the SGD step it drives, the graph node for node,
the kernel's errors (tests/fixtures/resource_gather/)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import resource_gather_cases
from layers_cases import run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "resource_gather"
MANIFEST = json.loads((FIXTURES / "resource_gather.json").read_text())


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.mark.parametrize("name", sorted(resource_gather_cases.CASES))
def test_values_gradients_and_nodes_are_tensorflows(name):
    values, description = run_case(tf, name, resource_gather_cases.CASES)
    expected = np.load(FIXTURES / f"{name}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        got, want = values[_key(key)], expected[key]
        assert got.dtype == want.dtype and got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name} {key}")
    assert description["nodes"] == MANIFEST[name]["nodes"]
    assert description["ops"] == MANIFEST[name]["ops"]


@pytest.mark.parametrize("name", sorted(resource_gather_cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert resource_gather_cases.run_error(tf, name) == MANIFEST["errors"][name]
