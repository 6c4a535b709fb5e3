"""Benchmark: `graph-inspector vlog LOG --json` against the seed's awk pipeline on 32 MB logs.

Four logs, each made at bench time by writing real logs from sample_logs/ end to end until
it passes 32 MiB (as logs of many runs appended to one file are); nothing is committed:
- graph dumps: mlp_train_dumps.log (TensorFlow, function_utils=5, function=5, executor=1;
  most lines `||` dumps);
- executor trace: engine_counter.log (the engine's Process node / kernel done lines);
- level 5: counter_level5.log (TensorFlow at TF_CPP_MAX_VLOG_LEVEL=5: most lines are
  Grappler's prefix-less text-format GraphDefs and NodeDefs, `node {`, `attr {`, `}`);
- sample logs: the other seven logs of sample_logs/ (issue 19's row).
The baseline is bench/awk/get_graph.sh: the seed article's three passes (awk for `||` lines,
then two gawk scripts), re-typed. Ours runs with the C scanner where it was built
(parsers/vlog/native.py) and, as `reference_*`, with GRAPH_INSPECTOR_VLOG_NATIVE=off (the
pure-Python reader the scanner is tested against); the two documents must be the same bytes.
All run as separate processes, interleaved, several times; `run()` reports the medians, one
row per log. Issue 35's target: ours at least 5x faster than awk on each; issue 19's: 3x on
the sample logs. `cli_startup_s` is what any graph-inspector command costs before its own
code runs (the imports behind inspector/cli.py), measured the same way, so the reading itself
can be told apart.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parsers.vlog import native
from parsers.vlog.prefix import is_log_line

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
PIPELINE = ROOT / "bench" / "awk" / "get_graph.sh"
TARGET_BYTES = 32 * 1024 * 1024
REPEATS = 5


# mix name -> (the sample logs it repeats, the target speed-up over awk, whose target)
MIXES = {
    "graph dumps": (("mlp_train_dumps.log",), 5, "issue 35"),
    "executor trace": (("engine_counter.log",), 5, "issue 35"),
    "level 5": (("counter_level5.log",), 5, "issue 35"),
    "sample logs": (None, 3, "issue 19"),
}
# The mixes' own logs stay out of "sample logs", which stays issue 19's mix of seven.
MIX_ONLY = {"counter_level5.log", "mlp_train_dumps.log"}


def make_log(path: Path, target_bytes: int = TARGET_BYTES, names=None) -> int:
    """Write real logs (`names` of sample_logs/, else all) end to end into `path` until it
    holds target_bytes; its size."""
    paths = ([p for p in sorted(SAMPLES.glob("*.log")) if p.name not in MIX_ONLY]
             if names is None else [SAMPLES / n for n in names])
    logs = [p.read_bytes() for p in paths]
    if not logs:
        raise RuntimeError(f"no sample logs in {SAMPLES}")
    size = 0
    with open(path, "wb") as out:
        while size < target_bytes:
            for data in logs:
                out.write(data if data.endswith(b"\n") else data + b"\n")
                size += len(data) + (0 if data.endswith(b"\n") else 1)
    return size


def line_shares(path: Path) -> dict:
    """How the log's lines split: `||` dumps, executor lines, other log lines, and lines with
    no log prefix (what a level-5 log is mostly made of)."""
    counts = {"dump": 0, "executor": 0, "prefixed": 0, "no_prefix": 0}
    total = 0
    with open(path, "rb") as f:
        for line in f:
            total += 1
            if b"] || " in line[:100] or line.startswith(b"||"):
                counts["dump"] += 1
            elif b"Process node: " in line or b"kernel done: " in line:
                counts["executor"] += 1
            elif is_log_line(line):
                counts["prefixed"] += 1
            else:
                counts["no_prefix"] += 1
    return {f"lines_{kind}_pct": round(100 * n / max(total, 1), 1) for kind, n in counts.items()}


def _timed(command, **kwargs) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child processes) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, **kwargs)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run(repeats: int = REPEATS) -> list[dict]:
    """One row per mix: both timed on the same 32 MB file, medians of `repeats` runs each."""
    gawk = shutil.which("gawk")
    if gawk is None:
        return {"skipped": "gawk is not installed (the seed's scripts need it: apt-get install gawk)"}
    return [run_mix(name, gawk, repeats) for name in MIXES]


def run_mix(mix: str, gawk: str, repeats: int) -> dict:
    names, target, whose = MIXES[mix]
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "big"
        log = base.with_suffix(".log")
        size = make_log(log, names=names)
        json_path = Path(folder) / "ours.json"
        reference_path = Path(folder) / "reference.json"
        ours = [sys.executable, "-m", "inspector", "vlog", str(log), "--json"]
        reference_env = dict(os.environ, **{native.NATIVE_ENV: "off"})
        awk = ["sh", str(PIPELINE), str(base)]
        env = dict(os.environ, AWK=gawk)
        # What every graph-inspector command pays before it reads anything.
        startup = [sys.executable, "-c", "import inspector.cli"]
        ours_runs, reference_runs, awk_runs, startup_runs = [], [], [], []
        for _ in range(repeats):
            with open(json_path, "wb") as out:
                ours_runs.append(_timed(ours, stdout=out, cwd=ROOT))
            awk_runs.append(_timed(awk, env=env, cwd=folder))
            with open(reference_path, "wb") as out:
                reference_runs.append(_timed(ours, stdout=out, cwd=ROOT, env=reference_env))
            startup_runs.append(_timed(startup, cwd=ROOT))
        same_output = json_path.read_bytes() == reference_path.read_bytes()
        with open(json_path, encoding="utf-8") as f:
            document = json.load(f)
        dot_bytes = (Path(folder) / "big_rough.dot").stat().st_size
        shares = line_shares(log)
    ours_s = statistics.median(wall for wall, _ in ours_runs)
    awk_s = statistics.median(wall for wall, _ in awk_runs)
    startup_s = statistics.median(wall for wall, _ in startup_runs)
    ours_cpu_s = statistics.median(cpu for _, cpu in ours_runs)
    awk_cpu_s = statistics.median(cpu for _, cpu in awk_runs)
    return {
        "mix": mix,
        "reader": ("the C scanner (parsers.vlog._scanner)" if native.scanner is not None
                   else "the Python reference (the C scanner is not built here)"),
        "logs": ", ".join(names) if names else "the seven sample logs",
        "log_bytes": size,
        "log_lines": document["lines"],
        **shares,
        "graphs_found": len(document["graphs"]),
        "executions_found": len(document["executions"]),
        "unparsed_lines": document["unparsed_lines"],
        "awk_dot_bytes": dot_bytes,
        "same_output_as_reference": same_output,
        "ours_s": round(ours_s, 3),
        "awk_s": round(awk_s, 3),
        "reference_s": round(statistics.median(wall for wall, _ in reference_runs), 3),
        "ours_cpu_s": round(ours_cpu_s, 3),
        "awk_cpu_s": round(awk_cpu_s, 3),
        "reference_cpu_s": round(statistics.median(cpu for _, cpu in reference_runs), 3),
        "cli_startup_s": round(startup_s, 3),
        "ours_after_startup_s": round(ours_s - startup_s, 3),
        "ratio": round(ours_s / awk_s, 3),
        "speedup": round(awk_s / ours_s, 2),
        "cpu_speedup": round(awk_cpu_s / ours_cpu_s, 2),
        "target": f"≥ {target}x faster ({whose})",
        "met": ours_s * target <= awk_s and same_output,
        "repeats": repeats,
        "how": HOW,
        # These cores are shared: the load says how far wall times are from an idle machine's.
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "row": f"VLOG, {mix}: vlog LOG --json on a 32 MB log, vs the seed's awk pipeline",
        "value": f"{awk_s / ours_s:.2f}x faster", "tensorflow": "",
    }


HOW = ("a C extension (parsers/vlog/scanner/, compiled by pip where a compiler is; else the "
       "Python reference runs) reads the log a megabyte at a time into the Python reader's own "
       "state: node lines and headers seen before, block ends, Process and kernel done lines "
       "whose summary was parsed before, events, labels and unparsed lines in C, each other "
       "line through the reference's own handler, so the result is the reference's (tested "
       "byte for byte); it writes the executions' JSON too. Measured 2026-11-28 on the "
       "executor-trace mix, CPU s: reading, the Python reference 0.355, the scanner 0.059; "
       "one regex per record kind over the whole buffer (finditer, the fields only, no "
       "objects) 0.167 for the Process lines and 0.179 for the kernel done lines; the "
       "executions' JSON, json.dumps 0.094, orjson 0.010, msgspec 0.011 (both after 0.032 of "
       "to_json dicts, and not json.dumps's bytes: no spaces), the scanner 0.007; mmap against "
       "read() a megabyte at a time: 0.021 against 0.005 (page faults). Earlier (perf-tools): "
       "Hyperscan 0.45 against 0.46 line by line at level 5 (a report per line, to count the "
       "unparsed ones), ahocorasick_rs 0.18 and pyahocorasick 0.49 for the markers alone. "
       "Around it: no cyclic collector while vlog runs, the document written a megabyte at a "
       "time, the process ended without freeing the log (os._exit after flushing, 24 ms), "
       "modules byte-compiled by make setup (PYTHONDONTWRITEBYTECODE is set here: 11 ms)")


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
