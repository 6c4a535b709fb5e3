"""BERT-12's serving signature (a batch of 8 x 128 tokens) in a TF1 session: the engine's call
against TensorFlow 2.21's on this machine, import and load timed apart.

The SavedModel (BERT-base shapes, bench/bert_tf.py) is written by TensorFlow's venv
(.venv-tf) into a temporary directory, then each side runs in its own process: it imports,
loads the SavedModel with saved_model.loader.load into a Session, runs the signature once
(the plan: inlining, lowering, Grappler's passes) and then RUNS more times; the row compares
the medians of those steady calls. Both sessions have their default ConfigProto, as a user
gets them: TensorFlow splits its kernels over every core, the engine's BLAS keeps to one
thread unless a session names a budget (engine/runtime/threads.py: on a loaded 2-core machine
a 2-thread OpenBLAS made BERT's batched matmuls 20x slower). The outputs must agree (a
checksum of the pooled output).
TensorFlow runs twice: as installed (oneDNN on, its default on x86: its remapper fuses each FFN
product with its exact GELU and each output product with its residual Add, which the engine's
Grappler, following TensorFlow's plain Eigen path, does not), the row's baseline; and with
TF_ENABLE_ONEDNN_OPTS=0, the Eigen path whose graphs and values the engine reproduces
(`tensorflow_eigen_run_s`, `x_tensorflow_eigen`).
The engine runs twice too: as it is, and with GI_CHAIN_STEPS=0 (`engine_op_by_op_run_s`):
its fast path then runs each elementwise op on its own instead of each chain of them as one
compiled loop (engine/runtime/chain_steps.py), which is what a traced call does, so the
slowest ops listed (from a FULL_TRACE call) are node by node.
Without .venv-tf there is nothing to measure against: skipped, "not measured".

The call is 90% matrix products, so the row follows whose GEMM is faster on the CPU at hand.
On a 2-core Zen 5 (2026-11-28) TensorFlow's oneDNN GEMM and the engine's (NumPy's OpenBLAS,
SkylakeX kernels, row blocks on the intra-op threads) ran the 1024x768x3072 product at the same
speed, and the call at 1.01x. On a 2-core Zen 4 (AMD EPYC, 2026-11-29) oneDNN's JIT kernels are
the faster: medians of 10 alternating runs, 1024x768x768 / 1024x768x3072 / 1024x3072x768 in
5.9 / 23.3 / 22.9 ms through oneDNN 3.2's dnnl_sgemm on the same two row blocks, against 6.3 /
25.9 / 24.9 through OpenBLAS; the call read 1.00 s against TensorFlow's 0.90 (three alternating
runs each, 1.12x), and 0.94-0.95 s with dnnl_sgemm patched in for the products (1.06x). Beside
the products the engine spends about as much as TensorFlow does (BatchMatMul 45 ms, the
softmax, moments and chains 30 ms, GELU in the products' epilogues). Neither MKL (2025, its
sgemm 180-197 GFLOP/s at two threads there) nor BLIS (PyPI's `blis`, generic kernels) was faster.

    .venv/bin/python -m bench.bert_signature SAVED_MODEL RUNS   # the engine's side alone
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = time.perf_counter()
ROOT = Path(__file__).resolve().parents[1]
TF_PYTHON = ROOT / ".venv-tf" / "bin" / "python"
RUNS = 5


def _json_line(command, env=None):
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"{command[1]} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run():
    import bench

    if not TF_PYTHON.exists():
        raise bench.Skipped("not measured: no .venv-tf here (TensorFlow 2.21 is the baseline)")
    with tempfile.TemporaryDirectory(prefix="bert12-") as folder:
        model = str(Path(folder) / "bert12")
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        theirs = _json_line([str(TF_PYTHON), "bench/bert_tf.py", model, "--measure", str(RUNS)],
                            env)
        eigen = _json_line([str(TF_PYTHON), "bench/bert_tf.py", model, "--measure", str(RUNS)],
                           dict(env, TF_ENABLE_ONEDNN_OPTS="0"))
        ours = _json_line([sys.executable, "-m", "bench.bert_signature", model, str(RUNS)])
        op_by_op = _json_line([sys.executable, "-m", "bench.bert_signature", model, str(RUNS)],
                              dict(os.environ, GI_CHAIN_STEPS="0"))
    if abs(ours["pooled_checksum"] - theirs["pooled_checksum"]) > 1e-3 * theirs["pooled_checksum"]:
        raise AssertionError(f"outputs differ: {ours['pooled_checksum']} vs "
                             f"{theirs['pooled_checksum']}")
    ratio = ours["run_s"] / theirs["run_s"]
    values = {f"engine_{key}": round(value, 3) for key, value in ours.items()
              if key.endswith("_s")}
    values.update({f"tensorflow_{key}": round(value, 3) for key, value in theirs.items()
                   if key.endswith("_s")})
    values["engine_op_by_op_run_s"] = round(op_by_op["run_s"], 3)
    values["tensorflow_eigen_run_s"] = round(eigen["run_s"], 3)
    values["x_tensorflow_eigen"] = round(ours["run_s"] / eigen["run_s"], 2)
    values.update({"plan_nodes": ours["plan_nodes"], "tensorflow_onednn": theirs["onednn"],
                   "slowest_ops_traced": ours["slowest_ops"],
                   "row": "BERT-12 signature call, 8 x 128 tokens",
                   "value": f"{ours['run_s']:.2f} s ({ratio:.2f}x TensorFlow; "
                            f"{ours['run_s'] / eigen['run_s']:.2f}x its Eigen path)",
                   "tensorflow": f"{theirs['run_s']:.2f} s (oneDNN); "
                                 f"{eigen['run_s']:.2f} s (TF_ENABLE_ONEDNN_OPTS=0)",
                   "target": "≤ 1x TensorFlow",
                   "met": ratio <= 1.0})
    return values


def measure(model, runs):
    """The engine's side: import, load, first and steady run seconds (bert_tf.measure, the
    same calls as TensorFlow's side), the traced call's slowest ops, as JSON-ready values."""
    import engine as tf

    import_s = time.perf_counter() - START
    sys.path.insert(0, str(ROOT / "bench"))
    import bert_tf

    def traced(sess, fetches, feeds):
        metadata = tf.RunMetadata()
        sess.run(fetches, feeds, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                 run_metadata=metadata)
        return metadata

    measured = bert_tf.measure(tf, model, runs, then=traced)
    metadata = measured.pop("then")
    by_op = {}
    for device in metadata.step_stats.dev_stats:
        for stats in device.node_stats:
            op = stats.timeline_label.partition(" = ")[2].partition("(")[0] or stats.node_name
            by_op[op] = by_op.get(op, 0) + stats.op_end_rel_micros - stats.op_start_rel_micros
    slowest = sorted(by_op.items(), key=lambda item: -item[1])[:5]
    return {"import_s": import_s, **measured,
            "plan_nodes": sum(len(d.node_stats) for d in metadata.step_stats.dev_stats),
            "slowest_ops": ", ".join(f"{op} {us / 1e6:.2f} s" for op, us in slowest)}


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], int(sys.argv[2]))))
