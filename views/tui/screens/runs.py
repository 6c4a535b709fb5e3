"""The runs screen: step stats per device, sortable and filterable, with totals per op type.

Reading a run, sorting and filtering its rows run in a worker (a run may hold 100,000
executions); a run is read once into arrays (views/tui/step_table.py), kept on its RunView
for switching back, and each later action is a few array operations. The table draws only
the rows in view (widgets/lazy_table.py). Each action starts a new worker and the one before
it is dropped, so typing in the filter never queues.
"""

from __future__ import annotations

import os

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.worker import get_current_worker

from views import timeline
from views import node_search as search
from views.tui import bindings, stepstats
from views.tui.step_table import StepTable
from views.tui.widgets.footer import InspectorFooter
from views.tui.messages import FilterChanged, RowsReady, RunReadProgress
from views.tui.widgets.filter_bar import FilterBar
from views.tui.widgets.lazy_table import Column, LazyTable
from views.tui.widgets.plain import Static
from views.tui.widgets.stats_table import OpTotalsTable

SORT_ORDER = list(stepstats.COLUMNS)
TRACE_FILE = "trace.json"  # `T` writes the current run's Chrome trace here (working directory)
STEP_COLUMNS = [Column(key, title, numeric=key in ("start_us", "op_us", "all_us", "bytes"),
                       flexible=key == "node", min_width=12 if key == "node" else 6)
                for key, title in stepstats.COLUMNS.items()]


def _cells(row):
    return (row.short_device, row.node, row.op, str(row.start_us), stepstats.micros(row.op_us),
            stepstats.micros(row.all_us), str(row.bytes))


class RunsScreen(Screen):
    BINDINGS = bindings.RUNS

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.run_number = 0
        self.device_number = 0        # 0: every device; n: the n-th device
        self.sort_column = "start_us"
        self.reverse = False          # True: largest first
        self.filter_query = None      # the filter's search.Query, None when empty
        self.rows = []                # the StepRows shown, in order (a lazy sequence)
        self.table = None             # the current run's StepTable, once read
        self._totals = {}             # (run, device, regex, flags) -> op totals

    def compose(self) -> ComposeResult:
        yield Static("Runs", id="title", classes="screen-title")
        yield Static("", id="runs-caption")
        with Vertical(id="runs-body"):
            yield LazyTable(STEP_COLUMNS, id="steps")
            yield Static("totals per op type", classes="section-title")
            yield OpTotalsTable(id="op-totals")
        yield FilterBar(self.filter_submitted, id="filter-bar")
        yield InspectorFooter()

    def on_mount(self):
        self.refresh_rows()

    def on_screen_resume(self):
        self.refresh_rows()

    @property
    def runs(self):
        workspace = self.app.workspace
        return workspace.runs if workspace else []

    @property
    def run(self):
        return self.runs[self.run_number] if self.runs else None

    def devices(self):
        return [d.device for d in self.run.run_metadata.step_stats.dev_stats]

    def current_device(self):
        return self.devices()[self.device_number - 1] if self.device_number else None

    # ---- rows, made in a worker ---------------------------------------------------------------

    def refresh_rows(self):
        if not self.runs:
            self.query_one("#runs-caption", Static).update(
                "no run opened: open a RunMetadata (FULL_TRACE) with the graph, e.g."
                " graph-inspector graph.pb run.pb")
            return
        if self.run.table is None:
            self._caption(f"reading {self.run.executions:,} executions…")
            if self.rows:      # the run shown before: not this one's rows
                self.rows = []
                self.query_one(LazyTable).show(self.rows, _cells, titles=self._titles())
                self.query_one(OpTotalsTable).show([])
        run, device, query = self.run, self.current_device(), self.filter_query
        column, descending = self.sort_column, self.reverse
        # run_worker, not @work: @work describes a worker by the repr of its arguments, and
        # the repr of a run of 100,000 executions takes longer than the work.
        self.run_worker(lambda: self.make_rows(run, device, query, column, descending),
                        name="runs rows", group="runs", exclusive=True, thread=True)

    def make_rows(self, run, device, query, column, descending):
        """In a worker: the run's table (read once), the rows to show, their totals."""
        worker = get_current_worker()
        # One reading per run: a worker dropped while reading (the user switched run and
        # back) finishes it, and the next one waits for it instead of reading again.
        with run.reading:
            if run.table is None:
                def report(done, total):
                    # A message, not call_from_thread: that waits for the UI each time.
                    if not worker.is_cancelled:
                        self.post_message(RunReadProgress(run, done, total))
                table = StepTable(stepstats.read_columns(run.run_metadata.step_stats, report))
                table.natural = table.widths()
                run.table = table
        try:
            numbers = run.table.select(device, query, column, descending,
                                       lambda: worker.is_cancelled)
            key = (id(run), device) + ((query.pattern.pattern, query.pattern.flags)
                                       if query is not None else (None, 0))
            totals = self._totals.get(key)
            if totals is None:
                totals = self._totals[key] = run.table.totals(numbers)
        except stepstats.Cancelled:
            return
        if not worker.is_cancelled:
            self.post_message(RowsReady(run, run.table, numbers, totals))

    def on_run_read_progress(self, message: RunReadProgress):
        if message.run is self.run and message.run.table is None:
            self._caption(f"reading {message.done:,} of {message.total:,} executions…")

    def on_rows_ready(self, message: RowsReady):
        if message.run is not self.run:
            return
        self.table = message.table
        self.rows = _Rows(message.table.rows, message.numbers)
        device = self.current_device()
        caption = Text.assemble((self.run.label, "bold"), f"  run {self.run_number + 1}/"
                                f"{len(self.runs)}  device: ",
                                (device or f"all {len(self.devices())} devices", "cyan"),
                                f"  {len(self.rows):,} executions")
        if self.filter_query is not None:
            caption.append(f"  filter {self.filter_query.pattern.pattern!r}", style="yellow")
        self._caption(caption)
        self.query_one(LazyTable).show(self.rows, _cells, message.table.natural, self._titles())
        self.query_one(OpTotalsTable).show(message.totals)
        bar = self.query_one(FilterBar)
        if bar.is_open and self.filter_query is not None:
            bar.status(f"{len(self.rows):,} rows")

    def _titles(self):
        arrow = " ▼" if self.reverse else " ▲"
        return {self.sort_column: stepstats.COLUMNS[self.sort_column] + arrow}

    def _caption(self, text):
        self.query_one("#runs-caption", Static).update(text)

    # ---- sorting, devices, runs ---------------------------------------------------------------

    def sort_by(self, column):
        """Sort by `column`: a new column starts largest first for times and bytes, else
        smallest first; the same column again reverses."""
        if column == self.sort_column:
            self.reverse = not self.reverse
        else:
            self.sort_column, self.reverse = column, column in stepstats.DESCENDING_FIRST
        self.refresh_rows()

    def action_sort_next(self):
        position = SORT_ORDER.index(self.sort_column)
        self.sort_by(SORT_ORDER[(position + 1) % len(SORT_ORDER)])

    def action_sort_reverse(self):
        self.sort_by(self.sort_column)

    def on_lazy_table_header_clicked(self, event: LazyTable.HeaderClicked):
        self.sort_by(event.key)

    def action_next_device(self):
        if self.runs:
            self.device_number = (self.device_number + 1) % (len(self.devices()) + 1)
            self.refresh_rows()

    def show_run(self, number):
        if self.runs and number != self.run_number:
            self.run_number, self.device_number = number, 0   # totals are kept per run
            self.query_one(LazyTable).cursor = 0
        self.refresh_rows()

    def action_choose_run(self):
        from views.tui.screens.pickers import RunPicker
        if not self.runs:
            self.notify("no run opened", severity="warning")
            return

        def chosen(number):
            if number is not None:
                self.show_run(number)
        self.app.push_screen(RunPicker(self.runs, self.run_number), chosen)

    # ---- trace export ------------------------------------------------------------------------

    def action_export_trace(self):
        """Writes the current run as a Chrome trace (views/timeline) to a file that does not
        exist yet (trace.json, else trace-1.json, ...) and says where."""
        if not self.runs:
            self.notify("no run to export", severity="warning")
            return
        run = self.run
        path = free_path(os.path.abspath(TRACE_FILE))
        try:
            timeline.write_trace(path, [timeline.TraceRun.of_run_metadata(
                run.run_metadata, run.label, source=run.source)])
        except OSError as error:
            self.notify(f"trace not written: {path}: {error.strerror or error}", severity="error")
            return
        self.notify(f"trace written: {path} (open it in ui.perfetto.dev)")

    # ---- filter and choosing a row ------------------------------------------------------------

    def on_key(self, event) -> None:
        self.query_one(FilterBar).route_key(event, {"slash": self.action_filter})

    def action_filter(self):
        self.query_one(FilterBar).open()

    def action_close_filter(self):
        self.query_one(FilterBar).close()
        self.query_one(LazyTable).focus()

    def on_filter_changed(self, message: FilterChanged):
        self.filter_query = search.compile_query(message.text) if message.text else None
        self.refresh_rows()

    def filter_submitted(self, text):
        self.action_close_filter()

    def on_lazy_table_row_chosen(self, event: LazyTable.RowChosen):
        run = self.run
        self.app.go_to_node(event.row.node,
                            prefer=None if self.app.workspace.graphs else run.partitions)


class _Rows:
    """The StepRows numbered `numbers`, as a sequence (no list of 100,000 rows is copied)."""

    def __init__(self, rows, numbers):
        self._rows, self._numbers = rows, numbers

    def __len__(self):
        return len(self._numbers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._rows[n] for n in self._numbers[index]]
        return self._rows[self._numbers[index]]


def free_path(path):
    """`path` when nothing is there, else the first of stem-1.ext, stem-2.ext, ... that is free.

    >>> free_path("/nonexistent/trace.json")
    '/nonexistent/trace.json'
    """
    stem, ext = os.path.splitext(path)
    number = 0
    while os.path.exists(path):
        number += 1
        path = f"{stem}-{number}{ext}"
    return path
