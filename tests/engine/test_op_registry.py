"""The op tables kept in step: every op's OpDef, kernels, shape function, gradient and families
agree (engine.api.registry), and the gradient registry agrees with TensorFlow's
(fixtures/ops/gradients.json, made by tools/extract_gradient_registry.py)."""

import json
from pathlib import Path

import numpy as np
import pytest

from engine import shape_inference
from engine.api import registry
from engine.framework import dtypes, op_families, op_registry
from engine.kernels.cpu import math as cpu_math
from engine.kernels.cpu import reduce as cpu_reduce
from engine.ops import gradient_registry
from engine.framework.tensor_shape import TensorShape

ROOT = Path(__file__).resolve().parent.parent.parent
TF_GRADIENTS = json.loads((ROOT / "tests" / "fixtures" / "ops" / "gradients.json").read_text())
ROWS = registry.all_ops()

# TensorFlow differentiates these; the engine's gradients are not written yet, so tf.gradients
# through one raises LookupError (as through any op without a registry entry). An op leaves
# this set when its gradient is registered.
GRADIENTS_NOT_YET_WRITTEN = frozenset({
    # The functional control flow ops: their gradients build the branch and body functions'
    # gradient functions (TensorFlow's cond_v2.py and while_v2.py).
    "Case", "If", "StatelessCase", "StatelessIf", "StatelessWhile", "While",
    # tf.py_function's op: TensorFlow records the Python function on a gradient tape.
    "EagerPyFunc",
})

_FLOATS = {dtype.as_datatype_enum for dtype in
           (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)}


def _can_be_float(op_def, args):
    """Whether any of `args` may hold a floating-point tensor (a fixed float type, or a type
    attr allowing one or any type)."""
    attrs = {attr.name: attr for attr in op_def.attr}
    for arg in args:
        if arg.type:
            if arg.type in _FLOATS:
                return True
            continue
        allowed = attrs[arg.type_attr or arg.type_list_attr].allowed_values.list.type
        if not allowed or _FLOATS & set(allowed):
            return True
    return False


def _differentiable_float_op(row):
    return (row.kernels and row.op_def is not None
            and _can_be_float(row.op_def, row.op_def.input_arg)
            and _can_be_float(row.op_def, row.op_def.output_arg))


def test_the_tables_agree_on_every_op():
    drift = {row.name: registry.problems(row) for row in ROWS if registry.problems(row)}
    assert drift == {}


def test_every_differentiable_float_op_has_a_gradient_or_is_marked_not_differentiable():
    lacking = {row.name for row in ROWS if _differentiable_float_op(row)
               and row.gradient == gradient_registry.MISSING
               and TF_GRADIENTS.get(row.name) == "registered"}
    assert lacking == GRADIENTS_NOT_YET_WRITTEN


def test_the_kernels_that_never_ran_now_have_opdefs_and_shapes():
    # Snapshot, EnsureShape, InvGrad and ParallelDynamicStitch had CPU kernels and no OpDef:
    # a GraphDef holding one failed with NotFoundError.
    for name in ("Snapshot", "EnsureShape", "InvGrad", "ParallelDynamicStitch"):
        row = registry.describe(name)
        assert row.op_def is not None and "CPU" in row.kernels
        assert row.shape == registry.INFERRED


@pytest.mark.parametrize("row, problem", [
    (registry.OpRow("Snapshot", kernels={"CPU": len}, shape=registry.INFERRED),
     "kernel without OpDef"),
    (registry.OpRow("SaveV3", op_def=op_registry.get("SaveV2"), shape=registry.NO_OUTPUTS),
     "OpDef without kernel"),
    (registry.OpRow("Switch", op_def=op_registry.get("Switch"), kernels={"CPU": len}),
     "no shape function"),
    (registry.OpRow("Abort", op_def=op_registry.get("Abort"), kernels={"CPU": len},
                    shape=registry.NO_OUTPUTS), "kernel for an op listed as graph-only"),
])
def test_drift_is_reported(row, problem):
    assert registry.problems(row) == [problem]


def test_a_row_answers_what_an_op_is():
    row = registry.describe("Softplus")
    assert row.op_def.name == "Softplus" and row.op_def.output_arg[0].type_attr == "T"
    assert row.kernels["CPU"] is not None and row.shape_function is shape_inference.unchanged
    assert row.gradient == gradient_registry.REGISTERED and row.families == ("unary",)
    assert registry.describe("VariableV2").is_stateful
    assert "stateful" in registry.describe("VariableV2").families
    nobody = registry.describe("NoSuchOp")
    assert (nobody.op_def, nobody.kernels, nobody.shape) == (None, {}, registry.NO_FUNCTION)


def test_every_opdef_file_is_loaded_at_registry_start():
    # Training ops' OpDefs came from a second file loaded only by importing tf.gradients.
    for name in ("DynamicStitch", "ListDiff", "ApplyCenteredRMSProp", "InTopKV2"):
        assert op_registry.lookup(name) is not None


def test_the_elementwise_tables_are_their_families():
    assert set(cpu_math.UNARY) == op_families.UNARY
    assert set(cpu_math.BINARY) == op_families.BINARY
    assert set(cpu_reduce.REDUCTIONS) == op_families.REDUCTIONS
    for name in op_families.UNARY | op_families.ACTIVATION_GRADS:
        assert shape_inference.SHAPE_FUNCTIONS[name] is shape_inference.unchanged
    for name in op_families.BINARY:
        assert shape_inference.SHAPE_FUNCTIONS[name] is shape_inference.binary


def test_graph_only_and_builtin_ops_have_opdefs():
    for name in op_families.GRAPH_ONLY | op_families.EXECUTOR_BUILTIN:
        assert op_registry.lookup(name) is not None, name


def test_unknown_shape_rule_gives_unknown_outputs():
    # TensorFlow's UnknownShape: checked against TF for StackPopV2 and ReadVariableOp in
    # fixtures/ops/shapes.npz; here the rule itself, for _Recv.
    row = registry.describe("_Recv")
    assert row.shape == registry.UNKNOWN
    shapes = shape_inference.infer_shapes(row.op_def, {}, [])
    assert [s.ndims for s in shapes] == [None]
    info = shape_inference.InputInfo(dtypes.float32, TensorShape([2]), np.zeros(2))
    assert shape_inference.unknown({}, [info]) is None
