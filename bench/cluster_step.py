"""Per-step cost of a between-graph program on a 1-ps 2-worker cluster: the engine's tasks
against TensorFlow 2.21's gRPC servers, on this machine, in the same run.

Each side runs bench/cluster_step_program.py as TF 1.x users ran it, one process per task;
both workers train at once, each timing its steps after a warm-up; a launch's figure is the
median of the two workers' median step times. Launches alternate between the engine and
TensorFlow, REPEATS of each, so the machine's load hits both alike; the row is the ratio of
the medians (target: at or under 1.0x). TensorFlow comes from a `.venv-tf` (this checkout's,
or the main checkout's of a git worktree) or GRAPH_INSPECTOR_TF_PYTHON; without one the row
says "not measured".
"""

import os
import re
import socket
import statistics
import subprocess
import sys
from pathlib import Path

from bench import Skipped

REPO = Path(__file__).resolve().parents[1]
PROGRAM = REPO / "bench" / "cluster_step_program.py"
STEPS = 300
REPEATS = 5
TARGET = 1.0


def tensorflow_python():
    """The Python of a TensorFlow venv, or None."""
    candidates = [os.environ.get("GRAPH_INSPECTOR_TF_PYTHON"), REPO / ".venv-tf/bin/python"]
    try:
        common = subprocess.run(["git", "rev-parse", "--path-format=absolute",
                                 "--git-common-dir"], cwd=REPO, capture_output=True,
                                text=True, check=True).stdout.strip()
        candidates.append(Path(common).parent / ".venv-tf/bin/python")
    except (OSError, subprocess.CalledProcessError):
        pass
    return next((str(c) for c in candidates if c and Path(c).is_file()), None)


def free_port():
    with socket.socket() as sock:
        sock.bind(("localhost", 0))
        return sock.getsockname()[1]


def _launch(python, pythonpath, steps):
    """Median step ms of one launch (the median of both workers')."""
    ps = f"localhost:{free_port()}"
    workers = f"localhost:{free_port()},localhost:{free_port()}"
    env = dict(os.environ, PYTHONPATH=pythonpath, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("DASK_SCHEDULER_ADDRESS", None)
    command = [python, str(PROGRAM), ps, workers]
    procs = [subprocess.Popen(command + ["worker", str(i), str(steps)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    server = subprocess.Popen(command + ["ps", "0", "0"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        medians = []
        for proc in procs:
            out, err = proc.communicate(timeout=600)
            found = re.search(r"step_ms ([0-9.]+)", out)
            if proc.returncode != 0 or found is None:
                raise RuntimeError(f"{python}: a worker failed:\n{err[-2000:]}")
            medians.append(float(found.group(1)))
        return statistics.median(medians)
    finally:
        server.terminate()
        server.wait(timeout=30)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()


def run(steps=STEPS, repeats=REPEATS):
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise Skipped("Dask distributed is not installed "
                      "(pip install 'graph-inspector[cluster]')") from None
    tf_python = tensorflow_python()
    engine, tensorflow = [], []
    for _ in range(repeats):
        engine.append(_launch(sys.executable, str(REPO), steps))
        if tf_python is not None:
            tensorflow.append(_launch(tf_python, str(REPO / "tools" / "tf_shim"), steps))
    engine_ms = statistics.median(engine)
    values = {"steps": steps, "repeats": repeats, "engine_step_ms": round(engine_ms, 3),
              "engine_launches_ms": [round(v, 2) for v in engine],
              "load_average_1min": round(os.getloadavg()[0], 1), "cores": os.cpu_count(),
              "row": "per-step cost, 1 ps + 2 workers (between-graph, processes), "
                     "engine vs TensorFlow 2.21 gRPC"}
    if not tensorflow:
        return {**values, "tensorflow_step_ms": "not measured", "target": f"≤ {TARGET}x",
                "met": False, "value": f"{engine_ms:.2f} ms", "tensorflow": "not measured"}
    tf_ms = statistics.median(tensorflow)
    ratio = engine_ms / tf_ms
    return {**values, "tensorflow_step_ms": round(tf_ms, 3),
            "tensorflow_launches_ms": [round(v, 2) for v in tensorflow],
            "target": f"≤ {TARGET}x", "met": ratio <= TARGET,
            "value": f"{ratio:.2f}x ({engine_ms:.2f} ms vs {tf_ms:.2f} ms)",
            "tensorflow": f"{tf_ms:.2f} ms"}


if __name__ == "__main__":
    print(run())
