"""Write tests/fixtures/engine_api/*.json: what TensorFlow 1.x builds and prints.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_api_fixtures.py [MODULE...]`
(snippet modules of tests/engine/: api_snippets, tf1_snippets, breadth_snippets,
linalg_snippets; all by default).
Each snippet is TF1 graph-building code run with `tf` bound to tensorflow.compat.v1 (after
disable_v2_behavior) and `np` to NumPy, in a fresh default graph. The fixture keeps its
code, what it printed, and the GraphDef it built (text format); tests/engine/test_api*.py
runs the same code with `import engine as tf` and compares both.
"""

import contextlib
import importlib
import io
import json
import os
import sys

from fixture_common import FIXTURES, tf_v1

# tf.layers (tf.compat.v1.layers) exists under Keras 3 only through tf-keras's legacy layers.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

OUT_DIR = FIXTURES / "engine_api"

# Each snippet module and the fixture it writes.
SNIPPET_MODULES = {"api_snippets": "snippets.json", "tf1_snippets": "tf1_snippets.json",
                   "breadth_snippets": "breadth_snippets.json",
                   "linalg_snippets": "linalg_snippets.json"}


def run_snippet(tf, np, code):
    tf.reset_default_graph()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"tf": tf, "np": np})
    graph_def = tf.get_default_graph().as_graph_def()
    return out.getvalue(), str(graph_def)


def main():
    import numpy as np
    from google.protobuf import text_format  # noqa: F401

    tf = tf_v1()
    only = sys.argv[1:] or list(SNIPPET_MODULES)
    for module_name in only:
        module = importlib.import_module(module_name)
        snippets = module.SNIPPETS
        output_only = getattr(module, "OUTPUT_ONLY", {})
        fixtures = {}
        for name, code in snippets.items():
            stdout, graph_def = run_snippet(tf, np, code)
            if name in output_only:
                graph_def = ""  # never compared (the module's OUTPUT_ONLY says why): not kept
            fixtures[name] = {"code": code, "stdout": stdout, "graph_def": graph_def}
            print(f"{name}: {len(stdout.splitlines())} lines, {graph_def.count('node {')} nodes")
        out = OUT_DIR / SNIPPET_MODULES[module_name]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(fixtures, indent=1, sort_keys=True) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
