"""Write engine/framework/tensorflow_op_list.pb.gz: the OpDef of every op TensorFlow registers
(about 1,900), so that a reader resolves the outputs of any op a graph or function body uses,
not only those the engine runs. Run with the TensorFlow venv:
`.venv-tf/bin/python tools/extract_tensorflow_op_list.py`.

Each OpDef keeps its one-line summary where TensorFlow's registry has one (few do) and loses
its descriptions; the OpList is written binary and gzipped with no timestamp, so the same
TensorFlow writes the same bytes.
"""

import gzip
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def main(out_path="engine/framework/tensorflow_op_list.pb.gz"):
    import tensorflow as tf
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session

    op_list = op_def_pb2.OpList.FromString(
        pywrap_tf_session.TF_GetBuffer(pywrap_tf_session.TF_GetAllOpList()))
    ops = sorted(op_list.op, key=lambda op: op.name)
    written = op_def_pb2.OpList()
    for op_def in ops:
        op = written.op.add()
        op.CopyFrom(op_def)
        op.ClearField("description")
        for arg in list(op.input_arg) + list(op.output_arg):
            arg.ClearField("description")
        for attr in op.attr:
            attr.ClearField("description")
    data = gzip.compress(written.SerializeToString(deterministic=True), compresslevel=9, mtime=0)
    with open(out_path, "wb") as out:
        out.write(data)
    print(f"{out_path}: {len(written.op)} ops of TensorFlow {tf.__version__}, {len(data)} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
