"""The debugger's tables: nodes in the order they ran (the run view), and breakpoints."""

from __future__ import annotations

from engine.cluster.cluster_spec import device_label
from views.tui.widgets.lazy_table import Column, LazyTable, cut_middle
from views.tui.widgets.plain import DataTable

# What a row must keep whole at 100 columns (a 60-cell pane): op names to 12 cells
# ("NextIteration" is the one longer op a loop has), 14 of the node's name, 8 of the
# device ("worker:1", a cluster task's); the value, also in the tensor panel beside, gives
# up its width first and the frame's name next.
# Narrower (80 columns), the node and op keep 10 and 8 cells while the others go to 5.
HISTORY_COLUMNS = [Column("number", "#", numeric=True),
                   Column("node", "node", flexible=True, min_width=14, keep=10),
                   Column("op", "op", min_width=12, keep=8),
                   Column("device", "device", min_width=8),
                   Column("where", "frame/iter", min_width=8),
                   Column("value", "value", flexible=True, min_width=8, cut_end=True)]


def _cells(event):
    where = f"{event.frame}:{event.iteration}" if event.frame else ""
    value = event.shown_summary
    device = device_label(event.device, compact=True)   # "worker:1" on a cluster
    return (str(event.number), event.name, event.op, device, where, value)


class HistoryTable(LazyTable):
    """One row per node execution, sized to the pane (names cut in the middle); the last row
    (the current node) has the cursor."""

    TITLE_ROOM = 0   # not sorted by a click: no arrow to make room for

    def __init__(self, **kwargs):
        super().__init__(HISTORY_COLUMNS, **kwargs)
        self.shown = 0

    def show(self, run):
        events = list(run.history) if run is not None and run.observer is not None else []
        natural = {"number": len(str(len(events))) + 1, "node": 4, "op": 2, "device": 6,
                   "where": 10, "value": 5}
        for event in events:
            for key, text in zip(natural, _cells(event)):
                natural[key] = max(natural[key], len(text))
        natural["value"] = min(natural["value"], 40)
        super().show(events, _cells, natural)
        self.shown = events[-1].number if events else 0
        if events:
            self.cursor = len(events) - 1


class BreakpointsTable(DataTable):
    """Every breakpoint; Enter on a row turns it on or off."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", **kwargs)

    def on_mount(self):
        self.add_columns("#", "on", "where", "hits")
        self._last = None

    def on_resize(self):
        if self._last is not None:
            self.show(self._last)

    def show(self, breakpoints):
        self._last = breakpoints
        row = self.cursor_row
        self.clear()
        # The label is cut in its middle to what the other columns (and their padding) leave.
        room = max(8, self.size.width - 17) if self.size.width else None
        for bp in breakpoints:
            label = cut_middle(bp.label, room) if room else bp.label
            self.add_row(str(bp.number), "on" if bp.enabled else "off", label, str(bp.hits),
                         key=str(bp.number))
        if self.row_count:
            self.move_cursor(row=min(row, self.row_count - 1))
