"""tf.image.non_max_suppression_padded (tests/engine/nms_padded_cases.py) against
TensorFlow 2.21 (tf.compat.v1): selected indices and counts exactly, static shapes, the
Python layer's error (fixtures by tools/make_nms_padded_fixtures.py). TensorFlow's graph is
one PartitionedCall of a traced function, the engine's the same ops inline: their nodes
are not compared."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import nms_padded_cases as cases  # noqa: E402

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "nms_padded"
VALUES = np.load(FOLDER / "values.npz")
SHAPES = json.loads((FOLDER / "shapes.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_selections_and_shapes_are_tensorflows(name):
    values, shapes = cases.run_case(tf, name)
    for key, value in values.items():
        want = VALUES[f"{name}__{key}"]
        assert value.dtype == want.dtype and value.shape == want.shape, key
        np.testing.assert_array_equal(value, want, err_msg=key)
    assert shapes == SHAPES[name]


def test_python_errors_are_tensorflows():
    want = json.loads((FOLDER / "python_errors.json").read_text())
    assert cases.python_errors(tf) == want


def test_the_graph_is_built_under_tensorflows_name_scope():
    with tf.Graph().as_default():
        idx, num_valid = cases.CASES["padded"](tf)
    assert idx.op.type == "Reshape" and idx.name.startswith("nmsp/")
    assert num_valid.name.startswith("nmsp/")
