"""Check that SavedModels the engine writes load in real TensorFlow and serve the engine's predictions.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_saved_model_in_tf.py`.
The engine (the project's venv, in a subprocess; GI_ENGINE_PYTHON overrides which python) runs
tests/programs/saved_model_serving.py's export (SavedModelBuilder binary and text, simple_save)
and serves each tag set itself; TensorFlow's tf.compat.v1.saved_model.loader.load then loads the
engine's directories and must give the same signatures and, on the same inputs, the same outputs.
Prints one line per check and exits 1 if any fails.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
ENGINE_PYTHON = os.environ.get("GI_ENGINE_PYTHON", str(REPO / ".venv" / "bin" / "python"))
CASES = [("builder", ["serve"]), ("builder", ["train"]), ("text", ["serve"]), ("simple", ["serve"])]

# Run with the project's venv: argv[1] is the output directory; prints what the engine served.
ENGINE_SIDE = """
import json, sys
sys.path.insert(0, "tests/programs")
import engine as tf
import saved_model_serving as program
root, served = sys.argv[1], {}
program.export(root)
for name, tags in %r:
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, tags, f"{root}/{name}")
        for key, signature in sorted(meta.signature_def.items()):
            feeds = {info.name: program.INPUTS for info in signature.inputs.values()}
            for out in sorted(signature.outputs):
                served[f"{name}:{tags[0]}:{key}/{out}"] = sess.run(signature.outputs[out].name, feeds).tolist()
print(json.dumps(served))
""" % (CASES,)


def main():
    import tensorflow as tf_root
    tf = tf_root.compat.v1
    tf.disable_v2_behavior()
    sys.path[:0] = [str(REPO / "tests" / "programs"), str(REPO / "tools" / "tf_shim")]
    from saved_model_serving import INPUTS  # the shim's `import engine as tf`: TensorFlow
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        result = subprocess.run([ENGINE_PYTHON, "-c", ENGINE_SIDE, root], cwd=REPO, capture_output=True,
                                text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
        if result.returncode:
            print(result.stderr[-3000:])
            sys.exit(1)
        engine_served = json.loads(result.stdout.splitlines()[-1])
        for name, tags in CASES:
            with tf.Graph().as_default(), tf.Session() as sess:
                meta = tf.saved_model.loader.load(sess, tags, f"{root}/{name}")
                checked = 0
                for key, signature in sorted(meta.signature_def.items()):
                    feeds = {info.name: INPUTS for info in signature.inputs.values()}
                    for out in sorted(signature.outputs):
                        label = f"{name}:{tags[0]}:{key}/{out}"
                        theirs = sess.run(signature.outputs[out].name, feeds)
                        ours = np.array(engine_served.pop(label))
                        same = ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-5, atol=1e-7)
                        failures += not same
                        checked += 1
                        print(f"{'ok' if same else 'FAIL'} {label}: TensorFlow served {theirs.ravel()[:4]}..."
                              f" engine {ours.ravel()[:4]}...")
                variables = {v.op.name: sess.run(v) for v in tf.global_variables()}
                print(f"ok {name} {tags}: loaded in TensorFlow, {len(meta.graph_def.node)} nodes,"
                      f" variables {sorted(variables)}, {checked} outputs compared")
    if engine_served:
        failures += 1
        print("FAIL signatures TensorFlow did not see:", sorted(engine_served))
    print("all checks passed" if not failures else f"{failures} checks failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
