"""Modal screens: choose a run, export the current view, help (choosing a graph:
graph_picker.py)."""

from __future__ import annotations

import os
import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from views.tui import bindings
from views.tui.widgets.plain import Static


class RunPicker(ModalScreen):
    """Every run opened, with its executions and devices; Enter shows it on the runs screen."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Back")]

    def __init__(self, runs, current=0):
        super().__init__()
        self.runs, self.current = runs, current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Show a run", classes="dialog-title")
            yield OptionList(*(Option(run_summary(run), id=str(n))
                               for n, run in enumerate(self.runs)), id="run-list")

    def on_mount(self):
        self.query_one(OptionList).highlighted = self.current

    def on_option_list_option_selected(self, event):
        self.dismiss(int(event.option.id))


def run_summary(run):
    devices = len(run.run_metadata.step_stats.dev_stats)
    return (f"{run.label}  ({run.executions:,} executions on {devices} "
            f"device{'s' if devices != 1 else ''})")


def default_export_name(view, key, suffix="svg"):
    """
    >>> class V: label = "mlp.pb"
    >>> default_export_name(V, "train/Apply"), default_export_name(V, None, "dot")
    ('mlp.pb-train_Apply.svg', 'mlp.pb.dot')
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", view.label)
    if key:
        stem += "-" + re.sub(r"[^A-Za-z0-9._-]+", "_", key)
    return f"{stem}.{suffix}"


class ExportScreen(ModalScreen):
    """Write the Picture tab's nodes of the selected node (`keys` of `view`), else the whole
    graph or function body, through views/dot."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, view, key=None, keys=(), depth=1):
        super().__init__()
        self.view, self.key, self.keys, self.depth = view, key, list(keys), depth

    def compose(self) -> ComposeResult:
        if self.keys:
            what = (f"the neighbourhood of {self.view.index.nodes[self.key].name} (depth "
                    f"{self.depth}: the Picture tab's {len(self.keys)} nodes)")
        elif self.view.kind == "function":
            what = f"the whole body ({len(self.view.graph_defs[0].node)} nodes)"
        else:
            what = "the whole graph"
        with Vertical(classes="dialog"):
            yield Static(f"Export {what} to .svg, .png or .dot", classes="dialog-title")
            yield Input(default_export_name(self.view, self.key if self.keys else None),
                        id="export-path")
            yield Static("Enter writes the file, Escape cancels"
                         + ("; X exports the whole graph" if self.keys else ""), classes="dim")

    def on_input_submitted(self, event):
        path = event.value.strip()
        if not path:
            return
        from views import dot
        graph = self.view.graph_defs if self.view.kind == "partitions" else self.view.graph_defs[0]
        if self.keys:
            graph = sub_graph(self.view.index, self.keys)
        # A diff view draws coloured by change (added, removed, changed), as `dot --diff`.
        options = (dot.DotOptions(title=f"{self.view.label}: {self.view.diff.summary()}",
                                  color="diff", diff=self.view.diff)
                   if self.view.diff is not None else dot.DotOptions(title=self.view.label))
        try:
            size = dot.export(graph, path, options)
        except (OSError, ValueError, dot.RenderError) as error:
            self.app.notify(f"export failed: {error}", severity="error")
            return
        self.app.notify(f"wrote {os.path.basename(path)} ({size} bytes)", title="export")
        self.dismiss(path)


def sub_graph(index, keys):
    """A GraphDef of just these nodes, their inputs from outside them dropped."""
    from engine.proto import graph_pb2
    names = {index.nodes[key].name for key in keys}
    graph = graph_pb2.GraphDef()
    for key in keys:
        node = graph.node.add()
        node.CopyFrom(index.nodes[key].node_def)
        kept = [i for i in node.input if i.lstrip("^").partition(":")[0] in names]
        del node.input[:]
        node.input.extend(kept)
    return graph


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss(None)", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(help_text(), id="help-text")

    def on_click(self):
        self.dismiss(None)


def help_text():
    text = Text()
    text.append("Graph Inspector: keys\n", style="bold")
    for section, table in bindings.HELP_SECTIONS.items():
        text.append(f"\n{section}\n", style="bold underline")
        rows = [(b.key_display or b.key, b.description or b.action) for b in table]
        rows += bindings.HELP_EXTRA.get(section, [])
        seen = set()
        for key, description in rows:
            if (key, description) in seen:
                continue
            seen.add((key, description))
            text.append(f"  {key:>14}  ", style="cyan")
            text.append(f"{description}\n")
    text.append("\nEscape or ? closes this screen.", style="dim")
    return text
