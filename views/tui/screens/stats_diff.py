"""The stats-diff screen: two runs' time per op type and per node, A against B, by cost.

What `graph-inspector diff --stats A B --tui` opens (views/stats_diff.py computes it): the op
types above, the nodes in both runs below, the nodes of one run only at the bottom. `s`
sorts by the next key (cost, B/A, name), `r` reverses.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import Screen

from views import stats_diff
from views.tui import bindings
from views.tui.widgets.footer import InspectorFooter
from views.tui.widgets.plain import DataTable, Static

# sort key name -> (what the caption calls it, key of a Row, largest first)
SORTS = {
    "cost": ("cost", lambda row: row.cost, True),
    "ratio": ("B/A", lambda row: -1.0 if row.ratio is None else row.ratio, True),
    "name": ("name", lambda row: row.key, False),
}
OP_COLUMNS = ("op type", "A µs", "B µs", "B/A", "ran A", "ran B")
NODE_COLUMNS = ("node", "op", "A µs", "B µs", "B/A", "ran A", "ran B")
UNMATCHED_SHOWN = 12


def row_cells(row, with_op):
    cells = [row.key] + ([row.op] if with_op else [])
    return cells + [f"{row.a_us:.1f}", f"{row.b_us:.1f}", stats_diff.format_ratio(row.ratio),
                    f"{row.a_count:g}", f"{row.b_count:g}"]


def unmatched_text(found):
    parts = []
    for side, names in (("A", found.only_a), ("B", found.only_b)):
        if names:
            more = f", ... {len(names) - UNMATCHED_SHOWN} more" if len(names) > UNMATCHED_SHOWN else ""
            parts.append(f"only in {side} ({len(names)}): "
                         f"{', '.join(names[:UNMATCHED_SHOWN])}{more}")
    return "\n".join(parts) or "every node ran in both"


class StatsDiffScreen(Screen):
    BINDINGS = bindings.STATS_DIFF

    def __init__(self, found, title_a, title_b, **kwargs):
        super().__init__(**kwargs)
        self.found, self.title_a, self.title_b = found, title_a, title_b
        self.sort, self.reverse = "cost", False

    def compose(self) -> ComposeResult:
        yield Static("Stats diff", id="title", classes="screen-title")
        yield Static("", id="stats-caption")
        yield DataTable(id="stats-ops", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="stats-nodes", cursor_type="row", zebra_stripes=True)
        yield Static(unmatched_text(self.found), id="stats-unmatched")
        yield InspectorFooter()

    def on_mount(self):
        self.query_one("#stats-ops", DataTable).add_columns(*OP_COLUMNS)
        self.query_one("#stats-nodes", DataTable).add_columns(*NODE_COLUMNS)
        self.refresh_rows()

    def sorted_rows(self, rows):
        _, key, largest_first = SORTS[self.sort]
        return sorted(rows, key=key, reverse=largest_first != self.reverse)

    def refresh_rows(self):
        found = self.found
        total = stats_diff.format_ratio(
            found.total_b_us / found.total_a_us if found.total_a_us else None)
        title, _, _ = SORTS[self.sort]
        self.query_one("#stats-caption", Static).update(
            f"A: {self.title_a} ({found.runs_a} run{'s' * (found.runs_a != 1)})   "
            f"B: {self.title_b} ({found.runs_b} run{'s' * (found.runs_b != 1)})   "
            f"op time A {found.total_a_us:.1f} µs, B {found.total_b_us:.1f} µs, B/A {total}   "
            f"sorted by {title}{' (reversed)' if self.reverse else ''}")
        for table_id, rows, with_op in (("#stats-ops", found.ops, False),
                                        ("#stats-nodes", found.nodes, True)):
            table = self.query_one(table_id, DataTable)
            table.clear()
            for row in self.sorted_rows(rows):
                table.add_row(*row_cells(row, with_op), key=row.key)

    def action_sort_next(self):
        names = list(SORTS)
        self.sort = names[(names.index(self.sort) + 1) % len(names)]
        self.refresh_rows()

    def action_sort_reverse(self):
        self.reverse = not self.reverse
        self.refresh_rows()


class StatsDiffApp(App):
    """The stats-diff screen alone: what `diff --stats --tui` runs."""

    TITLE = "Graph Inspector: stats diff"
    CSS_PATH = "../app.tcss"
    BINDINGS = [binding for binding in bindings.APP if binding.key in ("q", "question_mark")]

    def __init__(self, found, title_a, title_b, **kwargs):
        super().__init__(**kwargs)
        self.found, self.title_a, self.title_b = found, title_a, title_b

    def on_mount(self):
        self.push_screen(StatsDiffScreen(self.found, self.title_a, self.title_b))

    def action_help(self):
        from views.tui.screens.pickers import HelpScreen
        self.push_screen(HelpScreen())
