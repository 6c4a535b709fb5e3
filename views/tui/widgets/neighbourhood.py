"""The neighbourhood picture of the selected node, drawn in characters (see picture.py); a call
node's body folded in its box, or drawn open inside the picture (e)."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.containers import ScrollableContainer, Vertical

from views.call_expansion import ExpansionTooLarge
from views.tui import diffs
from views.tui.function_views import folded_lines
from views.tui.picture import draw
from views.tui.widgets.plain import Static


def picture_source(view, key, opened=False):
    """(view drawn, body keys, notes) of the picture of node `key`: `view` with each call
    node's bodies folded in its box (notes: key -> lines), or, `opened`, the view with the
    bodies `key` calls drawn inside it (body keys: their nodes)."""
    functions = view.functions
    if functions is None or not view.graph_label:
        return view, (), {}
    calls = functions.call_nodes(view)
    notes = {call: folded_lines(found) for call, found in calls.items()}
    if opened and calls.get(key):
        try:
            drawn, inner = functions.opened_call(view, key)
        except ExpansionTooLarge:     # past call_expansion's NODE_LIMIT: stays folded
            notes[key] = notes[key] + ["too large to open here"]
            return view, (), notes
        notes[key] = [f"▾ {len(calls[key])} bod{'y' if len(calls[key]) == 1 else 'ies'} open (e)"]
        return drawn, inner, notes
    return view, (), notes


class Neighbourhood(Vertical):
    """The caption (depth, keys) above the picture, which scrolls under it."""

    def compose(self):
        yield Static("", id="picture-caption")
        with ScrollableContainer(id="picture-scroll"):
            yield Static("", id="picture-canvas")

    def clear(self):
        self.query_one("#picture-caption", Static).update("")
        self.query_one("#picture-canvas", Static).update("")

    def show(self, view, key, depth, opened=False):
        marks = diffs.picture_marks(view)
        drawn, inner, notes = picture_source(view, key, opened)
        picture = draw(drawn.index, key, depth, marks=marks, notes=notes, inner=inner)
        caption = f"depth {depth} (+/-): {len(picture.nodes)} nodes"
        if picture.truncated:
            caption += f", {picture.truncated} more not drawn"
        if marks:   # the legend takes the room of the export hint's words
            caption += "   + added - removed ~ changed   x: export"
        elif key in notes:
            caption += f"   e: {'fold' if inner else 'open'} the body   x: export"
        else:
            caption += "   x: export to .svg/.dot"
        self.query_one("#picture-caption", Static).update(caption)
        text = Text(picture.text, no_wrap=True, overflow="ignore")
        lines = picture.text.split("\n")
        for node_key, box in picture.boxes.items():
            style = diffs.STYLES.get(diffs.status_of(view, node_key))
            if style:
                _stylize_box(text, lines, box, style)
        if picture.focus_box:
            _stylize_box(text, lines, picture.focus_box, "bold yellow")
        self.query_one("#picture-canvas", Static).update(text)
        if picture.focus_box:   # a big picture (a body drawn open) scrolls to the node
            x, y, width, height = picture.focus_box
            self.call_after_refresh(self.query_one("#picture-scroll").scroll_to_region,
                                    Region(x, y, width, height), animate=False)


def _stylize_box(text, lines, box, style):
    """Style the characters of `box` (x, y, width, height) in the picture's Text."""
    x, y, w, h = box
    offset = sum(len(line) + 1 for line in lines[:y])
    for row in range(h):
        if y + row >= len(lines):
            break
        start = offset + x
        text.stylize(style, start, min(start + w, offset + len(lines[y + row])))
        offset += len(lines[y + row]) + 1
