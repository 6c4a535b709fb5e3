"""Which memory a GPU node's tensors live in, as TensorFlow's memory types decide it.

TensorFlow keeps int32 tensors of GPU ops in host memory: its GPU kernels for int32 are the
CPU functors registered with HostMemory on every argument ("A special GPU kernel for int32
... requires all int32 inputs and outputs to be in host memory", cwise_op_add_1.cc and the
like; Const's is HostConstantOp, the control-flow ops' are HostMemory too), and memory_types.cc
infers int32 as host memory where there is no kernel def. Shape-like arguments of the other
GPU kernels are HostMemory arguments as well (a Reshape's shape, a reduction's axes), and
strings, resources and variants are always on the host. Everything else is device memory,
and where a producer's memory is not its consumer's, TensorFlow's executor copies.

Here a GPU node is bound to its kernel in one of two ways (`adapt`):
- a *host node*: every tensor it takes and makes is int32, bool or always-on-host, with at
  least one int32 and no ref (a variable's buffer is a device array): it runs the op's CPU
  kernel on host copies of its inputs, as TensorFlow's int32 GPU kernels run the CPU functor;
- a *device node*: its kernel runs on the device; a host input arriving at an argument the
  kernel takes in device memory (an int32 Cast input, a bool mask made by a host node) is
  copied to the device first. `HOST_MEMORY_INPUTS` names the arguments read in host memory,
  which are left as they are; `ANY_MEMORY` the ops whose kernels take either.
"""

import numpy as np

from engine.framework import op_families
from engine.kernels import lookup
from engine.kernels.cpu import random as cpu_random
from engine.kernels.cpu import reduce as cpu_reduce
from engine.kernels.cuda import backend
from engine.kernels.cuda.backend import is_device_array, to_device, to_host

_HOST_DTYPES = frozenset({"int32", "bool", "string", "resource", "variant"})
_ALWAYS_ON_HOST = frozenset({"string", "resource", "variant"})

# The arguments TensorFlow's GPU kernels take in host memory (HostMemory in their
# registration); a negative position counts from the end (ConcatV2's axis).
HOST_MEMORY_INPUTS = {
    **cpu_reduce.HOST_INPUTS, **cpu_random.HOST_INPUTS,
    "Reshape": (1,), "Transpose": (1,), "ConcatV2": (-1,), "Concat": (0,), "Split": (0,),
    "SplitV": (1, 2), "Slice": (1, 2), "StridedSlice": (1, 2, 3),
    "StridedSliceGrad": (0, 1, 2, 3), "ExpandDims": (1,), "Tile": (1,), "Pad": (1,),
    "PadV2": (1,), "MirrorPad": (1,), "Fill": (0,), "Range": (0, 1, 2), "GatherV2": (2,),
    "OneHot": (1,), "ReverseV2": (1,), "BroadcastTo": (1,), "UnsortedSegmentSum": (2,),
    # The TensorList ops' shapes, indices and sizes (list_kernels.cc, list_kernels.cu.cc).
    "EmptyTensorList": (0, 1), "TensorListReserve": (0, 1), "TensorListSetItem": (1,),
    "TensorListGetItem": (1, 2), "TensorListStack": (1,), "TensorListGather": (1, 2),
    "TensorListFromTensor": (1,), "TensorListPopBack": (1,), "TensorListScatter": (1, 2),
    "TensorListScatterV2": (1, 2, 3), "TensorListScatterIntoExistingList": (2,),
    "TensorListConcat": (), "TensorListConcatV2": (1, 2), "TensorListSplit": (1, 2),
    "TensorListResize": (1,),
}

# Ops whose GPU kernels take a value in either memory as it comes: they only move it or read
# its shape (control flow, identities, transfers, Shape and its kind), or sort it out
# themselves (DynamicStitch's host indices; a variable's assignment copies to its buffer).
ANY_MEMORY = (op_families.CONTROL_FLOW | op_families.IDENTITY | op_families.SEND
              | op_families.RECV | op_families.METADATA
              | frozenset({"Shape", "ShapeN", "Size", "Rank", "InvertPermutation",
                           "BroadcastArgs", "BroadcastGradientArgs", "ConcatOffset",
                           "DynamicStitch", "ParallelDynamicStitch", "ListDiff", "IdentityN",
                           "NoOp", "Assign", "AssignAdd", "AssignSub", "AssignVariableOp",
                           "AssignAddVariableOp", "AssignSubVariableOp"}))


def _name(dtype):
    return getattr(getattr(dtype, "base_dtype", dtype), "name", "") if dtype is not None else ""


def is_host_node(op_type, input_dtypes, output_dtypes):
    """Whether TensorFlow's GPU kernel of this node keeps all its tensors in host memory."""
    dtypes = list(input_dtypes) + list(output_dtypes)
    if not dtypes or any(d is None or getattr(d, "is_ref_dtype", False) for d in dtypes):
        return False
    names = [_name(d) for d in dtypes]
    return "int32" in names and all(n in _HOST_DTYPES for n in names)


def adapt(node, kernel, input_dtypes):
    """`kernel` (the op's GPU kernel) bound to the memory its node's tensors live in."""
    if is_host_node(node.op_type, input_dtypes, node.output_dtypes):
        cpu_kernel = lookup(node.op_type, "CPU")
        if cpu_kernel is not None:
            return _on_host(cpu_kernel)
    if node.op_type in ANY_MEMORY:
        return kernel
    count = len(input_dtypes)
    host = {p % count for p in HOST_MEMORY_INPUTS.get(node.op_type, ()) if count}
    device_positions = [i for i, d in enumerate(input_dtypes)
                        if i not in host and _name(d) not in _ALWAYS_ON_HOST
                        and _may_arrive_on_host(d)]
    return _on_device(kernel, device_positions) if device_positions else kernel


def _may_arrive_on_host(dtype):
    """Only host nodes and shape ops make host values on a GPU: ints and bools."""
    name = _name(dtype)
    return not name or name == "bool" or name.startswith(("int", "uint"))


def _on_host(cpu_kernel):
    def run(ctx, *inputs):
        return cpu_kernel(ctx, *[to_host(v) for v in inputs])
    return run


def _on_device(kernel, positions):
    def run(ctx, *inputs):
        if any(_is_host(inputs[i]) for i in positions):
            xp = backend.current().xp
            inputs = list(inputs)
            for i in positions:
                if _is_host(inputs[i]):
                    inputs[i] = to_device(xp, inputs[i])
        return kernel(ctx, *inputs)
    return run


def _is_host(value):
    return isinstance(value, (np.ndarray, np.generic)) and not is_device_array(value)
