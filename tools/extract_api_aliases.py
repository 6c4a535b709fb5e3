"""Write engine/api/tf_aliases.json: the names TensorFlow 1.x gives one function or class
under several namespaces (tf.sigmoid, tf.math.sigmoid and tf.nn.sigmoid are one object in
tf.compat.v1), so that the engine, having one of them, answers to them all.

    .venv-tf/bin/python tools/extract_api_aliases.py

Two names are aliases when TensorFlow 2.21's tf.compat.v1 binds them to the same object, once
its decorators are unwrapped (`inspect.unwrap`: a deprecation notice or a dispatcher wraps
one function once per name), which is TensorFlow's own statement that they are one API. Each group lists its
qualified names (`tf.math.sigmoid`), sorted; only groups of two or more are written.
"""

import inspect
import json
import os
import types
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow.compat.v1 as tf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "api" / "tf_aliases.json"

# The namespaces a TF1 program reaches into, under tf.compat.v1.
NAMESPACES = ["", "math", "nn", "linalg", "image", "random", "train", "losses", "metrics",
              "initializers", "io", "strings", "sparse", "dtypes", "debugging", "bitwise",
              "errors", "layers", "summary", "data", "lookup", "saved_model", "graph_util",
              "queue", "gfile", "logging", "app", "sets", "signal", "spectral", "manip",
              "nn.rnn_cell", "train.queue_runner", "config", "compat", "version", "python_io",
              "test", "profiler", "quantization", "feature_column", "estimator", "keras",
              "distributions", "user_ops", "experimental", "autograph", "audio", "tpu",
              "distribute", "mixed_precision", "ragged", "types", "xla"]
# Namespaces whose members are not APIs a TF1 graph program calls (Keras and Estimator have
# their own packages; the rest are TPU or TF2 machinery the engine does not emulate).
SKIPPED = {"keras", "estimator", "feature_column", "tpu", "distribute", "autograph",
           "mixed_precision", "experimental", "xla", "types", "distributions", "profiler",
           "ragged", "test", "compat", "config"}


def _namespace(path):
    obj = tf
    for part in filter(None, path.split(".")):
        obj = _member(obj, part)
        if obj is None:
            return None
    return obj


def _member(obj, name):
    """getattr, None where the lazy loader fails (tf.compat.v1's Keras needs a Keras 2)."""
    try:
        return getattr(obj, name, None)
    except ImportError:
        return None


def _unwrapped(value):
    """The function under TensorFlow's decorators (deprecation notices, dispatch), which
    wrap one function once per name (tf.log and tf.math.log are two wrappers of one log)."""
    try:
        return inspect.unwrap(value)
    except ValueError:  # a __wrapped__ cycle
        return value


def _names(module):
    """A namespace's member names (its own dict where dir() would load a lazy Keras)."""
    try:
        return dir(module)
    except ImportError:
        return list(vars(module))


def main():
    by_object = {}
    for path in NAMESPACES:
        if path in SKIPPED:
            continue
        module = _namespace(path)
        if not isinstance(module, types.ModuleType):
            continue
        prefix = "tf." + path + "." if path else "tf."
        for name in _names(module):
            if name.startswith("_"):
                continue
            value = _member(module, name)
            if isinstance(value, types.ModuleType) or not callable(value):
                continue
            target = _unwrapped(value)
            by_object.setdefault(id(target), (target, []))[1].append(prefix + name)
    groups = sorted(sorted(set(names)) for _, names in by_object.values()
                    if len(set(names)) > 1)
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "aliases": groups}, indent=0)
                   + "\n")
    print(f"wrote {OUT}: {len(groups)} groups, {sum(len(g) for g in groups)} names")


if __name__ == "__main__":
    main()
