"""`graph-inspector debug SCRIPT.py` and `run --debug` through the line prompt (no terminal)."""

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = Path(__file__).resolve().parent / "scripts"
SMALL = str(SCRIPTS / "debug_small.py")
NAN = str(SCRIPTS / "debug_nan.py")


def debug(*argv, commands=""):
    done = subprocess.run([sys.executable, "-m", "inspector", *argv], input=commands,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    return done.returncode, done.stdout, done.stderr


def test_step_three_times_print_and_continue():
    status, out, err = debug("debug", SMALL, "1", "-1", "3",
                             commands="s\ns\ns\np x:0[1:]\nfr\nc\n")
    assert status == 0, err
    assert "Session.run #1: y:0 paused at its start; 6 nodes" in out
    assert "#1 scaled/y (Const) on CPU:0  -- stepped\n  scaled/y:0 = 3." in out
    assert "#3 _arg_x_0_0 (_Arg) on CPU:0  -- stepped\n  x:0 = [ 1. -1.  3.]" in out
    assert "x:0[1:] = [-1.  3.]" in out
    assert "ready: scaled\nwaiting: y on scaled" in out
    assert "y = [ 4. -2. 10.]" in out and "z = [1.3862944       nan 2.3025851]" in out
    assert "finished (2 Session.run calls)" in err


def test_break_on_nan_stops_at_the_log_and_names_its_line():
    status, out, err = debug("debug", "--break-on-nan", NAN, commands="i\nc\n")
    assert status == 0, err
    assert "scaled = [ 3. -6.]" in out              # the first run had nothing to stop for
    assert "#4 logged (Log) on CPU:0  -- breakpoint 1 (has_inf_or_nan) at logged:0" in out
    assert "created at " + NAN + ':9: logged = tf.log(scaled, name="logged")' in out
    assert f'File "{NAN}", line 9, in main' in out   # i: the creation stack
    assert "paused at its start" not in out


def test_run_filter_breakpoints_watch_and_inject():
    commands = "b op=Log\nc\ninject logged:0 np.array([7.0, 8.0])\np logged\nc\n"
    status, out, err = debug("debug", "--run-filter", "logged", NAN, commands=commands)
    assert status == 0, err
    assert out.count("paused at its start") == 1 and "Session.run #2: logged:0" in out
    assert "breakpoint 1: op~Log" in out
    assert "logged:0 = [7. 8.]" in out and "logged = [7. 8.]" in out


def test_quit_stops_the_program_and_eof_finishes():
    status, out, err = debug("debug", SMALL, commands="s\nq\n")
    assert status == 0 and "\ny =" not in out and "quit" in err
    status, out, err = debug("debug", SMALL, commands="")
    assert status == 0 and "end of input" in out and "y = [ 4.  7. 10.]" in out


def test_unknown_commands_and_bad_values_are_one_line_errors():
    status, out, _ = debug("debug", SMALL, commands="frobnicate\np y:0\np x:0[z]\nf\n")
    assert status == 0
    assert "unknown command 'frobnicate': h for help" in out
    assert "error: y:0 is not computed yet (y is pending)" in out
    assert "error: bad index 'z'" in out


def test_missing_script_is_exit_2():
    status, _, err = debug("debug", "nope.py")
    assert status == 2 and err.strip() == "error: nope.py: no such file"


def test_a_failing_program_prints_its_own_traceback(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("import engine as tf\nraise ValueError('boom')\n")
    status, _, err = debug("debug", str(script), commands="")
    assert status == 1 and "ValueError: boom" in err and "runpy" not in err


def test_run_graph_debug_stops_at_the_fetch_run_not_the_before_runs():
    graph = str(ROOT / "tests" / "fixtures" / "graphs" / "counter.pb")
    status, out, err = debug("run", graph, "--before", "init", "--fetch", "Assign:0", "--debug",
                             commands="t Add\np Add:0\nc\n")
    assert status == 0, err
    assert "Session.run #2: Assign:0 paused at its start" in out
    assert "Add:0 = 1" in out and "Assign:0 = 1" in out


def test_a_script_that_resets_the_default_graph_runs_as_under_python():
    reset = str(SCRIPTS / "debug_reset.py")
    plain = subprocess.run([sys.executable, reset], capture_output=True, text=True, cwd=ROOT,
                           timeout=60)
    assert plain.returncode == 0, plain.stderr
    status, out, err = debug("debug", reset, commands="s\np a:0\nc\n")
    assert status == 0, err
    assert "Session.run #1: b:0 paused at its start" in out
    assert "a:0 = [1. 2.]" in out
    assert "b = [10. 20.]" in out and "nodes after reset: 0" in out
    assert plain.stdout in out          # the program printed what it prints under python
    assert "AssertionError" not in err and "finished (1 Session.run calls)" in err


def test_a_signature_run_steps_into_its_lowered_while_body():
    # tests/fixtures/tf2/while_scalar's signature: the call is inlined and its tf.while_loop
    # lowered to frames (engine/optimizer/function_optimizer.py), so a breakpoint on a node of
    # the loop body stops once per iteration, in the loop's frame.
    script = str(SCRIPTS / "debug_signature.py")
    status, out, err = debug("debug", script, commands="b name=while/body/_6/while/add$\n"
                                                       "c\nc\nc\n")
    assert status == 0, err
    stops = [line for line in out.splitlines() if "-- breakpoint 1" in line]
    assert [stop.split("[")[1].split("]")[0] for stop in stops] == [
        f"PartitionedCall/PartitionedCall/while iteration {i}" for i in range(3)]
    assert all(" PartitionedCall/PartitionedCall/while/body/_6/while/add (AddV2) " in stop
               for stop in stops)
    expected = np.load(ROOT / "tests/fixtures/tf2/reference/while_scalar/expected.npz")
    assert f"total = {expected['serving_default/total']}" in out
