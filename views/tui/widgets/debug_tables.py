"""The debugger's tables: nodes in the order they ran (the run view), and breakpoints."""

from __future__ import annotations

from textual.widgets import DataTable

from views.tui.widgets.debug_panels import short_device


class HistoryTable(DataTable):
    """One row per node execution; the last row (the current node) has the cursor."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.shown = 0

    def on_mount(self):
        self.add_columns("#", "node", "op", "device", "frame/iter", "value")

    def show(self, run):
        events = run.history if run is not None and run.observer is not None else []
        if not events or self.shown > events[-1].number or \
                (self.row_count and events[0].number > self.shown):
            self.clear()
            self.shown = 0
        for event in events:
            if event.number <= self.shown:
                continue
            where = f"{event.frame}:{event.iteration}" if event.frame else ""
            value = event.summaries[0] if event.summaries else ""
            self.add_row(str(event.number), event.name, event.op, short_device(event.device),
                         where, value[:40], key=str(event.number))
            self.shown = event.number
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)


class BreakpointsTable(DataTable):
    """Every breakpoint; Enter on a row turns it on or off."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", **kwargs)

    def on_mount(self):
        self.add_columns("#", "on", "where", "hits")

    def show(self, breakpoints):
        row = self.cursor_row
        self.clear()
        for bp in breakpoints:
            self.add_row(str(bp.number), "on" if bp.enabled else "off", bp.label, str(bp.hits),
                         key=str(bp.number))
        if self.row_count:
            self.move_cursor(row=min(row, self.row_count - 1))
