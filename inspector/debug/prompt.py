"""The line-based debugger: one command per line, for pipes, tests and terminals without a UI.

    s [N]        step one node (N nodes)          c            continue to a breakpoint or the end
    t NODE       run to NODE                      f            finish the run, no more stops
    b            list breakpoints                 b REGEX      break on a node name
    b op=REGEX   break on an op type              b device=RE  break on a device
    b nan        break on a NaN or Inf            b -N         toggle breakpoint N on or off
    p TENSOR[SLICE]  print a value ("p x:0[0:2, :]")     w TENSOR  watch a tensor (keep and log it)
    inject TENSOR EXPR  its consumers read EXPR (NumPy as np)   fr  frontier: ready and waiting
    i            node info and creation stack     l [N]        the last N nodes run
    dump FILE.npz  the tensors held now           dumpall DIR  every tensor from here, as .npz
    r            rerun this Session.run           n            next run: finish this one, stop
                                                               at the start of the next
    q            quit (stop the run and the program)           h  this help
"""

from __future__ import annotations

import sys

import numpy as np

from engine.cluster.cluster_spec import device_label
from engine.runtime.node_run import kernel_summary
from inspector.debug import tensors
from inspector.debug.breakpoints import Breakpoint
from inspector.debug.dump import DumpTooLarge
from inspector.debug.observer import creation_line

HELP = __doc__.split("\n", 2)[2].rstrip()


class Quit(Exception):
    """The user typed q: stop the run and the program."""


def describe(run):
    """What the run paused on: the node that just ran and its values, or why it stopped."""
    event = run.current
    if run.finished:
        return f"{run.label} {run.state}" + (f": {_error_line(run)}" if run.error else "")
    if event is None:
        frontier = run.frontier()
        return (f"{run.label} paused at its start; {frontier.total} nodes; ready: "
                f"{', '.join(frontier.ready[:8]) or '-'}")
    where = f" [{event.where}]" if event.where else ""
    lines = [f"#{event.number} {event.name} ({event.op}) on {_device(event.device)}{where}"
             f"  -- {run.stop_reason}"]
    for tensor in event.outputs:
        try:
            lines.append(f"  {tensor} = " + _indent(tensors.format_value(run.value(tensor),
                                                                          threshold=20)))
        except KeyError:
            lines.append(f"  {tensor}: not held")
        except DumpTooLarge as error:   # left on its cluster task
            lines.append(f"  {error}")
    if event.dead:
        lines.append("  (dead: this branch was not taken)")
    created = event.created_at
    if created:
        lines.append(f"  created at {created}")
    return "\n".join(lines)


def current_values(run):
    """What a bare `p` prints: every output of the node that just ran."""
    event = run.current
    if event is None:
        return "nothing has run yet: p TENSOR[SLICE] prints a value (p x:0[0:2, :])"
    lines = []
    for tensor in event.outputs:
        try:
            lines.append(run.format(tensor))
        except KeyError as error:
            lines.append(f"{tensor}: {error.args[0]}")
        except DumpTooLarge as error:
            lines.append(str(error))
    return "\n".join(lines) or f"{event.name} has no outputs"


def _device(device):
    return device_label(device)


def _indent(text):
    return text.replace("\n", "\n    ")


def _error_line(run):
    error = run.error
    node = getattr(error, "node_name", None)
    message = kernel_summary(error)
    if node is None:
        return f"{type(error).__name__}: {message}"
    plan_node = run.plan_nodes().get(node)
    created = creation_line(plan_node) if plan_node is not None else ""
    text = f"{type(error).__name__} at node {node}"
    if plan_node is not None:
        text += f" ({plan_node.op_type})"
    return text + (f", created at {created}" if created else "") + f": {message}"


class Prompt:
    """Reads commands from `stdin` and drives one run at a time; the wrapper's frontend."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.pause_next_start = False
        self.eof = False

    def say(self, text):
        print(text, file=self.stdout, flush=True)

    def __call__(self, run):
        """Shows the pause and takes commands until the run ends (or is left to finish)."""
        self.say(describe(run))
        while not run.finished and not self.eof:
            self.stdout.write("(gi-debug) ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.eof = True
                self.say("end of input: finishing without stopping")
                break
            try:
                if self.command(run, line.strip()) == "leave":
                    break
            except Quit:
                raise
            except (KeyError, ValueError, TypeError, IndexError, RuntimeError) as error:
                self.say(f"error: {error.args[0] if error.args else error}")
        if run.finished:
            self.say(describe(run))

    def command(self, run, line):
        """Runs one command line; returns "leave" to hand the run back to the program."""
        if not line:
            return None
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in ("s", "step"):
            run.step(int(rest) if rest else 1)
        elif word in ("c", "continue"):
            run.cont()
        elif word in ("t", "to"):
            run.run_to(rest)
        elif word in ("f", "finish"):
            run.finish()
        elif word in ("n", "next"):
            self.pause_next_start = True
            run.finish()
        elif word in ("r", "rerun"):
            run.rerun()
        elif word in ("q", "quit"):
            run.quit()
            raise Quit()
        elif word in ("h", "help", "?"):
            self.say(HELP)
            return None
        else:
            self.say(self.inspect(run, word, rest))
            return None
        if not run.finished:
            self.say(describe(run))
        return None

    def inspect(self, run, word, rest):
        """The commands that look or change settings without moving the run."""
        if word in ("b", "break"):
            return self.breakpoint(run, rest)
        if word in ("p", "print"):
            return run.format(rest) if rest.strip() else current_values(run)
        if word in ("w", "watch"):
            run.watch(rest)
            return f"watching {rest}"
        if word == "inject":
            tensor, _, expression = rest.partition(" ")
            value = eval(expression, {"np": np, "nan": np.nan, "inf": np.inf})  # noqa: S307
            run.inject(tensor, np.asarray(value))
            return f"{tensors.tensor_name(tensor)} := {tensors.summary(np.asarray(value))}"
        if word == "fr":
            return frontier_text(run)
        if word in ("i", "info"):
            return info_text(run)
        if word in ("l", "list"):
            count = int(rest) if rest else 20
            return "\n".join(f"#{e.number} {e.name} ({e.op})" + (f" [{e.where}]" if e.where
                                                                   else "")
                             for e in run.history[-count:]) or "nothing has run yet"
        if word == "dump":
            return f"wrote {rest}: {run.dump(rest)} bytes"
        if word == "dumpall":
            run.dump_all(rest)
            return f"dumping every tensor from here into {rest}/"
        return f"unknown command {word!r}: h for help"

    def breakpoint(self, run, rest):
        if not rest:
            return "\n".join(f"{b.number}: {b.label} ({'on' if b.enabled else 'off'}, "
                             f"{b.hits} hits)" for b in run.breakpoints) or "no breakpoints"
        if rest.startswith("-") and rest[1:].isascii() and rest[1:].isdigit():
            bp = run.toggle_breakpoint(int(rest[1:]))
            return f"breakpoint {bp.number} {'on' if bp.enabled else 'off'}"
        bp = Breakpoint.parse(rest)
        run.breakpoints.append(bp)
        return f"breakpoint {bp.number}: {bp.label}"


def frontier_text(run):
    frontier = run.frontier()
    lines = [f"{frontier.done} of {frontier.total} nodes done"]
    lines.append("ready: " + (", ".join(frontier.ready) or "-"))
    if frontier.running:
        lines.append("running: " + ", ".join(frontier.running))
    for name, missing in frontier.waiting:
        lines.append(f"waiting: {name} on {', '.join(missing)}")
    return "\n".join(lines)


def info_text(run):
    event = run.current
    if event is None:
        return "nothing has run yet"
    node = event.node
    lines = [f"{event.name} ({event.op}) on {event.device or '?'}"]
    if getattr(node, "input_names", None):
        lines.append("inputs: " + ", ".join(node.input_names))
    trace = getattr(getattr(node, "op", None), "traceback", None)
    if trace:
        lines.append("created at (most recent call last):")
        lines.extend(f'  File "{f.filename}", line {f.lineno}, in {f.name}\n    {f.line}'
                     for f in program_frames(trace))
    return "\n".join(lines)


def program_frames(trace, num=6):
    """The frames of the debugged program: not the engine's, the debugger's or runpy's."""
    import os
    ours = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,)
    from engine.framework.traceback import is_engine_file
    frames = [f for f in trace if not is_engine_file(f.filename)
              and not f.filename.startswith(ours) and not f.filename.startswith("<frozen")]
    return frames[-num:]
