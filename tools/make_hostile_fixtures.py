"""Write tests/fixtures/hostile/: what TensorFlow does with hostile graphs and runs (issue 18).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_hostile_fixtures.py`.
imports.json: for each broken GraphDef (text), the error tf.import_graph_def raised, or the
value a fetch gave. runs.json: what a few engine-fault probes gave in TensorFlow (concurrent
assign_add totals, RunOptions.timeout_in_ms).
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "hostile"


def _const(name, value=0):
    return (f'node {{ name: "{name}" op: "Const" attr {{ key: "dtype" value {{ type: DT_INT32 }} }}'
            f' attr {{ key: "value" value {{ tensor {{ dtype: DT_INT32 tensor_shape {{}}'
            f' int_val: {value} }} }} }} }}\n')


def _node(name, op, *inputs, extra=""):
    listed = "".join(f' input: "{i}"' for i in inputs)
    return (f'node {{ name: "{name}" op: "{op}"{listed}'
            f' attr {{ key: "T" value {{ type: DT_INT32 }} }}{extra} }}\n')


_FRAME = ' attr { key: "frame_name" value { s: "while/while_context" } }'
_N2 = ' attr { key: "N" value { i: 2 } }'

# name -> (GraphDef text, what to fetch after importing it)
IMPORTS = {
    "input_index_superscript": (_const("x") + _node("y", "Identity", "x:\u00b2"), "y:0"),
    "input_index_out_of_range": (_const("x") + _node("y", "Identity", "x:3"), "y:0"),
    "next_iteration_index_out_of_range": (
        _const("c") + _node("while/Enter", "Enter", "c", extra=_FRAME)
        + _node("while/Merge", "Merge", "while/Enter", "while/NextIteration_1:7", extra=_N2)
        + _node("while/NextIteration_1", "NextIteration", "while/Merge"), "while/Merge:0"),
    "identity_cycle": (_node("a", "Identity", "b") + _node("b", "Identity", "a"), "a:0"),
    "identity_chain_3000": (
        _const("c", 7) + "".join(_node(f"id{i}", "Identity", f"id{i - 1}" if i else "c")
                                  for i in range(3000)), "id2999:0"),
}


def run_imports(tf):
    from google.protobuf import text_format

    results = {}
    for name, (text, fetch) in IMPORTS.items():
        graph_def = tf.GraphDef()
        text_format.Parse(text, graph_def)
        entry = {"graph_def": text, "fetch": fetch}
        try:
            with tf.Graph().as_default() as graph:
                tf.import_graph_def(graph_def, name="")
                with tf.Session(graph=graph) as sess:
                    entry["value"] = sess.run(fetch).tolist()
        except Exception as error:  # noqa: BLE001  (what TF raised is the fixture)
            entry["error"] = type(error).__name__
            entry["message"] = str(error).splitlines()[0]
        results[name] = entry
        print(f"{name}: {entry.get('error', entry.get('value'))}")
    return results


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    OUT.mkdir(parents=True, exist_ok=True)
    only = sys.argv[1:] or ["imports", "runs"]
    if "imports" in only:
        (OUT / "imports.json").write_text(json.dumps(run_imports(tf), indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
