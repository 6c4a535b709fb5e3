"""Fixtures for the parser tests: `info` run in-process."""

import importlib.util

import pytest


def importable_commands():
    """cli.COMMANDS without the subcommands whose modules are not written yet."""
    from inspector import cli

    return {name: entry for name, entry in cli.COMMANDS.items() if importlib.util.find_spec(entry[0])}


@pytest.fixture
def run_info(monkeypatch, capsys):
    """Run `graph-inspector info ARGS...` in-process: (exit code, stdout, stderr)."""
    from inspector import cli

    monkeypatch.setattr(cli, "COMMANDS", importable_commands())

    def run(*args):
        code = cli.main(["info", *map(str, args)])
        out, err = capsys.readouterr()
        return code, out, err

    return run
