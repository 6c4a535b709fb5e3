"""tf.CriticalSection against TensorFlow 2.21 (tests/fixtures/critical_section/cases.json,
written by tools/make_critical_section_fixtures.py from tests/engine/critical_section_cases.py):
the graphs execute builds, node for node with their attrs; the values executes give in one
run, from several threads and inside a loop; the build errors' classes and words."""

import json
from pathlib import Path

import pytest

import engine as tf
from tests.engine import critical_section_cases as cases

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "critical_section"
                      / "cases.json").read_text())


@pytest.fixture(scope="module")
def ours():
    return cases.replay(tf)


@pytest.mark.parametrize("key", sorted(FIXTURE))
def test_matches_tensorflow(ours, key):
    assert ours[key] == FIXTURE[key]


def test_every_case_recorded(ours):
    assert sorted(ours) == sorted(FIXTURE)


def test_a_lock_its_own_step_holds_is_an_error_not_a_hang():
    """Lock b waits for lock a, and a's release for b: TensorFlow's step waits for ever; the
    plan cannot put the two in a row, and the engine's one-thread step says so."""
    with tf.Graph().as_default():
        cs = tf.CriticalSection(name="cs")
        a = tf.raw_ops.MutexLock(mutex=cs._handle, name="a")
        with tf.control_dependencies([a]):
            b = tf.raw_ops.MutexLock(mutex=cs._handle, name="b")
        with tf.control_dependencies([b]):
            release_a = tf.raw_ops.ConsumeMutexLock(mutex_lock=a)
        release_b = tf.raw_ops.ConsumeMutexLock(mutex_lock=b)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InternalError, match="already held by this step"):
                sess.run([release_a, release_b])
            # the failed step let go of the lock it held
            assert sess.run(cs.execute(lambda: tf.constant(7))) == 7


def test_what_a_run_still_holds_is_released_when_it_ends():
    """The session's last resort after a run (engine/runtime/mutexes.py): a lock value some
    reference keeps alive past its run is released for the thread that took it."""
    from engine.runtime import mutexes
    held_locks = {}
    mutex = mutexes.Mutex("m")
    kept = mutex.acquire(held_locks)
    assert mutex.held_by_this_thread() and held_locks
    mutexes.release_held_by_this_thread(held_locks)
    assert not mutex.held_by_this_thread() and not held_locks
    again = mutex.acquire(held_locks)  # free: this would wait for ever otherwise
    again.release()
    del kept
