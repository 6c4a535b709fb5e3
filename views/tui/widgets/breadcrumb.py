"""The selected node's place: graph › call › function › call › function › scope › node.

Inside a function's body the path starts at the graph whose calls lead there, each call node
entered then the function it calls (`serve › StatefulPartitionedCall › __inference_loop_159 ›
while › while_body_91`); then the node's scopes. A path wider than the line loses its first
parts (`… › `), never its last.
"""

from __future__ import annotations

from rich.text import Text

from parsers.printable import printable
from views.tui.widgets.plain import Static

SEPARATOR = " › "
ELLIPSIS = "…"


def first_shown(parts, width):
    """How many of the first `parts` to leave out (for `…`) so the rest fits in `width`
    columns; `len(parts) - 1` when even the last alone does not (it is cut then).

    >>> first_shown(["serve", "call", "f", "node"], 40)
    0
    >>> first_shown(["serve", "StatefulPartitionedCall", "f", "node"], 16)
    2
    """
    if width <= 0 or len(SEPARATOR.join(parts)) <= width:
        return 0
    start = len(parts) - 1
    while start > 1 and len(SEPARATOR.join([ELLIPSIS, *parts[start - 1:]])) <= width:
        start -= 1
    return start


def short_title(view):
    """A view as the path names it: a body by its function's name, a graph by its title."""
    function = view.functions.function_of(view) if view.functions is not None else None
    return function.name if function is not None else view.title


def path_parts(view, key=None, trail=()):
    """(text, style) for each part of the path to node `key` of `view`, entered through
    `trail` (function_views.Step: the call nodes entered, outermost first)."""
    parts = []
    if trail:
        parts.append((short_title(trail[0].view), "bold"))
        for number, step in enumerate(trail):
            parts.append((step.view.index.nodes[step.key].name, ""))
            following = trail[number + 1].view if number + 1 < len(trail) else view
            parts.append((short_title(following), "bold cyan"))
    else:
        parts.append((view.title, "bold"))
    if key is not None:
        index = view.index
        if index.is_partitioned:
            parts.append((index.nodes[key].partition, ""))
        scopes = index.scope_path(key)
        name = index.nodes[key].name
        parts.extend((scope, "") for scope in scopes)
        if not scopes or "/".join(scopes) != name:
            parts.append((name.rpartition("/")[2], "bold"))
    # names from the file: control characters as escapes
    return [(printable(text), style) for text, style in parts]


class Breadcrumb(Static):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.parts = []

    def show(self, view, key=None, trail=()):
        self.parts = path_parts(view, key, trail)
        self._draw()

    def on_resize(self, event):
        self._draw()

    def _draw(self):
        width = self.content_size.width
        start = first_shown([text for text, _ in self.parts], width)
        text = Text(no_wrap=True, overflow="ellipsis")
        if start:
            text.append(ELLIPSIS + SEPARATOR, style="dim")
        for number, (part, style) in enumerate(self.parts[start:]):
            if number:
                text.append(SEPARATOR, style="dim")
            text.append(part, style=style)
        self.update(text)
