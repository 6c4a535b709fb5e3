"""`graph-inspector diff --stats A B`: two runs' step stats compared (views/stats_diff.py) as
text, JSON or the TUI's stats-diff screen."""

from __future__ import annotations

import json
import os
import sys

from inspector import inputs
from parsers.errors import InputError
from parsers.printable import printable
from views import stats_diff


def step_stats_of(path):
    """(every StepStats with node stats in `path`, its title); InputError when it has none."""
    loaded = inputs.load(path)
    runs = [tagged.run_metadata.step_stats for tagged in loaded.run_metadata
            if tagged.run_metadata.step_stats.dev_stats]
    if not runs:
        raise InputError(path, f"no step stats in this {loaded.kind} (a RunMetadata traced with "
                               f"FULL_TRACE, events with run metadata, or a VLOG log with "
                               f"executor lines)")
    return runs, os.path.basename(os.path.normpath(path)) or path


def run(args):
    if args.output:
        raise InputError(args.output, "-o draws graph diffs; --stats prints tables")
    if args.top < 0:
        raise InputError(str(args.top), "--top must be 0 (all) or more")
    runs_a, title_a = step_stats_of(args.before)
    runs_b, title_b = step_stats_of(args.after)
    found = stats_diff.compare(runs_a, runs_b)
    if args.tui:
        from inspector.cmd_tui import has_terminal
        if has_terminal():
            return _open_tui(found, title_a, title_b)
        print("graph-inspector: no terminal, so no TUI: printed the diff", file=sys.stderr)
    if args.json:
        output = json.dumps({"a": title_a, "b": title_b, **found.to_json()}, indent=1) + "\n"
    else:
        output = "".join(printable(line) + "\n"
                         for line in text_lines(found, title_a, title_b, args.top or None))
    sys.stdout.write(output)  # a failing write: inspector/cli.py's one error line
    return 0


def text_lines(found, title_a, title_b, top=None):
    """The comparison as lines: the runs, totals, per op type, the costliest nodes, the
    unmatched ones."""
    ratio = stats_diff.format_ratio
    total = found.total_b_us / found.total_a_us if found.total_a_us else None
    matched = found.matched_b_us / found.matched_a_us if found.matched_a_us else None
    lines = [f"A: {title_a} ({_runs(found.runs_a)})",
             f"B: {title_b} ({_runs(found.runs_b)})",
             f"total op time: A {found.total_a_us:.1f} µs, B {found.total_b_us:.1f} µs, "
             f"B/A {ratio(total)}; nodes in both: A {found.matched_a_us:.1f} µs, "
             f"B {found.matched_b_us:.1f} µs, B/A {ratio(matched)}", ""]
    lines += stats_diff.table_lines(found.ops, "op type")
    lines.append("")
    lines += stats_diff.table_lines(found.nodes, "node", limit=top, op_column=True)
    for side, names in (("A", found.only_a), ("B", found.only_b)):
        if names:
            shown = ", ".join(names[:top] if top else names)
            more = f", ... {len(names) - top} more" if top and len(names) > top else ""
            lines += ["", f"only in {side} ({len(names)}): {shown}{more}"]
    return lines


def _runs(count):
    return "1 run" if count == 1 else f"mean of {count} runs"


def _open_tui(found, title_a, title_b):
    from views.tui.screens.stats_diff import StatsDiffApp

    app = StatsDiffApp(found, title_a, title_b)
    app.run()
    return app.return_code or 0
