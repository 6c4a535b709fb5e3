"""Fuzz the command line (issues 18 and 33): `info`, `info --json`, `dot`, `run` and
`optimize` over every container kind (checkpoints, SavedModels and TFRecords among them), the
text formats and the hostile classes (tests/fuzz/seeds.py), raw and mutated: a file seed
damaged whole, a checkpoint or SavedModel directory one of its files.

Every case runs in a worker process under a time limit and an address-space limit of 1 GiB
over what the warmed-up worker holds: zero tracebacks, zero hangs, no allocation of more than
1 GiB. Exit 0, or 2 with one `error:` line (1 for a graph that fails while running), and no
raw control characters on the terminal.
`make test` runs a few hundred cases; `pytest -m slow tests/fuzz` runs thousands, with the
bombs at full size.
"""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "parsers"))
import test_load_fuzz as mutators  # noqa: E402  (the parsers fuzz test's seeded mutators)
import seeds as seed_corpus  # noqa: E402

WORKER = Path(__file__).with_name("fuzz_worker.py")
SEED = 20261123
DEFAULT_CASES, SLOW_CASES = 240, 3000
CHUNK = 60
SECONDS_PER_CASE = 30  # a shared, loaded machine; a hang is caught far below the chunk limit
HEADROOM = 1 << 30  # address space a worker may grow by past its warmed-up size
COMMANDS = ("info", "info --json", "dot", "run", "optimize")
MUTATORS = [mutators.flip_bits, mutators.truncate, mutators.insert, mutators.splice,
            mutators.absurd_varint, mutators.events_framing, mutators.corrupt_text]
# What `run` fetches from each seed (a name that may be gone once the seed is mutated).
FETCHES = {"graphdef.pb": "Merge:0", "graphdef.pbtxt": "while/Exit:0", "two_cpu.pb": "total:0",
           "deep_names.pb": "top", "identity_chain.pb": "id799:0", "absurd_consts.pb": "c:0",
           "next_iteration_index.pb": "while/Merge:0", "superscript_index.pb": "y:0",
           "escape_names.pb": "x\\", "cycle.pb": "a:0", "deep_scopes.tfevents": "layer1/Add:0"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, request):
    big = "slow" in (request.config.getoption("markexpr") or "")
    directory = tmp_path_factory.mktemp("seeds")
    return seed_corpus.build(directory, big=big), directory


# Families the slow run gives thousands of cases each: which seeds, under which commands
# (engine:* reads through the TF1 API, tests/fuzz/engine_reads.py).
FAMILIES = {
    "all": (lambda name: True, COMMANDS),
    "checkpoints": (lambda name: name.startswith("checkpoint"),
                    ("info", "info --json", "engine:checkpoint")),  # they hold no graph to run
    "saved_models": (lambda name: name.startswith("saved_model"), COMMANDS),
    "tf_records": (lambda name: name.endswith(".tfrecord"),
                   ("info", "engine:iterator", "engine:dataset", "engine:reader")),
    "optimize": (lambda name: True, ("optimize",)),
}


def make_case(number, seeds, work, family="all"):
    """(id, argv) of case `number` of a family: one of its seeds, maybe mutated, under one of
    its commands."""
    rng = random.Random(SEED * 1000 + number + (0 if family == "all" else hash_of(family)))
    chosen, commands = FAMILIES[family]
    names = sorted(name for name in seeds if chosen(name))
    name = names[number % len(names)]
    path = seeds[name]
    rounds = number // len(names)
    prefix = "" if family == "all" else f"{family}:"
    work = work / f"{family}{number}" if family != "all" else work
    work.mkdir(exist_ok=True)
    if rounds and name in seed_corpus.MUTABLE_DIRECTORIES:
        path = _damaged_directory(rng, MUTATORS[rounds % len(MUTATORS)], path,
                                  work / f"case{number}")
    elif rounds and path.is_file() and path.stat().st_size < 20_000_000 and not str(path).startswith("/dev"):
        mutator = MUTATORS[rounds % len(MUTATORS)]
        data = path.read_bytes()
        data = mutator(rng, data) if data else data
        path = work / f"case{number}{''.join(Path(name).suffixes)}"
        path.write_bytes(data)
    command = commands[(number // len(names) + number) % len(commands)]
    if command.startswith("engine:"):
        argv = [command, str(path)]
    elif command == "optimize":
        argv = ["optimize", str(path)]
        if number % 3 == 0:
            argv += ["-o", str(work / f"case{number}.optimized.pbtxt")]
    elif command == "dot":
        out = work / f"case{number}.{'svg' if number % 8 == 3 and shutil.which('dot') else 'dot'}"
        argv = ["dot", str(path), "-o", str(out)]
    elif command == "run":
        argv = ["run", str(path), "--fetch", FETCHES.get(name, "x:0")]
        if name == "two_cpu.pb":
            argv += ["--devices", "CPU=2", "--feed", f"a={seed_corpus.FIXTURES / 'graphs' / 'two_cpu.feed_a.npy'}"]
    else:
        argv = command.split(" ", 1)[:1] + [str(path)] + command.split(" ")[1:]
    return f"{prefix}{number}:{name}:{command}", argv


def hash_of(family):
    """A stable number for a family's name (Python's hash() differs run to run)."""
    return sum(ord(c) * 31**i for i, c in enumerate(family)) % 1_000_003


def _damaged_directory(rng, mutator, path, copy):
    """A copy of the directory holding `path` (a checkpoint or SavedModel directory, or a
    checkpoint prefix in one) with one of its files damaged; the path to use in the copy."""
    directory = path if path.is_dir() else path.parent
    shutil.copytree(directory, copy)
    files = sorted(p for p in copy.rglob("*") if p.is_file())
    victim = rng.choice(files)
    data = victim.read_bytes()
    victim.write_bytes(mutator(rng, data) if data else data)
    return copy / path.relative_to(directory) if path != directory else copy


def run_chunk(cases, work):
    cases_file, results_file = work / "cases.json", work / "results.jsonl"
    cases_file.write_text(json.dumps([{"id": case_id, "argv": argv} for case_id, argv in cases]))
    results_file.write_text("")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(seed_corpus.ROOT),
                                                                   os.environ.get("PYTHONPATH")])),
               MALLOC_ARENA_MAX="2")  # a thread's malloc arena reserves 64 MiB of address space
    try:
        subprocess.run([sys.executable, str(WORKER), str(cases_file), str(results_file),
                        str(HEADROOM), str(SECONDS_PER_CASE)], env=env, cwd=work,
                       timeout=SECONDS_PER_CASE * len(cases) + 60, capture_output=True)
    except subprocess.TimeoutExpired:
        pass
    lines = [json.loads(line) for line in results_file.read_text().splitlines()]
    results = {line["id"]: line for line in lines if "code" in line or "crash" in line}
    started = [line["started"] for line in lines if "started" in line]
    for case_id in started:
        if case_id not in results:  # the worker died or stalled in this case
            results[case_id] = {"id": case_id, "crash": "worker died or hung", "code": None}
    return results


def problems(case_id, argv, result):
    """What is wrong with one case's outcome ([] when it met the contract)."""
    if result is None:
        return ["never ran"]
    if result["crash"]:
        return [f"crash: {result['crash'][-1500:]}"]
    code, out, err = result["code"], result["out"], result["err"]
    found = []
    if "\x1b" in err or (argv[0] == "info" and "--json" not in argv and "\x1b" in out):
        found.append("raw ESC on the terminal")
    if code == 0:
        return found
    if code not in (1, 2) or (code == 1 and argv[0] != "run"):
        found.append(f"exit {code}")
    if argv[0].startswith("engine:"):  # the TF1 API logs as TensorFlow does; its error last
        err = err.splitlines(keepends=True)[-1] if err else err
    if not err.startswith("error: ") or err.count("\n") != 1:
        found.append(f"not one error line: {err[:300]!r}")
    if result["seconds"] > SECONDS_PER_CASE:
        found.append(f"took {result['seconds']:.1f}s")
    return found


def _check(corpus, tmp_path, numbers, family="all"):
    seeds, _ = corpus
    cases = [make_case(number, seeds, tmp_path, family) for number in numbers]
    results = run_chunk(cases, tmp_path)
    failures = {case_id: problems(case_id, argv, results.get(case_id)) for case_id, argv in cases}
    failures = {case_id: found for case_id, found in failures.items() if found}
    assert not failures, json.dumps(failures, indent=1)[:6000]


@pytest.mark.timeout(SECONDS_PER_CASE * CHUNK + 120)
@pytest.mark.parametrize("chunk", range(DEFAULT_CASES // CHUNK))
def test_cli_cases(corpus, tmp_path, chunk):
    _check(corpus, tmp_path, range(chunk * CHUNK, (chunk + 1) * CHUNK))


@pytest.mark.slow
@pytest.mark.timeout(SECONDS_PER_CASE * CHUNK + 120)
@pytest.mark.parametrize("chunk", range(DEFAULT_CASES // CHUNK, SLOW_CASES // CHUNK))
def test_cli_cases_thousands(corpus, tmp_path, chunk, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("thousands of cases: `pytest -m slow tests/fuzz` runs them")
    _check(corpus, tmp_path, range(chunk * CHUNK, (chunk + 1) * CHUNK))


@pytest.mark.timeout(SECONDS_PER_CASE * CHUNK + 120)
@pytest.mark.parametrize("family", [family for family in FAMILIES if family != "all"])
def test_family_cases(corpus, tmp_path, family):
    # Each family's first chunk by default (the cases above reach them only now and then).
    _check(corpus, tmp_path, range(CHUNK), family)


@pytest.mark.slow
@pytest.mark.timeout(SECONDS_PER_CASE * CHUNK + 120)
@pytest.mark.parametrize("chunk", range(1, SLOW_CASES // CHUNK))
@pytest.mark.parametrize("family", [family for family in FAMILIES if family != "all"])
def test_family_cases_thousands(corpus, tmp_path, family, chunk, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("thousands of cases: `pytest -m slow tests/fuzz` runs them")
    _check(corpus, tmp_path, range(chunk * CHUNK, (chunk + 1) * CHUNK), family)
