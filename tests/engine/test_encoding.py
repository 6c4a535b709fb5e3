"""tf.io's encodings against TensorFlow 2.21: base64 (web-safe, padded or not), decode_compressed,
serialize_tensor's TensorProto bytes and parse_tensor, decode_json_example; values byte for
byte, static shapes, node names and op types, and the errors for bad input
(tests/fixtures/encoding/encoding.json, tools/make_encoding_fixtures.py)."""

import json
from pathlib import Path

import pytest

import engine as tf
import encoding_cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "encoding"
                      / "encoding.json").read_text())

# Messages whose tail is not the engine's to match: TensorFlow prints the TensorProto as
# "goo.gle/debug..." (a redacted DebugString that changes from run to run), and protobuf's
# C++ JSON parser words its complaint unlike Python's json_format.
PREFIX_ONLY = {"parse_empty_proto": "Cannot parse tensor from proto:",
               "json_bad": "Error while parsing JSON: ",
               "json_wrong_field": "Error while parsing JSON: "}


@pytest.mark.parametrize("name", sorted(encoding_cases.CASES))
def test_values_shapes_and_nodes_are_tensorflows(name):
    values, shapes, nodes = encoding_cases.run_case(tf, name)
    want = FIXTURE["cases"][name]
    assert values == want["values"]
    assert shapes == want["shapes"]
    assert nodes == [list(node) for node in want["nodes"]]


@pytest.mark.parametrize("name", sorted(encoding_cases.ERRORS))
def test_errors_are_tensorflows(name):
    got, want = encoding_cases.run_error(tf, name), FIXTURE["errors"][name]
    if name in PREFIX_ONLY:
        assert got[0] == want[0]
        assert got[1].startswith(PREFIX_ONLY[name]) and want[1].startswith(PREFIX_ONLY[name])
    else:
        assert got == want


def test_a_serialized_tensor_parses_back_to_itself():
    with tf.Graph().as_default():
        x = tf.constant([[1.5, -2.0], [3.0, 4.0]], tf.float64)
        back = tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float64)
        with tf.Session() as sess:
            assert (sess.run(back) == sess.run(x)).all()
