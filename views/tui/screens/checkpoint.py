"""The checkpoint screen: every variable of the checkpoints opened, sortable and filterable; two side by side.

One checkpoint: name, dtype, shape, size, bytes; the highlighted variable's statistics below
(its bytes are read then, in a worker); `k` lists the next one. Two or more: `c` compares
the listed checkpoint (a) with the next (b), listing for
each variable the largest absolute difference and the relative norm ||b - a|| / ||a||, most
changed first. Enter goes to the variable's node in the graph when one is open.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.worker import get_current_worker

from parsers.printable import printable
from views import checkpoint_compare
from views import node_search as search
from views.tui import bindings, details
from views.tui.messages import FilterChanged
from views.tui.widgets.filter_bar import FilterBar
from views.tui.widgets.footer import InspectorFooter
from views.tui.widgets.plain import DataTable, Static

# column key -> (title, sort key of a VariableInfo)
COLUMNS = {
    "name": ("name", lambda info: info.name),
    "dtype": ("dtype", lambda info: info.dtype),
    "shape": ("shape", lambda info: info.shape),
    "size": ("size", lambda info: info.size),
    "bytes": ("bytes", lambda info: info.nbytes),
}
COMPARE_COLUMNS = ("name", "dtype", "shape", "max |b-a|", "‖b-a‖/‖a‖")


def _shape(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _number(x):
    return "-" if x is None else f"{x:.4g}"


def _fill(table, titles, rows, keys):
    """Columns as wide as their widest cell (rows arrive after the columns), then the rows."""
    rows = [[printable(cell) for cell in row] for row in rows]  # names as the table shows them
    for number, title in enumerate(titles):
        table.add_column(title, width=max([len(title)] + [len(row[number]) for row in rows]))
    for row, key in zip(rows, keys):
        table.add_row(*row, key=key)


class CheckpointScreen(Screen):
    BINDINGS = bindings.CHECKPOINTS

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.number = 0              # which opened checkpoint is listed
        self.sort_column, self.reverse = "bytes", True
        self.pattern = None
        self.comparing = False
        self.compared = None         # [Compared] once the worker is done

    def compose(self) -> ComposeResult:
        yield Static("Checkpoint", id="title", classes="screen-title")
        yield Static("", id="checkpoint-caption")
        yield DataTable(id="variables", cursor_type="row", zebra_stripes=True)
        yield Static("", id="variable-stats")
        yield FilterBar(self.filter_submitted, id="filter-bar")
        yield InspectorFooter()

    def on_mount(self):
        self.refresh_rows()

    def on_screen_resume(self):
        self.refresh_rows()

    def workspace_ready(self):
        self.refresh_rows()

    @property
    def checkpoints(self):
        workspace = self.app.workspace
        return getattr(workspace, "checkpoints", []) if workspace else []

    def _matches(self, name):
        return self.pattern is None or self.pattern.search(name) is not None

    def refresh_rows(self):
        caption = self.query_one("#checkpoint-caption", Static)
        table = self.query_one("#variables", DataTable)
        table.clear(columns=True)
        if not self.checkpoints:
            caption.update("no checkpoint opened: open one beside the graph, e.g. "
                           "graph-inspector model.ckpt-1000.meta model.ckpt-1000")
            return
        if self.comparing and len(self.checkpoints) > 1:
            self.query_one("#variable-stats", Static).update(
                "max |b-a|: the largest change of one entry; ‖b-a‖/‖a‖: how far the whole tensor moved "
                "(entries finite in both)")
            self._show_comparison(caption, table)
            return
        label, checkpoint = self.checkpoints[self.number]
        title, key = COLUMNS[self.sort_column]
        rows = sorted((info for info in checkpoint.variables if self._matches(info.name)),
                      key=key, reverse=self.reverse)
        total = sum(info.nbytes for info in checkpoint.variables)
        text = Text.assemble((label, "bold"), f"  {len(rows)} of {len(checkpoint.variables)} variables, "
                             f"{total:,} bytes in {checkpoint.num_shards} shard(s)  sorted by ",
                             (f"{title}{' ↓' if self.reverse else ' ↑'}", "cyan"))
        if len(self.checkpoints) > 1:
            text.append("  c: compare with the next checkpoint", style="dim")
        caption.update(text)
        cells = [(info.name + (" (partitioned)" if info.partitioned else ""), info.dtype,
                  _shape(info.shape), f"{info.size:,}", f"{info.nbytes:,}") for info in rows]
        _fill(table, [COLUMNS[column][0] for column in COLUMNS], cells, [info.name for info in rows])

    def _show_comparison(self, caption, table):
        (first_label, first) = self.checkpoints[self.number]
        (second_label, second) = self.checkpoints[(self.number + 1) % len(self.checkpoints)]
        if self.compared is None:
            for title in COMPARE_COLUMNS:
                table.add_column(title)
            caption.update(f"comparing {first_label} with {second_label}: reading …")
            self.compare_worker(first, second)
            return
        rows = [row for row in checkpoint_compare.changed_first(self.compared) if self._matches(row.name)]
        moved = sum(1 for row in self.compared if row.change is not None and not row.change.equal)
        caption.update(Text.assemble(("a ", "dim"), (first_label, "bold"), ("  b ", "dim"),
                                     (second_label, "bold"),
                                     f"  {moved} of {len(self.compared)} variables changed, most first"))
        cells = []
        for row in rows:
            if row.change is None:
                change = (row.note, "")
            elif row.change.equal:
                change = ("unchanged", "")
            else:
                change = (_number(row.change.max_abs), _number(row.change.relative))
            cells.append((row.name, row.dtype, _shape(row.shape), *change))
        _fill(table, COMPARE_COLUMNS, cells, [row.name for row in rows])

    @work(thread=True, exclusive=True, group="checkpoint-compare")
    def compare_worker(self, first, second):
        worker = get_current_worker()

        def progress(done, total):
            self.app.call_from_thread(self.query_one("#checkpoint-caption", Static).update,
                                      f"comparing: {done} of {total} variables read")

        rows = checkpoint_compare.compare(first, second, lambda: worker.is_cancelled, progress)
        if not worker.is_cancelled:
            self.compared = rows
            self.app.call_from_thread(self.refresh_rows)

    def on_data_table_row_highlighted(self, event):
        if event.row_key is None or self.comparing or not self.checkpoints:
            return
        self.stats_worker(self.checkpoints[self.number][1], event.row_key.value)

    @work(thread=True, exclusive=True, group="checkpoint-stats")
    def stats_worker(self, checkpoint, name):
        worker = get_current_worker()
        show = self.query_one("#variable-stats", Static).update
        self.app.call_from_thread(show, f"{printable(name)}: reading …")
        try:
            value = checkpoint.value(name)
        except Exception as error:  # noqa: BLE001  (a corrupt tensor: say so, keep the screen)
            self.app.call_from_thread(show, f"{printable(name)}: {getattr(error, 'message', error)}")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(show, "\n".join([printable(name), *details.summary_lines(value)]))

    # ---- keys ----

    def action_sort_next(self):
        order = list(COLUMNS)
        self.sort_column = order[(order.index(self.sort_column) + 1) % len(order)]
        self.refresh_rows()

    def action_sort_reverse(self):
        self.reverse = not self.reverse
        self.refresh_rows()

    def action_next_checkpoint(self):
        if self.checkpoints:
            self.number = (self.number + 1) % len(self.checkpoints)
            self.compared = None
            self.refresh_rows()

    def action_compare(self):
        if len(self.checkpoints) < 2:
            self.notify("open two checkpoints of the same model to compare them", severity="warning")
            return
        self.comparing = not self.comparing
        self.refresh_rows()

    def on_key(self, event) -> None:
        self.query_one(FilterBar).route_key(event, {"slash": self.action_filter})

    def action_filter(self):
        self.query_one(FilterBar).open()

    def action_close_filter(self):
        self.query_one(FilterBar).close()
        self.query_one("#variables", DataTable).focus()

    def on_filter_changed(self, message: FilterChanged):
        self.pattern = search.compile_query(message.text).pattern if message.text else None
        self.refresh_rows()

    def filter_submitted(self, text):
        self.action_close_filter()

    def on_data_table_row_selected(self, event):
        if event.row_key is not None and self.app.workspace.graphs:
            self.app.go_to_node(event.row_key.value)
