"""Static shape inference against the shapes real TensorFlow inferred (fixtures/ops/shapes.npz)."""

import json
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

from engine.framework.attr_value import to_python
from engine.framework.dtypes import as_dtype
from engine.proto.node_def_pb2 import NodeDef
from engine.proto.op_def_pb2 import OpList
from engine.shape_inference import InputInfo, ShapeError, infer_shapes
from engine.framework.tensor_shape import TensorShape

ROOT = Path(__file__).resolve().parent.parent.parent
# shapes.npz (tools/make_op_fixtures.py), grad_shapes.npz (tools/make_grad_op_fixtures.py:
# the ops the second-order gradients added).
FILES = {name: np.load(ROOT / "tests" / "fixtures" / "ops" / f"{name}.npz", allow_pickle=False)
         for name in ("shapes", "grad_shapes")}
DATA = FILES["shapes"]
MANIFEST = json.loads(str(DATA["__manifest__"]))
SHAPE_CASES = [(name, entry) for name, data in FILES.items()
               for entry in json.loads(str(data["__manifest__"]))]
OP_DEFS = {op.name: op for op in text_format.Parse(
    (ROOT / "engine" / "framework" / "op_defs.pbtxt").read_text(), OpList()).op}


def _as_list(shape):
    return None if shape.ndims is None else shape.as_list()


@pytest.mark.parametrize("file, entry", [c for c in SHAPE_CASES if not c[1]["error"]],
                         ids=lambda c: c if isinstance(c, str) else c["name"])
def test_static_shapes_match_tensorflow(file, entry):
    name, data = entry["name"], FILES[file]
    node_def = NodeDef.FromString(data[f"{name}/node_def"].tobytes())
    attrs = {key: to_python(value) for key, value in node_def.attr.items()}
    inputs = [InputInfo(as_dtype(spec["dtype"]), TensorShape(spec["shape"]),
                        data[f"{name}/in{i}"] if spec["const"] else None)
              for i, spec in enumerate(entry["inputs"])]
    shapes = infer_shapes(OP_DEFS[entry["op"]], attrs, inputs)
    assert [_as_list(s) for s in shapes] == entry["outputs"]


@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["error"]], ids=lambda e: e["name"])
def test_incompatible_static_shapes_raise(entry):
    # The fixture recorded TensorFlow's build-time error; the inputs are the case's shapes.
    cases = {
        "AddV2.incompatible": ("AddV2", [[2, 3], [4]], [None, None]),
        "MatMul.bad": ("MatMul", [[2, 3], [4, 5]], [None, None]),
        "Reshape.bad": ("Reshape", [[2, 3], [2]], [None, np.array([4, 2], np.int32)]),
        "InTopKV2.bad": ("InTopKV2", [[3, 10], [4], []], [None, None, np.int32(3)]),
    }
    op, shapes, values = cases[entry["name"]]
    inputs = [InputInfo(None, TensorShape(s), v) for s, v in zip(shapes, values)]
    attrs = {"transpose_a": False, "transpose_b": False} if op == "MatMul" else {}
    with pytest.raises(ShapeError):
        infer_shapes(OP_DEFS[op], attrs, inputs)


def test_unknown_op_gives_unknown_shapes():
    shapes = infer_shapes(OP_DEFS["Reverse"], {"T": 1}, [])
    assert [s.ndims for s in shapes] == [None]


def test_no_output_op():
    assert infer_shapes(OP_DEFS["NoOp"], {}, []) == []
