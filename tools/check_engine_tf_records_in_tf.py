"""Check that TFRecord files the engine writes read back in real TensorFlow.

Run with TensorFlow's venv: `.venv-tf/bin/python tools/check_engine_tf_records_in_tf.py`.
The engine (the project's venv, in a subprocess; GI_ENGINE_PYTHON overrides which python)
writes tests/engine/tf_record_cases.py's records (tf.train.Examples built with the engine's
messages, an empty and a long record) without compression, GZIP and ZLIB, plus 2000 records
of growing length (past zlib's buffers); TensorFlow's tf_record_iterator and TFRecordDataset
must read the same records, and its tf.train.Example must parse the engine's Examples.
Prints one line per check and exits 1 if any fails.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

REPO = Path(__file__).resolve().parent.parent
ENGINE_PYTHON = os.environ.get("GI_ENGINE_PYTHON", str(REPO / ".venv" / "bin" / "python"))
sys.path.insert(0, str(REPO / "tests" / "engine"))

import tf_record_cases as cases  # noqa: E402

# Run with the project's venv: argv[1] is the output directory.
WRITE_WITH_ENGINE = """
import sys
sys.path.insert(0, "tests/engine")
import engine as tf
import tf_record_cases as cases

for compression, label in cases.COMPRESSIONS.items():
    options = tf.python_io.TFRecordOptions(compression)
    with tf.python_io.TFRecordWriter(f"{sys.argv[1]}/{label}.tfrecord", options) as writer:
        for record in cases.records(tf):
            writer.write(record)
    with tf.python_io.TFRecordWriter(f"{sys.argv[1]}/many.{label}.tfrecord", compression) as w:
        for i in range(2000):
            w.write(bytes([i % 251]) * i)
"""


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    failures = 0
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        subprocess.run([ENGINE_PYTHON, "-c", WRITE_WITH_ENGINE, out], cwd=REPO, env=env,
                       check=True)
        expected = cases.records(tf)
        many = [bytes([i % 251]) * i for i in range(2000)]
        for compression, label in cases.COMPRESSIONS.items():
            read = list(tf.python_io.tf_record_iterator(f"{out}/{label}.tfrecord",
                                                         compression or None))
            checks = {
                "tf_record_iterator": read == expected,
                "TFRecordDataset": cases.read_with_dataset(
                    tf, f"{out}/{label}.tfrecord", compression) == (expected, None),
                "tf.train.Example": [tf.train.Example.FromString(r) for r in read[:3]]
                == cases.examples(tf),
                "2000 records": list(tf.python_io.tf_record_iterator(
                    f"{out}/many.{label}.tfrecord", compression or None)) == many,
            }
            for name, ok in checks.items():
                print(f"{'ok  ' if ok else 'FAIL'} {label}: {name}")
                failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
