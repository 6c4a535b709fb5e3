"""Check that the TF2 SavedModel the engine's tf.saved_model.save writes loads in TensorFlow 2.21.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_saved_model_v2_in_tf.py`.
The engine (the project's venv, in a subprocess; GI_ENGINE_PYTHON overrides which python)
saves tests/engine/saved_model_v2_cases.py's module and runs what its load_v2 gives back.
TensorFlow then
- loads the engine's directory with tf.saved_model.load (eager TF2), calls its signatures and
  its restored tf.functions: the values must equal the engine's (rtol 1e-6);
- loads it with load_v2 in a TF1 graph and with tf.compat.v1.saved_model.loader.load (the
  SaverDef's restore, the signatures' tensors fed), the same values again;
- shows it with `saved_model_cli show --all`, which must print what it prints for
  TensorFlow's own SavedModel of the same program (the functions' numbers and the line of
  op types left out: the engine's function bodies hold v1 control flow).
Prints one line per check and exits 1 if any fails.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
ENGINE_PYTHON = os.environ.get("GI_ENGINE_PYTHON", str(REPO / ".venv" / "bin" / "python"))
sys.path.insert(0, str(REPO / "tests" / "engine"))
import saved_model_v2_cases as cases  # noqa: E402

# Run with the project's venv: argv[1] is the output directory; prints what load_v2 ran to.
ENGINE_SIDE = """
import json, sys
sys.path.insert(0, "tests/engine")
import engine as tf
import saved_model_v2_cases as cases
save, run = cases.PROGRAMS[sys.argv[2]]
save(tf, sys.argv[1])
print(json.dumps({k: v.tolist() for k, v in run(tf, sys.argv[1]).items()}))
"""


def _eager_scaler(tf, loaded):
    values = {"variables/w": loaded.w, "variables/b": loaded.b,
              "apply/y": loaded.apply(tf.constant(cases.X))["y"],
              "loop": loaded.loop(tf.constant(cases.N))}
    values["clip/0"], values["clip/1"] = loaded.clip(tf.constant(cases.V))
    for key in sorted(loaded.signatures):
        results = loaded.signatures[key](**{name: tf.constant(value)
                                            for name, value in cases.SIGNATURE_FEEDS[key].items()})
        values.update({f"signatures/{key}/{name}": t for name, t in results.items()})
    return values


def _eager_nested(tf, loaded):
    return {"predict": loaded.predict(tf.constant(cases.X[:, [0, 1, 1]] + 1.0)),
            "scale": loaded.scale(tf.constant([3.0, -4.0])), "step": loaded.step,
            "second/bias": loaded.layers[1].bias,
            "serving_default": loaded.signatures["serving_default"](
                features=tf.constant(cases.X[:, [1, 0, 0]]))["output_0"]}


def _eager_captured(tf, loaded):
    return {"shift": loaded.shift(tf.constant(cases.X[:2])),
            "serving_default": loaded.signatures["serving_default"](
                x=tf.constant(cases.X))["output_0"]}


def _eager_outputs(export_dir, program):
    """What TensorFlow's eager load gives, keyed as cases.PROGRAMS' runs key it."""
    import tensorflow as tf
    loaded = tf.saved_model.load(str(export_dir))
    values = {"scaler": _eager_scaler, "nested": _eager_nested,
              "captured": _eager_captured}[program](tf, loaded)
    return {key: np.asarray(value) for key, value in values.items()}


def _graph_mode(code, export_dir, program="scaler"):
    """Run `code` (load_v2 or the TF1 loader) in a TF1-mode TensorFlow subprocess."""
    result = subprocess.run([sys.executable, "-c", code, str(export_dir), program], cwd=REPO,
                            capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(result.stderr[-3000:])
    return {k: np.asarray(v) for k, v in json.loads(result.stdout.splitlines()[-1]).items()}


LOAD_V2_SIDE = """
import json, sys
sys.path[:0] = ["tools", "tests/engine"]
from fixture_common import tf_v1
import saved_model_v2_cases as cases
tf = tf_v1()
run = cases.PROGRAMS[sys.argv[2]][1]
print(json.dumps({k: v.tolist() for k, v in run(tf, sys.argv[1]).items()}))
"""

TF1_LOADER_SIDE = """
import json, sys
sys.path[:0] = ["tools", "tests/engine"]
from fixture_common import tf_v1
import saved_model_v2_cases as cases
tf = tf_v1()
served = {}
with tf.Graph().as_default(), tf.Session() as sess:
    meta = tf.saved_model.loader.load(sess, ["serve"], sys.argv[1])
    for key, feeds in cases.SIGNATURE_FEEDS.items():
        signature = meta.signature_def[key]
        feed = {signature.inputs[name].name: value for name, value in feeds.items()}
        for out in signature.outputs:
            served[f"signatures/{key}/{out}"] = sess.run(signature.outputs[out].name, feed).tolist()
print(json.dumps(served))
"""


def _cli_show(export_dir):
    """saved_model_cli show --all, but its line of the graph's op types: the engine's bodies
    hold v1 control flow (Switch, Merge) where TensorFlow's call If and While functions."""
    cli = Path(sys.executable).parent / "saved_model_cli"
    result = subprocess.run([str(cli), "show", "--all", "--dir", str(export_dir)],
                            capture_output=True, text=True)
    lines = [line for line in result.stdout.splitlines()
             if "contains the following ops" not in line]
    return re.sub(r"(__inference_\w+?)_\d+", r"\1", "\n".join(lines))


def _compare(label, ours, theirs, keys=None):
    failures = 0
    for key in sorted(keys or theirs):
        same = (key in ours and ours[key].shape == theirs[key].shape
                and np.allclose(ours[key], theirs[key], rtol=1e-6, atol=0))
        failures += not same
        print(f"{'ok' if same else 'FAIL'} {label} {key}: TensorFlow {theirs[key].ravel()[:4]}"
              f" engine {ours.get(key, np.array([])).ravel()[:4]}")
    return failures


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        for program in cases.PROGRAMS:
            program_dir = Path(root) / f"engine_{program}"
            result = subprocess.run([ENGINE_PYTHON, "-c", ENGINE_SIDE, str(program_dir), program],
                                    cwd=REPO, capture_output=True, text=True,
                                    env=dict(os.environ, PYTHONPATH=str(REPO)))
            if result.returncode:
                print(result.stderr[-3000:])
                sys.exit(1)
            engine = {k: np.asarray(v) for k, v in
                      json.loads(result.stdout.splitlines()[-1]).items()}
            failures += _compare(f"{program}: eager tf.saved_model.load", engine,
                                 _eager_outputs(program_dir, program))
            failures += _compare(f"{program}: graph-mode load_v2", engine,
                                 _graph_mode(LOAD_V2_SIDE, program_dir, program))
        engine_dir = Path(root) / "engine_scaler"
        engine = {k: np.asarray(v) for k, v in json.loads(subprocess.run(
            [ENGINE_PYTHON, "-c", ENGINE_SIDE, str(Path(root) / "again"), "scaler"], cwd=REPO,
            capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)),
            check=True).stdout.splitlines()[-1]).items()}
        tf1 = _graph_mode(TF1_LOADER_SIDE, engine_dir)
        failures += _compare("tf.compat.v1.saved_model.loader.load", engine, tf1, keys=tf1)
        tf_dir = Path(root) / "tf_module"
        subprocess.run([sys.executable, "-c", "import sys; sys.path[:0] = ['tools', "
                        "'tests/engine']\nfrom fixture_common import tf_v1\nimport "
                        "saved_model_v2_cases as cases\ncases.save(tf_v1(), sys.argv[1])",
                        str(tf_dir)], cwd=REPO, check=True, capture_output=True)
        ours, theirs = _cli_show(engine_dir), _cli_show(tf_dir)
        same = ours == theirs and "signature_def['serving_default']" in theirs
        failures += not same
        print(f"{'ok' if same else 'FAIL'} saved_model_cli show --all: "
              f"{len(theirs.splitlines())} lines {'alike' if same else 'differ'}")
        if not same:
            import difflib
            print("\n".join(difflib.unified_diff(theirs.splitlines(), ours.splitlines(),
                                                 "TensorFlow", "engine", lineterm="")))
    print("all checks passed" if not failures else f"{failures} checks failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
