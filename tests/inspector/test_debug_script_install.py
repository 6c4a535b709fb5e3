"""ScriptDebugger.installed(): overlapping debugged programs (one still ending as the next
starts) each have their runs debugged, and Session.run comes back as it was."""

import threading

import numpy as np

import engine as tf
from engine.runtime import session as session_lib
from inspector.debug.script import ScriptDebugger


class _Counting(ScriptDebugger):
    def __init__(self):
        super().__init__(frontend=lambda run: None)
        self.stop_at_next = False  # no stops: only count the runs that reach this debugger
        self.seen = 0

    def session_run(self, original, session, *args):
        self.seen += 1
        return original(session, *args)


def test_overlapping_installs_route_runs_and_restore_session_run():
    original = session_lib.BaseSession.run
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(np.float32(2.0)) * 3.0
    sess = tf.Session(graph=graph)
    first, second = _Counting(), _Counting()
    entered_second, left_first = threading.Event(), threading.Event()

    def first_program():
        with first.installed():
            assert sess.run(x) == 6.0
            entered_second.wait(10)
        left_first.set()

    thread = threading.Thread(target=first_program)
    thread.start()
    with second.installed():
        entered_second.set()
        assert left_first.wait(10)  # the first program ended while the second runs
        assert sess.run(x) == 6.0   # ... and this run is still the second debugger's
    thread.join(10)
    assert (first.seen, second.seen) == (1, 1)
    assert session_lib.BaseSession.run is original
    assert sess.run(x) == 6.0 and (first.seen, second.seen) == (1, 1)
