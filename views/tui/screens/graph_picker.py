"""Choosing what to browse: every graph opened with the functions its calls reach listed under
it (node counts, the call that reaches each), and which body of a call node to enter."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from parsers.printable import printable
from views.tui.widgets.plain import Static


def node_count(view):
    """The nodes of a view without indexing it."""
    return sum(len(graph_def.node) for graph_def in view.graph_defs)


def function_row(depth, site, function):
    """A function's row under its graph: indented by call depth, its node count, and the
    call reaching it (`← while (body)`), or `not called` for a library function nothing calls.

    >>> from parsers.functions import CallSite
    >>> class F: name, node_count = "while_body_13", 21
    >>> function_row(2, CallSite("g", "while", "While", "body", "while_body_13"), F).plain
    '      while_body_13  21 nodes  ← while (body)'
    """
    text = Text("  " * (depth + 1))
    text.append(printable(function.name), style="bold" if depth == 1 else "")
    text.append(f"  {function.node_count} node{'' if function.node_count == 1 else 's'}",
                style="dim")
    if site is None:
        text.append("  not called", style="italic dim")
    else:
        text.append(f"  ← {printable(site.node)} ({site.attr})", style="cyan")
    return text


class GraphPicker(ModalScreen):
    """Every browsable view and, with `functions`, each one's functions under it (as the call
    tree reaches them, then those nothing calls). Enter dismisses with (view, trail): a body's
    view and the calls entering it from its graph; Escape with None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Back")]

    def __init__(self, views, heading="Open a graph", functions=True, current=None):
        super().__init__()
        self.views, self.heading = views, heading
        self.current = current
        # (view, None) for a graph, (view, (depth, CallSite, Function)) for a function under it
        self.rows = []
        for view in views:
            self.rows.append((view, None))
            if functions and view.functions is not None and view.graph_label:
                self.rows.extend((view, row) for row in view.functions.tree_rows(view.graph_label))

    def compose(self) -> ComposeResult:
        options = [Option(function_row(*row) if row else
                          Text(f"{printable(view.title)}  ({node_count(view)} nodes)"), id=str(n))
                   for n, (view, row) in enumerate(self.rows)]
        with Vertical(classes="dialog"):
            yield Static(self.heading, classes="dialog-title")
            yield OptionList(*options, id="graph-list")

    def on_mount(self):
        for number, (view, row) in enumerate(self.rows):
            if view is self.current and row is None:
                self.query_one(OptionList).highlighted = number

    def on_option_list_option_selected(self, event):
        view, row = self.rows[int(event.option.id)]
        if row is None:
            self.dismiss((view, []))
            return
        label = row[2].label
        self.dismiss((view.functions.view_of(label), view.functions.trail_to(view, label)))


class BodyPicker(ModalScreen):
    """The functions one call node calls (a While's cond and body, an If's branches); Enter
    dismisses with the Function chosen, Escape with None."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Back")]

    def __init__(self, node_name, calls):
        super().__init__()
        self.node_name, self.calls = node_name, calls

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"{printable(self.node_name)} calls {len(self.calls)} functions:"
                         " open which body?", classes="dialog-title")
            yield OptionList(*(Option(Text.assemble(
                (f"{site.attr}: ", "cyan"), (printable(function.name), "bold"),
                (f"  {function.node_count} nodes", "dim")), id=str(number))
                for number, (site, function) in enumerate(self.calls)), id="body-list")

    def on_option_list_option_selected(self, event):
        self.dismiss(self.calls[int(event.option.id)][1])
