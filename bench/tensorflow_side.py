"""TensorFlow 2.21 beside the engine in a bench: the same program file run on both.

TensorFlow is never a dependency: a bench finds it in its own venv (tools/README.md), at
$GRAPH_INSPECTOR_TF_PYTHON or else .venv-tf/bin/python at the repository root, and runs a
program of bench/programs/ there with tools/tf_shim on PYTHONPATH, so `import engine as tf`
is tensorflow.compat.v1 (oneDNN off: plain Eigen kernels, as the fixtures were made). Without
it a bench's TensorFlow column says "not measured".
"""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOT_MEASURED = "not measured (no TensorFlow venv: .venv-tf or $GRAPH_INSPECTOR_TF_PYTHON)"
# glibc's malloc as the engine sets it for itself (engine/runtime/host_memory.py: freed blocks
# up to 32 MiB kept, 256 MiB of free heap), in one arena. TensorFlow's CPU allocator is malloc,
# and its kernels allocate on its inter-op threads, whose arenas map and unmap sub-heaps as
# their blocks come and go: in some TensorFlow processes a 12.8 MB ReluGrad output was fresh
# pages on every run (3,137 faults, 5-7 ms a run), in others none (0.6 ms), with nothing
# else different (2026-11-28). With this policy no process faulted; a per-op row measures
# TensorFlow's kernel, not which way its process's arenas fell.
MALLOC_LIKE_ENGINE = {"MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": str(32 << 20),
                      "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}


def python():
    """The TensorFlow venv's interpreter, or None."""
    path = os.environ.get("GRAPH_INSPECTOR_TF_PYTHON") or str(REPO / ".venv-tf" / "bin" / "python")
    return path if os.access(path, os.X_OK) else None


def command(program, args, on_tensorflow, malloc_like_engine=False):
    """(argv, env) running bench/programs/`program` on TensorFlow or on the engine; TensorFlow's
    malloc set as the engine sets its own where `malloc_like_engine` (MALLOC_LIKE_ENGINE)."""
    path = str(REPO / "bench" / "programs" / program)
    env = dict(os.environ, PYTHONHASHSEED="0")
    if on_tensorflow:
        env.update(PYTHONPATH=str(REPO / "tools" / "tf_shim"), TF_CPP_MIN_LOG_LEVEL="3")
        if malloc_like_engine:
            env.update(MALLOC_LIKE_ENGINE)
        return [python(), path, *map(str, args)], env
    env["PYTHONPATH"] = str(REPO)
    return [sys.executable, path, *map(str, args)], env


def run(program, args, on_tensorflow, timeout=600):
    """The program's stdout; it must exit 0."""
    argv, env = command(program, args, on_tensorflow)
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout,
                            cwd=REPO)
    if result.returncode != 0:
        side = "TensorFlow" if on_tensorflow else "the engine"
        raise RuntimeError(f"{program} failed on {side}: {result.stderr[-2000:]}")
    return result.stdout


def serve(program, args, malloc_like_engine=False):
    """A long-running program on TensorFlow answering on stdin/stdout (bench/programs'
    servers), once it has printed "ready"."""
    argv, env = command(program, args, True, malloc_like_engine)
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
    for line in process.stdout:
        if line.strip() == "ready":
            return process
    raise RuntimeError(f"{program} on TensorFlow exited before it was ready")
