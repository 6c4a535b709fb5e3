"""Textual's widgets with text from files shown as written, never read as markup.

A node, variable or file name like `[/]` or `[bold]x` is Rich/Textual markup to a Static, a
DataTable's str cells, a Tree's str labels and a notification: `[/]` raised MarkupError and
took the whole UI down (a variable named `[/]` on the checkpoint screen, a string constant's
value on the Tensor tab), `[bold]x` was drawn bold. The TUI styles text with rich Text and
never with markup, so these widgets turn markup off (a DataTable's str cells have their `[`
escaped); cells and labels also have their control characters escaped (parsers.printable), as
a terminal would otherwise act on them.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text
from textual import widgets

from parsers.printable import printable


def plain(value):
    """A str as Text with control characters escaped; anything else as it is."""
    return Text(printable(value), end="") if isinstance(value, str) else value


def plain_lines(text):
    """Text of several lines (a NodeDef's text format) with each line's control characters
    and bidirectional marks escaped: protobuf's text format writes an RTL mark as it is."""
    return Text("\n".join(printable(line) for line in str(text).split("\n")))


class Static(widgets.Static):
    """A Static whose str content is plain text (its lines kept)."""

    def __init__(self, content="", *, markup=False, **kwargs):
        super().__init__(content, markup=markup, **kwargs)


def plain_cell(value):
    """A str cell with control characters escaped and its `[` escaped for DataTable, which
    reads str cells as markup (the cell stays a str; one without `[` or control characters
    is stored as it was)."""
    if not isinstance(value, str):
        return value
    # the space: escape() doubles a trailing backslash, for markup appended after it
    return escape(printable(value) + " ")[:-1]


class DataTable(widgets.DataTable):
    """A DataTable whose str cells are plain text with control characters escaped."""

    def add_row(self, *cells, **kwargs):
        return super().add_row(*map(plain_cell, cells), **kwargs)

    def update_cell(self, row_key, column_key, value, **kwargs):
        return super().update_cell(row_key, column_key, plain_cell(value), **kwargs)

    def update_cell_at(self, coordinate, value, **kwargs):
        return super().update_cell_at(coordinate, plain_cell(value), **kwargs)
