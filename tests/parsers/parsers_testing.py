"""Helpers for the parser tests: where fixtures are, and how TensorFlow read them (.tf.json)."""

import importlib.util
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def tf_json(path):
    """The `.tf.json` next to a fixture: how TensorFlow's own classes read it."""
    return json.loads(Path(path).read_text())


def importable_commands():
    """cli.COMMANDS without the subcommands whose modules are not written yet."""
    from inspector import cli

    return {name: entry for name, entry in cli.COMMANDS.items() if importlib.util.find_spec(entry[0])}
