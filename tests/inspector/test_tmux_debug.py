"""A new user debugging a small program in a real terminal: tmux at 160x48 runs
`graph-inspector debug` on a script, steps three nodes, reads the values, continues to the
end and quits."""

import sys

import pytest

from tests.inspector.tmux_terminal import Terminal, needs_tmux

pytestmark = needs_tmux

SCRIPT = "tests/inspector/scripts/debug_small.py"


@pytest.fixture
def terminal():
    term = Terminal(f"{sys.executable} -m inspector debug {SCRIPT} 1 -1 3")
    yield term
    term.close()


def test_debug_a_script_step_three_times_and_continue(terminal):
    opened = terminal.wait_for(lambda text: "paused (start of the run" in text)
    assert "Session.run #1: y:0" in opened

    shown = []
    for number, expected in ((1, "scaled/y:0 = 3."), (2, "y/y:0 = 1."),
                             (3, "x:0 = [ 1. -1.  3.]")):
        terminal.keys("s")
        shown.append(terminal.wait_for(lambda text: expected in text))
    third = shown[-1]
    # The frontier lists one node a line, under its heading.
    lines = [line.rpartition("│")[2].rstrip() for line in third.splitlines()]
    assert "_arg_x_0_0 (_Arg) on CPU:0" in third
    assert lines[lines.index(" ready:") + 1] == "   scaled"
    assert lines[lines.index(" waiting:") + 1] == "   y on scaled"

    terminal.keys("c")
    ended = terminal.wait_for(lambda text: "debug_small.py: finished" in text)
    assert "z = [1.3862944       nan 2.3025851]" in ended
    terminal.keys("q")
    after = terminal.wait_for(lambda text: "EXITED 0" in text)
    assert "y = [ 4. -2. 10.]" in after          # the program's output, printed at exit
    print(third, ended, after, sep="\n")


def test_debug_a_script_that_resets_the_default_graph():
    """Most TF1 scripts start with tf.reset_default_graph(): the debugger runs them as python does."""
    term = Terminal(f"{sys.executable} -m inspector debug tests/inspector/scripts/debug_reset.py")
    try:
        opened = term.wait_for(lambda text: "paused (start of the run" in text)
        assert "Session.run #1: b:0" in opened and "AssertionError" not in opened
        term.keys("s")
        term.wait_for(lambda text: "a:0 = [1. 2.]" in text or "b/y:0 = 10." in text)
        term.keys("c")
        ended = term.wait_for(lambda text: "debug_reset.py: finished" in text)
        term.keys("q")
        after = term.wait_for(lambda text: "EXITED 0" in text)
        assert "b = [10. 20.]" in after and "nodes after reset: 0" in after
        print(opened, ended, after, sep="\n")
    finally:
        term.close()


def test_a_breakpoint_typed_in_one_burst_with_the_keys_around_it(terminal):
    """tmux sends `a`, the breakpoint, Enter and `c` in one write, as a paste or a fast typist
    does: the keys after `a` are the breakpoint (g would open the graph browser), and the `c`
    after Enter continues the program to it."""
    terminal.wait_for(lambda text: "paused (start of the run" in text)
    terminal.keys("a", "op=Log", "Enter", "c")
    # The whole screen, not a part: tmux may show it half redrawn.
    terminal.wait_for(lambda text: "Session.run #2: log_y:0: paused (breakpoint" in text
                      and "log_y (Log) on CPU:0" in text and "op~Log" in text)
    terminal.keys("c")
    terminal.wait_for(lambda text: "debug_small.py: finished" in text)
    terminal.keys("q")
    terminal.wait_for(lambda text: "EXITED 0" in text)


def test_a_breakpoint_in_a_saved_models_lowered_while_body_at_100x30():
    """A TF2 SavedModel's signature (tests/fixtures/tf2/while_scalar) at 100x30: its call is
    inlined and its tf.while_loop lowered, so a breakpoint on a node of the loop body stops in
    the loop's frame, one iteration after another."""
    term = Terminal(f"{sys.executable} -m inspector debug "
                    "tests/inspector/scripts/debug_signature.py", width=100, height=30)
    try:
        term.wait_for(lambda text: "paused (start of the run" in text)
        term.keys("a", "name=while/body/_6/while/add$", "Enter", "c")
        # (at 100 columns the header wraps before "(breakpoint")
        first = term.wait_for(lambda text: "(breakpoint 1" in text
                              and "/while iteration 0" in text)
        term.keys("c")
        second = term.wait_for(lambda text: "(breakpoint 1" in text
                               and "/while iteration 1" in text)
        assert "while/add (AddV2) on" in first and "while/add (AddV2) on" in second
        term.keys("q")
        print(first, second, sep="\n")
    finally:
        term.close()
