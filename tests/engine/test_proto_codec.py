"""tf.io.decode_proto and tf.io.encode_proto (tests/engine/proto_codec_cases.py) against
TensorFlow 2.21 (tf.compat.v1): sizes and values of every field type, the bytes written,
static shapes, graphs node for node, the kernels' errors (fixtures by
tools/make_proto_codec_fixtures.py)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import proto_codec_cases as cases  # noqa: E402

TF = tf_fixture_set.load("proto_codec")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_shapes_are_tensorflows(name):
    tf_fixture_set.assert_values_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.ERROR_CASES))
def test_kernel_errors_are_tensorflows(name):
    tf_fixture_set.assert_error_equal(tf, cases, TF, name)


def test_graph_building_accepts_what_tensorflow_accepts():
    want = json.loads((TF.folder / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want
