"""`graph-inspector debug` in the TUI: the program on a thread, the debugger screen in front.

TuiController is the screen's controller (see views/tui/screens/debugger.py) and the
ScriptDebugger's frontend: the program's thread hands it each run that stops and waits
until the user has let that run end; the screen's keys become DebugRun commands.
"""

from __future__ import annotations

import io
import sys
import threading
from collections import deque

from inspector.debug.breakpoints import Breakpoint
from inspector.debug.observer import DebugAborted
from inspector.debug.script import ScriptDebugger


class ProgramOutput(io.TextIOBase):
    """What the program prints, kept (last lines) for the screen instead of the terminal."""

    def __init__(self, limit=500):
        self.lines = deque(maxlen=limit)
        self._partial = ""

    def writable(self):
        return True

    def write(self, text):
        text = self._partial + text
        *complete, self._partial = text.split("\n")
        self.lines.extend(complete)
        return len(text)

    def all(self):
        return list(self.lines) + ([self._partial] if self._partial else [])


class TuiController:
    def __init__(self, program, label, run_filter=None, break_on_nan=False):
        self.program, self.script = program, label   # program(ScriptDebugger) runs it all
        self.debugger = ScriptDebugger(self, run_filter, break_on_nan)
        self.pause_next_start = False
        self.run = None
        self.status = f"{label}: starting"
        self.exit_code = None
        self.printed = ProgramOutput()
        self._listeners = []
        self._released = threading.Event()
        self._quitting = False
        self._thread = None
        self._screen_ready = threading.Event()

    # The program's side -------------------------------------------------------------------

    def start_program(self):
        self._thread = threading.Thread(target=self._program, name="debugged-program",
                                        daemon=True)
        self._thread.start()

    def _program(self):
        self._screen_ready.wait(10)  # Textual has taken the terminal (and sys.stdout) first
        self.status = f"{self.script}: running"
        saved = sys.stdout
        sys.stdout = self.printed  # the terminal is the TUI's while the program runs
        try:
            code = self.program(self.debugger) or 0
            self.status, self.exit_code = f"{self.script}: finished", code
        except DebugAborted:
            self.status, self.exit_code = f"{self.script}: stopped", 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            self.status, self.exit_code = f"{self.script}: exited {code}", code
        except Exception as error:  # noqa: BLE001  (the program's error, shown on the screen)
            self.status = f"{self.script}: failed: {type(error).__name__}: {error}".splitlines()[0]
            self.exit_code = 1
        finally:
            if sys.stdout is self.printed:
                sys.stdout = saved
            self._notify()

    def __call__(self, run):
        """The frontend: show `run`, wait until the user lets it end."""
        self.run = run
        self._released.clear()
        self._notify()
        while not run.finished and not self._quitting:
            self._released.wait(0.5)

    # The screen's side ----------------------------------------------------------------------

    @property
    def breakpoints(self):
        return self.debugger.breakpoints

    def output(self):
        return self.printed.all()

    def listen(self, callback):
        self._listeners.append(callback)
        self._screen_ready.set()

    def _notify(self):
        for callback in list(self._listeners):
            callback()

    def command(self, name):
        run = self.run
        if run is None or run.finished:
            raise RuntimeError("no paused run: the program is between runs or has ended")
        if name == "next":
            self.pause_next_start = True
            run.finish()
        elif name == "cont":
            run.cont()
        else:
            getattr(run, name)()
        if run.finished:
            self._released.set()

    def toggle_node_breakpoint(self, node):
        for bp in self.breakpoints:
            if bp.name == f"^{node}$":
                bp.enabled = not bp.enabled
                return f"breakpoint {bp.number} at {node} {'on' if bp.enabled else 'off'}"
        bp = Breakpoint(name=f"^{node}$")
        self.breakpoints.append(bp)
        return f"breakpoint {bp.number} at {node}"

    def add_breakpoint(self, text):
        bp = Breakpoint.parse(text)
        self.breakpoints.append(bp)
        return f"breakpoint {bp.number}: {bp.label}"

    def toggle_breakpoint(self, number):
        for bp in self.breakpoints:
            if bp.number == number:
                bp.enabled = not bp.enabled

    def watch(self, tensor):
        self.debugger.watched.add(tensor)

    def graph_view(self, run):
        from engine.framework.traceback import useful_frames
        from views.tui.workspace import GraphView
        graph = run.session.graph
        view = GraphView(f"{self.script} graph", [graph.as_graph_def()], "engine")
        view.traces = {op.name: useful_frames(op.traceback) for op in graph.get_operations()
                       if op.traceback}
        return view

    def quit(self):
        """The app is closing: stop the run shown and let the program thread end."""
        self._quitting = True
        if self.run is not None and not self.run.finished:
            self.run.quit()
        self._released.set()
        if self._thread is not None:
            self._thread.join(5)


def run_in_tui(program, label, run_filter=None, break_on_nan=False):
    """Runs program(ScriptDebugger) on a thread with the debugger screen; its exit code."""
    from views.tui import InspectorApp
    from views.tui.workspace import Workspace

    controller = TuiController(program, label, run_filter, break_on_nan)
    app = InspectorApp(workspace=Workspace(), debugger=controller)
    controller.start_program()
    saved = sys.stdout
    try:
        app.run()
    finally:
        controller.quit()
        sys.stdout = saved
    printed = controller.output()
    if printed:
        print("\n".join(printed))
    print(f"debugger: {controller.status}", file=sys.stderr)
    return controller.exit_code or 0
