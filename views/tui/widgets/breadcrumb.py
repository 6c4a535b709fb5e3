"""The selected node's place: graph › scope › scope › node."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from parsers.printable import printable


class Breadcrumb(Static):
    def show(self, view, key=None):
        parts = [Text(view.title, style="bold")]
        if key is not None:
            index = view.index
            if index.is_partitioned:
                parts.append(Text(index.nodes[key].partition))
            scopes = index.scope_path(key)
            name = index.nodes[key].name
            parts.extend(Text(s) for s in scopes)
            if not scopes or "/".join(scopes) != name:
                parts.append(Text(name.rpartition("/")[2], style="bold"))
        for part in parts:  # names from the file: control characters as escapes
            part.plain = printable(part.plain)
        self.update(Text(" › ").join(parts))
