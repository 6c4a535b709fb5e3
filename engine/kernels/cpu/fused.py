"""The CPU kernel of _FusedElementwise: a fused chain, compiled where it can be.

The chain (engine/kernels/fused_chain.py) runs as one compiled loop when its kernel is ready
and every input is the output's shape or a single value; otherwise (still compiling, numba
missing, other broadcasts) step by step through each op's own registered kernel, which is the
reference the compiled form is tested against.
"""

import threading

import numpy as np

from engine import dtypes, kernels
from engine.kernels import compiled, register
from engine.kernels.context import KernelContext
from engine.kernels.fused_chain import FUSED_OP, Chain
from engine.proto import node_def_pb2

_CACHE_LIMIT = 4096
# A chain is compiled (0.3-1 s of a background thread, once per machine) only where that pays:
# for outputs of this many elements, or once a node has run this many times (a loop's body).
COMPILE_MIN_SIZE = 1 << 14
COMPILE_MIN_RUNS = 64
_plans = {}  # id(node_def) -> (node_def, _Plan): a node's decoded chain, made once
_lock = threading.Lock()


class _Plan:
    """A fused node's chain and the contexts its steps' own kernels run with."""

    __slots__ = ("chain", "step_contexts", "out_dtype", "runs")

    def __init__(self, ctx):
        self.runs = 0
        self.chain = Chain.of_attrs(ctx.attrs)
        self.out_dtype = np.dtype(self.chain.steps[-1][2])
        tin = [t.as_numpy_dtype for t in ctx.attrs["Tin"]]
        types, self.step_contexts = [], []
        for op, operands, dtype in self.chain.steps:
            kind, n = operands[0]
            first = np.dtype(tin[n] if kind == "i" else types[n])
            node = node_def_pb2.NodeDef(name=ctx.name, op=op, device=ctx.node_def.device)
            if op == "Cast":
                node.attr["SrcT"].type = dtypes.as_dtype(first).as_datatype_enum
                node.attr["DstT"].type = dtypes.as_dtype(dtype).as_datatype_enum
                node.attr["Truncate"].b = False
            else:
                node.attr["T"].type = dtypes.as_dtype(first).as_datatype_enum
            self.step_contexts.append(KernelContext(node, [dtypes.as_dtype(dtype)],
                                                    ctx.resources, ctx.device))
            types.append(dtype)


def plan_of(ctx):
    """The node's decoded chain (made once per NodeDef; the GPU kernel's too)."""
    entry = _plans.get(id(ctx.node_def))
    if entry is not None and entry[0] is ctx.node_def:
        return entry[1]
    plan = _Plan(ctx)
    with _lock:
        if len(_plans) > _CACHE_LIMIT:
            _plans.clear()
        _plans[id(ctx.node_def)] = (ctx.node_def, plan)
    return plan


def run_reference(plan, inputs, device_type="CPU"):
    """The chain step by step, each through its op's own kernel on `device_type`."""
    values = []
    for (op, operands, _), step_ctx in zip(plan.chain.steps, plan.step_contexts):
        args = [inputs[n] if kind == "i" else values[n] for kind, n in operands]
        values.append(kernels.lookup(op, device_type)(step_ctx, *args))
    return values[-1]


def run_compiled(plan, inputs, wait=False):
    """The chain in one compiled loop, or None where that cannot serve these inputs now
    (wait: compile it now, whatever its size)."""
    arrays = [np.asarray(x) for x in inputs]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        return None  # the reference raises TensorFlow's error
    size = int(np.prod(shape, dtype=np.int64))
    plan.runs += 1
    if not wait and size < COMPILE_MIN_SIZE and plan.runs < COMPILE_MIN_RUNS:
        return None
    fused = compiled.module("fused", wait=wait)
    if fused is None:
        return None
    scalars = []
    for a in arrays:
        if a.shape != shape and a.size != 1:
            return None  # a partial broadcast: the reference handles it
        scalars.append(a.shape != shape or size == 1)
    function = fused.kernel(plan.chain, [a.dtype.name for a in arrays], scalars, wait=wait)
    if function is None:
        return None
    flat = [np.ascontiguousarray(a).reshape(-1) for a in arrays]
    out = np.empty(size, plan.out_dtype)
    if size:
        fused.run(function, out, flat)
    return out.reshape(shape)


@register(FUSED_OP)
def fused_elementwise(ctx, *inputs):
    plan = plan_of(ctx)
    result = run_compiled(plan, inputs)
    return result if result is not None else run_reference(plan, inputs)
