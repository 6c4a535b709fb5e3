"""Write tests/fixtures/saved_model/: SavedModels TensorFlow's TF 1.x API wrote, and what it served from them.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_saved_model_fixtures.py`.
tests/programs/saved_model_serving.py runs on TensorFlow (tools/tf_shim):
- without arguments, its stdout becomes tests/fixtures/programs/saved_model_serving.stdout;
- with a directory, the SavedModels it exports there: `builder` (SavedModelBuilder, meta graphs
  tagged serve and train, two signatures, a main op) and `simple` (simple_save) are kept as
  tests/fixtures/saved_model/{builder,simple}/ (the text-format one is left out: 230 KB).
expected.json says, for each kept SavedModel, what TensorFlow's loader.load gives for each tag
set: the signatures (text format), collection keys, SaverDef (text format), the graph's node
names, and each signature's outputs on the program's INPUTS (flat lists, with shape and dtype).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "saved_model"
PROGRAM = "tests/programs/saved_model_serving.py"
KEPT = ("builder", "simple")


def tf_env():
    sys.path.insert(0, str(REPO / "tools"))
    from make_fixtures import tf_env as env
    return env()


def served(export_dir, tags):
    """What TensorFlow's loader gives for one tag set of one SavedModel."""
    import numpy as np
    import tensorflow as tf_root
    from google.protobuf import text_format
    tf = tf_root.compat.v1
    tf.disable_v2_behavior()
    sys.path[:0] = [str(REPO / "tests" / "programs"), str(REPO / "tools" / "tf_shim")]
    from saved_model_serving import INPUTS  # its `import engine as tf` is the shim: TensorFlow
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, tags, str(export_dir))
        outputs = {}
        for key in sorted(meta.signature_def):
            signature = meta.signature_def[key]
            feeds = {info.name: INPUTS for info in signature.inputs.values()}
            for name in sorted(signature.outputs):
                value = np.asarray(sess.run(signature.outputs[name].name, feeds))
                outputs[f"{key}/{name}"] = {"dtype": str(value.dtype), "shape": list(value.shape),
                                            "values": value.ravel().tolist()}
        return {
            "signatures": {key: text_format.MessageToString(meta.signature_def[key])
                           for key in sorted(meta.signature_def)},
            "collections": sorted(meta.collection_def),
            "saver_def": text_format.MessageToString(meta.saver_def),
            "nodes": sorted(node.name for node in graph.as_graph_def().node),
            "outputs": outputs,
        }


def main():
    env = tf_env()
    printed = subprocess.run([sys.executable, PROGRAM], cwd=REPO, env=env, capture_output=True,
                             text=True, check=True).stdout
    (REPO / "tests" / "fixtures" / "programs" / "saved_model_serving.stdout").write_text(printed)
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as root:
        subprocess.run([sys.executable, PROGRAM, root], cwd=REPO, env=env, capture_output=True,
                       check=True)
        for name in KEPT:
            shutil.copytree(Path(root) / name, OUT / name)
    expected = {"builder": {"serve": served(OUT / "builder", ["serve"]),
                            "train": served(OUT / "builder", ["train"])},
                "simple": {"serve": served(OUT / "simple", ["serve"])}}
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size:8d} {path.relative_to(OUT)}")


if __name__ == "__main__":
    main()
