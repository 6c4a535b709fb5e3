"""Check that checkpoints the engine writes restore in real TensorFlow, byte for byte what TensorFlow writes.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_engine_checkpoints_in_tf.py`.
The engine (the project's venv, in a subprocess; GI_ENGINE_PYTHON overrides which python)
1. runs tests/programs/saver_checkpoints.py's model, plain and sharded, and saves it with
   tf.train.Saver; TensorFlow imports the engine's .meta, restores the engine's checkpoint
   with the engine's restore op, and must read the values the engine had;
2. writes a bundle of every engine dtype, strings, a partitioned tensor (offsets past 64)
   and thousands of tensors (an index of several blocks); TensorFlow's CheckpointReader must
   read every value, and TensorFlow's own SaveV2 given the same tensors must write the same
   .index and .data bytes.
Prints one line per check and exits 1 if any fails.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
ENGINE_PYTHON = os.environ.get("GI_ENGINE_PYTHON", str(REPO / ".venv" / "bin" / "python"))
MANY = 6000  # tensors in the big bundle: its index outgrows one 256 KiB block

# Run with the project's venv: argv[1] is the output directory.
WRITE_WITH_ENGINE = """
import json, os, sys
import numpy as np
sys.path.insert(0, "tests/programs")
import engine as tf
from engine.checkpoint.bundle import BundleWriter
from engine.proto import types_pb2
import saver_checkpoints

out = sys.argv[1]
values = {}
for kind in ("plain", "sharded"):
    with tf.Graph().as_default():
        parts = saver_checkpoints.build(sharded=kind == "sharded")
        with tf.Session(config=saver_checkpoints.CONFIG) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(parts["train"])
            sess.run(parts["train"])
            os.makedirs(os.path.join(out, kind))
            prefix = parts["saver"].save(sess, os.path.join(out, kind, "model.ckpt"), global_step=parts["step"])
            values[kind] = {"prefix": prefix, "values": {
                v.op.name: np.asarray(sess.run(v)).tolist() if v.dtype.base_dtype != tf.string
                else [x.decode("latin-1") for x in sess.run(v).ravel()] for v in tf.global_variables()}}

rng = np.random.RandomState(0)
writer = BundleWriter(os.path.join(out, "bundle", "all"))
tensors = {
    "f32": (rng.randn(4, 5).astype(np.float32), types_pb2.DT_FLOAT),
    "f64": (rng.randn(7), types_pb2.DT_DOUBLE),
    "f16": (rng.randn(3).astype(np.float16), types_pb2.DT_HALF),
    "i8": (np.array([-128, 7, 127], np.int8), types_pb2.DT_INT8),
    "i16": (np.array([-32768, 7], np.int16), types_pb2.DT_INT16),
    "i32": (np.arange(-5, 5, dtype=np.int32), types_pb2.DT_INT32),
    "i64": (np.array([-(2 ** 63), 2 ** 63 - 1], np.int64), types_pb2.DT_INT64),
    "u8": (np.arange(256, dtype=np.uint8), types_pb2.DT_UINT8),
    "u16": (np.array([65535, 1], np.uint16), types_pb2.DT_UINT16),
    "u32": (np.array([2 ** 32 - 1], np.uint32), types_pb2.DT_UINT32),
    "u64": (np.array([2 ** 64 - 1], np.uint64), types_pb2.DT_UINT64),
    "bool": (np.array([[True, False], [False, True]]), types_pb2.DT_BOOL),
    "c64": (np.array([1 + 2j, -3j], np.complex64), types_pb2.DT_COMPLEX64),
    "c128": (np.array([[1e-300 + 1j]], np.complex128), types_pb2.DT_COMPLEX128),
    "str": (np.array([b"", b"a" * 200, b"\\x00\\xff caf\\xc3\\xa9"], object), types_pb2.DT_STRING),
    "scalar": (np.float32(2.5), types_pb2.DT_FLOAT),
    "empty": (np.zeros((0, 3), np.float32), types_pb2.DT_FLOAT),
}
table = rng.randn(300, 4).astype(np.float32)
for name in sorted([*tensors, "sliced"]):  # the order a Saver gives: names sorted
    if name == "sliced":
        for start, length in ((0, 100), (100, 150), (250, 50)):
            writer.add_slice(name, [300, 4], [(start, length), (0, 4)], table[start:start + length],
                             types_pb2.DT_FLOAT)
    else:
        writer.add(name, *tensors[name])
writer.finish()

many = BundleWriter(os.path.join(out, "bundle", "many"))
for index in range(%(many)d):
    many.add(f"layer_{index:05d}/a_rather_long_variable_name_to_fill_the_index/kernel", np.float32([index]), types_pb2.DT_FLOAT)
many.finish()
json.dump(values, open(os.path.join(out, "values.json"), "w"))
np.savez(os.path.join(out, "bundle.npz"), table=table,
         **{k: v for k, (v, d) in tensors.items() if d != types_pb2.DT_STRING})
""" % {"many": MANY}


def engine_writes(out):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    result = subprocess.run([ENGINE_PYTHON, "-c", WRITE_WITH_ENGINE, str(out)], cwd=REPO, env=env,
                            capture_output=True, text=True)
    if result.returncode:
        sys.exit(f"the engine failed:\n{result.stderr[-3000:]}")


def as_list(value):
    value = np.asarray(value)
    if value.dtype == object:
        return [x.decode("latin-1") for x in value.ravel()]
    return value.tolist()


def check_saver(tf, out, kind, expected):
    """TensorFlow imports the engine's .meta and runs its restore op over the engine's checkpoint."""
    prefix = expected["prefix"]
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
            saver.restore(sess, prefix)
            got = {v.op.name: as_list(sess.run(v)) for v in tf.global_variables()}
    ok = got == expected["values"]
    print(f"{'ok  ' if ok else 'FAIL'} saver ({kind}): TensorFlow restored {len(got)} variables from {Path(prefix).name}")
    return ok


def check_bundle(tf, out):
    prefix = str(out / "bundle" / "all")
    arrays = np.load(out / "bundle.npz")
    reader = tf.train.load_checkpoint(prefix)
    failures = []
    for name in arrays.files:
        if name == "table":
            continue
        got = reader.get_tensor(name)
        if not np.array_equal(np.asarray(got), arrays[name]) or np.asarray(got).dtype != arrays[name].dtype:
            failures.append(name)
    if not np.array_equal(reader.get_tensor("sliced"), arrays["table"]):
        failures.append("sliced")
    strings = [x for x in np.asarray(reader.get_tensor("str")).ravel()]
    if strings != [b"", b"a" * 200, b"\x00\xff caf\xc3\xa9"]:
        failures.append("str")
    print(f"{'ok  ' if not failures else 'FAIL'} bundle: TensorFlow read {len(arrays.files) + 1} tensors "
          f"of every dtype, strings and slices{': ' + ', '.join(failures) if failures else ''}")
    many = tf.train.load_checkpoint(str(out / "bundle" / "many"))
    names = sorted(many.get_variable_to_shape_map())
    many_ok = len(names) == MANY and all(many.get_tensor(n)[0] == i for i, n in enumerate(names))
    print(f"{'ok  ' if many_ok else 'FAIL'} bundle: TensorFlow read all {MANY} tensors of a "
          f"{os.path.getsize(out / 'bundle' / 'many.index')}-byte index")
    return not failures and many_ok


def check_same_bytes(tf, out):
    """TensorFlow's own SaveV2, given the tensors the engine wrote, writes the same files."""
    identical = True
    for name in ("all", "many"):
        prefix = str(out / "bundle" / name)
        reader = tf.train.load_checkpoint(prefix)
        names = sorted(reader.get_variable_to_shape_map())
        again = str(out / "tf" / name)
        specs, tensors = [], []
        for tensor_name in names:
            if tensor_name == "sliced":
                for start, length in ((0, 100), (100, 150), (250, 50)):
                    specs.append((tensor_name, f"300 4 {start},{length}:0,4",
                                  reader.get_tensor(tensor_name)[start:start + length]))
                continue
            specs.append((tensor_name, "", reader.get_tensor(tensor_name)))
        with tf.Graph().as_default():
            dtype_map = reader.get_variable_to_dtype_map()
            tensors = [tf.constant(value, dtype=dtype_map[n]) for n, _, value in specs]
            save = tf.raw_ops.SaveV2(prefix=again, tensor_names=[n for n, _, _ in specs],
                                     shape_and_slices=[s for _, s, _ in specs], tensors=tensors)
            with tf.Session() as sess:
                sess.run(save)
        for suffix in (".index", ".data-00000-of-00001"):
            same = Path(prefix + suffix).read_bytes() == Path(again + suffix).read_bytes()
            identical &= same
            print(f"{'ok  ' if same else 'FAIL'} bytes: {name}{suffix} equals what TensorFlow's SaveV2 writes")
    return identical


def main():
    import tensorflow as tf2
    tf = tf2.compat.v1
    tf.disable_v2_behavior()
    out = Path(tempfile.mkdtemp(prefix="gi-ckpt-check-"))
    engine_writes(out)
    expected = json.loads((out / "values.json").read_text())
    ok = all([check_saver(tf, out, kind, expected[kind]) for kind in ("plain", "sharded")])
    ok &= check_bundle(tf, out)
    ok &= check_same_bytes(tf, out)
    print("all checks passed" if ok else "some checks FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
