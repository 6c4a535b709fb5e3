"""tf.nest against TensorFlow 2.21's tf.compat.v1.nest (tests/fixtures/nest/cases.json,
tools/make_nest_fixtures.py): each case's value, or its error's class and first line."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine import nest_cases as cases

EXPECTED = json.loads((Path(__file__).parent.parent / "fixtures" / "nest" / "cases.json")
                      .read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_tf_nest_answers_as_tensorflow(name):
    assert cases.evaluate(tf.nest, cases.CASES[name]) == EXPECTED[name]


def test_tf_nest_is_the_engines_own_nest():
    from engine.ops import nest
    assert tf.nest.flatten is nest.flatten and tf.nest.map_structure is nest.map_structure
