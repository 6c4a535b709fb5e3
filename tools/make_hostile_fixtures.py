"""Write tests/fixtures/hostile/: what TensorFlow does with hostile graphs and runs (issue 18).

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_hostile_fixtures.py`.
imports.json: for each broken GraphDef (text), the error tf.import_graph_def raised, or the
value a fetch gave (or the error a run of it raised). runs.json: what a few engine-fault
probes gave in TensorFlow (concurrent assign_add totals, RunOptions.timeout_in_ms,
while_loops nested 50 deep, 1,000 functions each calling the next). files.json: what
TensorFlow raised for each damaged file and graph of tests/engine/hostile_file_cases.py
(TFRecord lengths past the file, checkpoint shards cut short, Examples that do not parse, a
SavedModel under a file, a cycle of non-loop nodes).
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "hostile"
sys.path.insert(0, str(ROOT / "tests" / "programs"))
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from concurrent_assign_add import concurrent_assign_add  # noqa: E402
from deep_nested_while import deep_while  # noqa: E402
from function_chain import function_chain  # noqa: E402


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
    # hostile-sweep: 2 GiB declared, 8 bytes of tensor_content: refused when the Const runs
    "tensor_content_short_of_its_shape": (
        'node { name: "big" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }'
        ' attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 536870912 } }'
        ' tensor_content: "\\000\\000\\000\\000\\000\\000\\000\\000" } } } }\n'
        + _node("out", "Identity", "big").replace("DT_INT32", "DT_FLOAT"), "out:0"),
}


def _run_error_lines(message):
    """The lines of a Session.run error between `Node: 'x'` and the `[[{{node x}}]]` line, as
    TensorFlow's error interpolation prints them (its DebugString marker taken out)."""
    lines = message.replace("goo.gle/debugstr", "").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Node: ")) + 1
    end = next(i for i, line in enumerate(lines) if line.strip().startswith("[[{{node"))
    return [line.rstrip() for line in lines[start:end] if line.strip()]


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
                    try:
                        entry["value"] = sess.run(fetch).tolist()
                    except tf.errors.OpError as error:
                        entry["run_error"] = type(error).__name__
                        entry["run_error_lines"] = _run_error_lines(str(error))
        except Exception as error:  # noqa: BLE001  (what TF raised is the fixture)
            entry["error"] = type(error).__name__
            entry["message"] = str(error).splitlines()[0]
        results[name] = entry
        print(f"{name}: {entry.get('error', entry.get('run_error', entry.get('value')))}")
    return results


def run_probes(tf):
    results = {"concurrent_assign_add": []}
    for resource, size, threads, steps, use_locking in [
            (True, 1, 8, 5000, None), (False, 1, 8, 5000, True),
            (True, 200_000, 8, 200, None), (False, 200_000, 8, 200, True)]:
        value = concurrent_assign_add(tf, resource, size, threads, steps, use_locking)
        results["concurrent_assign_add"].append(
            {"resource": resource, "size": size, "threads": threads, "steps": steps,
             "use_locking": use_locking, "min_max": value})
        print("concurrent assign_add", results["concurrent_assign_add"][-1])
    with tf.Graph().as_default():
        loop = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)])
        after = tf.constant(3) + 1
        with tf.Session() as sess:
            start = time.monotonic()
            try:
                sess.run(loop, options=tf.RunOptions(timeout_in_ms=500))
                entry = {"error": None}
            except Exception as error:  # noqa: BLE001  (what TF raised is the fixture)
                entry = {"error": type(error).__name__, "message": str(error).splitlines()[0]}
            entry["seconds_at_least"] = 0.5 if time.monotonic() - start >= 0.5 else 0
            entry["run_after"] = int(sess.run(after))
    results["timeout"] = entry
    print("timeout", entry)
    results["deep_nested_while"] = {str(depth): deep_while(tf, depth) for depth in (3, 50)}
    print("deep_nested_while", results["deep_nested_while"])
    results["function_chain"] = {str(depth): function_chain(tf, depth) for depth in (10, 1000)}
    print("function_chain", results["function_chain"])
    return results


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    OUT.mkdir(parents=True, exist_ok=True)
    only = sys.argv[1:] or ["imports", "runs", "files"]
    if "imports" in only:
        (OUT / "imports.json").write_text(json.dumps(run_imports(tf), indent=1, sort_keys=True) + "\n")
    if "runs" in only:
        (OUT / "runs.json").write_text(json.dumps(run_probes(tf), indent=1, sort_keys=True) + "\n")
    if "files" in only:
        import hostile_file_cases

        with tempfile.TemporaryDirectory() as directory:
            results = hostile_file_cases.all_outcomes(tf, directory)
        (OUT / "files.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
        print("files", json.dumps(results, indent=1, sort_keys=True))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
