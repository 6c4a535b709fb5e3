"""`python -m bench`: run every workload, print the ratios, write BENCHMARKS.md."""

import argparse
import datetime
import importlib
import os
import platform
import sys

import numpy as np

import bench


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "machine": platform.machine(), "cpu": model, "gpu": gpu_name(),
            "python": platform.python_version(), "numpy": np.__version__, "blas": blas(),
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg())}


def blas():
    """Which BLAS NumPy calls and which of its kernels it chose for this CPU: the machine's
    environment may pin an older one (the Makefile's bench target says why it does not)."""
    import threadpoolctl
    libraries = [info for info in threadpoolctl.threadpool_info() if info["user_api"] == "blas"]
    if not libraries:
        return "unknown"
    info = libraries[0]
    pinned = os.environ.get("OPENBLAS_CORETYPE")
    return (f"{info['internal_api']} {info['version']}, {info.get('architecture') or '?'} kernels"
            + (f" (pinned by OPENBLAS_CORETYPE={pinned})" if pinned else " (chosen for this CPU)"))


def gpu_name():
    """The GPU the GPU workloads ran on, with the CuPy version; or why there was none."""
    from engine.kernels.cuda import backend
    current = backend.current()
    if current is None:
        return "none (no CUDA GPU with CuPy)"
    if current.simulated:
        return "simulated (NumPy behind CuPy's API)"
    name = current.xp.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    return f"{name}, CuPy {current.xp.__version__}"


def report(results, measurements, info, skipped=()):
    lines = ["# Benchmarks", "",
             "The engine against plain NumPy doing the same work, in the same process: the median",
             "of many interleaved repeats (these machines are shared and noisy). `make bench` "
             "rewrites this file.", "",
             f"- date: {info['date']}", f"- machine: {info['machine']}", f"- CPU: {info['cpu']}",
             f"- GPU: {info['gpu']}",
             f"- Python {info['python']}, NumPy {info['numpy']}",
             f"- BLAS: {info.get('blas', 'unknown')}",
             f"- malloc: {info.get('malloc', 'the default')}",
             "- arrays: " + info.get("arrays", "NumPy's own boundaries"), "",
             "GPU cases compare against plain CuPy on the same device instead of NumPy.", "",
             f"- load average when it started: {info['load']} (2 cores shared with other "
             "sessions: compare ratios within one run, not absolute times across runs)", ""]
    lines += _targets(results, measurements)
    lines += ["", "Every case, the engine against NumPy:", "",
              "| workload | engine | NumPy (CuPy on GPU) | ratio | target |", "|---|---:|---:|---:|---|"]
    for result in results:
        case = result.case
        target = "" if case.target is None else (
            f"≤ {case.target:g}x {'met' if result.meets_target else 'MISSED'}")
        if case.note:
            target = f"{target} ({case.note})" if target else case.note
        lines.append(f"| {case.name} | {_time(result.engine_s)} | {_time(result.numpy_s)} | "
                     f"{result.ratio:.2f}x | {target} |")
    if skipped:
        lines += ["", "Not measured on this machine:", ""]
        lines += [f"- {module_name}: {reason}" for module_name, reason in skipped]
    for module_name, values in measurements:
        lines += ["", f"## {module_name}", "", _doc_line(module_name), "",
                  "| measurement | value |", "|---|---:|"]
        lines += [f"| {key} | {value} |" for key, value in values.items()
                  if key not in ("row", "value", "tensorflow")]
    return "\n".join(lines) + "\n"


def _targets(results, measurements):
    """The targets table: each row's figure now, TensorFlow 2.21's, the target, met or not."""
    lines = ["## Targets", "",
             "Ratios are time over plain NumPy doing the same work in the same process, except "
             "where the row says otherwise. TensorFlow 2.21's figures come from the row's own "
             "run of TensorFlow on this machine where the row measures it (its oracle venv, "
             "`.venv-tf`), else from the issue that set the target.", "",
             "| workload | engine | TensorFlow 2.21 | target | met |", "|---|---:|---:|---|---|"]
    for result in results:
        case = result.case
        if case.target is None or "GPU" in case.name:
            continue
        lines.append(f"| {case.name} | {result.ratio:.2f}x | {case.tensorflow or '-'} | "
                     f"≤ {case.target:g}x | {'yes' if result.meets_target else 'NO'} |")
    for _, values in measurements:
        if "row" in values:
            lines.append(f"| {values['row']} | {values['value']} | {values['tensorflow'] or '-'}"
                         f" | {values['target']} | {'yes' if values['met'] else 'NO'} |")
    return lines


def _doc_line(module_name):
    doc = importlib.import_module(module_name).__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _time(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


# What follows this line in BENCHMARKS.md is carried over by every run: figures measured on
# machines `make bench` does not run on (a lent GPU) and comparisons made by hand (what
# `diff --stats` showed of TensorFlow's runs against the engine's), each with its date.
KEPT_MARKER = "<!-- kept by make bench: measured on other machines -->"


def kept_section(path):
    """The kept tail of the report at `path` (from KEPT_MARKER on), or ""."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find(KEPT_MARKER)
    return "" if at < 0 else "\n" + text[at:]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("-o", "--output", default="BENCHMARKS.md")
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--only", help="run only workloads whose module name contains this")
    args = parser.parse_args(argv)
    malloc = bench.steady_malloc()
    results, measurements, skipped = [], [], []
    for module_name in bench.WORKLOADS:
        if args.only and args.only not in module_name:
            continue
        module = importlib.import_module(module_name)
        try:
            cases = module.cases() if hasattr(module, "cases") else None
            values = module.run() if cases is None else None
        except bench.Skipped as reason:
            skipped.append((module_name, str(reason)))
            print(f"{module_name}: skipped: {reason}", flush=True)
            continue
        if cases is None:
            # A workload may measure several rows: a list of dicts, one per row.
            for one in values if isinstance(values, list) else [values]:
                measurements.append((module_name, one))
                print(f"{module_name}: {one}", flush=True)
            continue
        for case in cases:
            result = bench.measure(case, repeats=args.repeats)
            results.append(result)
            print(f"{case.name}: {_time(result.engine_s)} vs {_time(result.numpy_s)} "
                  f"= {result.ratio:.2f}x", flush=True)
    text = (report(results, measurements,
                   dict(machine(), malloc=malloc, arrays=bench.array_alignment()), skipped)
            + kept_section(args.output))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
