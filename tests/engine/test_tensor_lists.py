"""TensorList ops (TF2's TensorArray) against TensorFlow: values, gradients (through a while
loop too), the graph node for node, and the kernels' error messages (tests/fixtures/lists/,
written by tools/make_list_fixtures.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import tensor_list_cases
from layers_cases import run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lists"
MANIFEST = json.loads((FIXTURES / "lists.json").read_text())


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.fixture(scope="module", params=sorted(tensor_list_cases.CASES))
def ran(request):
    return request.param, *run_case(tf, request.param, tensor_list_cases.CASES)


def test_values_and_gradients_equal_tensorflows(ran):
    name, values, _ = ran
    expected = np.load(FIXTURES / f"{name}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        want, got = expected[key], values[_key(key)]
        if got.dtype == object:  # strings: the engine's bytes objects, TensorFlow's S array
            got = got.astype(bytes)
        assert got.shape == want.shape and got.dtype == want.dtype, (name, key)
        if want.dtype.kind in "SiuUb":
            np.testing.assert_array_equal(got, want, err_msg=f"{name} {key}")
        else:
            np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, err_msg=f"{name} {key}")


def test_graph_equals_tensorflows_node_for_node(ran):
    name, _, description = ran
    assert description["nodes"] == MANIFEST[name]["nodes"]
    assert description["ops"] == MANIFEST[name]["ops"]


@pytest.mark.parametrize("name", sorted(tensor_list_cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert tensor_list_cases.run_error(tf, name) == MANIFEST["errors"][name]
