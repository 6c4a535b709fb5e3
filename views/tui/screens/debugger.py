"""The debugger screen: a Session.run paused between nodes, stepped and continued by key.

The screen draws what its controller (app.debugger, made by inspector.debug.tui) holds and
sends it commands; views never import the debugger itself. The controller offers: `run`
(the DebugRun shown, or None), `breakpoints`, `status` (the program's state in words),
`output()` (the program's last printed lines), `command(name)` for step/cont/finish/next/
rerun (blocking: called from a thread worker), `toggle_node_breakpoint(name)`,
`add_breakpoint(text)`, `toggle_breakpoint(number)`, `watch(tensor)`, `graph_view(run)` and
`listen(callback)`, called from any thread when something changed.
"""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from views.tui import bindings
from views.tui.widgets.footer import InspectorFooter
from views.tui.messages import DebugCommandDone, DebugUpdated
from views.tui.widgets.debug_panels import FrontierPanel, NodeNeighbourhood, TensorPanel
from views.tui.widgets.debug_tables import BreakpointsTable, HistoryTable
from views.tui.widgets.plain import Static
from views.tui.widgets.typeahead import TypeAheadInput


BREAK_PROMPT = "breakpoint: REGEX (node name), op=REGEX, device=REGEX or nan"


class DebuggerScreen(Screen):
    BINDINGS = bindings.DEBUGGER

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.busy = False           # a command is being carried out
        self.queued = deque()       # the commands typed meanwhile, carried out in turn
        self.shown_graph = set()
        self.input_mode = "break"   # what the input line is asking for: "break" or "watch"

    @property
    def controller(self):
        return getattr(self.app, "debugger", None)

    def compose(self) -> ComposeResult:
        yield Static("Debugger", id="title", classes="screen-title")
        yield Static("", id="debug-caption")
        with Horizontal(id="debug-body"):
            with Vertical(id="debug-run"):
                yield Static("run: nodes in the order they ran", classes="section-title")
                yield HistoryTable(id="debug-history")
                yield Static("graph: the current node, its inputs and consumers",
                             classes="section-title")
                yield NodeNeighbourhood(id="debug-graph")
            with Vertical(id="debug-side"):
                yield Static("tensor", classes="section-title")
                yield TensorPanel(id="debug-tensor")
                yield Static("frontier", classes="section-title")
                yield FrontierPanel(id="debug-frontier")
                yield Static("breakpoints (Enter: on/off)", classes="section-title")
                yield BreakpointsTable(id="debug-breakpoints")
                yield Static("program output", classes="section-title")
                yield Static("", id="debug-output")
        yield TypeAheadInput(self._submit_input, placeholder=BREAK_PROMPT, id="debug-input")
        yield InspectorFooter()

    def on_mount(self):
        if self.controller is not None:
            self.controller.listen(lambda: self.post_message(DebugUpdated()))
        self.refresh_all()

    def on_screen_resume(self):
        self.refresh_all()

    def on_debug_updated(self, message: DebugUpdated):
        self.refresh_all()

    def refresh_all(self):
        controller = self.controller
        caption = self.query_one("#debug-caption", Static)
        if controller is None:
            caption.update("no program is being debugged: graph-inspector debug SCRIPT.py")
            return
        run = controller.run
        text = Text(controller.status, style="bold")
        if run is not None:
            text.append(f"   {run.label}: ")
            state = run.state
            text.append(state, style="bold yellow" if state == "paused" else "green")
            if state == "paused":
                text.append(f" ({run.stop_reason})")
            elif run.error is not None:
                text.append(f" {type(run.error).__name__}", style="bold red")
        if self.busy:
            text.append("   running…", style="italic")
        caption.update(text)
        self.query_one(HistoryTable).show(run)
        self.query_one(TensorPanel).show(run)
        self.query_one(FrontierPanel).show(run)
        self.query_one(NodeNeighbourhood).show(run)
        self.query_one(BreakpointsTable).show(controller.breakpoints)
        self.query_one("#debug-output", Static).update("\n".join(controller.output()[-8:]))
        self._add_graph(run)

    def _add_graph(self, run):
        """The run's graph into the workspace once, so g can show the node in the browser."""
        workspace = self.app.workspace
        if run is None or workspace is None or id(run.session) in self.shown_graph:
            return
        view = self.controller.graph_view(run)
        if view is not None:
            self.shown_graph.add(id(run.session))
            workspace.graphs.append(view)

    # Commands that move the run: in a thread, one at a time, in the order typed --------------

    def _move(self, name):
        controller = self.controller
        if controller is None or controller.run is None:
            self.notify("no run to drive yet", severity="warning")
            return
        # Keys typed while a command runs (s s s, fast or in one burst) are queued, not
        # dropped: each acts on where the one before it left the run, as at the prompt.
        self.queued.append(name)
        if not self.busy:
            self._next_command()

    def _next_command(self):
        self.busy = bool(self.queued)
        self.refresh_all()
        if self.queued:
            self._command(self.queued.popleft())

    @work(thread=True, group="debug")
    def _command(self, name):
        try:
            self.controller.command(name)
        except Exception as error:  # noqa: BLE001  (shown, never fatal to the UI)
            self.app.call_from_thread(self.notify, str(error), severity="error")
        finally:
            self.post_message(DebugCommandDone())

    def on_debug_command_done(self, message: DebugCommandDone):
        self._next_command()

    def action_step(self):
        self._move("step")

    def action_cont(self):
        self._move("cont")

    def action_finish(self):
        """Ends this Session.run without stopping again in it; later runs stop only at a
        breakpoint (the prompt's f)."""
        self._move("finish")

    def action_next_run(self):
        """Ends this Session.run without stopping and stops at the start of the next."""
        self._move("next")

    def action_rerun(self):
        self._move("rerun")

    # Commands that change settings ----------------------------------------------------------

    def action_toggle_break(self):
        run = self.controller.run if self.controller else None
        if run is None or run.current is None:
            self.notify("no current node: step first, or a to add a breakpoint")
            return
        self.notify(self.controller.toggle_node_breakpoint(run.current.name))
        self.refresh_all()

    def action_add_break(self):
        self._open_input("break", BREAK_PROMPT, "")

    def on_key(self, event) -> None:
        # a, or w, and what follows typed in one burst: the breakpoint (or tensor) is the
        # keys after it, not the bindings they name (o, g, n, ...).
        field = self.query_one("#debug-input", TypeAheadInput)
        field.route_key(event, {"a": self.action_add_break, "w": self.action_watch},
                        closed=not field.has_class("-open"))

    def _open_input(self, mode, placeholder, value):
        self.input_mode = mode
        field = self.query_one("#debug-input", TypeAheadInput)
        field.placeholder, field.value = placeholder, value
        field.add_class("-open")
        field.open()

    def action_close_input(self):
        field = self.query_one("#debug-input", TypeAheadInput)
        field.remove_class("-open")
        field.close()
        self.query_one(HistoryTable).focus()

    def _submit_input(self, value):
        text = value.strip()
        if text and self.input_mode == "watch":
            self.controller.watch(text)
            self.notify(f"watching {text}: its values show under the tensor as it is produced")
        elif text:
            try:
                self.notify(self.controller.add_breakpoint(text))
            except ValueError as error:
                self.notify(str(error), severity="error")
        self.query_one("#debug-input", TypeAheadInput).value = ""
        self.action_close_input()
        self.refresh_all()

    def on_data_table_row_selected(self, event):
        if event.data_table.id == "debug-breakpoints" and self.controller is not None:
            self.controller.toggle_breakpoint(int(event.row_key.value))
            self.refresh_all()

    def action_watch(self):
        """Asks what to watch (a tensor, or a node for all its outputs), the current node
        offered."""
        run = self.controller.run if self.controller else None
        current = run.current.name if run is not None and run.current is not None else ""
        self._open_input("watch", "watch: a tensor (name:0) or a node (all its outputs)",
                         current)

    def action_show_in_graph(self):
        run = self.controller.run if self.controller else None
        if run is not None and run.current is not None:
            self.app.go_to_node(run.current.name)
