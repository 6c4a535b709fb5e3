"""Step stats as tables: one row per node execution, and totals per op type."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from views.tui.stepstats import COLUMNS, micros


def _cells(row):
    return (row.short_device, row.node, row.op, str(row.start_us), micros(row.op_us), micros(row.all_us),
            str(row.bytes))


class StepStatsTable(DataTable):
    """Rows as given; keys are "position:node name" so a row names its node."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def on_mount(self):
        for key, title in COLUMNS.items():
            self.add_column(title, key=key)

    def show(self, rows, sort_column, reverse):
        self.clear()
        for position, row in enumerate(rows):
            self.add_row(*_cells(row), key=f"{position}:{row.node}")
        arrow = " ▼" if reverse else " ▲"
        for key, title in COLUMNS.items():
            column = self.columns[ColumnKey(key)]
            column.label = Text(title + (arrow if key == sort_column else ""))
            column.content_width = max(column.content_width, len(column.label))
        self._require_update_dimensions = True
        self.refresh()


class OpTotalsTable(DataTable):
    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def on_mount(self):
        self.add_columns("op", "runs", "op µs", "total µs", "output bytes")

    def show(self, totals):
        self.clear()
        for total in totals:
            self.add_row(total.op, str(total.count), micros(total.op_us), micros(total.all_us),
                         str(total.bytes))
