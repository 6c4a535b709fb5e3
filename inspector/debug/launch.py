"""Debugging a program, with the TUI in a terminal or the line-based prompt elsewhere.

`debug_program(program, label)` runs program(debugger) (a callable that makes Session.run
calls inside `debugger.installed()`, or `debugger.run_script`) and returns its exit code;
both `graph-inspector debug` and `graph-inspector run --debug` come through here.
"""

from __future__ import annotations

import os
import re
import sys
import traceback

from inspector.debug.observer import DebugAborted
from inspector.debug.prompt import Prompt, Quit
from inspector.debug.script import ScriptDebugger


def debug_program(program, label, cli=False, run_filter=None, break_on_nan=False,
                  stdin=None, stdout=None):
    if not cli and sys.stdout.isatty() and sys.stdin.isatty() and stdin is None:
        from inspector.debug.tui import run_in_tui
        return run_in_tui(program, label, run_filter, break_on_nan)
    debugger = ScriptDebugger(Prompt(stdin, stdout), run_filter, break_on_nan)
    try:
        code = program(debugger) or 0
    except (Quit, DebugAborted):
        print("debugger: quit; the program was stopped", file=sys.stderr)
        return 0
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except Exception:  # noqa: BLE001  (the program's own error, shown as Python shows it)
        print_program_error(label)
        return 1
    print(f"debugger: {label} finished ({debugger.runs} Session.run calls)", file=sys.stderr)
    return code


def script_program(path, args=()):
    """A program that runs the Python file at `path` with `args`."""
    return lambda debugger: debugger.run_script(path, args)


def print_program_error(script):
    """The traceback from the program's frames on (none of the debugger's own)."""
    error_type, error, tb = sys.exc_info()
    script = os.path.abspath(script)
    first = tb
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
        tb = tb.tb_next
    traceback.print_exception(error_type, error, tb or first, file=sys.stderr)


def debug_graph_run(run_graph, label, fetches, cli=False):
    """`graph-inspector run GRAPH --debug`: run_graph() with the debugger stopping at the
    start of the Session.run of `fetches` (the --before runs go through unstopped)."""
    names = [name if ":" in name else f"{name}(:0)?" for name in fetches]
    run_filter = "^(" + "|".join(re.escape(n).replace(r"\(:0\)\?", "(:0)?") for n in names) + ")$"

    def program(debugger):
        with debugger.installed():
            return run_graph()
    return debug_program(program, label, cli, run_filter=run_filter)
