"""Second-order gradients through tf.function calls against TensorFlow 2.21's graph mode
(tests/engine/call_second_order_cases.py; fixtures by tools/make_call_second_order_fixtures.py):
the values bit for bit, the graphs node for node, and the function each call calls (TensorFlow
differentiates the backward function into a forward/backward pair of its own, and a forward
call whose intermediates get gradients into a backward taking theirs too)."""

import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tf_fixture_set  # noqa: E402
import call_second_order_cases as cases  # noqa: E402

TF = tf_fixture_set.load("call_second_order")


@pytest.mark.parametrize("name", list(cases.CASES))
def test_values_and_calls_match_tensorflows(name):
    tf_fixture_set.assert_values_equal(tf, cases, TF, name)


@pytest.mark.parametrize("name", list(cases.CASES))
def test_graphs_equal_tensorflows(name):
    tf_fixture_set.assert_graph_equal(tf, cases, TF, name)


def test_a_body_with_a_tf1_loop_is_not_differentiated_twice():
    with pytest.raises(LookupError, match="holds TensorFlow 1 control flow"):
        cases.run_case(tf, "loop_in_body")
