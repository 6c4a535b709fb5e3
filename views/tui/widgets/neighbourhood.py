"""The neighbourhood picture of the selected node, drawn in characters (see picture.py)."""

from __future__ import annotations

from rich.text import Text
from textual.containers import ScrollableContainer
from textual.widgets import Static

from views.tui.picture import draw


class Neighbourhood(ScrollableContainer):
    def compose(self):
        yield Static("", id="picture-caption")
        yield Static("", id="picture-canvas")

    def clear(self):
        self.query_one("#picture-caption", Static).update("")
        self.query_one("#picture-canvas", Static).update("")

    def show(self, view, key, depth):
        picture = draw(view.index, key, depth)
        caption = f"depth {depth} (+/-): {len(picture.nodes)} nodes"
        if picture.truncated:
            caption += f", {picture.truncated} more not drawn"
        self.query_one("#picture-caption", Static).update(caption + "   x: export to .svg/.dot")
        text = Text(picture.text, no_wrap=True, overflow="ignore")
        if picture.focus_box:
            x, y, w, h = picture.focus_box
            lines = picture.text.split("\n")
            offset = sum(len(line) + 1 for line in lines[:y])
            for row in range(h):
                start = offset + x
                text.stylize("bold yellow", start, start + w)
                offset += len(lines[y + row]) + 1 if y + row < len(lines) else 0
        self.query_one("#picture-canvas", Static).update(text)
