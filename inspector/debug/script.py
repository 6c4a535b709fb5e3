"""Debugging a whole program: every Session.run it makes goes through the debugger.

As tfdbg's LocalCLIDebugWrapperSession, from the outside: while the program runs,
engine.runtime.session.BaseSession.run is replaced (and put back afterwards) by one that decides per
run whether to stop at its start (the first run; runs whose fetches match --run-filter; the
next run when the user asked for it), only on a breakpoint (--break-on-nan, or breakpoints
set earlier), or not at all (the plain fast path).
"""

from __future__ import annotations

import contextlib
import os
import re
import runpy
import sys
import threading

from engine.runtime import session as session_lib
from engine.runtime.fetches import FetchMapper
from engine.framework.default_graph import fresh_default_graph

from inspector.debug.breakpoints import Breakpoint
from inspector.debug.run import DebugRun
from inspector.debug.tensors import has_inf_or_nan


class ScriptDebugger:
    """Run policy and shared settings; `frontend(run)` drives each run it stops in."""

    def __init__(self, frontend, run_filter=None, break_on_nan=False):
        self.frontend = frontend
        self.run_filter = re.compile(run_filter) if run_filter else None
        self.break_on_nan = break_on_nan
        self.breakpoints = [Breakpoint(predicate=has_inf_or_nan)] if break_on_nan else []
        self.watched = set()
        self.runs = 0            # Session.run calls seen
        self.stop_at_next = not break_on_nan and self.run_filter is None
        self.last_run = None

    def wants_start(self, fetch_names):
        if self.run_filter is not None:
            return any(self.run_filter.search(name) for name in fetch_names)
        if self.stop_at_next or getattr(self.frontend, "pause_next_start", False):
            self.stop_at_next = False
            if hasattr(self.frontend, "pause_next_start"):
                self.frontend.pause_next_start = False
            return True
        return False

    def session_run(self, original, session, fetches, feed_dict=None, options=None,
                    run_metadata=None):
        """What Session.run does while the program is debugged."""
        self.runs += 1
        names = fetch_names(session, fetches)
        stop_at_start = self.wants_start(names)
        if not stop_at_start and not any(b.enabled for b in self.breakpoints):
            return original(session, fetches, feed_dict, options, run_metadata)
        run = DebugRun(session, fetches, feed_dict, options, run_metadata, self.breakpoints,
                       self.watched)
        run.label = f"Session.run #{self.runs}: {', '.join(names)}"
        self.last_run = run
        run.start(pause_at_start=stop_at_start)
        if not run.finished:
            self.frontend(run)
        return run.result()

    @contextlib.contextmanager
    def installed(self):
        """Session.run replaced by session_run inside the block (see _Installed: blocks of
        two debuggers may overlap, and Session.run comes back as it was)."""
        _INSTALLED.push(self)
        try:
            yield self
        finally:
            _INSTALLED.remove(self)

    def run_script(self, path, args=()):
        """Runs the program at `path` as __main__ with sys.argv = [path, *args]."""
        saved_argv, saved_path = sys.argv, list(sys.path)
        sys.argv = [path, *args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        try:
            # A fresh default graph, as the program would have in a process of its own;
            # not a nested one, so the program's tf.reset_default_graph() works.
            with self.installed(), fresh_default_graph():
                runpy.run_path(path, run_name="__main__")
        finally:
            sys.argv, sys.path[:] = saved_argv, saved_path


class _Installed:
    """The debuggers whose programs run now, newest last. BaseSession.run is replaced once, by
    the first, and put back by the last to leave: each debugger saving and restoring
    Session.run itself let two overlapping programs (one still ending while the next starts,
    as in a test run under load) leave the second undebugged and Session.run wrapped for good.
    A run goes to the newest debugger."""

    def __init__(self):
        self._lock = threading.Lock()
        self._debuggers = []
        self._original = None

    def push(self, debugger):
        with self._lock:
            if not self._debuggers:
                self._original = session_lib.BaseSession.run

                def run(session, fetches, feed_dict=None, options=None, run_metadata=None):
                    return self._dispatch(session, fetches, feed_dict, options, run_metadata)
                session_lib.BaseSession.run = run  # a function: bound to each session
            self._debuggers.append(debugger)

    def remove(self, debugger):
        with self._lock:
            self._debuggers.remove(debugger)
            if not self._debuggers:
                session_lib.BaseSession.run = self._original

    def _dispatch(self, session, fetches, feed_dict=None, options=None, run_metadata=None):
        debuggers, original = self._debuggers, self._original
        if not debuggers:  # (a run that began as the last debugger left)
            return original(session, fetches, feed_dict, options, run_metadata)
        return debuggers[-1].session_run(original, session, fetches, feed_dict, options,
                                         run_metadata)


_INSTALLED = _Installed()


def fetch_names(session, fetches):
    """The fetched tensors' and ops' names, for --run-filter and the run's label."""
    try:
        elements = FetchMapper.for_fetch(fetches, session.graph).elements
    except Exception:  # noqa: BLE001  (Session.run itself reports bad fetches)
        return [repr(fetches)]
    return [getattr(element, "name", str(element)) for element in elements]
