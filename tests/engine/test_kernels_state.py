"""Variables, placeholders and random state: kernels with session state, TensorFlow's messages.

The error texts are the ones TensorFlow 2.21 raised for the same graphs (checked by hand with
tools' TensorFlow venv; see tools/make_op_fixtures.py for the value fixtures).
"""

import numpy as np
import pytest

from engine.framework import dtypes
from engine.framework.attr_value import from_python
from engine.framework.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError
from engine.kernels import lookup
from engine.kernels.context import KernelContext
from engine.proto.node_def_pb2 import NodeDef
from engine.runtime.resources import ResourceHandle, ResourceMgr
from engine.framework.tensor_shape import TensorShape

ATTR_TYPES = {bool: "bool", int: "int", float: "float", bytes: "string"}


def node(op, name=None, resources=None, out=(), **attrs):
    node_def = NodeDef(name=name or op, op=op)
    for key, value in attrs.items():
        kind = ("type" if isinstance(value, dtypes.DType) else
                "shape" if isinstance(value, TensorShape) else ATTR_TYPES[type(value)])
        node_def.attr[key].CopyFrom(from_python(value, kind))
    ctx = KernelContext(node_def, list(out), resources if resources is not None
                        else ResourceMgr())
    return lookup(op), ctx


def f32(values):
    return np.array(values, np.float32)


def test_ref_variable_assign_and_update_in_place():
    resources = ResourceMgr()
    variable, v_ctx = node("VariableV2", "v", resources, dtype=dtypes.float32,
                           shape=TensorShape([2]))
    ref = variable(v_ctx)
    assert ref is resources.ref("v", dtypes.float32) and ref.value is None
    is_init, init_ctx = node("IsVariableInitialized", resources=resources,
                             dtype=dtypes.float32)
    assert not is_init(init_ctx, ref)
    assign, ctx = node("Assign", resources=resources)
    initial = f32([1, 2])
    assert assign(ctx, ref, initial) is ref
    assert ref.value is not initial  # Assign copies: the Const's array stays untouched
    aliased = ref.value  # an Identity of the variable aliases its buffer, as in TF 1.x
    add, ctx = node("AssignAdd", resources=resources)
    assert add(ctx, ref, f32([10, 10])) is ref
    np.testing.assert_array_equal(aliased, [11, 12])
    sub, ctx = node("AssignSub", resources=resources)
    sub(ctx, ref, f32([1, 1]))
    np.testing.assert_array_equal(ref.value, [10, 11])
    assert is_init(init_ctx, ref)
    np.testing.assert_array_equal(initial, [1, 2])


@pytest.mark.parametrize("op", ["AssignAdd", "AssignSub"])
def test_update_of_uninitialized_ref(op):
    resources = ResourceMgr()
    ref = resources.ref("v", dtypes.float32)
    kernel, ctx = node(op, resources=resources)
    with pytest.raises(FailedPreconditionError) as raised:
        kernel(ctx, ref, f32([1, 2]))
    assert raised.value.message == "Attempting to use uninitialized value v"
    assert raised.value.node_def is ctx.node_def


def test_assign_validates_shape_unless_told_not_to():
    resources = ResourceMgr()
    ref = resources.ref("v", dtypes.float32)
    ref.value = f32([0, 0])
    assign, ctx = node("Assign", resources=resources, validate_shape=True)
    with pytest.raises(InvalidArgumentError) as raised:
        assign(ctx, ref, f32([1, 2, 3]))
    assert raised.value.message == ("Assign requires shapes of both tensors to match. "
                                    "lhs shape= [2] rhs shape= [3]")
    assign, ctx = node("Assign", resources=resources, validate_shape=False)
    assign(ctx, ref, f32([1, 2, 3]))
    np.testing.assert_array_equal(ref.value, [1, 2, 3])
    add, ctx = node("AssignAdd", resources=resources)
    with pytest.raises(InvalidArgumentError) as raised:
        add(ctx, ref, f32([1, 2]))
    assert raised.value.message == "Parameters and update must be the same size"


def test_resource_variable_lifecycle():
    resources = ResourceMgr()
    handle_op, ctx = node("VarHandleOp", "hh", resources, dtype=dtypes.float32,
                          shape=TensorShape([2]), shared_name=b"h", container=b"")
    handle = handle_op(ctx)
    assert handle == ResourceHandle("localhost", "h", "", dtypes.float32, TensorShape([2]))
    read, read_ctx = node("ReadVariableOp", resources=resources, dtype=dtypes.float32)
    with pytest.raises(FailedPreconditionError) as raised:
        read(read_ctx, handle)
    assert raised.value.message == (
        "Could not find variable h. This could mean that the variable has been deleted. In "
        "TF1, it can also mean the variable is uninitialized. Debug info: "
        "container=localhost, status error message=Container localhost does not exist. "
        "(Could not find resource: localhost/h)")
    add, add_ctx = node("AssignAddVariableOp", resources=resources, dtype=dtypes.float32)
    with pytest.raises(NotFoundError) as raised:
        add(add_ctx, handle, f32([1, 2]))
    assert raised.value.message == ("Container localhost does not exist. (Could not find "
                                    "resource: localhost/h)")
    initialized, init_ctx = node("VarIsInitializedOp", resources=resources)
    assert not initialized(init_ctx, handle)
    assign, assign_ctx = node("AssignVariableOp", resources=resources, dtype=dtypes.float32)
    assert assign(assign_ctx, handle, f32([1, 2])) is None
    assert initialized(init_ctx, handle)
    snapshot = read(read_ctx, handle)
    add(add_ctx, handle, f32([1, 2]))
    np.testing.assert_array_equal(snapshot, [1, 2])  # a read is a value, not an alias
    np.testing.assert_array_equal(read(read_ctx, handle), [2, 4])
    sub, ctx = node("AssignSubVariableOp", resources=resources, dtype=dtypes.float32)
    sub(ctx, handle, f32([2, 4]))
    np.testing.assert_array_equal(read(read_ctx, handle), [0, 0])
    read_int, ctx = node("ReadVariableOp", resources=resources, dtype=dtypes.int32)
    with pytest.raises(InvalidArgumentError) as raised:
        read_int(ctx, handle)
    assert raised.value.message == ("Trying to read variable with wrong dtype. "
                                    "Expected float got int32")
    destroy, ctx = node("DestroyResourceOp", resources=resources)
    destroy(ctx, handle)
    assert not initialized(init_ctx, handle)


@pytest.mark.parametrize("shape, expected", [
    (TensorShape([None, 3]), "with dtype float and shape [?,3]"),
    (TensorShape([]), "with dtype float and shape []"),
    (TensorShape(None), "with dtype float"),
])
def test_unfed_placeholder(shape, expected):
    kernel, ctx = node("Placeholder", "x", dtype=dtypes.float32, shape=shape)
    with pytest.raises(InvalidArgumentError) as raised:
        kernel(ctx)
    assert raised.value.message == f"You must feed a value for placeholder tensor 'x' {expected}"


def test_const_and_no_op():
    value = np.arange(3, dtype=np.int32)
    node_def = NodeDef(name="c", op="Const")
    node_def.attr["value"].CopyFrom(from_python(value, "tensor"))
    node_def.attr["dtype"].CopyFrom(from_python(dtypes.int32, "type"))
    ctx = KernelContext(node_def, [dtypes.int32], ResourceMgr())
    np.testing.assert_array_equal(lookup("Const")(ctx), value)
    assert lookup("NoOp")(ctx) is None


def test_random_stream_is_per_session_and_node_and_survives_new_contexts():
    resources = ResourceMgr()
    shape = np.array([4], np.int32)
    kernel, first = node("RandomUniform", "r", resources, dtype=dtypes.float32, seed=1,
                         seed2=2, T=dtypes.int32)
    run0 = kernel(first, shape)
    _, second = node("RandomUniform", "r", resources, dtype=dtypes.float32, seed=1, seed2=2,
                     T=dtypes.int32)  # a new plan's context for the same node
    run1 = kernel(second, shape)
    assert not np.array_equal(run0, run1)
    _, fresh = node("RandomUniform", "r", ResourceMgr(), dtype=dtypes.float32, seed=1,
                    seed2=2, T=dtypes.int32)  # a new session starts the stream again
    np.testing.assert_array_equal(kernel(fresh, shape), run0)
