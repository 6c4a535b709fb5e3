"""The log screen: graphs a VLOG dumped, in log order, and each step's execution, replayable."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from views.tui import bindings
from views.tui.widgets.footer import InspectorFooter
from views.tui.widgets.plain import DataTable, Static

WINDOW = 12   # executed nodes shown either side of the replay position


class LogScreen(Screen):
    BINDINGS = bindings.LOG

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.execution = None
        self.position = 0

    def compose(self) -> ComposeResult:
        yield Static("Logs", id="title", classes="screen-title")
        yield Static("", id="log-caption")
        with Horizontal(id="log-body"):
            with Vertical(id="log-lists"):
                yield Static("graphs dumped, in log order", classes="section-title")
                yield DataTable(id="log-graphs", cursor_type="row")
                yield Static("executions (Enter: replay)", classes="section-title")
                yield DataTable(id="log-steps", cursor_type="row")
            yield Static("", id="replay")
        yield InspectorFooter()

    def on_mount(self):
        self.query_one("#log-graphs", DataTable).add_columns("#", "label", "nodes")
        self.query_one("#log-steps", DataTable).add_columns("#", "step", "nodes run")
        self.fill()

    def on_screen_resume(self):
        self.fill()

    def fill(self):
        workspace = self.app.workspace
        graphs = [v for v in (workspace.graphs if workspace else []) if v.kind == "vlog"]
        executions = workspace.executions if workspace else []
        table = self.query_one("#log-graphs", DataTable)
        table.clear()
        self.graphs = graphs
        for n, view in enumerate(graphs):
            table.add_row(str(n), view.label, str(len(view.graph_defs[0].node)), key=str(n))
        steps = self.query_one("#log-steps", DataTable)
        steps.clear()
        for n, execution in enumerate(executions):
            steps.add_row(str(n), execution.label, str(len(execution.nodes)), key=str(n))
        if not graphs and not executions:
            self.query_one("#log-caption", Static).update(
                "no VLOG opened: graph-inspector LOG opens a TensorFlow or engine VLOG log")
        else:
            self.query_one("#log-caption", Static).update(
                f"{len(graphs)} graphs, {len(executions)} executions")

    def on_data_table_row_selected(self, event):
        workspace = self.app.workspace
        if event.data_table.id == "log-graphs":
            self.app.show_view(self.graphs[int(event.row_key.value)])
        else:
            self.execution = workspace.executions[int(event.row_key.value)]
            self.position = 0
            self.show_replay()

    def action_replay_step(self):
        if self.execution:
            self.position = min(self.position + 1, len(self.execution.nodes) - 1)
            self.show_replay()

    def action_replay_back(self):
        if self.execution:
            self.position = max(self.position - 1, 0)
            self.show_replay()

    def action_replay_show(self):
        """The node at the replay position, in the graph dump that execution ran."""
        if self.execution:
            self.app.go_to_node(self.execution.nodes[self.position], prefer=self.execution.graph)

    def show_replay(self):
        nodes = self.execution.nodes
        text = Text.assemble((self.execution.label, "bold"),
                             f"  node {self.position + 1} of {len(nodes)}"
                             " (space: next, backspace: back, g: show it)\n\n")
        for n in range(max(0, self.position - WINDOW), min(len(nodes), self.position + WINDOW)):
            style = "reverse bold" if n == self.position else ("dim" if n > self.position else "")
            text.append(f"{n + 1:5d}  {nodes[n]}\n", style=style)
        self.query_one("#replay", Static).update(text)
