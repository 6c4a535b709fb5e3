"""A fixture set written by one of tools/make_*_fixtures.py (conv_norm, functional, ...):
TensorFlow's values (values.npz), static shapes (shapes.json), graph nodes (nodes.json.gz) and,
where the set has them, its errors (errors.json), read once for a test module."""

import gzip
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load(name):
    """The set tests/fixtures/NAME/ as .values, .shapes, .nodes, .errors (None if absent)."""
    folder = FIXTURES / name
    errors = folder / "errors.json"
    return SimpleNamespace(
        folder=folder,
        values=np.load(folder / "values.npz"),
        shapes=json.loads((folder / "shapes.json").read_text()),
        nodes=json.loads(gzip.decompress((folder / "nodes.json.gz").read_bytes())),
        errors=json.loads(errors.read_text()) if errors.exists() else None)
