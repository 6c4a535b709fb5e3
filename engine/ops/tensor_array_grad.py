"""Gradients of the TensorArray ops, ported from TensorFlow's tensor_array_grad.py.

A read's gradient is written into the gradient array (TensorArrayGradV3, one per
tf.gradients call, found by the "gradients" prefix of the incoming gradient's name); a
write's gradient reads it back. Gather and scatter, concat and split pair the same way.
"""

from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.tensor_array_ops import TensorArray

for _op_type in ("TensorArrayV3", "TensorArrayGradV3", "TensorArraySizeV3",
                 "TensorArrayCloseV3"):
    NotDifferentiable(_op_type)


def _grad_source(op_or_tensor):
    """The name scope of the tf.gradients call that made `op_or_tensor`: "gradients",
    "outer/gradients_1", ...; each call gets its own gradient arrays."""
    tokens = op_or_tensor.name.split("/")
    positions = [i for i, token in enumerate(tokens) if token.startswith("gradients")]
    if not positions:
        raise ValueError(
            f"Expected op/tensor name to start with gradients (excluding scope), got: "
            f"{op_or_tensor.name}. This means that a tf.gradients op with this op in its "
            f"dependency path has a custom name that does not start with 'gradients'. Please "
            f"make sure all calls to tf.gradients that have non-empty `name` arguments use "
            f"names that start with 'gradients'.")
    return "/".join(tokens[:positions[-1] + 1])


def _gradient_array(op, dtype_attr, flow):
    """The forward array `op` works on, seen with `flow` (its .grad() makes the gradient's)."""
    return TensorArray(dtype=op.get_attr(dtype_attr), handle=op.inputs[0], flow=flow,
                       colocate_with_first_write_call=False)


def _barrier(op, flow):
    """`flow` made to wait for the forward op's flow_out (TensorFlow's write_barrier), so the
    gradient array is made after the last forward write."""
    flow_out = array_ops.identity(op.outputs[0], "flow_out")
    with get_default_graph().control_dependencies([flow_out]):
        return array_ops.identity(flow, "write_barrier")


@RegisterGradient("TensorArrayReadV3")
def _tensor_array_read_grad(op, grad):
    flow = op.inputs[2]
    g = _gradient_array(op, "dtype", flow).grad(source=_grad_source(grad), flow=flow)
    return [None, None, g.write(op.inputs[1], grad).flow]


@RegisterGradient("TensorArrayWriteV3")
def _tensor_array_write_grad(op, flow):
    source = _grad_source(flow)
    flow = _barrier(op, flow)
    g = _gradient_array(op, "T", flow).grad(source=source, flow=flow)
    return [None, None, g.read(op.inputs[1]), flow]


@RegisterGradient("TensorArrayGatherV3")
def _tensor_array_gather_grad(op, grad):
    flow = op.inputs[2]
    g = _gradient_array(op, "dtype", flow).grad(source=_grad_source(grad), flow=flow)
    return [None, None, g.scatter(op.inputs[1], grad).flow]


@RegisterGradient("TensorArrayScatterV3")
def _tensor_array_scatter_grad(op, flow):
    source = _grad_source(flow)
    flow = _barrier(op, flow)
    g = _gradient_array(op, "T", flow).grad(source=source, flow=flow)
    return [None, None, g.gather(op.inputs[1]), flow]


@RegisterGradient("TensorArrayConcatV3")
def _tensor_array_concat_grad(op, grad, _lengths_grad):
    flow = op.inputs[1]
    g = _gradient_array(op, "dtype", flow).grad(source=_grad_source(grad), flow=flow)
    return [None, g.split(grad, lengths=op.outputs[1]).flow]


@RegisterGradient("TensorArraySplitV3")
def _tensor_array_split_grad(op, flow):
    source = _grad_source(flow)
    flow = _barrier(op, flow)
    g = _gradient_array(op, "T", flow).grad(source=source, flow=flow)
    return [None, g.concat(), None, flow]
