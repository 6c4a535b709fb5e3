"""The distributed programs of tests/programs run as TF 1.x users ran them: one process per
task (1 ps, 2 workers, tests/cluster_launch.py), launched with the same commands as on
TensorFlow and nothing else (no scheduler started first, no environment set), and each
worker prints what TensorFlow 2.21 printed (tests/fixtures/programs/<program>.<task>.stdout,
tools/make_distributed_fixtures.py), compared as tests/engine/distributed_rules.py says:
exactly where the program is deterministic, by invariants where asynchronous updates make
the order of the machine's scheduling show.

`pytest -m slow -k twenty` runs every program 20 times in a row instead (not part of a plain
run: it takes minutes).
"""

import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from tests import cluster_launch  # noqa: E402
from tests.engine import distributed_rules  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "programs"
EXPECTED = REPO / "tests" / "fixtures" / "programs"
SOAK_RUNS = 20

pytestmark = pytest.mark.slow


def run_and_compare(name, scratch):
    """What is wrong with one launch of program `name` (empty when nothing is)."""
    rules = distributed_rules.PROGRAMS[name]
    tasks = cluster_launch.launch(sys.executable, PROGRAMS / f"{name}.py", str(REPO),
                                  rules.args(scratch), timeout=240, cwd=REPO)
    problems = []
    for task in tasks.values():
        if task.name == "ps0":
            continue
        if task.returncode != 0:
            problems.append(f"{task.name} exited with {task.returncode}:\n{task.stderr[-4000:]}")
            continue
        theirs = (EXPECTED / f"{name}.{task.name}.stdout").read_text()
        differences = rules.compare(task.name, task.stdout, theirs)
        if differences:  # what the task logged says why
            differences.append(f"{task.name}'s stderr ends:\n{task.stderr[-3000:]}")
        problems += differences
    return problems


@pytest.mark.parametrize("name", sorted(distributed_rules.PROGRAMS))
def test_the_tasks_print_what_tensorflows_printed(name, tmp_path):
    assert run_and_compare(name, tmp_path) == []


@pytest.mark.parametrize("name", sorted(distributed_rules.PROGRAMS))
def test_twenty_launches_in_a_row_without_a_failure(name, tmp_path, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("20 launches in a row: asked for with -m slow")
    for run in range(SOAK_RUNS):
        problems = run_and_compare(name, tmp_path / str(run))
        assert problems == [], f"launch {run + 1} of {SOAK_RUNS}"
