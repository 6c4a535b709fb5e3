"""tf.TensorArray and tf.nn.dynamic_rnn / bidirectional_dynamic_rnn (while loops over
TensorArrays) against TensorFlow: values, gradients, the variables after an SGD step, the
graph node for node, and the kernels' error messages (tests/fixtures/rnn/, written by
tools/make_rnn_fixtures.py)."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import dynamic_rnn_cases
import static_rnn_cases
import tensor_array_cases
from layers_cases import run_case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rnn"
MANIFEST = json.loads((FIXTURES / "rnn.json").read_text())
TABLES = {**{name: tensor_array_cases.CASES for name in tensor_array_cases.CASES},
          **{name: dynamic_rnn_cases.CASES for name in dynamic_rnn_cases.CASES},
          **{name: static_rnn_cases.CASES for name in static_rnn_cases.CASES}}


def _key(name):
    return name.replace("__", ":").replace("--", "/")


@pytest.fixture(scope="module", params=sorted(TABLES))
def ran(request):
    return request.param, *run_case(tf, request.param, TABLES[request.param])


def test_values_and_gradients_equal_tensorflows(ran):
    name, values, _ = ran
    expected = np.load(FIXTURES / f"{name}.npz")
    assert sorted(values) == sorted(_key(k) for k in expected.files)
    for key in expected.files:
        want, got = expected[key], values[_key(key)]
        assert got.shape == want.shape and got.dtype == want.dtype, key
        rtol = 1e-12 if want.dtype == np.float64 else 2e-5
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol / 10,
                                   err_msg=f"{name} {key}")


def test_graph_equals_tensorflows_node_for_node(ran):
    name, _, description = ran
    for key in ("nodes", "ops", "global_variables", "trainable_variables"):
        assert description[key] == MANIFEST[name][key], (name, key)


def test_dynamic_rnn_is_a_while_loop_over_tensor_arrays():
    nodes = MANIFEST["dynamic_lstm"]["nodes"]
    assert "rnn/while/LoopCond" in nodes and "rnn/TensorArray_1" in nodes
    assert "rnn/while/TensorArrayReadV3" in nodes
    assert "gradients/rnn/while/TensorArrayReadV3_grad/TensorArrayGrad/TensorArrayGradV3" \
        in nodes


def _numbered(text):
    # TensorFlow numbers arrays with one counter for the whole process ("TensorArray_7").
    return re.sub(r"(TensorArray\w*?)_\d+:", r"\1_N:", text)


@pytest.mark.parametrize("name", sorted(tensor_array_cases.ERRORS))
def test_errors_are_tensorflows(name):
    got = tensor_array_cases.run_error(tf, name)
    want = MANIFEST["errors"][name]
    assert [got[0], _numbered(got[1])] == [want[0], _numbered(want[1])]


@pytest.mark.parametrize("name", sorted(static_rnn_cases.ERRORS))
def test_static_bidirectional_errors_are_tensorflows(name):
    assert static_rnn_cases.run_error(tf, name) == MANIFEST["static_errors"][name]
