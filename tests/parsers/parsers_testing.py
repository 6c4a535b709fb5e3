"""Helpers for the parser tests: where fixtures are, and how TensorFlow read them (.tf.json)."""

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def tf_json(path):
    """The `.tf.json` next to a fixture: how TensorFlow's own classes read it."""
    return json.loads(Path(path).read_text())
