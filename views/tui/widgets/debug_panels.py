"""The debugger's text panels: the tensor just produced, the frontier, the current node's
neighbourhood. Each draws from the run object the screen's controller hands it (duck-typed:
views do not import the debugger)."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from engine.cluster.cluster_spec import device_label
from views.tui.widgets.lazy_table import cut_middle
from views.tui.widgets.plain import Static

STATUS_STYLE = {"done": "green", "ready": "bold cyan", "running": "bold yellow",
                "waiting": "yellow", "pending": "dim"}


WATCH_LINES = 4   # the last productions of watched tensors shown under the tensor
DEAD = "no value (dead)"   # what the debugger's summaries say of a dead output


short_device = device_label  # "CPU:0" here, "/job:ps/task:0/CPU:0" on a cluster task


class NamePanel(Static):
    """A panel whose names are cut in the middle to its width, never wrapped inside a name
    (a wrapped "loop/Switch_1 (loop/while_context:0)" reads as two nodes); drawn again from
    the last run when its width changes."""

    _last = None

    def fit(self, name, room=0):
        """`name` in the panel's width less `room` cells (uncut before the first layout)."""
        width = self.content_size.width
        return cut_middle(name, max(8, width - room)) if width else name

    def on_resize(self):
        if self._last is not None:
            self.show(*self._last)

    def show(self, *args):
        self._last = args
        self.draw(*args)


class TensorPanel(NamePanel):
    """The values the current node produced (what `p` prints), and where it was created."""

    def draw(self, run):
        event = run.current if run is not None else None
        if event is None:
            self.update(Text("no node has run yet: s steps one node", style="dim"))
            return
        placed = f" ({event.op}) on {short_device(event.device)}"
        # The name gets the first line; what and where wrap to the next when it is long.
        text = Text.assemble((self.fit(event.name, min(len(placed), 12)), "bold"), placed)
        if event.where:
            text.append(f"\n{self.fit(event.where)}", style="magenta")
        for tensor in event.outputs:
            text.append(f"\n{self.fit(tensor, 3)} = ", style="bold")
            try:
                value = run.value(tensor)
            except (KeyError, TypeError):
                text.append("not held", style="dim")
                continue
            except ValueError as error:   # too large to have left its cluster task, say
                text.append(str(error), style="dim")
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
                text.append(f"\n#{number} {self.fit(tensor, len(str(number)) + 5)} = ")
                text.append(summary, style="cyan")
        if event.created_at:
            # "FILE:LINE: code": the place on a line of its own, cut; the code wraps by words.
            place, colon, code = event.created_at.partition(": ")
            text.append(f"\ncreated at\n{self.fit(place + colon.rstrip())}", style="dim")
            if code:
                text.append(f"\n{code}", style="dim")
        self.update(text)


class FrontierPanel(NamePanel):
    """Which nodes are ready, running, and waiting on which inputs: one node a line."""

    def draw(self, run, limit=4):
        if run is None or run.observer is None:
            self.update("")
            return
        frontier = run.frontier()
        text = Text(f"{frontier.done} of {frontier.total} nodes done", style="dim")
        sections = [("ready", "bold cyan", [(name, "") for name in frontier.ready]),
                    ("running", "bold yellow", [(name, "") for name in frontier.running]),
                    ("waiting", "yellow", [(name, ", ".join(missing))
                                           for name, missing in frontier.waiting])]
        for title, style, entries in sections:
            if not entries and title != "ready":
                continue
            text.append(f"\n{title}:", style=style)
            if not entries:
                text.append(" -")
            for name, missing in entries[:limit]:
                text.append(f"\n  {self._entry(name, missing)}")
            if len(entries) > limit:
                text.append(f"\n  +{len(entries) - limit} more", style="dim")
        self.update(text)

    def _entry(self, name, missing):
        """`name` (and "on" what it waits for) in one line, each cut in its middle."""
        if not missing:
            return self.fit(name, 2)
        room = self.content_size.width - 2 - len(" on ")
        if self.content_size.width == 0 or len(name) + len(missing) <= room:
            return f"{name} on {missing}"
        own = max(8, min(len(name), room - min(len(missing), room // 2)))
        return f"{cut_middle(name, own)} on {cut_middle(missing, max(8, room - own))}"


class NodeNeighbourhood(NamePanel):
    """The current node in its graph: inputs -> [node] -> consumers, each with its state."""

    def draw(self, run):
        event = run.current if run is not None else None
        if event is None or event.node is None:
            self.update(Text("the current node and its neighbours show here", style="dim"))
            return
        sources, consumers = run.neighbours(event.name)
        text = Text()
        for source in sources:
            self._line(text, "  in  ", source, run)
        text.append("  >>  ", style="bold")
        own = f" ({event.op}) "
        text.append(f" {self.fit(event.name, 7 + len(own))}{own}", style="reverse bold")
        text.append("\n")
        for consumer in consumers:
            self._line(text, "  out ", consumer, run)
        self.update(text)

    def _line(self, text, arrow, name, run):
        status = run.node_status(name)
        text.append(arrow, style="dim")
        text.append(self.fit(name, len(arrow) + len(status) + 2))
        text.append(f"  {status}\n", style=STATUS_STYLE.get(status, ""))

