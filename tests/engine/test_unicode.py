"""tf.strings.unicode_script, unicode_transcode, unicode_encode and unsorted_segment_join
against TensorFlow 2.21 (the ragged results of unicode_decode, unicode_split, bytes_split and
ngrams are in tests/engine/test_ragged.py): values byte for byte, static shapes, the ops' attrs, node names where
the engine builds TensorFlow's graph, and the errors for bad input
(tests/fixtures/unicode/unicode.json, tools/make_unicode_fixtures.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

import engine as tf
import unicode_cases
from engine.kernels.cpu import unicode as unicode_kernels

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "unicode"
                      / "unicode.json").read_text())


@pytest.mark.parametrize("name", sorted(unicode_cases.CASES))
def test_values_shapes_and_attrs_are_tensorflows(name):
    values, shapes, nodes, kernels = unicode_cases.run_case(tf, name)
    want = FIXTURE["cases"][name]
    assert values == want["values"]
    if name in unicode_cases.SHAPES_FOLDED_BY_TENSORFLOW:
        for key, dims in shapes.items():
            assert dims == [None] and len(want["shapes"][key]) == 1, key
    else:
        assert shapes == want["shapes"]
    assert [[op, [list(attr) for attr in attrs]] for op, attrs in kernels] == want["kernels"]
    if name in unicode_cases.SAME_NODES:
        assert nodes == want["nodes"]


@pytest.mark.parametrize("name", sorted(unicode_cases.ERRORS))
def test_errors_are_tensorflows(name):
    assert unicode_cases.run_error(tf, name) == FIXTURE["errors"][name]


def test_the_script_table_covers_unicode_in_runs():
    starts, scripts, last = unicode_kernels._script_runs()
    assert starts[0] == 0 and last == 0x10FFFF
    assert (np.diff(starts) > 0).all() and (scripts[1:] != scripts[:-1]).all()
