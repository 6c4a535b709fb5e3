"""GenerateVocabRemapping, LoadAndRemapMatrix and tf.train.warm_start with tf.train.VocabInfo
against TensorFlow (tests/fixtures/vocab_remap, tools/make_vocab_remap_fixtures.py): values
(exact: copies of stored float32 and the initializer's constants), static shapes, errors and
the nodes warm_start adds; the checkpoint read is the one TensorFlow saved."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "vocab_remap"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
sys.path.insert(0, str(Path(__file__).resolve().parent))
import vocab_remap_programs as programs  # noqa: E402


@pytest.fixture(scope="module")
def op_results():
    return programs.op_cases(tf, tf.raw_ops, str(FIXTURES))


@pytest.mark.parametrize("case", sorted(EXPECTED["ops"]))
def test_ops_match_tensorflow(op_results, case):
    assert op_results[case] == EXPECTED["ops"][case]


def test_warm_start_with_vocab_info_matches_tensorflow():
    assert programs.warm_start_case(tf, str(FIXTURES)) == EXPECTED["warm_start"]


def test_vocab_info_checks_its_axis_and_warm_start_its_names():
    with pytest.raises(ValueError, match="The only supported values for the axis argument are "
                                         "0 and 1.  Provided axis: 2"):
        tf.train.VocabInfo("new", 3, 0, "old", axis=2)
    info = tf.train.VocabInfo("new", 3, 0, "old")
    assert (info.old_vocab_size, info.backup_initializer, info.axis) == (-1, None, 0)
    with tf.Graph().as_default():
        tf.get_variable("other", shape=[2])
        with pytest.raises(ValueError, match="var_name_to_vocab_info that were not used: "
                                             "{'typo'}"):
            tf.train.warm_start(str(FIXTURES / "old"), var_name_to_vocab_info={"typo": info})
