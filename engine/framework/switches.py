"""Process-wide switches and constants of the TF1 namespace: tf.enable_tensor_equality and
tf.disable_tensor_equality, tf.debugging's traceback filtering, tf.CXX_VERSION,
tf.errors.raise_exception_on_not_ok_status and tf.graph_util.must_run_on_cpu.

Tensor equality is TensorFlow 2's `==` on tensors (elementwise, unhashable tensors); it only
applies to eager tensors and those of a tf.function, so on the graph tensors of
tf.compat.v1's graph mode `==` stays identity and hash stays id() whichever way it is set,
as here."""

from engine.framework import dtypes, errors
from engine.proto import node_def_pb2

CXX_VERSION = 201703   # the C++ standard TensorFlow 2.21 was built with (__cplusplus)

_state = {"tensor_equality": False, "traceback_filtering": True}


def enable_tensor_equality():
    """tf.enable_tensor_equality: TensorFlow 2's `==` for eager and function tensors."""
    _state["tensor_equality"] = True


def disable_tensor_equality():
    """tf.disable_tensor_equality: `==` compares tensors by identity (TF 1.x)."""
    _state["tensor_equality"] = False


def tensor_equality_enabled():
    return _state["tensor_equality"]


def enable_traceback_filtering():
    """tf.debugging.enable_traceback_filtering: errors hide TensorFlow's own frames."""
    _state["traceback_filtering"] = True


def disable_traceback_filtering():
    """tf.debugging.disable_traceback_filtering: errors keep every frame."""
    _state["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    return _state["traceback_filtering"]


class Status:
    """What raise_exception_on_not_ok_status hands out: an error code (0: OK) and message a
    caller sets."""

    def __init__(self):
        self.code, self.message = 0, ""


class raise_exception_on_not_ok_status:  # noqa: N801  (TensorFlow's name)
    """tf.errors.raise_exception_on_not_ok_status: a context manager whose status, if left
    with a non-OK code, raises that code's OpError on exit."""

    def __enter__(self):
        self.status = Status()
        return self.status

    def __exit__(self, type_arg, value_arg, traceback_arg):
        try:
            if self.status.code != 0:
                raise errors.exception_type_from_error_code(self.status.code)(
                    None, None, self.status.message)
        finally:
            del self.status
        return False


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """tf.graph_util.must_run_on_cpu: whether a node (an Operation or a NodeDef) has to run
    on the CPU: a string or int32 Const, an int32 DynamicStitch or Cast from int32 (and, when
    asked, the variable ops)."""
    node_def = node if isinstance(node, node_def_pb2.NodeDef) else node.node_def
    if pin_variables_on_cpu and node_def.op in _VARIABLE_OPS:
        return True
    if node_def.op == "Const":
        return node_def.attr["dtype"].type in (dtypes.string.as_datatype_enum,
                                               dtypes.int32.as_datatype_enum)
    if node_def.op in ("DynamicStitch", "ParallelDynamicStitch"):
        return node_def.attr["T"].type == dtypes.int32.as_datatype_enum
    if node_def.op == "Cast":
        return node_def.attr["SrcT"].type == dtypes.int32.as_datatype_enum
    return False


# TensorFlow's graph_util_impl._VARIABLE_OPS
_VARIABLE_OPS = {"Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub",
                 "ScatterUpdate", "TruncatedNormal", "Variable", "VariableV2"}
