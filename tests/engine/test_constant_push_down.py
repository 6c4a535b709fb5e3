"""Constant folding moves constants as TensorFlow's Grappler does (ReduceDivToReciprocalMul,
ConstantPushDown): the partition graph node for node and the output bit for bit against
TensorFlow 2.21 (tests/fixtures/optimizer/constant_push_down.npz, written by
tools/make_constant_push_down_fixtures.py). `x * y * 3.0` runs as `x * (3.0 * y)` there, and
`x / c` as `x * (1 / c)`: the same values need the same order of operations."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
from tests.engine import constant_push_down_cases as cases

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "optimizer"
                  / "constant_push_down.npz")
GRAPHS = json.loads(str(FIXTURE["__graphs__"]))


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_the_graph_and_bits_are_tensorflows(name):
    value, nodes = cases.run(tf, name)
    assert nodes == GRAPHS[name]
    want = FIXTURE[name]
    assert value.dtype == want.dtype and np.array_equal(value.view(np.uint32),
                                                        want.view(np.uint32))


def test_without_the_optimizer_the_graph_is_as_written():
    graph, x, y, out = cases.build(tf, "mul_chain")
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    xs, ys = cases.inputs()
    with graph.as_default(), tf.Session(config=config) as sess:
        value = sess.run(out, {x: xs, y: ys})
    assert np.array_equal(value, (xs * ys) * np.float32(3.0))
