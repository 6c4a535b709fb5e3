"""tf.io.decode_proto and tf.io.encode_proto (tests/engine/proto_codec_cases.py) against
TensorFlow 2.21 (tf.compat.v1): sizes and values of every field type, the bytes written,
static shapes, graphs node for node, the kernels' errors (fixtures by
tools/make_proto_codec_fixtures.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import proto_codec_cases as cases  # noqa: E402

TF = tf_fixture_set.load("proto_codec")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_shapes_are_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = TF.values[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == TF.shapes[name]


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    with tf.Graph().as_default() as graph:
        cases.build_case(tf, name)
    ours = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    assert ours == TF.nodes[name]


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    assert list(cases.run_error_case(tf, name)) == TF.errors[name]


def test_graph_building_accepts_what_tensorflow_accepts():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want
