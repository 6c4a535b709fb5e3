"""Every op TensorFlow 2.21 registers, as its OpDef (descriptions left out), read on first use.

The engine's own OpDefs (op_registry) cover the ops it runs; a TF2 model uses many more
(TensorList*, lookup tables, DisableCopyOnRead, ...). Reading a function body exactly needs
each op's output arguments, so function_graph falls back to this list for an op neither the
meta graph's stripped op list nor the engine knows. tools/extract_tensorflow_op_list.py writes
tensorflow_op_list.pb.gz (65 KB; loading it takes about 10 ms).

>>> [arg.name for arg in lookup("TensorListReserve").output_arg], lookup("NoSuchOp") is None
(['handle'], True)
"""

import gzip
import os

from engine.proto import op_def_pb2

_PATH = os.path.join(os.path.dirname(__file__), "tensorflow_op_list.pb.gz")
_ops = None


def lookup(op_type):
    """TensorFlow's OpDef of `op_type`, or None when TensorFlow has no such op."""
    return _load().get(op_type)


def op_names():
    """Every op's name, sorted."""
    return sorted(_load())


def _load():
    global _ops
    if _ops is None:
        with open(_PATH, "rb") as stream:
            op_list = op_def_pb2.OpList.FromString(gzip.decompress(stream.read()))
        _ops = {op.name: op for op in op_list.op}
    return _ops
