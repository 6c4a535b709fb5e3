"""The graph-inspector command line: one subcommand per module, errors as one line.

Output rule for every command: results (summaries, JSON, fetched values, a file written to
`-o -`) go to stdout; progress, notes, warnings and "wrote ..." lines go to stderr.
"""

import argparse
import errno
import importlib
import os
import sys

from parsers.errors import InputError

# Subcommand name -> module under inspector/ that defines add_arguments(parser) and run(args).
COMMANDS = {
    "info": ("inspector.cmd_info", "what is in a graph, run, log or directory"),
    "run": ("inspector.cmd_run", "run a graph file in the engine"),
    "optimize": ("inspector.cmd_optimize", "run the graph optimizer's passes over a GraphDef"),
    "diff": ("inspector.cmd_diff", "which nodes two graphs add, remove and change"),
    "dot": ("inspector.cmd_dot", "draw a graph or a run's partitions as Graphviz .dot/.svg/.png"),
    "demo": ("inspector.cmd_demo", "run the seed programs in the engine and show them"),
    "tui": ("inspector.cmd_tui", "open graphs, runs and logs in the terminal UI"),
    "vlog": ("inspector.cmd_vlog", "TensorFlow VLOG output as graphs and step traces"),
    "trace": ("inspector.cmd_trace", "step stats of any runs as one Chrome trace (Perfetto)"),
    "tensorboard": ("inspector.cmd_tensorboard", "any input as a TensorBoard log directory"),
    "debug": ("inspector.cmd_debug", "run a Python program, stepping through its Session.runs"),
    "warm": ("inspector.cmd_warm", "compile and cache the engine's numba kernels once"),
    "help": ("inspector.cmd_help", "topics: formats, keys, environment, outputs"),
}

EPILOG = """\
A path alone opens the TUI: graph-inspector PATH...
More: graph-inspector help formats|keys|environment|outputs; COMMAND --help.
Shell completion: graph-inspector --print-completion bash|zsh|tcsh > FILE, then source FILE."""

# Bad input named by the user, from any command: `error: <file>: <what>`, exit status 2.
UsageError = InputError


def version():
    """The installed distribution's version (the source tree's when not installed)."""
    from importlib import metadata

    try:
        return metadata.version("graph-inspector")
    except metadata.PackageNotFoundError:
        return "0+unknown"


class _VersionAction(argparse.Action):
    """--version, asking importlib.metadata (50 ms of imports) only when it is given."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"graph-inspector {version()}\n")  # stdout, as argparse's own
        parser.exit()


def build_parser(command=None, everything=False):
    """The parser. Only `command`'s module is imported (so `info` never loads Textual), or
    every command's with `everything` (shell completion must see every option)."""
    parser = argparse.ArgumentParser(
        prog="graph-inspector", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Look inside TensorFlow-style dataflow graphs and the runs that execute them.",
    )
    parser.add_argument("-V", "--version", action=_VersionAction, nargs=0,
                        help="show program's version number and exit")
    parser.add_argument("--print-completion", metavar="SHELL",
                        choices=("bash", "zsh", "tcsh"),
                        help="print a completion script for SHELL (bash, zsh, tcsh) and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if everything or name == command:
            importlib.import_module(module_name).add_arguments(sub)
            sub.set_defaults(module=module_name)
    return parser


# Metavars naming files or directories: what completes them in the shell.
_FILE_METAVARS = {"PATH", "INPUT", "LOG", "A", "B", "GRAPH", "OUT", "OUT.npz", "RUN_METADATA", "SCRIPT.py"}
_DIRECTORY_METAVARS = {"DIR"}


def completion_script(shell):
    """The shtab completion script for `shell`, every subcommand's options included, paths
    completed as files or directories."""
    import shtab

    parser = build_parser(everything=True)
    for sub in _subparsers(parser):
        for action in sub._actions:
            if action.metavar in _FILE_METAVARS:
                action.complete = shtab.FILE
            elif action.metavar in _DIRECTORY_METAVARS:
                action.complete = shtab.DIRECTORY
    return shtab.complete(parser, shell=shell)


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.values())
    return []


class _GuardedStream:
    """sys.stdout or sys.stderr for one command: a write or flush that fails (a full disk, a
    terminal gone) raises InputError naming the stream, which main prints as its one error
    line; a reader that left early (EPIPE) stays BrokenPipeError. Anything else is the
    stream's own."""

    def __init__(self, stream, name):
        self._stream, self._name = stream, name

    def _guarded(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise InputError(self._name, error.strerror or str(error)) from None

    def write(self, data):
        return self._guarded(self._stream.write, data)

    def writelines(self, lines):
        return self._guarded(self._stream.writelines, lines)

    def flush(self):
        return self._guarded(self._stream.flush)

    @property
    def buffer(self):
        return _GuardedStream(self._stream.buffer, self._name)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def quiet_stdout():
    """Point stdout's descriptor at /dev/null: what is still buffered, flushed at exit, goes
    nowhere instead of failing again (Python would print 'Exception ignored ...')."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # no descriptor (a test's capture): nothing flushes it at exit


def entry():
    """The console script and `python -m inspector`: main(), then the process ends as the
    command asked (inspector/process_exit.py)."""
    from inspector import process_exit

    return process_exit.run_as_process(main)


def main(argv=None):
    """Run one command; its exit status. Bad input and an output that cannot be written are
    one `error: <file>: <what>` line on stderr and status 2."""
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _GuardedStream(real[0], "<stdout>"), _GuardedStream(real[1], "<stderr>")
    try:
        status = _run(argv)
        sys.stdout.flush()  # while a failure can still be told
        return status
    except BrokenPipeError:  # a reader such as `head` left early: not an error of ours
        quiet_stdout()
        return 0
    except InputError as error:
        if error.path == "<stdout>":
            quiet_stdout()
        try:
            real[1].write(f"error: {error}\n")
            real[1].flush()
        except OSError:
            pass  # stderr is gone too: the status says it
        return 2
    finally:
        sys.stdout, sys.stderr = real


def _run(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "tui")  # `graph-inspector PATH...` means `graph-inspector tui PATH...`
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.print_completion:
        sys.stdout.write(completion_script(args.print_completion))
        return 0
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return importlib.import_module(args.module).run(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
