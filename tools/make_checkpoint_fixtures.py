"""Write tests/fixtures/checkpoints/: checkpoints and SavedModel variables written by TensorFlow.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/make_checkpoint_fixtures.py`.
Each directory holds what tf.compat.v1.train.Saver (or the SavedModel builder) wrote, and
`values.json` says what TensorFlow's own CheckpointReader reads back from every prefix:
  {prefix (relative to the fixtures dir): {tensor name: {"dtype", "shape", "values"}}}
where values are flat lists (complex as [re, im] pairs, strings as latin-1 text, NaN and
infinities as JSON's NaN/Infinity). Fixtures stay small (KBs).
It also writes the graph TensorFlow's Saver builds for tests/programs/saver_checkpoints.py
(saver_graph_{plain,sharded}.pbtxt) and that program's output (tests/fixtures/programs/).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf1_root  # noqa: E402

tf = tf1_root.compat.v1
tf.disable_v2_behavior()  # TF1 programs: ref variables (VariableV2), save/Assign

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "checkpoints"
SAVER_PROGRAM = "tests/programs/saver_checkpoints.py"

# Writes the GraphDef of saver_checkpoints.build(sharded) as text (run through tools/tf_shim).
SAVER_GRAPH = """
import sys
sys.path = ["tests/programs"] + [p for p in sys.path if p not in ("", ".")]  # the shim's engine, not ours
import engine as tf
import saver_checkpoints
saver_checkpoints.build(sharded=sys.argv[1] == "sharded")
print(tf.get_default_graph().as_graph_def())
"""

# One variable per dtype the engine has; names are what a TF1 program would call them.
DTYPE_VALUES = {
    "float32": ("dense/kernel", np.array([[1.5, -2.25, 3.0], [np.nan, np.inf, -0.0]], np.float32)),
    "float64": ("dense/bias", np.array([0.1, -1e300, 2.5, 7.0], np.float64)),
    "float16": ("half", np.array([0.5, -65504.0, 1.0 / 3.0], np.float16)),
    "bfloat16": ("brain", np.array([[1.0, -2.5], [3.25, 100.0]], np.float32)),
    "int8": ("int8", np.array([-128, 0, 127], np.int8)),
    "int16": ("int16", np.array([-32768, 5, 32767], np.int16)),
    "int32": ("int32", np.array([[1, -2], [3, 2147483647]], np.int32)),
    "int64": ("int64", np.array([-(2 ** 63), 0, 2 ** 62], np.int64)),
    "uint8": ("uint8", np.array([0, 200, 255], np.uint8)),
    "uint16": ("uint16", np.array([0, 65535], np.uint16)),
    "uint32": ("uint32", np.array([4294967295, 1], np.uint32)),
    "uint64": ("uint64", np.array([2 ** 64 - 1, 3], np.uint64)),
    "bool": ("flags", np.array([True, False, True], np.bool_)),
    "complex64": ("c64", np.array([1 + 2j, -3.5 - 0.5j], np.complex64)),
    "complex128": ("c128", np.array([1e-300 + 1j, 0j], np.complex128)),
    "string": ("vocab", np.array([b"", b"hello", b"caf\xc3\xa9 \x00\xff", b"x" * 130], object)),
}


def reset():
    tf.reset_default_graph()
    tf.set_random_seed(7)


def dtypes_model():
    """Every dtype, a scalar, the global step; returns the ops that change the values."""
    changes = []
    for dtype_name, (name, value) in DTYPE_VALUES.items():
        dtype = tf.as_dtype(dtype_name)
        initial = tf.constant(value, dtype=tf.float32) if dtype_name == "bfloat16" else value
        variable = tf.Variable(tf.cast(initial, dtype) if dtype_name == "bfloat16" else initial,
                               dtype=dtype, name=name)
        if dtype_name in ("float32", "int32"):
            changes.append(tf.assign(variable, variable * 2 if dtype_name == "int32"
                                     else variable + 0.5))
    tf.Variable(3.0, name="scalar")
    tf.train.get_or_create_global_step()
    return changes


def write_dtypes(root):
    """Saver(max_to_keep=2) at steps 5, 6, 7: steps 6 and 7 remain, and differ."""
    reset()
    changes = dtypes_model()
    saver = tf.train.Saver(max_to_keep=2, save_relative_paths=True)
    prefix = str(root / "dtypes" / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, prefix, global_step=5)
        saver.save(sess, prefix, global_step=6)
        sess.run(changes)
        saver.save(sess, prefix, global_step=7)
    return ["dtypes/model.ckpt-6", "dtypes/model.ckpt-7"]


def write_partitioned(root):
    """Partitioned variables: three slices of [10, 3], two of [200, 2] (offset 100 needs two bytes)."""
    reset()
    tf.get_variable("embedding", [10, 3], initializer=tf.random_normal_initializer(),  # seeded per op: slices differ
                    partitioner=tf.fixed_size_partitioner(3))
    tf.get_variable("wide", [200, 2], initializer=tf.random_uniform_initializer(),
                    partitioner=tf.fixed_size_partitioner(2))
    tf.get_variable("plain", [2], initializer=tf.ones_initializer())
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, str(root / "partitioned" / "model.ckpt"))
    return ["partitioned/model.ckpt"]


def write_sharded(root):
    """Saver(sharded=True) with variables on two CPU devices: two .data shards."""
    reset()
    with tf.device("/cpu:0"):
        tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="layer0/w")
        tf.Variable(np.array([b"a", b"bc"], object), name="layer0/names")
    with tf.device("/cpu:1"):
        tf.Variable(np.arange(4, dtype=np.int64), name="layer1/w")
        tf.Variable(np.array([0.25], np.float64), name="layer1/b")
    step = tf.train.get_or_create_global_step()
    saver = tf.train.Saver(sharded=True)
    config = tf.ConfigProto(device_count={"CPU": 2})
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign(step, 3))
        saver.save(sess, str(root / "sharded" / "model.ckpt"), global_step=step)
    return ["sharded/model.ckpt-3"]


def write_saved_model(root):
    """A SavedModel (TF1 builder): its variables/variables.{index,data} and the graph."""
    reset()
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0, -1.0], [0.5, 2.0]], name="w")
    b = tf.Variable([0.25, -0.75], name="b")
    y = tf.add(tf.matmul(x, w), b, name="y")
    path = root / "saved_model"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, str(path), inputs={"x": x}, outputs={"y": y})
    return ["saved_model/variables/variables"]


def json_values(array):
    if array.dtype == object:
        return [item.decode("latin-1") for item in array.ravel()]
    if np.iscomplexobj(array):
        return [[float(item.real), float(item.imag)] for item in array.ravel()]
    if array.dtype.kind == "f" or array.dtype.name == "bfloat16":
        return [float(item) for item in array.astype(np.float64).ravel()]
    if array.dtype == np.bool_:
        return [bool(item) for item in array.ravel()]
    return [int(item) for item in array.ravel()]


def read_back(root, prefix):
    reader = tf.train.load_checkpoint(str(root / prefix))
    dtypes = reader.get_variable_to_dtype_map()
    table = {}
    for name, shape in sorted(reader.get_variable_to_shape_map().items()):
        value = np.asarray(reader.get_tensor(name))
        table[name] = {"dtype": dtypes[name].name, "shape": list(shape), "values": json_values(value)}
    return table


def write_saver_program_fixtures(out):
    """The Saver's graph (plain and sharded) and what saver_checkpoints.py prints, both by TensorFlow."""
    sys.path.insert(0, str(REPO / "tools"))
    from make_fixtures import tf_env
    for kind in ("plain", "sharded"):
        graph = subprocess.run([sys.executable, "-c", SAVER_GRAPH, kind], cwd=REPO, env=tf_env(),
                               capture_output=True, text=True, check=True).stdout
        (out / f"saver_graph_{kind}.pbtxt").write_text(graph)
    printed = subprocess.run([sys.executable, SAVER_PROGRAM], cwd=REPO, env=tf_env(),
                             capture_output=True, text=True, check=True).stdout
    (REPO / "tests" / "fixtures" / "programs" / "saver_checkpoints.stdout").write_text(printed)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    for part in ("dtypes", "partitioned", "sharded", "saved_model"):
        shutil.rmtree(out / part, ignore_errors=True)
        (out / part).mkdir(parents=True)
    prefixes = write_dtypes(out) + write_partitioned(out) + write_sharded(out) + write_saved_model(out)
    values = {prefix: read_back(out, prefix) for prefix in prefixes}
    for part in ("partitioned", "sharded"):  # absolute paths, as if trained elsewhere and copied here
        state = out / part / "checkpoint"
        state.write_text(state.read_text().replace(str(out), "/home/user/train"))
    (out / "values.json").write_text(json.dumps(values, indent=1, sort_keys=True) + "\n")
    write_saver_program_fixtures(out)
    for path in sorted(out.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size:8d} {path.relative_to(out)}")


if __name__ == "__main__":
    main()
