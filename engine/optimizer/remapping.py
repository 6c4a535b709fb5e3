"""Remapping: TensorFlow's contraction fusions, and chains of elementwise ops fused into one
_FusedElementwise node each.

First a MatMul or Conv2D, its BiasAdd and activation become one _FusedMatMul or _FusedConv2D,
as Grappler's remapper does on a CPU (engine/optimizer/contraction_fusion.py).

As Grappler's remapper replaces patterns by TensorFlow's internal fused ops (_FusedMatMul,
_FusedConv2D), this pass replaces each tree of elementwise nodes (engine/kernels/fused_chain
.FUSABLE) by one node that runs the whole chain in one loop (engine/kernels/cpu/fused.py):
no temporaries, one pass over memory, the intra-op threads. A node joins the chain of its
consumer when that consumer is its only reader (data or control), it is not kept (fetched,
fed, named in keep), and both are on the same device (the fused op has a CPU kernel and,
where there is a GPU, a CuPy one: engine/kernels/cuda/fused.py). The fused node takes the
chain's last node's name, so its readers and a fetch of it are unchanged; the chain's control
inputs move onto it. Chains are cut at MAX_STEPS ops (what is left becomes a chain of its own).
On the CPU a chain may also end in an integer Sum (fused_chain.REDUCTIONS: the compiled loop
adds the values up as it makes them) and start from a RandomUniform (fused_chain.RANDOM_OPS:
the loop draws its values in registers from the node's own stream, so nothing changes but the
memory traffic), a Fill, or a large constant of one value (a folded tf.ones([n]), made a Fill
of it: the loop reads the scalar).

What it fuses depends on rewrite_options.remapping:
- ON (or AGGRESSIVE), or the pass named (`graph-inspector optimize --passes remapping`):
  every chain of two ops or more.
- DEFAULT: only large chains on the CPU, of at least DEFAULT_MIN_ELEMENTS elements known from
  the graph alone (static_size.py: constants, placeholders' and variables' shapes, a random
  op's constant shape, `_output_shapes`). Measured (BENCHMARKS.md, bench.fusion_default), a
  compiled chain runs level with NumPy's op-by-op kernels at 4k elements, 1.5x faster at 65k
  and 2.2x at 1M. A small graph
  therefore keeps TensorFlow's own partition graph node for node (TensorFlow's remapper fuses
  no generic elementwise chains), and a large one runs fused, its partition graph and step
  stats showing the _FusedElementwise nodes (their fused_ops say what each stands for). GPU
  chains are fused only when asked.
- OFF: nothing.
"""

import numpy as np

from engine.framework import dtypes, tensor_util
from engine.kernels.fused_chain import (COMPARISONS, FILL, FUSABLE, FUSED_OP, MAX_STEPS,
                                        NUMBERS, RANDOM_OPS, REDUCTIONS)
from engine.optimizer import contraction_fusion, rules
from engine.optimizer.report import Report
from engine.optimizer.static_size import StaticSizes
from engine.proto import rewriter_config_pb2

# Attrs a fused node may drop: T is in fused_types; the others only mark the graph's history
# (colocation, TF's note that a control dependency was added by hand; the edges move over).
_CARRIED_ATTRS = frozenset({"T", "_class", "_has_manual_control_dependencies"})
_RANDOM_ATTRS = frozenset({"dtype", "T", "seed", "seed2", "_class"})
_REDUCTION_ATTRS = frozenset({"T", "Tidx", "keep_dims", "_class"})
# A constant of this many elements or more, all one value, joins a chain as a Fill of that
# value (read as a scalar, where the Const's array would be read element by element).
SPLAT_MIN_ELEMENTS = 1 << 12
_ASKED = (rewriter_config_pb2.RewriterConfig.ON, rewriter_config_pb2.RewriterConfig.AGGRESSIVE)
# Under remapping DEFAULT, a chain is fused when it has at least this many elements (256 KiB
# of float32): where fusing clearly pays (see the module's doc), and far above the small graphs
# people compare with TensorFlow's node for node.
DEFAULT_MIN_ELEMENTS = 1 << 16


def asked(context):
    """Whether this run asked for every chain to be fused (see the module's doc)."""
    options = getattr(context, "rewrite_options", None)
    return ("remapping" in getattr(context, "passes", ())
            or (options is not None and options.remapping in _ASKED))


def _by_default(context):
    """Whether remapping is left on DEFAULT (large CPU chains fused)."""
    options = getattr(context, "rewrite_options", None)
    return options is None or options.remapping == rewriter_config_pb2.RewriterConfig.DEFAULT


def _dtype_name(node, attr):
    """The NumPy name of a type attr ("" when absent); never adds the attr (map access would).
    A dtype NumPy lacks (bfloat16, the quantized ones) keeps TensorFlow's name, which no
    fusable set holds: such a node is never fused (its own kernel says what it cannot do)."""
    value = node.attr.get(attr)
    if not (value and value.type):
        return ""
    dtype = dtypes.as_dtype(value.type)
    return dtype.as_numpy_dtype.__name__ if dtype.is_numpy_compatible else dtype.name


def signature(node):
    """(input dtype, output dtype) of a node that may be fused, else None."""
    if node.op in RANDOM_OPS:
        return _random_signature(node)
    if node.op in REDUCTIONS:
        return _reduction_signature(node)
    if node.op == FILL:
        return _fill_signature(node)
    allowed = FUSABLE.get(node.op)
    if allowed is None:
        return None
    if node.op == "Cast":
        src, dst = _dtype_name(node, "SrcT"), _dtype_name(node, "DstT")
        truncate = node.attr.get("Truncate")
        if src in allowed and dst in NUMBERS | {"bool"} and not (truncate and truncate.b):
            return src, dst
        return None
    if set(node.attr) - _CARRIED_ATTRS:
        return None  # an attr the chain would not carry
    dtype = _dtype_name(node, "T") or ("bool" if node.op.startswith("Logical") else "")
    if dtype not in allowed:
        return None
    return dtype, ("bool" if node.op in COMPARISONS else dtype)


def _random_signature(node):
    """(shape dtype, value dtype) of a random op that may start a chain: on the CPU only (the
    GPU's fused kernel has no Philox of its own), of a dtype the compiled loop draws."""
    dtype, shape_dtype = _dtype_name(node, "dtype"), _dtype_name(node, "T")
    if ("GPU" in node.device.upper() or set(node.attr) - _RANDOM_ATTRS
            or dtype not in RANDOM_OPS[node.op] or shape_dtype not in ("int32", "int64")):
        return None
    return shape_dtype, dtype


def _reduction_signature(node):
    """(dtype, dtype) of a reduction that may end a chain: on the CPU, keep_dims false."""
    dtype = _dtype_name(node, "T")
    keep = node.attr.get("keep_dims")
    if ("GPU" in node.device.upper() or set(node.attr) - _REDUCTION_ATTRS
            or dtype not in REDUCTIONS[node.op] or (keep is not None and keep.b)):
        return None
    return dtype, dtype


def _fill_signature(node):
    """(dims dtype, value dtype) of a Fill that may join a chain (on the CPU)."""
    dtype, index = _dtype_name(node, "T"), _dtype_name(node, "index_type") or "int32"
    if ("GPU" in node.device.upper() or set(node.attr) - {"T", "index_type", "_class"}
            or dtype not in NUMBERS | {"bool"} or index not in ("int32", "int64")):
        return None
    return index, dtype


def _splat_signature(node):
    """("", dtype) of a large CPU constant whose elements are all one value, else None."""
    dtype = _dtype_name(node, "dtype")
    tensor = node.attr["value"].tensor if "value" in node.attr else None
    if tensor is None or "GPU" in node.device.upper() or dtype not in NUMBERS | {"bool"}:
        return None
    if ((tensor_util.shape_elements(tensor.tensor_shape) or 0) < SPLAT_MIN_ELEMENTS
            or max(_dims(tensor)) >= 1 << 31):
        return None  # (the Fill's dims are int32)
    if tensor_util.splat_value(tensor) is None:  # (NaN never equals: it stays a Const)
        return None
    return "", dtype


def _dims(tensor):
    return [d.size for d in tensor.tensor_shape.dim]


def _split(text):
    if text.startswith("^"):
        return text[1:], -1
    name, sep, index = text.rpartition(":")
    return (name, int(index)) if sep and index.isdigit() else (text, 0)


def optimize(graph_def, context):
    report = Report()
    every_chain = asked(context)
    if not (every_chain or _by_default(context)):
        return graph_def, report
    # TensorFlow's own fusions first, so that a BiasAdd and its Relu join their MatMul or
    # Conv2D rather than a chain (engine/optimizer/contraction_fusion.py).
    graph_def = contraction_fusion.fuse(graph_def, context, report)
    nodes = {node.name: node for node in graph_def.node}
    sizes = None if every_chain else StaticSizes(nodes)
    readers = {name: set() for name in nodes}
    for node in graph_def.node:
        for text in node.input:
            producer = _split(text)[0]
            if producer in readers:
                readers[producer].add(node.name)
    signatures = {name: signature(node) for name, node in nodes.items()}
    for name, node in nodes.items():  # constants last: only those a fusable op reads
        if (node.op == "Const" and len(readers[name]) == 1
                and signatures.get(next(iter(readers[name]))) is not None):
            signatures[name] = _splat_signature(node)

    def joins(producer, consumer):
        """Whether `producer` can be folded into the chain ending at `consumer`."""
        node = nodes.get(producer)
        return (node is not None and signatures[producer] is not None
                and node.op not in REDUCTIONS  # a sum is not an elementwise operand
                and not context.is_preserved(producer) and readers[producer] == {consumer}
                and node.device == nodes[consumer].device
                and not any(_split(t)[0] == producer and t.startswith("^")
                            for t in nodes[consumer].input))

    roots = [name for name in nodes if signatures[name] is not None
             and not (len(readers[name]) == 1 and joins(name, next(iter(readers[name])))
                      and signatures[next(iter(readers[name]))] is not None)]
    absorbed = set()
    replacements, added = {}, []
    small = 0  # chains left as they are under DEFAULT
    while roots:
        root = roots.pop()
        members = _grow(root, nodes, signatures, joins, roots)
        if len(members) < 2:
            continue
        if sizes is not None and not _large_cpu_chain(members, nodes, sizes):
            small += 1
            continue
        replacements[root], extra = fused_node(root, members, nodes, signatures)
        added.extend(extra)
        absorbed.update(members - {root})
        steps = [op.decode() for op in replacements[root].attr["fused_ops"].list.s]
        report.note("fused", f"{root}: {len(members)} ops ({', '.join(steps[:8])}"
                             f"{', ...' if len(steps) > 8 else ''})", count=len(members))
    if small:
        report.changes.append(f"left {small} chain{'s' if small != 1 else ''} unfused: fewer "
                              f"than {DEFAULT_MIN_ELEMENTS:,} elements known, or on a GPU "
                              "(remapping ON fuses every chain)")
    if not replacements:
        return graph_def, report
    kept = []
    for node in graph_def.node:
        if node.name in absorbed:
            continue
        kept.append(replacements.get(node.name, node))
    kept.extend(added)
    result = type(graph_def)()
    result.CopyFrom(graph_def)
    del result.node[:]
    result.node.extend(kept)
    return result, report


def _large_cpu_chain(members, nodes, sizes):
    """Whether a chain is one DEFAULT fuses: on the CPU, with at least DEFAULT_MIN_ELEMENTS
    elements known (the largest member's; a reduction's is its summed input's)."""
    if any("GPU" in nodes[name].device.upper() for name in members):
        return False
    largest = 0
    for name in members:
        node = nodes[name]
        target = _split(node.input[0])[0] if node.op in REDUCTIONS and node.input else name
        largest = max(largest, sizes.elements(target) or 0)
    return largest >= DEFAULT_MIN_ELEMENTS


def _grow(root, nodes, signatures, joins, roots):
    """The chain ending at `root`: root and every producer that joins it, up to MAX_STEPS
    (producers past the cut become roots of their own chains)."""
    members, frontier = {root}, [root]
    while frontier:
        consumer = frontier.pop(0)
        for position, text in enumerate(nodes[consumer].input):
            producer, index = _split(text)
            if (index < 0 or producer in members or not joins(producer, consumer)
                    or not _elementwise_operand(nodes[consumer].op, position)):
                continue
            if len(members) >= MAX_STEPS:
                roots.append(producer)
                continue
            members.add(producer)
            frontier.append(producer)
    return members


def _elementwise_operand(op, position):
    """Whether input `position` of an `op` node is a value of the chain (a random op's shape
    and a reduction's axes are not: they stay inputs of the fused node)."""
    if op in RANDOM_OPS:
        return False
    if op == FILL:
        return position == 1
    return position == 0 if op in REDUCTIONS else True


def fused_node(root, members, nodes, signatures):
    """The _FusedElementwise node standing for `members`, named as `root`."""
    order, seen = [], set()

    def visit(name):  # producers first: the steps' order
        seen.add(name)
        for text in nodes[name].input:
            producer, index = _split(text)
            if index >= 0 and producer in members and producer not in seen:
                visit(producer)
        order.append(name)

    visit(root)
    step_of = {name: k for k, name in enumerate(order)}

    def dtype_of(node, position):
        """The dtype of a member's input at `position`: a reduction's axes are Tidx, any other
        input is what the member reads (its signature's input dtype)."""
        if node.op in REDUCTIONS and position == 1:
            return _dtype_name(node, "Tidx") or "int32"
        if node.op == FILL and position == 1:
            return signatures[node.name][1]  # the value; the dims are the signature's input
        return signatures[node.name][0]

    inputs, input_of, controls = [], {}, []
    ops, args, types = [], [], []
    extra = []  # the Const nodes of splat members' dims and values

    def slot_of(slot):
        if slot not in input_of:
            input_of[slot] = len(inputs)
            inputs.append(slot)
        return f"i{input_of[slot]}"

    for name in order:
        node = nodes[name]
        if node.op == "Const":  # a splat: Fill(dims, value)
            controls += [t for t in node.input if t.startswith("^") and t not in controls]
            dtype = signatures[name][1]
            dims = rules.const_node(_free_name(f"{name}/fill_dims", nodes), np.array(
                _dims(node.attr["value"].tensor), np.int32), dtypes.int32, node.device)
            scalar = rules.const_node(_free_name(f"{name}/fill_value", nodes),
                                      tensor_util.splat_value(node.attr["value"].tensor),
                                      dtype, node.device)
            extra += [dims, scalar]
            ops.append(FILL)
            args.append(f"{slot_of((dims.name, False, 'int32'))},"
                        f"{slot_of((scalar.name, True, dtype))}")
            types.append(dtype)
            continue
        operands = []
        for position, text in enumerate(node.input):
            producer, index = _split(text)
            if index < 0:
                if text not in controls:
                    controls.append(text)
            elif producer in members:
                operands.append(f"t{step_of[producer]}")
            else:
                key = producer if index == 0 else f"{producer}:{index}"
                # a shape or axes input gets a slot of its own, even where the same tensor
                # is also a value of the chain (the kernel reads the two differently)
                operands.append(slot_of((key, _elementwise_operand(node.op, position),
                                         dtype_of(node, position))))
        ops.append(node.op)
        args.append(",".join(operands))
        types.append(signatures[name][1])
    fused = type(nodes[root])()
    fused.name, fused.op, fused.device = root, FUSED_OP, nodes[root].device
    fused.input.extend([key for key, _, _ in inputs] + controls)
    tin = [dtype for _, _, dtype in inputs]
    fused.attr["Tin"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum for t in tin)
    fused.attr["T"].type = dtypes.as_dtype(types[-1]).as_datatype_enum
    fused.attr["fused_ops"].list.s.extend(op.encode() for op in ops)
    fused.attr["fused_args"].list.s.extend(a.encode() for a in args)
    fused.attr["fused_types"].list.type.extend(dtypes.as_dtype(t).as_datatype_enum
                                               for t in types)
    randoms = [nodes[name] for name in order if nodes[name].op in RANDOM_OPS]
    if randoms:  # each keeps its own Philox stream, found by its node's name
        fused.attr["fused_random"].list.s.extend(node.name.encode() for node in randoms)
        for node in randoms:
            fused.attr["fused_seeds"].list.i.extend(
                [node.attr["seed"].i if "seed" in node.attr else 0,
                 node.attr["seed2"].i if "seed2" in node.attr else 0])
    return fused, extra


def _free_name(name, nodes):
    """`name`, or name_1, name_2, ... where the graph has it already."""
    candidate, suffix = name, 0
    while candidate in nodes:
        suffix += 1
        candidate = f"{name}_{suffix}"
    return candidate
