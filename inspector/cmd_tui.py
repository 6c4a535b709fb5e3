"""`graph-inspector tui PATH...` (or just `graph-inspector PATH...`): open the terminal UI.

Every path is read in the UI's loading worker; one that does not read stays listed on the
screen and the others open. When none opens, the UI closes and each failure is one line
`error: <path>: <why>`, exit 2, as every command reports bad input. Without a terminal
(scripts, CI: stdin or stdout not a tty) the UI never starts: each path's `info` summary is
printed instead.
"""

import os
import sys

from inspector import cli
from parsers.errors import InputError


def add_arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="graphs, meta graphs, SavedModels, events, run metadata, dumps or logs")


def has_terminal():
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(args):
    missing = [path for path in args.paths if not os.path.exists(path)]
    if len(missing) == len(args.paths):
        raise InputError(missing[0], "no such file or directory")
    if not has_terminal():
        return print_summaries(args.paths)
    from views.tui import InspectorApp

    app = InspectorApp(args.paths)
    app.run()
    if app.return_code == 2:   # nothing opened: the app closed itself
        for path, reason in app.failures:
            print(f"error: {path}: {reason}", file=sys.stderr)
        return 2
    return app.return_code or 0


def print_summaries(paths):
    """What `info` prints for each path; a path that does not read is its one error line."""
    import parsers
    from inspector.cmd_info import summary_lines

    failed = printed = False
    for path in paths:
        try:
            lines = summary_lines(parsers.load(path))
        except InputError as error:
            print(f"error: {error}", file=sys.stderr)
            failed = True
            continue
        try:
            sys.stdout.write("\n".join(lines) + "\n")
            sys.stdout.flush()
            printed = True
        except BrokenPipeError:
            cli.quiet_stdout()
            break
    if printed:
        print("graph-inspector: no terminal, so no TUI: printed what `info` prints",
              file=sys.stderr)
    return 2 if failed else 0
