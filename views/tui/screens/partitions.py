"""The partitions screen: each run's devices with their node and _Send/_Recv counts."""

from __future__ import annotations

from collections import Counter

from textual.app import ComposeResult
from textual.screen import Screen

from views.tui.widgets.footer import InspectorFooter
from views.tui.widgets.plain import DataTable, Static


class PartitionsScreen(Screen):
    """Enter on a device opens that run's partition graphs in the browser, at that device."""

    def compose(self) -> ComposeResult:
        yield Static("Partition graphs", id="title", classes="screen-title")
        yield Static("", id="partitions-caption")
        yield DataTable(id="devices", cursor_type="row", zebra_stripes=True)
        yield InspectorFooter()

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("run", "device", "nodes", "_Send", "_Recv", "top ops")
        self.fill()

    def on_screen_resume(self):
        self.fill()

    def fill(self):
        workspace = self.app.workspace
        table = self.query_one(DataTable)
        table.clear()
        self.rows = []
        runs = [run for run in (workspace.runs if workspace else []) if run.partitions]
        if not runs:
            self.query_one("#partitions-caption", Static).update(
                "no partition graphs: open a RunMetadata made with output_partition_graphs")
            return
        self.query_one("#partitions-caption", Static).update(
            "Enter: browse that device's partition (_Send/_Recv link to their twins)")
        for run in runs:
            for number, graph_def in enumerate(run.partitions.graph_defs):
                ops = Counter(node.op for node in graph_def.node)
                device = run.partitions.index.parts[number].device
                top = ", ".join(f"{op} {n}" for op, n in ops.most_common(3))
                sends = ops["_Send"] + ops["_HostSend"]
                recvs = ops["_Recv"] + ops["_HostRecv"]
                table.add_row(run.label, device, str(len(graph_def.node)), str(sends), str(recvs),
                              top, key=str(len(self.rows)))
                self.rows.append((run.partitions, number))

    def on_data_table_row_selected(self, event):
        view, number = self.rows[int(event.row_key.value)]
        self.app.go_to_scope(view, number)
