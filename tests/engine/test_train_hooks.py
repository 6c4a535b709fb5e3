"""tf.train's FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, CheckpointSaverListener, the
session creators, assert_global_step and the SaverDef / ClusterDef / JobDef protos against
TensorFlow 2.21 (tf.compat.v1): what each case saw, as JSON (tests/engine/train_hook_cases.py;
fixtures by tools/make_train_hook_fixtures.py)."""

import json
import sys
from pathlib import Path

import pytest

import engine as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_hook_cases as cases  # noqa: E402

TF = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "train_hooks"
                 / "cases.json").read_text())


@pytest.mark.parametrize("name", list(cases.CASES))
def test_results_equal_tensorflows(name):
    assert json.loads(json.dumps(cases.CASES[name](tf))) == TF[name]


def test_global_step_waiter_waits_for_the_step(monkeypatch):
    """A waiter whose step is not reached reads the step again after each poll."""
    from engine.training import step_hooks
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        hook = tf.train.GlobalStepWaiterHook(3)
        hook.begin()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            polls = []

            def sleep(secs):
                polls.append(secs)
                sess.run(step.assign_add(1))
            monkeypatch.setattr(step_hooks.time, "sleep", sleep)
            context = tf.train.SessionRunContext(None, sess)
            assert hook.before_run(context) is None
            assert polls == [0.5, 0.5, 0.5] and sess.run(step) == 3
            assert hook.before_run(context) is None and len(polls) == 3
