"""The debugger's text panels: the tensor just produced, the frontier, the current node's
neighbourhood. Each draws from the run object the screen's controller hands it (duck-typed:
views do not import the debugger)."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.widgets import Static

STATUS_STYLE = {"done": "green", "ready": "bold cyan", "running": "bold yellow",
                "waiting": "yellow", "pending": "dim"}


WATCH_LINES = 4   # the last productions of watched tensors shown under the tensor
DEAD = "no value (dead)"   # what the debugger's summaries say of a dead output


def short_device(device):
    return device.rpartition("device:")[2] or device or "?"


class TensorPanel(Static):
    """The values the current node produced (what `p` prints), and where it was created."""

    def show(self, run):
        event = run.current if run is not None else None
        if event is None:
            self.update(Text("no node has run yet: s steps one node", style="dim"))
            return
        text = Text.assemble((event.name, "bold"), f" ({event.op}) on {short_device(event.device)}")
        if event.where:
            text.append(f"\n{event.where}", style="magenta")
        for tensor in event.outputs:
            text.append(f"\n{tensor} = ", style="bold")
            try:
                value = run.value(tensor)
            except (KeyError, ValueError, TypeError):
                text.append("not held", style="dim")
                continue
            if value is None:   # a branch not taken, a loop's last NextIteration
                text.append("no value (dead: nothing flowed on this output)", style="dim")
                continue
            value = np.asarray(value)
            text.append(np.array2string(value, threshold=60, edgeitems=3, max_line_width=56))
            text.append(f"\n  {value.dtype.name}{list(value.shape)}", style="dim")
        if not event.outputs:
            text.append("\n(no outputs)", style="dim")
        watched = [entry for entry in getattr(run, "watch_log", []) if entry[3] != DEAD]
        if watched:
            text.append("\nwatched:", style="bold")
            for number, tensor, _, summary in watched[-WATCH_LINES:]:
                text.append(f"\n#{number} {tensor} = ")
                text.append(summary, style="cyan")
        if event.created_at:
            text.append(f"\ncreated at {event.created_at}", style="dim")
        self.update(text)


class FrontierPanel(Static):
    """Which nodes are ready, running, and waiting on which inputs."""

    def show(self, run, limit=12):
        if run is None or run.observer is None:
            self.update("")
            return
        frontier = run.frontier()
        text = Text(f"{frontier.done} of {frontier.total} nodes done\n", style="dim")
        text.append("ready: ", style="bold cyan")
        text.append(", ".join(frontier.ready[:limit]) or "-")
        if len(frontier.ready) > limit:
            text.append(f" +{len(frontier.ready) - limit}")
        for name in frontier.running:
            text.append("\nrunning: ", style="bold yellow")
            text.append(name)
        for name, missing in frontier.waiting[:limit]:
            text.append("\nwaiting: ", style="yellow")
            text.append(f"{name} on {', '.join(missing)}")
        if len(frontier.waiting) > limit:
            text.append(f"\n... {len(frontier.waiting) - limit} more waiting", style="dim")
        self.update(text)


class NodeNeighbourhood(Static):
    """The current node in its graph: inputs -> [node] -> consumers, each with its state."""

    def show(self, run):
        event = run.current if run is not None else None
        if event is None or event.node is None:
            self.update(Text("the current node and its neighbours show here", style="dim"))
            return
        sources, consumers = run.neighbours(event.name)
        text = Text()
        for source in sources:
            self._line(text, "  in  ", source, run)
        text.append("  >>  ", style="bold")
        text.append(f" {event.name} ({event.op}) ", style="reverse bold")
        text.append("\n")
        for consumer in consumers:
            self._line(text, "  out ", consumer, run)
        self.update(text)

    @staticmethod
    def _line(text, arrow, name, run):
        status = run.node_status(name)
        text.append(arrow, style="dim")
        text.append(name)
        text.append(f"  {status}\n", style=STATUS_STYLE.get(status, ""))

