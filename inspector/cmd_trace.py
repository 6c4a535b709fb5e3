"""`graph-inspector trace INPUT... -o trace.json`: step stats of any source as one Chrome trace.

Every run in every input (a RunMetadata, an events file's tagged run metadata, a VLOG log's
steps, a RunMetadata the engine wrote with `graph-inspector run --trace`) becomes a span on
the timeline, one after another in input order, labelled by its tag or step. Open the file
in https://ui.perfetto.dev or chrome://tracing.
"""

from __future__ import annotations

import os
import re
import sys

from inspector import inputs
from parsers.errors import InputError
from parsers.printable import printable
from views import outputs, timeline

_STEP = re.compile(r"(?:^|\D)(-?\d+)\s*$")


def add_arguments(parser):
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="RunMetadata files, events files or directories, VLOG logs")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="the trace JSON to write (e.g. trace.json); - for stdout")


def step_of(tag):
    """The step a run's tag names, or None.

    >>> step_of("step 3"), step_of("step12"), step_of("train"), step_of("")
    (3, 12, None, None)
    """
    match = _STEP.search(tag or "")
    return int(match.group(1)) if match else None


def trace_runs(paths):
    """TraceRuns for every run with step stats in `paths`; InputError for a path with none."""
    runs = []
    several = len(paths) > 1
    for path in paths:
        loaded = inputs.load(path)
        found = 0
        for index, tagged in enumerate(loaded.run_metadata):
            if not tagged.run_metadata.step_stats.dev_stats:
                continue
            found += 1
            tag = tagged.tag or (f"run {index}" if len(loaded.run_metadata) > 1 else "")
            label = tag or os.path.basename(os.path.normpath(path))
            if several and tag:
                label = f"{os.path.basename(os.path.normpath(path))}: {tag}"
            runs.append(timeline.TraceRun.of_run_metadata(
                tagged.run_metadata, label, step=step_of(tagged.tag), source=tagged.source))
        if not found:
            raise InputError(path, f"no step stats in this {loaded.kind} (a RunMetadata traced "
                                   f"with FULL_TRACE, events with run metadata, or a VLOG log "
                                   f"with executor lines)")
    return runs


def run(args):
    outputs.check_output(args.output, inputs=args.inputs, allow_stdout=True)
    runs = trace_runs(args.inputs)
    count = timeline.write_trace(args.output, runs)
    where = "stdout" if args.output == outputs.STDOUT else args.output
    print(printable(f"wrote {where}: {len(runs)} runs, {count} events"), file=sys.stderr)
    return 0
