"""The CPU kernel of _FusedElementwise: a fused chain, compiled where it can be.

The chain (engine/kernels/fused_chain.py) runs as one compiled loop when its kernel is ready
and every input is the output's shape or a single value; otherwise (still compiling, numba
missing, other broadcasts) step by step through each op's own registered kernel, which is the
reference the compiled form is tested against.
"""

import threading

import numpy as np

from engine import kernels
from engine.framework import dtypes
from engine.kernels import compiled, register
from engine.kernels.compiled.warm_cache import note_cold_fallback
from engine.kernels.context import KernelContext
from engine.kernels.fused_chain import FILL, FUSED_OP, RANDOM_OPS, REDUCTIONS, SOURCES, Chain
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

    __slots__ = ("chain", "step_contexts", "out_dtype", "runs", "calls")

    def __init__(self, ctx):
        self.runs = 0
        self.calls = {}  # input signature -> _Call, or _REFERENCE where the loop cannot serve
        self.chain = Chain.of_attrs(ctx.attrs)
        self.out_dtype = np.dtype(self.chain.steps[-1][2])
        tin = [t.as_numpy_dtype for t in ctx.attrs["Tin"]]
        randoms = iter(_random_nodes(ctx))
        types, self.step_contexts = [], []
        for op, operands, dtype in self.chain.steps:
            kind, n = operands[0]
            first = np.dtype(tin[n] if kind == "i" else types[n])
            node = node_def_pb2.NodeDef(name=ctx.name, op=op, device=ctx.node_def.device)
            if op in RANDOM_OPS:  # the node it stands for: its name keys its Philox stream
                node.name, seed, seed2 = next(randoms)
                node.attr["dtype"].type = dtypes.as_dtype(dtype).as_datatype_enum
                node.attr["T"].type = dtypes.as_dtype(first).as_datatype_enum
                node.attr["seed"].i, node.attr["seed2"].i = seed, seed2
            elif op == FILL:
                node.attr["T"].type = dtypes.as_dtype(dtype).as_datatype_enum
                node.attr["index_type"].type = dtypes.as_dtype(first).as_datatype_enum
            elif op in REDUCTIONS:
                node.attr["T"].type = dtypes.as_dtype(first).as_datatype_enum
                node.attr["Tidx"].type = dtypes.as_dtype(tin[operands[1][1]]).as_datatype_enum
                node.attr["keep_dims"].b = False
            elif op == "Cast":
                node.attr["SrcT"].type = dtypes.as_dtype(first).as_datatype_enum
                node.attr["DstT"].type = dtypes.as_dtype(dtype).as_datatype_enum
                node.attr["Truncate"].b = False
            else:
                node.attr["T"].type = dtypes.as_dtype(first).as_datatype_enum
            self.step_contexts.append(KernelContext(node, [dtypes.as_dtype(dtype)],
                                                    ctx.resources, ctx.device))
            types.append(dtype)

    def contexts(self, ctx=None):
        """The steps' contexts for a run of the fused node in `ctx`: a random step's made in
        ctx's session, so its stream is the session's (a plan is shared by sessions)."""
        if ctx is None or not self.chain.random_steps:
            return self.step_contexts
        result = list(self.step_contexts)
        for k in self.chain.random_steps:
            result[k] = ctx.for_node(result[k].node_def, result[k].output_dtypes)
        return result


def _random_nodes(ctx):
    """(name, seed, seed2) of each random step's node, in step order."""
    names = [n.decode() if isinstance(n, bytes) else n for n in ctx.attrs.get("fused_random", ())]
    seeds = list(ctx.attrs.get("fused_seeds", ()))
    if len(seeds) != 2 * len(names):
        raise ValueError("fused_seeds must hold a seed and a seed2 for each fused_random node")
    return [(name, seeds[2 * k], seeds[2 * k + 1]) for k, name in enumerate(names)]


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


def run_reference(plan, inputs, device_type="CPU", ctx=None):
    """The chain step by step, each through its op's own kernel on `device_type` (in the
    session of `ctx`, the fused node's context, where given)."""
    last = len(plan.chain.steps) - 1
    return run_steps(plan, inputs, range(last + 1), device_type, ctx)[last]


def run_steps(plan, inputs, steps, device_type="CPU", ctx=None):
    """{step: its value} of the chain's steps `steps` (in order; each reads inputs and
    earlier ones of them), each through its op's own kernel."""
    contexts, values = plan.contexts(ctx), {}
    for k in steps:
        op, operands, _ = plan.chain.steps[k]
        args = [inputs[n] if kind == "i" else values[n] for kind, n in operands]
        values[k] = kernels.lookup(op, device_type)(contexts[k], *args)
    return values


class _Call:
    """What run_compiled works out once per input signature: the compiled function, the
    output's shape and size, the elementwise inputs' positions, the compiled module; for a
    kernel over rows (inputs that broadcast along some dimensions), `rows`: (strides, rows2,
    inner) and `lifted`: the steps computed first, by their own kernels (see _prepare_rows)."""

    __slots__ = ("function", "shape", "size", "values", "module", "rows", "lifted",
                 "variant", "in_place")

    def __init__(self, function, shape, size, values, module, rows=None, lifted=(),
                 variant=None):
        self.function, self.shape, self.size = function, shape, size
        self.values, self.module = values, module
        self.rows, self.lifted = rows, lifted
        self.variant = variant  # variant(k, wait): the kernel writing over input k (None: out)
        self.in_place = {}  # input -> that kernel, once compiled (None: it cannot be)

    def writing_over(self, k, wait):
        """The kernel for an output written over input k (None: k is no input it may
        write over), else the plain one until that kernel is ready (it is asked for)."""
        if k is None:
            return self.function
        function = self.in_place.get(k)
        if function is None and k not in self.in_place:
            try:
                function = self.variant(k, wait)
            except ValueError:  # that input cannot hold the output
                self.in_place[k] = None
            else:
                if function is not None:
                    self.in_place[k] = function
        return function or self.function


_REFERENCE = object()  # a signature the compiled loop never serves (the reference does)
_CALLS_PER_PLAN = 16   # signatures remembered per node (a node fed many shapes keeps going)


def _signature(chain, arrays):
    """The inputs' shapes and dtypes, and the values of the side inputs (shapes, axes): all a
    prepared call depends on."""
    side = chain.side_inputs
    return tuple((a.shape, a.dtype, a.tobytes() if k in side else None)
                 for k, a in enumerate(arrays))


def run_compiled(plan, inputs, wait=False, ctx=None, donated=()):
    """The chain in one compiled loop, or None where that cannot serve these inputs now
    (wait: compile it now, whatever its size; ctx: the fused node's context, as for
    run_reference; donated: positions of inputs the result may be written over, as a
    kernel's `forwarding` may: one of the output's shape and dtype is). The checks run once
    per input signature: a node run again with inputs of the same shapes goes straight to
    its loop (the small chains of a training step pay microseconds, not the tens a fresh
    check costs)."""
    arrays = [np.asarray(x) for x in inputs]
    call = _call_for(plan, arrays, wait)
    if call is None:
        return None
    chain = plan.chain
    if call.rows is not None:
        return _run_rows(plan, call, arrays, ctx, *_output(plan, call, arrays, donated), wait)
    flat = [np.ascontiguousarray(arrays[k]).reshape(-1) for k in call.values]
    # each random step's stream moves on as its own kernel's would, drawn or not
    streams = []
    if chain.random_steps:
        contexts = plan.contexts(ctx)
        streams = [contexts[k].rng().reserve_random_outputs(call.size)
                   for k in chain.random_steps]
    if chain.reduces:
        return np.asarray(call.module.reduce(call.function, call.size, plan.out_dtype, flat,
                                             streams))
    out, donor = _output(plan, call, arrays, donated)
    if call.size:
        call.module.run(call.writing_over(donor, wait), out.reshape(-1), flat, streams)
    return out


def _call_for(plan, arrays, wait):
    """The prepared _Call for these arrays (made once per input signature), or None where the
    compiled loop cannot serve them now."""
    signature = _signature(plan.chain, arrays)
    call = plan.calls.get(signature)
    if call is None:
        call = _prepare(plan, arrays, wait)
        if call is None:
            return None  # not now (compiling, or not yet worth it): asked again next run
        if len(plan.calls) < _CALLS_PER_PLAN:
            plan.calls[signature] = call
    return None if call is _REFERENCE else call


class FlatRun:
    """A chain's compiled flat loop bound to its arrays: run(start, stop) over elements
    start..stop of the output (the flat order), on the calling thread; whole() over all of
    them, over the intra-op threads."""

    __slots__ = ("run", "whole")

    def __init__(self, function, module, target, flat):
        self.run = lambda start, stop: function(target, *flat, start, stop)
        self.whole = lambda: module.run(function, target, flat)


def flat_range(plan, inputs, donated, wait=False):
    """A FlatRun of the chain's compiled loop written over input `donated` (an array owning
    its memory, C-contiguous, of the output's shape and dtype), where the loop is one flat
    loop (no input broadcast along part of the output, no random step, no sum); else None.
    The values do not depend on how the elements are cut into ranges: each element's path
    (Eigen's packet or scalar lane) is decided by its place in the whole output."""
    arrays = [np.asarray(x) for x in inputs]
    chain = plan.chain
    if chain.random_steps or chain.reduces:
        return None
    call = _call_for(plan, arrays, wait)
    out = arrays[donated]
    if (call is None or call.rows is not None or out.shape != call.shape
            or out.dtype != plan.out_dtype or not out.flags.c_contiguous
            or not out.flags.owndata):
        return None
    flat = [np.ascontiguousarray(arrays[k]).reshape(-1) for k in call.values]
    return FlatRun(call.writing_over(donated, wait), call.module, out.reshape(-1), flat)


def _output(plan, call, arrays, donated):
    """The array the loop writes: a donated input where one can hold the output (its shape,
    its dtype, C-contiguous: element j of the loop reads every input's element j before it
    writes out[j], so writing over an input of the output's shape is safe), else a new one.
    Either owns its memory, so the next op may be given it in turn (executor forwarding:
    a reshaped view would not be)."""
    for k in donated:
        a = arrays[k]
        if a.shape == call.shape and a.dtype == plan.out_dtype and a.flags.c_contiguous:
            return a, k
    return np.empty(call.shape, plan.out_dtype), None


def _run_rows(plan, call, arrays, ctx, out, donor, wait):
    """The chain's kernel over rows: its lifted steps first, then one loop."""
    values = list(arrays)
    if call.lifted:
        lifted = run_steps(plan, arrays, call.lifted, ctx=ctx)
        values += [lifted[k] for k in call.lifted]
    flat = [np.ascontiguousarray(v).reshape(-1) for v in values]
    strides, rows2, inner = call.rows
    call.module.run_rows(call.writing_over(donor, wait), out.reshape(-1), flat, strides,
                         rows2, inner)
    return out


def _prepare(plan, arrays, wait):
    """The _Call for these inputs; _REFERENCE where the loop never serves them (the op's own
    kernels raise TensorFlow's error, or broadcast as the loop does not); None where it
    cannot yet (compiling, numba loading, or a small chain not yet run often enough)."""
    chain = plan.chain
    source_dims = [_source_dims(arrays[operands[0][1]])
                   for op, operands, _ in chain.steps if op in SOURCES]
    if any(dims is None for dims in source_dims):
        return _REFERENCE  # the op's own kernel says what is wrong with its shape
    values = [a for k, a in enumerate(arrays) if k not in chain.side_inputs]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in values), *source_dims)
    except ValueError:
        return _REFERENCE  # the reference raises TensorFlow's error
    if any(dims != shape for dims in source_dims):
        return _REFERENCE  # a source's values broadcast further: the reference makes them so
    if any(arrays[operands[1][1]].size != 1 for op, operands, _ in chain.steps if op == FILL):
        return _REFERENCE  # not a scalar: the Fill kernel's error
    if chain.reduces and not _reduces_everything(arrays[chain.axes_input], len(shape)):
        return _REFERENCE  # a partial reduction (or bad axes): the Sum kernel's own work
    size = int(np.prod(shape, dtype=np.int64))
    plan.runs += 1
    if not wait and size < COMPILE_MIN_SIZE and plan.runs < COMPILE_MIN_RUNS:
        return None
    fused = compiled.module("fused", wait=wait)
    if fused is None:
        if compiled.enabled():
            note_cold_fallback(size)
        return None
    if not chain.side_inputs and size > 1 and any(a.shape != shape and a.size != 1
                                                   for a in arrays):
        return _prepare_rows(plan, arrays, shape, size, fused, wait)
    scalars = []
    for k, a in enumerate(arrays):
        if k in chain.side_inputs:
            scalars.append(False)
        elif a.shape != shape and a.size != 1:
            return _REFERENCE  # a partial broadcast of a chain with sources or a sum
        else:
            scalars.append(a.shape != shape or size == 1)
    in_dtypes = [a.dtype.name for a in arrays]

    def variant(k, wait):
        return fused.kernel(chain, in_dtypes, scalars, wait=wait, in_place=k)

    function = _compiled_kernel(variant, wait, size)
    if function is None or function is _REFERENCE:
        return function
    return _Call(function, shape, size,
                 [k for k in range(len(arrays)) if k not in chain.side_inputs], fused,
                 variant=variant)


def _compiled_kernel(variant, wait, size):
    """variant(None, wait): the chain's kernel; _REFERENCE where it has no compiled form (two
    Erfc of many values, an Erfc in a kernel over rows), None (said once, where the cache is
    cold) while it compiles."""
    try:
        function = variant(None, wait)
    except ValueError:
        return _REFERENCE
    if function is None:
        note_cold_fallback(size)
    return function


def _prepare_rows(plan, arrays, shape, size, fused, wait):
    """The _Call of a chain some of whose inputs broadcast along part of the output's
    dimensions (a LayerNorm's [n, 1] means and [d] scale, an attention mask [b, 1, 1, t]):
    a kernel over rows (compiled/fused_numba.row_source).

    A step whose value is neither the output's shape nor a single value (a LayerNorm's
    rsqrt(variance + epsilon), [n, 1]) is lifted out of the loop: it is computed first by its
    op's own kernel, as the unfused graph computes it (so an Eigen function's packet and
    scalar paths fall on its own tensor's elements), and read by the loop as an input. The
    output's dimensions are collapsed into at most three groups (rows1, rows2, inner) along
    which every input either varies or is broadcast; more groups go to the reference."""
    chain = plan.chain
    shapes = []
    for _, operands, _ in chain.steps:
        shapes.append(np.broadcast_shapes(*(arrays[n].shape if kind == "i" else shapes[n]
                                            for kind, n in operands)))
    lifted = [k for k, step_shape in enumerate(shapes)
              if step_shape != shape and int(np.prod(step_shape, dtype=np.int64)) != 1]
    count = len(arrays)
    kept = [k for k in range(len(chain.steps)) if k not in lifted]
    position = {k: n for n, k in enumerate(kept)}
    slot = {k: count + n for n, k in enumerate(lifted)}
    ops, args, types = [], [], []
    for k in kept:
        op, operands, dtype = chain.steps[k]
        ops.append(op)
        types.append(dtype)
        args.append(",".join(f"i{n}" if kind == "i" else
                             (f"i{slot[n]}" if n in slot else f"t{position[n]}")
                             for kind, n in operands))
    rows_chain = Chain(ops, args, types)
    in_shapes = [a.shape for a in arrays] + [shapes[k] for k in lifted]
    in_dtypes = [a.dtype.name for a in arrays] + [chain.steps[k][2] for k in lifted]
    geometry = _row_geometry(shape, in_shapes)
    if geometry is None:
        return _REFERENCE
    layouts, strides, rows2, inner = geometry

    def variant(k, wait):
        return fused.row_kernel(rows_chain, in_dtypes, layouts, wait=wait, in_place=k)

    function = _compiled_kernel(variant, wait, size)
    if function is None or function is _REFERENCE:
        return function
    return _Call(function, shape, size, list(range(count)), fused,
                 rows=(strides, rows2, inner), lifted=tuple(lifted), variant=variant)


def _row_geometry(shape, in_shapes):
    """(layouts, strides, rows2, inner) of inputs of `in_shapes` broadcast to `shape`, or None
    where the output's dimensions do not collapse into three groups: adjacent dimensions
    along which every input does the same (varies, or is broadcast) are one group."""
    rank = len(shape)
    aligned = [(1,) * (rank - len(s)) + tuple(s) for s in in_shapes]
    groups = []  # [size, broadcast flags (one per input), last dimension]
    for d in range(rank):
        if shape[d] == 1:
            continue
        flags = tuple(a[d] == 1 for a in aligned)
        if groups and groups[-1][1] == flags:
            groups[-1][0] *= shape[d]
            groups[-1][2] = d
        else:
            groups.append([shape[d], flags, d])
    if len(groups) > 3 or not groups:
        return None
    while len(groups) < 3:
        groups.insert(0, [1, (True,) * len(aligned), -1])
    layouts, strides = [], np.zeros((len(aligned), 2), np.int64)
    for k, dims in enumerate(aligned):
        if int(np.prod(dims, dtype=np.int64)) == 1:
            layouts.append("s")
            continue
        c_strides = np.cumprod((1,) + dims[:0:-1])[::-1]  # each dimension's element stride
        layouts.append("u" if groups[2][1][k] else "v")
        for g in range(2):
            _, flags, last = groups[g]
            strides[k, g] = 0 if flags[k] or last < 0 else int(c_strides[last])
    return tuple(layouts), strides, groups[1][0], groups[2][0]


def _reduces_everything(axes, rank):
    """Whether a Sum's axes name every dimension of a rank-`rank` value, each once."""
    if axes.ndim > 1 or axes.dtype.kind not in "iu":
        return False
    named = [int(a) for a in axes.reshape(-1)]
    if any(not -rank <= a < rank for a in named):
        return False
    return len(named) == rank and len({a % rank for a in named}) == rank


def _source_dims(shape):
    """A source's (RandomUniform's, Fill's) shape input as a tuple, or None where its kernel
    would refuse it."""
    if shape.ndim != 1 or shape.dtype.kind not in "iu" or (shape < 0).any():
        return None
    return tuple(int(d) for d in shape)


@register(FUSED_OP)
def fused_elementwise(ctx, *inputs):
    plan = plan_of(ctx)
    result = run_compiled(plan, inputs, ctx=ctx)
    return result if result is not None else run_reference(plan, inputs, ctx=ctx)
