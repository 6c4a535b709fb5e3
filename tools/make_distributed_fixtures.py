"""Writes what TensorFlow 2.21 prints for the distributed programs of tests/programs: each
task's stdout, tests/fixtures/programs/<program>.<task>.stdout.

Run with TensorFlow's own venv:  .venv-tf/bin/python tools/make_distributed_fixtures.py
Each program runs as TensorFlow users ran it, one process per task (1 ps, 2 workers) on free
localhost ports, `import engine as tf` being tensorflow.compat.v1 through tools/tf_shim. A
program runs RUNS times: what tests/engine/test_distributed_programs.py compares exactly
must come out the same every time (the order of asynchronous updates is left to its
invariants), and the tool says so before it writes anything.
"""

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests import cluster_launch  # noqa: E402
from tests.engine import distributed_rules  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "programs"
SHIM = REPO / "tools" / "tf_shim"
RUNS = 3


def run_once(name):
    with tempfile.TemporaryDirectory() as scratch:
        tasks = cluster_launch.launch(
            sys.executable, REPO / "tests" / "programs" / f"{name}.py", str(SHIM),
            distributed_rules.PROGRAMS[name].args(scratch), timeout=600, cwd=REPO)
    for task in tasks.values():
        if task.name != "ps0" and task.returncode != 0:
            raise SystemExit(f"{name} {task.name} failed ({task.returncode}):\n"
                             f"{task.stderr[-3000:]}")
    return {name: task.stdout for name, task in tasks.items() if name != "ps0"}


def main():
    for name, rules in distributed_rules.PROGRAMS.items():
        runs = [run_once(name) for _ in range(RUNS)]
        first = runs[0]
        for run in runs[1:]:
            for task, stdout in run.items():
                problems = rules.compare(task, stdout, first[task])
                if problems:
                    raise SystemExit(f"{name} {task}: TensorFlow's runs differ where the "
                                     f"test compares them: {problems}")
        for task, stdout in first.items():
            path = OUT / f"{name}.{task}.stdout"
            path.write_text(stdout)
            print(f"wrote {path.relative_to(REPO)} ({len(stdout.splitlines())} lines)")


if __name__ == "__main__":
    main()
