"""The seed programs (tests/programs/*.py) print on our engine what they printed on TensorFlow.

Each runs in a subprocess with the repository root on PYTHONPATH, so `import engine as tf` is
ours; its stdout must equal tests/fixtures/programs/<name>.stdout, written by real
TensorFlow 2.21 through tools/tf_shim. Where the two must differ, both sides are normalised
first: the checkout's path, and the library frames in tracebacks (TensorFlow's own modules
there, the engine's here), leaving the program's own frames. Floating-point numbers are
compared to 1e-5 (relative), since NumPy's exp is not Eigen's and a last digit may differ
(NumPy then prints one digit more, shifting columns: the comparison is token by token);
integers and all other text must be equal. Where TensorFlow printed different numbers at
different intra-op thread counts (NAME.threadsN.stdout beside NAME.stdout, see
tools/make_fixtures.py), a number may lie anywhere within their spread. NAME.ARGS.stdout is
the program run with the arguments its "# fixture args ARGS: ..." line names, ending with
its exit status.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "programs"
EXPECTED = REPO / "tests" / "fixtures" / "programs"

LATER = {
}

_FRAME = re.compile(r'^(\s*)File "(?P<path>[^"]*)", line (?P<line>\d+), in (?P<func>.*)$')


def normalise(text):
    """Text with the checkout's path as <repo> and only the programs' traceback frames."""
    lines = []
    for line in text.splitlines():
        match = _FRAME.match(line)
        if match:
            path = match["path"].replace("\\", "/")
            if "/tests/programs/" not in path:
                continue  # a library frame: TensorFlow's there, the engine's here
            line = line.replace(match["path"], "<repo>/tests/programs/"
                                + path.split("/tests/programs/", 1)[1])
        lines.append(line)
    return "\n".join(lines) + "\n"


def programs():
    names = sorted(p.stem for p in EXPECTED.glob("*.stdout") if "." not in p.stem)
    return [pytest.param(name, marks=pytest.mark.skip(reason=f"{name}: {LATER[name]}: "
                                                             "a later issue"))
            if name in LATER else name for name in names]


@pytest.mark.parametrize("name", programs())
def test_program_prints_what_tensorflow_printed(name):
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED="0")
    result = subprocess.run([sys.executable, str(PROGRAMS / f"{name}.py")], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    variants = [EXPECTED / f"{name}.stdout", *sorted(EXPECTED.glob(f"{name}.threads*.stdout"))]
    ours, theirs = normalise(result.stdout), [normalise(v.read_text()) for v in variants]
    if ours != theirs[0]:
        assert same_within_spread(ours, theirs), (ours, theirs[0])


def runs_with_args():
    runs = []
    for program in sorted(PROGRAMS.glob("*.py")):
        for label, args in re.findall(r"^# fixture args (\w+): (.*)$", program.read_text(),
                                      re.M):
            runs.append(pytest.param(program.stem, label, args, id=f"{program.stem}-{label}"))
    return runs


@pytest.mark.parametrize("name, label, args", runs_with_args())
def test_program_with_arguments_prints_what_tensorflow_printed(name, label, args):
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONHASHSEED="0")
    # Run as tools/make_fixtures.py runs it: absl's --help names the program by its path.
    program = str((PROGRAMS / f"{name}.py").relative_to(REPO))
    result = subprocess.run([sys.executable, program, *shlex.split(args)], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=240)
    ours = normalise(f"{result.stdout}exit status: {result.returncode}\n")
    theirs = normalise((EXPECTED / f"{name}.{label}.stdout").read_text())
    if ours != theirs:
        assert same_up_to_float_rounding(ours, theirs), (ours, theirs)


_TOKEN = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[^\s\d+-]+|[+-]")


def same_up_to_float_rounding(ours, theirs):
    """Equal token by token, floats to a relative 1e-5, everything else exactly."""
    a, b = _TOKEN.findall(ours), _TOKEN.findall(theirs)
    if len(a) != len(b) or ours.count("\n") != theirs.count("\n"):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if not (_is_float(x) and _is_float(y)):
            return False
        if abs(float(x) - float(y)) > 1e-5 * max(abs(float(y)), 1e-30) + 1e-12:
            return False
    return True


def same_within_spread(ours, variants):
    """Equal token by token to TensorFlow's runs, each float within (or 1e-5 of) their spread."""
    if len(variants) == 1 or len({len(_TOKEN.findall(v)) for v in variants}) != 1:
        return any(same_up_to_float_rounding(ours, v) for v in variants)
    a, columns = _TOKEN.findall(ours), list(zip(*(_TOKEN.findall(v) for v in variants)))
    if len(a) != len(columns) or any(ours.count("\n") != v.count("\n") for v in variants):
        return False
    for x, ys in zip(a, columns):
        if x in ys:
            continue
        if not (_is_float(x) and all(_is_float(y) for y in ys)):
            return False
        low, high = min(float(y) for y in ys), max(float(y) for y in ys)
        slack = 1e-5 * max(abs(low), abs(high), 1e-30) + 1e-12
        if not low - slack <= float(x) <= high + slack:
            return False
    return True


def _is_float(token):
    return token[-1:].isdigit() and any(c in token for c in ".eE")


def test_float_rounding_tolerance():
    assert same_up_to_float_rounding("[[3.4000593e-08 1.0000000e+00]]\n",
                                     "[[3.400059e-08 1.000000e+00]]\n")
    assert not same_up_to_float_rounding("hits=7854\n", "hits=7855\n")
    assert not same_up_to_float_rounding("[0.5 0.25]\n", "[0.5 0.26]\n")


def test_spread_admits_numbers_between_tensorflows_runs():
    runs = ["loss 0.500\n", "loss 0.510\n", "loss 0.505\n"]
    assert same_within_spread("loss 0.507\n", runs)
    assert not same_within_spread("loss 0.520\n", runs)
    assert not same_within_spread("cost 0.505\n", runs)


def test_normalise_keeps_program_frames_only():
    text = ('File "/x/tests/programs/a.py", line 3, in <module>\n'
            'File "/venv/site-packages/tensorflow/ops.py", line 9, in f\nvalue\n')
    assert normalise(text) == 'File "<repo>/tests/programs/a.py", line 3, in <module>\nvalue\n'
