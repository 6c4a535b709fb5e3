"""`graph-inspector vlog LOG [--json] [-o DIR] [--follow]`: TensorFlow VLOG output as graphs and steps.

A summary by default; `--json` prints every graph dump and execution; `-o DIR` writes one .dot
(and .svg where Graphviz's dot is installed) per graph dump and a Chrome trace per step.
The DOT written here is deliberately plain; views/dot is the full exporter.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

from parsers.errors import InputError
from parsers.vlog import VlogParser, follow_vlog, read_vlog
from parsers.vlog.reader import finished_executions

LIST_LIMIT = 20


def add_arguments(parser):
    parser.add_argument("path", metavar="LOG", help="a log file with TensorFlow VLOG output, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print graphs and executions as JSON")
    parser.add_argument("-o", "--out", metavar="DIR", help="write graph_*.dot/.svg and trace_step_*.json here")
    parser.add_argument("--follow", action="store_true", help="keep reading as the log grows; print graphs and steps as they complete")
    parser.add_argument(
        "--follow-timeout", type=float, default=None, metavar="SECONDS",
        help="with --follow: stop after this long without new lines (default: until Ctrl-C)",
    )


def run(args):
    if args.follow:
        log = _follow(args)
    else:
        progress = _progress_bar() if args.path != "-" and sys.stderr.isatty() else None
        # The command shows event counts only: no need to keep every event line.
        log = read_vlog(args.path, progress=progress, events=False)
        if progress is not None:
            sys.stderr.write("\r\033[K")
        if log.lines == 0:
            raise InputError(args.path, "empty log")
        try:
            if args.json:
                log.write_json(sys.stdout)
                sys.stdout.write("\n")
            else:
                sys.stdout.write("\n".join(summary_lines(log)) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            sys.stdout = open(os.devnull, "w")
    if args.out:
        write_outputs(log, args.out)
    return 0


def _progress_bar():
    def progress(done, total):
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(
            f"\r  reading [{'#' * filled}{'.' * (width - filled)}] "
            f"{done / 1e6:.1f}/{total / 1e6:.1f} MB"
        )
        sys.stderr.flush()

    return progress


def _follow(args):
    """Print each graph as its block closes and each execution once it is done, as it happens."""
    def on_graph(graph):
        if args.json:
            print(json.dumps({"graph": graph.to_json()}), flush=True)
        else:
            print(f"graph  line {graph.first_line}: {len(graph.nodes)} nodes  {graph.label or '(no label)'}", flush=True)

    def on_execution(execution):
        if args.json:
            print(json.dumps({"execution": execution.to_json()}), flush=True)
        else:
            print(f"step {execution.step}  {execution.device}: {len(execution.nodes)} nodes ran", flush=True)

    if args.path == "-":
        parser = VlogParser("-", on_graph=on_graph, keep_events=False)
        printed = 0
        try:
            for raw in sys.stdin.buffer:
                parser.feed(raw)
                finished = finished_executions(parser.log.executions)
                for execution in parser.log.executions[printed:finished]:
                    on_execution(execution)
                printed = max(printed, finished)
        except KeyboardInterrupt:
            pass
        log = parser.close()
        for execution in log.executions[printed:]:
            on_execution(execution)
        return log
    if not os.path.exists(args.path):
        raise InputError(args.path, "no such file or directory")
    return follow_vlog(args.path, on_graph, on_execution, idle_timeout=args.follow_timeout)


# ---- the summary --------------------------------------------------------------------------


def summary_lines(log):
    lines = [f"{log.path}: TensorFlow VLOG log, {log.lines} lines ({log.unparsed_lines} not understood)"]
    named = sum(1 for g in log.graphs if g.real_names)
    cut = sum(1 for g in log.graphs if not g.complete)
    functions = sum(1 for g in log.graphs if g.kind == "function")
    lines.append(
        f"graph dumps: {len(log.graphs)} ({functions} functions; {named} named from executor traces"
        + (f"; {cut} cut off" if cut else "") + ")"
    )
    for graph in log.graphs[:LIST_LIMIT]:
        what = f"function {graph.function_name}" if graph.kind == "function" else "graph"
        lines.append(
            f"  line {graph.first_line:>7}  {len(graph.nodes):>5} nodes  {what:<10}  {graph.label or '-'}"
            + (f"  [names from step {graph.names_from[0]}]" if graph.names_from else "")
        )
    if len(log.graphs) > LIST_LIMIT:
        lines.append(f"  ... {len(log.graphs) - LIST_LIMIT} more (--json lists them all)")
    devices = sorted({e.device for e in log.executions})
    lines.append(f"executions: {len(log.executions)} in {len(log.steps())} steps on {len(devices)} devices")
    for execution in log.executions[:LIST_LIMIT]:
        threads = {n.thread for n in execution.nodes}
        dead = sum(1 for n in execution.nodes if n.dead)
        starts = [n.start_us for n in execution.nodes if n.start_us is not None]
        ends = [n.end_us or n.start_us for n in execution.nodes if n.start_us is not None]
        took = (max(ends) - min(starts)) / 1000 if starts else 0.0
        lines.append(
            f"  step {execution.step:>5}  {execution.device}  {len(execution.nodes):>5} nodes"
            f"  {len(threads)} threads  {dead} dead  {took:.3f} ms"
        )
    if len(log.executions) > LIST_LIMIT:
        lines.append(f"  ... {len(log.executions) - LIST_LIMIT} more (--json lists them all)")
    kinds = log.event_counts
    if kinds:
        lines.append("events: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())))
    return lines


# ---- -o DIR: .dot/.svg per graph, a Chrome trace per step -----------------------------------


def _quote(text):
    """A DOT double-quoted string.

    >>> print(_quote('say "hi"'))
    "say \\"hi\\""
    """
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def graph_dot(graph):
    """A plain DOT text for one dump: a box per node (name, op), data edges solid, control dashed."""
    rename = graph.rename
    title = graph.label or (f"function {graph.function_name}" if graph.kind == "function" else "graph")
    out = [f"digraph {_quote(title)} {{", "  node [shape=box, fontsize=10];"]
    for name, type_text in graph.args:
        out.append(f"  {_quote(rename(name))} [label={_quote(rename(name) + chr(10) + 'arg ' + type_text)}, shape=ellipse];")
    for node in graph.nodes:
        tooltip = ", ".join(f"{k}={v}" for k, v in node.attrs)
        label = f"{rename(node.name)}\n{node.op}"
        out.append(f"  {_quote(rename(node.name))} [label={_quote(label)}, tooltip={_quote(tooltip)}];")
    for node in graph.nodes:
        target = _quote(rename(node.name))
        for source in node.inputs:
            base, _, index = source.partition(":")
            attrs = f" [label={_quote(index)}]" if index and index != "0" else ""
            out.append(f"  {_quote(rename(base))} -> {target}{attrs};")
        for source in node.control_inputs:
            out.append(f"  {_quote(rename(source))} -> {target} [style=dashed];")
    for name, type_text in graph.rets:
        out.append(f"  {_quote(rename(name))} [label={_quote(rename(name) + chr(10) + 'ret ' + type_text)}, shape=ellipse];")
    for ret, tensor in graph.returns:
        out.append(f"  {_quote(tensor.split(':')[0])} -> {_quote('return ' + ret)};")
    out.append("}")
    return "\n".join(out) + "\n"


def chrome_trace(step_stats):
    """Chrome trace events for a StepStats: one process per device, "X" events per node."""
    events = []
    for pid, device in enumerate(step_stats.dev_stats):
        events.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": device.device}})
        for thread, name in device.thread_names.items():
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": thread, "args": {"name": name}})
        for node in device.node_stats:
            label = node.timeline_label
            op = label.split(" = ", 1)[1].split("(", 1)[0] if " = " in label else ""
            events.append({
                "name": node.node_name, "cat": "Op", "ph": "X", "pid": pid, "tid": node.thread_id,
                "ts": node.all_start_micros, "dur": node.all_end_rel_micros,
                "args": {"op": op, "label": label},
            })
    return {"traceEvents": events, "displayTimeUnit": "ms"}


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:60]


def write_outputs(log, directory):
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as error:
        raise InputError(directory, error.strerror or str(error)) from None
    dot = shutil.which("dot")
    for index, graph in enumerate(log.graphs):
        stem = f"graph_{index:04d}" + (f"_{_slug(graph.label)}" if graph.label else "")
        dot_path = os.path.join(directory, stem + ".dot")
        with open(dot_path, "w", encoding="utf-8") as f:
            f.write(graph_dot(graph))
        if dot:
            subprocess.run(
                [dot, "-Tsvg", dot_path, "-o", os.path.join(directory, stem + ".svg")],
                check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
    for step in log.steps():
        path = os.path.join(directory, f"trace_step_{step}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(chrome_trace(log.step_stats(step)), f)
    print(f"wrote {len(log.graphs)} graphs and {len(log.steps())} step traces to {directory}", file=sys.stderr)
