"""Fixtures for the parser tests: `info` run in-process."""

import pytest

from parsers_testing import importable_commands


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
