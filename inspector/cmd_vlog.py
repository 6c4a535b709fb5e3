"""`graph-inspector vlog LOG [--json] [-o DIR] [--follow]`: TensorFlow VLOG output as graphs and steps.

A summary by default; `--json` prints every graph dump and execution; `-o DIR` writes one .dot
per graph dump (views/dot, the exporter `graph-inspector dot` uses; .svg too for the first
SVG_LIMIT dumps, or all with --all-svg, where Graphviz's dot is installed) and a Chrome trace
per step (views/timeline, as `graph-inspector trace` writes them).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import sys

from inspector import cli, number_arguments, process_exit
from parsers.errors import InputError
from parsers.printable import printable
from parsers.vlog import VlogParser, finished_executions, follow_vlog, read_vlog
from parsers.vlog.bounded import bounded_lines

LIST_LIMIT = 20
SVG_LIMIT = 50        # dot takes 50 ms to seconds a dump; a log can hold thousands
RENDER_TIMEOUT = 60


def add_arguments(parser):
    parser.add_argument("path", metavar="LOG", help="a log file with TensorFlow VLOG output, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print graphs and executions as JSON")
    parser.add_argument("-o", "--out", metavar="DIR", help="write graph_*.dot/.svg and trace_step_*.json here")
    parser.add_argument("--all-svg", action="store_true",
                        help=f"with -o: render every dump to .svg (default: the first {SVG_LIMIT})")
    parser.add_argument("--follow", action="store_true", help="keep reading as the log grows; print graphs and steps as they complete")
    parser.add_argument(
        "--follow-timeout", type=number_arguments.seconds, default=None, metavar="SECONDS",
        help="with --follow: stop after this long without new lines (default: until Ctrl-C)",
    )


def run(args):
    if args.out:
        from views import outputs  # only -o writes files (its imports cost 50-100 ms)

        outputs.check_output_dir(args.out, inputs=[args.path])
    if args.follow:
        log = _follow(args)
    else:
        # A log's model is hundreds of thousands of small objects and no cycles: once read,
        # the collector's passes over them would cost as much as writing the JSON.
        collecting = gc.isenabled()
        gc.disable()
        ending = False
        try:
            log = _read_and_print(args)
            # Once printed, the log's objects need not be freed one by one (nor collected).
            ending = not args.out and process_exit.ask(log)
        finally:
            if collecting and not ending:
                gc.enable()
    if args.out:
        write_outputs(log, args.out, all_svg=args.all_svg)
    return 0


def _read_and_print(args):
    with progress_display() as progress:
        reading = progress.task("reading (MB)")
        # The command shows event counts only: no need to keep every event line.
        log = read_vlog(args.path, events=False,
                        progress=lambda done, total: reading(done >> 20, total >> 20))
    if log.lines == 0:
        raise InputError(args.path, "empty log")
    try:
        if args.json:
            log.write_json(sys.stdout)
            sys.stdout.write("\n")
        else:
            sys.stdout.write("\n".join(summary_lines(log)) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # a reader such as `head` left: the -o files are still written
        cli.quiet_stdout()
    return log


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
            for raw in bounded_lines(sys.stdin.buffer, "-"):
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


def dump_title(graph):
    """What a dump's picture is titled: its label, else what it is."""
    return graph.label or (f"function {graph.function_name}" if graph.kind == "function" else "graph")


def dump_source(graph):
    """The DOT text of one dump, drawn by views.dot from its GraphDef (_Arg/_Retval included)."""
    from views import dot as views_dot  # views load only for -o: the summary starts faster

    return views_dot.to_source(graph.graph_def(), views_dot.DotOptions(title=dump_title(graph)))


def step_run(log, step):
    """One step as a views.timeline TraceRun: its StepStats and the dumps it named as its
    partition graphs (for _Send/_Recv flows), labelled as `graph-inspector trace LOG` does."""
    from views import timeline

    return timeline.TraceRun.of_run_metadata(log.run_metadata(step), f"step {step}", step=step,
                                             source=log.path)


def step_trace(log, step):
    """The Chrome trace document of one step."""
    from views import timeline

    return timeline.chrome_trace([step_run(log, step)])


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:60]


def write_outputs(log, directory, all_svg=False):
    """graph_NNNN[_label].dot per dump (.svg too for the first SVG_LIMIT, or all with all_svg,
    where dot is installed) and trace_step_N.json per step; each file whole or not at all.
    A file that cannot be written (a full disk) stops the command (OutputError) and takes
    back what this run wrote: its files, and the directory where this run made it; a dump
    dot cannot draw is a warning (its .dot is there)."""
    from views import outputs

    made = outputs.first_missing(os.path.abspath(directory))
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as error:
        raise InputError(directory, error.strerror or str(error)) from None
    written = []
    try:
        _write_outputs(log, directory, all_svg, written)
    except BaseException:
        for path in written:
            with contextlib.suppress(OSError):
                os.remove(path)
        outputs.remove_made(os.path.abspath(directory), made)
        raise


def _write_outputs(log, directory, all_svg, written):
    from views import dot as views_dot
    from views import outputs, timeline

    def write_text(path, text):
        written.append(path)  # (before: a failed write may leave a partial temporary)
        outputs.write_text(path, text)

    to_render = []
    steps = log.steps()
    found_dot = views_dot.find_dot() is not None
    with progress_display() as progress:
        dots = progress.task("writing .dot", len(log.graphs))
        for index, graph in enumerate(log.graphs):
            stem = f"graph_{index:04d}" + (f"_{_slug(graph.label)}" if graph.label else "")
            source = dump_source(graph)
            write_text(os.path.join(directory, stem + ".dot"), source)
            if all_svg or index < SVG_LIMIT:
                to_render.append((os.path.join(directory, stem + ".svg"), source))
            dots(index + 1)
        failed = []
        if found_dot and to_render:
            written.extend(path for path, _ in to_render)
            failed = _render_all(to_render, progress.task("rendering .svg", len(to_render)))
        traces = progress.task("writing step traces", len(steps))
        for number, step in enumerate(steps, start=1):
            write_text(os.path.join(directory, f"trace_step_{step}.json"),
                       timeline.dumps(step_trace(log, step)) + "\n")
            traces(number)
    print(printable(f"wrote {len(log.graphs)} graphs and {len(steps)} step traces to {directory}"),
          file=sys.stderr)
    if not found_dot:
        print("note: no .svg: Graphviz's dot is not on PATH", file=sys.stderr)
    elif len(to_render) < len(log.graphs):
        print(f"note: .svg for the first {len(to_render)} graphs only; --all-svg renders every one",
              file=sys.stderr)
    for path, message in failed[:3]:
        print(f"warning: {path}: {message}", file=sys.stderr)
    if len(failed) > 3:
        print(f"warning: {len(failed) - 3} more .svg failed", file=sys.stderr)


def _render_all(jobs, advance):
    """Render (svg path, DOT source) jobs with dot, several at once; [(path, why dot failed)].
    A write that fails raises its OutputError once the renders under way end."""
    from concurrent.futures import ThreadPoolExecutor

    from views import dot as views_dot
    from views import outputs

    def render(job):
        path, source = job
        try:
            data = views_dot.render(source, "svg", timeout=RENDER_TIMEOUT)
        except views_dot.RenderError as error:
            return path, str(error)
        outputs.write_bytes(path, data)
        return path, None

    failed = []
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        for done, (path, why) in enumerate(pool.map(render, jobs), start=1):
            advance(done)
            if why is not None:
                failed.append((path, why))
    return failed


class progress_display:
    """rich.progress bars on stderr while a block runs, where stderr is a terminal; elsewhere
    its tasks do nothing. task(name, total) -> a callable(done, total=None) that advances it."""

    def __init__(self):
        self._progress = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn)

            self._progress = Progress(TextColumn("{task.description:<20}"), BarColumn(),
                                      MofNCompleteColumn(), TimeElapsedColumn(),
                                      console=Console(stderr=True), transient=True)

    def __enter__(self):
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc_info):
        if self._progress is not None:
            self._progress.stop()
        return False

    def task(self, name, total=None):
        if self._progress is None:
            return lambda done, new_total=None: None
        task_id = self._progress.add_task(name, total=total)

        def advance(done, new_total=None):
            self._progress.update(task_id, completed=done,
                                  **({"total": new_total} if new_total is not None else {}))

        return advance
