"""`graph-inspector tui PATH...` (or just `graph-inspector PATH...`): open the terminal UI.

Every path is read in the UI's loading worker; one that does not read is reported there and
the others open. A path that does not exist at all is refused here, before the screen takes
over, as every command refuses bad input: `error: <path>: no such file or directory`, exit 2.
"""

import os

from parsers.errors import InputError


def add_arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="graphs, meta graphs, SavedModels, events, run metadata, dumps or logs")


def run(args):
    missing = [path for path in args.paths if not os.path.exists(path)]
    if len(missing) == len(args.paths):
        raise InputError(missing[0], "no such file or directory")
    from views.tui import InspectorApp

    InspectorApp(args.paths).run()
    return 0
