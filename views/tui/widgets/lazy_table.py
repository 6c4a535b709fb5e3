"""A table of any number of rows that draws only the lines on screen (the runs screen's).

DataTable keeps a widget row per row and measures every cell as it is added: 100,000 rows
take seconds on the UI thread. LazyTable is given the rows as a sequence and a function from
a row to its cells; it formats only the rows in view. Columns fit the terminal: numbers at
their widest value, and the one flexible column (names) takes what is left, its long names
cut in the middle.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from parsers.printable import printable


LAST_RESORT_WIDTH = 5   # a text column shrinks this far (title and all) before any is lost


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    numeric: bool = False     # right-aligned and never cut
    flexible: bool = False    # takes the width left over; cut in the middle when too long
    min_width: int = 6
    cut_end: bool = False     # cut a long text at its end (values), not in its middle (names)
    keep: int = LAST_RESORT_WIDTH   # past every min_width, the cells it keeps while others shrink


def cut_middle(text, width):
    """`text` in `width` cells, its middle replaced by … when too long (the scope's start and
    the node's own name both stay).

    >>> cut_middle("gradients/conv/Conv2D_grad/Conv2DBackpropFilter", 24)
    'gradients/c…ckpropFilter'
    >>> cut_middle("short", 8), cut_middle("abc", 1)
    ('short', '…')
    """
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


def fit_widths(columns, natural, available):
    """Each column's width: its natural (widest) width, the widest flexible column shrunk one
    cell at a time (not below min_width nor its title) until all fit `available` cells with one space
    between columns; when even that does not fit, the other text columns shrink too.

    >>> cols = [Column("d", "device"), Column("n", "node", flexible=True), Column("t", "µs", True)]
    >>> fit_widths(cols, [5, 60, 6], 40), fit_widths(cols, [5, 10, 6], 40)
    ([5, 27, 6], [5, 10, 6])
    >>> two = [Column("n", "node", flexible=True), Column("v", "value", flexible=True)]
    >>> fit_widths(two, [30, 40], 51)
    [25, 25]
    >>> fit_widths(cols, [8, 60, 6], 18)      # past every minimum: titles cut, nothing lost
    [5, 5, 6]
    >>> kept = [Column("d", "device"), Column("n", "node", flexible=True, min_width=12, keep=9)]
    >>> fit_widths(kept, [8, 14], 16), fit_widths(kept, [8, 14], 12)
    ([5, 10], [5, 6])
    """
    widths = [natural[n] for n in range(len(columns))]
    excess = sum(widths) + len(columns) - 1 - available
    text_columns = [n for n, c in enumerate(columns) if not c.numeric]
    # Flexible columns to their minimum, then the others; then, rather than push the last
    # columns off the screen, the text columns to what each must keep (the one with the most
    # to spare first), and last any down to LAST_RESORT_WIDTH (its title cut too).
    passes = [([n for n in text_columns if columns[n].flexible],
               lambda c: max(c.min_width, len(c.title))),
              ([n for n in text_columns if not columns[n].flexible],
               lambda c: max(c.min_width, len(c.title))),
              (text_columns, lambda c: max(c.keep, LAST_RESORT_WIDTH)),
              (text_columns, lambda c: LAST_RESORT_WIDTH)]
    for candidates, floor in passes:
        while excess > 0:
            spare = {n: widths[n] - floor(columns[n]) for n in candidates}
            shrinkable = [n for n in candidates if spare[n] > 0]
            if not shrinkable:
                break
            widest = max(shrinkable, key=lambda n: spare[n])
            widths[widest] -= 1
            excess -= 1
    return widths


class LazyTable(ScrollView, can_focus=True):
    """Rows from `show(rows, cells, natural)`; the cursor row is chosen with Enter or a click."""

    DEFAULT_CSS = """
    LazyTable { background: $surface; overflow-x: hidden; }
    LazyTable > .lazy-table--header { text-style: bold; background: $panel; }
    LazyTable > .lazy-table--cursor { background: $block-cursor-background;
                                      color: $block-cursor-foreground; text-style: bold; }
    LazyTable:blur > .lazy-table--cursor { background: $block-cursor-blurred-background; }
    LazyTable > .lazy-table--even { background: $surface-lighten-1; }
    """
    COMPONENT_CLASSES = {"lazy-table--header", "lazy-table--cursor", "lazy-table--even"}
    BINDINGS = [
        Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False),
        Binding("pageup", "page(-1)", show=False), Binding("pagedown", "page(1)", show=False),
        Binding("home", "move(-1_000_000_000)", show=False),
        Binding("end", "move(1_000_000_000)", show=False),
        Binding("enter", "choose", show=False),
    ]

    cursor = reactive(0, always_update=True)
    TITLE_ROOM = 2   # cells past a title, for the sort arrow a click on it adds

    @dataclass
    class RowChosen(Message):
        table: "LazyTable"
        row: object

    @dataclass
    class HeaderClicked(Message):
        table: "LazyTable"
        key: str

    def __init__(self, columns, **kwargs):
        super().__init__(**kwargs)
        self.columns = list(columns)
        self.rows = []
        self.cells = lambda row: ()
        self.natural = [len(column.title) for column in self.columns]
        self.titles = {}          # key -> title shown (a sort arrow added)
        self._widths = None       # ((natural, width), fit_widths of them)

    # ---- data --------------------------------------------------------------------------------

    def show(self, rows, cells, natural=None, titles=None):
        """Show `rows` (any sequence); cells(row) gives a row's texts, one per column (shown
        with their control characters and bidirectional marks escaped)."""
        self.rows = rows
        self.cells = lambda row: [printable(text) for text in cells(row)]
        if natural is not None:
            self.natural = [max(natural.get(c.key, 0), len(c.title) + self.TITLE_ROOM)
                            for c in self.columns]
        self.titles = titles or {}
        size = Size(self.size.width, len(rows) + 1)
        if size != self.virtual_size:     # a new virtual size lays the screen out again
            self.virtual_size = size
        self.cursor = min(self.cursor, max(0, len(rows) - 1))
        self.refresh()

    @property
    def row_count(self):
        return len(self.rows)

    def cursor_row(self):
        return self.rows[self.cursor] if self.rows else None

    def visible_texts(self):
        """The cells of the rows in view, as shown (for tests)."""
        top = round(self.scroll_y)
        return [self.cells(self.rows[n]) for n in range(top, min(len(self.rows),
                                                                 top + self.size.height - 1))]

    # ---- drawing -----------------------------------------------------------------------------

    def widths(self):
        # Asked once per line drawn; fit_widths shrinks a long name one cell at a time.
        key = (tuple(self.natural), max(1, self.scrollable_content_region.width))
        if self._widths is None or self._widths[0] != key:
            self._widths = (key, fit_widths(self.columns, list(key[0]), key[1]))
        return self._widths[1]

    def _line(self, texts, widths):
        parts = []
        for column, text, width in zip(self.columns, texts, widths):
            if len(text) > width:
                text = text[:width - 1] + "…" if column.cut_end else cut_middle(text, width)
            parts.append(text.rjust(width) if column.numeric else text.ljust(width))
        return " ".join(parts)

    def render_line(self, y):
        width = self.scrollable_content_region.width
        widths = self.widths()
        if y == 0:
            titles = [self.titles.get(c.key, c.title) for c in self.columns]
            style = self.get_component_rich_style("lazy-table--header")
            return self._strip(self._line(titles, widths), style, width)
        number = round(self.scroll_y) + y - 1
        if number >= len(self.rows):
            return Strip.blank(width, self.rich_style)
        if number == self.cursor:
            style = self.get_component_rich_style("lazy-table--cursor")
        elif number % 2:
            style = self.get_component_rich_style("lazy-table--even")
        else:
            style = self.rich_style
        return self._strip(self._line(self.cells(self.rows[number]), widths), style, width)

    @staticmethod
    def _strip(text, style: Style, width):
        return Strip([Segment(text, style)]).crop_extend(0, width, style)

    # ---- moving ------------------------------------------------------------------------------

    def watch_cursor(self, old, new):
        self._scroll_to_cursor()
        # Rows may have just arrived: scroll again once the new virtual size is laid out.
        self.call_after_refresh(self._scroll_to_cursor)
        self.refresh()

    def _scroll_to_cursor(self):
        new = self.cursor
        visible = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + visible:
            self.scroll_to(y=new - visible + 1, animate=False)

    def action_move(self, step):
        if self.rows:
            self.cursor = max(0, min(len(self.rows) - 1, self.cursor + step))

    def action_page(self, direction):
        self.action_move(direction * max(1, self.scrollable_content_region.height - 2))

    def action_choose(self):
        if self.rows:
            self.post_message(self.RowChosen(self, self.rows[self.cursor]))

    def on_click(self, event):
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:
            x = 0
            for column, width in zip(self.columns, self.widths()):
                if x <= offset.x < x + width + 1:
                    self.post_message(self.HeaderClicked(self, column.key))
                    return
                x += width + 1
            return
        number = round(self.scroll_y) + offset.y - 1
        if number < len(self.rows):
            if number == self.cursor:
                self.action_choose()
            self.cursor = number
