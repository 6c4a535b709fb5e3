"""tf.train.noisy_linear_cosine_decay, generate_checkpoint_state_proto, get_checkpoint_mtimes,
remove_checkpoint, checkpoints_iterator, basic_train_loop, init_from_checkpoint and warm_start
against TensorFlow 2.21
(tf.compat.v1): the same values (the decay's noise is the graph seed's Philox stream, bit for
bit), nodes, state protos, files left and checkpoints found
(tests/engine/train_utility_cases.py; fixtures by tools/make_train_utility_fixtures.py)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_utility_cases as cases  # noqa: E402

TF = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "train_utilities"
                 / "cases.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_results_equal_tensorflows(name):
    assert json.loads(json.dumps(cases.CASES[name](tf))) == TF[name]


def test_checkpoints_iterator_waits_no_longer_than_its_timeout(tmp_path):
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == []
