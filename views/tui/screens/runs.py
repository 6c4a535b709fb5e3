"""The runs screen: step stats per device, sortable and filterable, with totals per op type."""

from __future__ import annotations

import os

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from views import timeline
from views.tui import bindings, search, stepstats
from views.tui.messages import FilterChanged, FilterSubmitted
from views.tui.widgets.filter_bar import FilterBar
from views.tui.widgets.stats_table import OpTotalsTable, StepStatsTable

SORT_ORDER = list(stepstats.COLUMNS)
TRACE_FILE = "trace.json"  # `T` writes the current run's Chrome trace here (working directory)


class RunsScreen(Screen):
    BINDINGS = bindings.RUNS

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.run_number = 0
        self.device_number = 0        # 0: every device; n: the n-th device
        self.sort_column = "start_us"
        self.reverse = False
        self.pattern = None
        self.rows = []

    def compose(self) -> ComposeResult:
        yield Static("Runs", id="title", classes="screen-title")
        yield Static("", id="runs-caption")
        with Vertical(id="runs-body"):
            yield StepStatsTable(id="steps")
            yield Static("totals per op type", classes="section-title")
            yield OpTotalsTable(id="op-totals")
        yield FilterBar(id="filter-bar")
        yield Footer()

    def on_mount(self):
        self.refresh_rows()

    def on_screen_resume(self):
        self.refresh_rows()

    @property
    def runs(self):
        workspace = self.app.workspace
        return workspace.runs if workspace else []

    def devices(self):
        run = self.runs[self.run_number]
        return [d.device for d in run.run_metadata.step_stats.dev_stats]

    def refresh_rows(self):
        if not self.runs:
            self.query_one("#runs-caption", Static).update(
                "no run opened: open a RunMetadata (FULL_TRACE) with the graph, e.g."
                " graph-inspector graph.pb run.pb")
            return
        run = self.runs[self.run_number]
        devices = self.devices()
        rows = stepstats.step_rows(run.run_metadata.step_stats)
        device = devices[self.device_number - 1] if self.device_number else None
        if device:
            rows = [r for r in rows if r.device == device]
        rows = stepstats.filter_rows(rows, self.pattern)
        self.rows = stepstats.sort_rows(rows, self.sort_column, self.reverse)
        caption = Text.assemble((run.label, "bold"), "  device: ",
                                (device or f"all {len(devices)} devices", "cyan"),
                                f"  {len(self.rows)} executions")
        if self.pattern is not None:
            caption.append(f"  filter {self.pattern.pattern!r}", style="yellow")
        self.query_one("#runs-caption", Static).update(caption)
        self.query_one(StepStatsTable).show(self.rows, self.sort_column, self.reverse)
        self.query_one(OpTotalsTable).show(stepstats.op_totals(self.rows))

    def action_sort_next(self):
        position = SORT_ORDER.index(self.sort_column)
        self.sort_column = SORT_ORDER[(position + 1) % len(SORT_ORDER)]
        self.refresh_rows()

    def action_sort_reverse(self):
        self.reverse = not self.reverse
        self.refresh_rows()

    def on_data_table_header_selected(self, event):
        if event.data_table.id == "steps":
            column = event.column_key.value
            self.reverse = not self.reverse if column == self.sort_column else False
            self.sort_column = column
            self.refresh_rows()

    def action_next_device(self):
        if self.runs:
            self.device_number = (self.device_number + 1) % (len(self.devices()) + 1)
            if self.device_number == 0 and len(self.runs) > 1:
                self.run_number = (self.run_number + 1) % len(self.runs)
            self.refresh_rows()

    def action_export_trace(self):
        """Writes the current run as a Chrome trace (views/timeline) and says where."""
        if not self.runs:
            self.notify("no run to export", severity="warning")
            return
        run = self.runs[self.run_number]
        path = os.path.abspath(TRACE_FILE)
        try:
            timeline.write_trace(path, [timeline.TraceRun.of_run_metadata(
                run.run_metadata, run.label, source=run.source)])
        except OSError as error:
            self.notify(f"trace not written: {path}: {error.strerror or error}", severity="error")
            return
        self.notify(f"trace written: {path} (open it in ui.perfetto.dev)")

    def action_filter(self):
        self.query_one(FilterBar).open()

    def action_close_filter(self):
        self.query_one(FilterBar).close()
        self.query_one(StepStatsTable).focus()

    def on_filter_changed(self, message: FilterChanged):
        self.pattern = search.compile_query(message.text).pattern if message.text else None
        self.refresh_rows()

    def on_filter_submitted(self, message: FilterSubmitted):
        self.action_close_filter()

    def on_data_table_row_selected(self, event):
        if event.data_table.id != "steps":
            return
        name = event.row_key.value.partition(":")[2]
        run = self.runs[self.run_number]
        self.app.go_to_node(name, prefer=None if self.app.workspace.graphs else run.partitions)
