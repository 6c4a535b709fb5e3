"""The graph-inspector command line: one subcommand per module, errors as one line."""

import argparse
import importlib
import sys

from parsers.errors import InputError

# Subcommand name -> module under inspector/ that defines add_arguments(parser) and run(args).
COMMANDS = {
    "info": ("inspector.cmd_info", "what is in a graph, run, log or directory"),
    "run": ("inspector.cmd_run", "run a graph file in the engine"),
    "dot": ("inspector.cmd_dot", "draw a graph or a run's partitions as Graphviz .dot/.svg/.png"),
    "demo": ("inspector.cmd_demo", "run the seed programs in the engine and show them"),
    "tui": ("inspector.cmd_tui", "open graphs, runs and logs in the terminal UI"),
    "vlog": ("inspector.cmd_vlog", "TensorFlow VLOG output as graphs and step traces"),
    "trace": ("inspector.cmd_trace", "step stats of any runs as one Chrome trace (Perfetto)"),
    "tensorboard": ("inspector.cmd_tensorboard", "any input as a TensorBoard log directory"),
    "debug": ("inspector.cmd_debug", "run a Python program, stepping through its Session.runs"),
}


# Bad input named by the user, from any command: `error: <file>: <what>`, exit status 2.
UsageError = InputError


def build_parser(command=None):
    """The parser; only `command`'s module is imported, so `info` never loads Textual."""
    parser = argparse.ArgumentParser(
        prog="graph-inspector",
        description="Look inside TensorFlow-style dataflow graphs and the runs that execute them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module_name).add_arguments(sub)
            sub.set_defaults(module=module_name)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "tui")  # `graph-inspector PATH...` means `graph-inspector tui PATH...`
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return importlib.import_module(args.module).run(args) or 0
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
