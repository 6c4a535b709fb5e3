"""What a task pushes to another is the value the step read: a small array is copied when it
is pushed (engine/cluster/task.py, TaskState.push), since it waits in the outbox until the
worker's loop packs it and a variable's read is the variable's own buffer."""

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("distributed")

from engine.cluster import task as task_lib, wire  # noqa: E402


@pytest.fixture
def state():
    callbacks = []
    worker = SimpleNamespace(name="/job:ps/task:0",
                             loop=SimpleNamespace(add_callback=callbacks.append))
    state = task_lib.TaskState(worker)
    yield state
    state.close()


def _pushed(state, value):
    state.push("tcp://worker", "/job:worker/task:0", "session/1", "b/read", value, False)
    taken = state.take_pushed("session/1", {"tcp://worker"})
    (key, got, is_dead), = taken["tcp://worker"]
    return got


def test_a_small_array_goes_as_it_was_when_pushed(state):
    variable = np.array([0.5], np.float32)
    got = _pushed(state, variable)
    variable -= 0.25  # another step's update, in place, before the loop packs the push
    assert got.tolist() == [0.5]


def test_a_large_array_goes_without_a_copy(state):
    large = np.zeros(wire.INLINE_MAX_BYTES // 4 + 1, np.float32)
    assert _pushed(state, large) is large
