"""Totals per op type of the rows the runs screen shows (a few dozen rows: a DataTable)."""

from __future__ import annotations

from views.tui.stepstats import micros
from views.tui.widgets.plain import DataTable


class OpTotalsTable(DataTable):
    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def on_mount(self):
        self.add_columns("op", "runs", "op µs", "total µs", "output bytes")

    def show(self, totals):
        if totals == getattr(self, "shown", None):
            return
        self.shown = totals
        self.clear()
        for total in totals:
            self.add_row(total.op, str(total.count), micros(total.op_us), micros(total.all_us),
                         str(total.bytes))
