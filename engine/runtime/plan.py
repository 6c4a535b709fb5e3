"""Execution plans: the graph pruned to a run's feeds, fetches and targets, ordered, slotted.

A plan is what TensorFlow's DirectSession builds per (feeds, fetches, targets) and caches:
the subgraph rewritten for execution (each feed an `_Arg` node `_arg_<tensor>_<index>`, each
fetch a `_Retval` node `_retval_<tensor>_<index>`, numbered in sorted-name order as TF 2.x
numbers them), pruned to what the fetches and targets need (a fed tensor cuts the graph),
placed (one device for now), and put in the order TensorFlow's executor runs it.
Every tensor gets a slot in a flat value list; `frees[i]` lists the slots whose last use is
the i-th kernel node, so the executor can drop them as eval_jaxpr drops dead values.
"""

from collections import deque

from engine.framework import op_families
from engine.framework import op_registry
from engine.framework.versions import GRAPH_DEF_VERSION as PRODUCER_VERSION
from engine.runtime import mutex_order
from engine.proto import graph_pb2, node_def_pb2, versions_pb2

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"

class NodeInfo:
    """What planning needs of one graph node, independent of where the graph came from.

    inputs: data inputs as (producer name, output index); control_inputs: producer names;
    output_dtypes: DTypes; ref_inputs: whether each data input is a ref arg of the OpDef;
    op: the engine Operation (for errors and tracebacks), None for a bare NodeDef.
    """

    __slots__ = ("name", "op_type", "node_def", "op", "inputs", "control_inputs",
                 "output_dtypes", "ref_inputs", "device", "is_stateful")

    def __init__(self, name, op_type, node_def, inputs, control_inputs, output_dtypes,
                 ref_inputs=None, op=None, device="", is_stateful=False):
        self.name, self.op_type, self.node_def, self.op = name, op_type, node_def, op
        self.inputs, self.control_inputs = list(inputs), list(control_inputs)
        self.output_dtypes = list(output_dtypes)
        self.ref_inputs = tuple(ref_inputs) if ref_inputs is not None else (False,) * len(inputs)
        self.device, self.is_stateful = device, is_stateful


class PlanNode:
    """One node of a plan: a graph node, or a feed's _Arg / a fetch's _Retval.

    kind: "kernel", "arg" or "retval". input_slots/output_slots index the value list;
    deref[i]: input i is a ref (a Ref object) read by a non-ref consumer, so read its value.
    input_names: the NodeDef inputs after the feed rewrite (timeline labels, partition graph).
    sources: producer names of its in-edges, data then control, one per edge; consumers: plan
    positions of the nodes with an edge from this one (one entry per edge).
    """

    __slots__ = ("name", "op_type", "kind", "info", "input_slots", "output_slots", "deref",
                 "input_names", "sources", "consumers", "num_pending", "inexpensive", "index",
                 "output_dtypes", "device")

    def __init__(self, name, op_type, kind, info=None):
        self.name, self.op_type, self.kind, self.info = name, op_type, kind, info
        self.input_slots, self.output_slots, self.deref = (), (), ()
        self.input_names, self.sources, self.consumers = [], [], []
        self.num_pending = 0
        self.inexpensive = op_type in op_families.INEXPENSIVE
        self.index = 0  # retval/arg index
        self.output_dtypes = list(info.output_dtypes) if info is not None else []
        self.device = CPU0

    @property
    def op(self):
        return self.info.op if self.info is not None else None

    @property
    def node_def(self):
        return self.info.node_def if self.info is not None else None

    @property
    def timeline_label(self):
        return f"{self.name} = {self.op_type}({', '.join(self.input_names)})"

    def __repr__(self):
        return f"<PlanNode {self.name} ({self.op_type})>"


class Plan:
    """A pruned, rewritten, ordered graph for one (feeds, fetches, targets)."""

    def __init__(self, nodes, order, feed_names, feed_slots, fetch_slots, num_slots, frees,
                 device):
        self.nodes = nodes              # all PlanNodes, in graph order (args, retvals last)
        self.feed_names = feed_names    # every feed, sorted, used by the plan or not
        self.order = order              # node positions in the executor's run order
        self.feed_slots = feed_slots    # feed tensor name -> slot
        self.fetch_slots = fetch_slots  # fetch tensor name -> slot
        self.num_slots = num_slots
        self.frees = frees              # node position -> slots dead after it runs
        self.device = device
        self.roots = [i for i, node in enumerate(nodes) if node.num_pending == 0]
        self.retvals = {node.name: node for node in nodes if node.kind == "retval"}
        self.has_control_flow = any(node.op_type in op_families.CONTROL_FLOW for node in nodes)

    @property
    def kernel_nodes(self):
        """The graph's own nodes in run order (what the fast path executes)."""
        return [self.nodes[i] for i in self.order if self.nodes[i].kind == "kernel"]

    def partition_graph(self):
        """The executed graph as TensorFlow reports it in RunMetadata.partition_graphs."""
        graph_def = graph_pb2.GraphDef()
        for node in self.nodes:
            graph_def.node.append(_exported_node_def(node))
        graph_def.library.SetInParent()
        graph_def.versions.CopyFrom(versions_pb2.VersionDef(producer=PRODUCER_VERSION))
        return graph_def


def tensor_name(node_name, index):
    return f"{node_name}:{index}"


def parse_tensor_name(name):
    """("op", 0) from "op:0" or "op"."""
    node, sep, index = name.rpartition(":")
    if sep and index.isascii() and index.isdigit():  # not "²"
        return node, int(index)
    return name, 0


def build(nodes, graph_order, feeds, fetches, targets, device=CPU0):
    """The plan running `fetches` and `targets` given `feeds`.

    nodes: name -> NodeInfo; graph_order: node names in graph order; feeds and fetches:
    tensor names "op:i"; targets: node names. Names must exist (the session resolved them).
    """
    feed_set = {parse_tensor_name(name) for name in feeds}
    fetch_keys = sorted(set(fetches))
    feed_keys = sorted(set(feeds))

    needed = _prune(nodes, feed_set, [parse_tensor_name(f) for f in fetch_keys], targets)
    used_feeds = _used_feeds(nodes, needed, feed_set, fetch_keys)

    plan_nodes = [PlanNode(name, nodes[name].op_type, "kernel", nodes[name])
                  for name in graph_order if name in needed]
    slots, num_slots = {}, 0
    for node in plan_nodes:
        node.output_slots = tuple(range(num_slots, num_slots + len(node.output_dtypes)))
        for i, slot in enumerate(node.output_slots):
            slots[(node.name, i)] = slot
        num_slots += len(node.output_slots)

    feed_slots, arg_names = {}, {}  # only the feeds the pruned graph reads
    for index, name in enumerate(k for k in feed_keys if parse_tensor_name(k) in used_feeds):
        producer, output = parse_tensor_name(name)
        arg = PlanNode(f"_arg_{producer}_{output}_{index}", "_Arg", "arg")
        arg.index = index
        arg.output_dtypes = [nodes[producer].output_dtypes[output].base_dtype]
        arg.output_slots = (num_slots,)
        feed_slots[name] = num_slots
        arg_names[(producer, output)] = arg.name
        slots[("^arg", producer, output)] = num_slots
        num_slots += 1
        plan_nodes.append(arg)

    fetch_slots = {}
    for index, name in enumerate(fetch_keys):
        producer, output = parse_tensor_name(name)
        retval = PlanNode(f"_retval_{producer}_{output}_{index}", "_Retval", "retval")
        retval.index = index
        fed = (producer, output) in feed_set
        source = ("^arg", producer, output) if fed else (producer, output)
        retval.input_slots = (slots[source],)
        retval.input_names = [arg_names[(producer, output)] if fed else _input_name(name)]
        retval.sources = [arg_names[(producer, output)] if fed else producer]
        dtype = nodes[producer].output_dtypes[output]
        retval.deref = (not fed and dtype.is_ref_dtype,)
        retval.output_dtypes = [dtype.base_dtype]
        fetch_slots[name] = slots[source]
        plan_nodes.append(retval)

    position = {node.name: i for i, node in enumerate(plan_nodes)}
    for i, node in enumerate(plan_nodes):
        if node.kind == "kernel":
            _wire_kernel_node(node, nodes, feed_set, slots, arg_names)
        for source in node.sources:
            producer = plan_nodes[position[source]]
            producer.consumers.append(i)
            # A loop's back edge (NextIteration -> Merge) does not hold the Merge back.
            if not (node.op_type in op_families.MERGE
                    and producer.op_type in op_families.NEXT_ITERATION):
                node.num_pending += 1

    mutex_order.order_sections(plan_nodes, schedule)  # one thread: sections in a row
    order = schedule(plan_nodes)
    frees = last_uses(plan_nodes, order, set(fetch_slots.values()))
    return Plan(plan_nodes, order, feed_keys, feed_slots, fetch_slots, num_slots, frees, device)


def _prune(nodes, feed_set, fetch_tensors, targets):
    """Names of the nodes the fetches and targets need; a fed tensor is not computed."""
    roots = [producer for producer, output in fetch_tensors if (producer, output) not in feed_set]
    return prune(nodes, feed_set, roots + list(targets))


PLACEHOLDER_OPS = frozenset({"Placeholder", "PlaceholderV2"})


def _fed_placeholder(nodes, feed_set, name):
    """A fed Placeholder: control edges from it come from its feed instead (TF's FeedInputs)."""
    return (name, 0) in feed_set and nodes[name].op_type in PLACEHOLDER_OPS


def prune(nodes, feed_set, roots, fed_placeholders_cut_controls=True):
    """Names of the nodes `roots` need, a fed tensor cutting the graph.

    A control edge from a fed Placeholder needs the feed, not the Placeholder (TensorFlow
    rewires it to the feed); the partitioner (fed_placeholders_cut_controls=False) still
    keeps the Placeholder.
    """
    needed, stack = set(), list(roots)
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        needed.add(name)
        info = nodes[name]
        stack.extend(p for p, o in info.inputs if (p, o) not in feed_set and p not in needed)
        stack.extend(c for c in info.control_inputs
                     if c not in needed and not (fed_placeholders_cut_controls
                                                 and _fed_placeholder(nodes, feed_set, c)))
    return needed


def _used_feeds(nodes, needed, feed_set, fetch_keys):
    used = {parse_tensor_name(name) for name in fetch_keys} & feed_set
    for name in needed:
        used.update(edge for edge in nodes[name].inputs if edge in feed_set)
        used.update((c, 0) for c in nodes[name].control_inputs
                    if _fed_placeholder(nodes, feed_set, c))
    return used


def _input_name(name):
    producer, output = parse_tensor_name(name)
    return producer if output == 0 else f"{producer}:{output}"


def _wire_kernel_node(node, nodes, feed_set, slots, arg_names):
    info = node.info
    input_slots, deref, names, sources = [], [], [], []
    for (producer, output), is_ref_arg in zip(info.inputs, info.ref_inputs):
        if (producer, output) in feed_set:
            input_slots.append(slots[("^arg", producer, output)])
            deref.append(False)
            names.append(arg_names[(producer, output)])
            sources.append(arg_names[(producer, output)])
        else:
            input_slots.append(slots[(producer, output)])
            deref.append(nodes[producer].output_dtypes[output].is_ref_dtype and not is_ref_arg)
            names.append(_input_name(tensor_name(producer, output)))
            sources.append(producer)
    for control in info.control_inputs:
        if _fed_placeholder(nodes, feed_set, control):
            control = arg_names[(control, 0)]
        names.append("^" + control)
        sources.append(control)
    node.input_slots, node.deref, node.input_names = tuple(input_slots), tuple(deref), names
    node.sources = sources


def schedule(plan_nodes):
    """Positions in the order TensorFlow's executor runs them on one thread.

    A ready queue, FIFO by readiness, where inexpensive kernels that become ready run inline
    before expensive ones (TensorFlow dispatches those to its thread pool), as observed in
    TensorFlow 2.21's step stats. Deterministic.
    """
    pending = [node.num_pending for node in plan_nodes]
    inline, expensive = deque(), deque()

    def make_ready(positions):
        for i in positions:
            (inline if plan_nodes[i].inexpensive else expensive).append(i)

    make_ready(i for i, count in enumerate(pending) if count == 0)
    order = []
    while inline or expensive:
        i = inline.popleft() if inline else expensive.popleft()
        order.append(i)
        ready = []
        for consumer in plan_nodes[i].consumers:
            pending[consumer] -= 1
            if pending[consumer] == 0:
                ready.append(consumer)
        make_ready(ready)
    if len(order) != len(plan_nodes):
        stuck = [plan_nodes[i].name for i, count in enumerate(pending) if count > 0]
        raise ValueError(f"graph is not acyclic; nodes never ready: {stuck[:5]}")
    return order


def producers_and_readers(nodes):
    """({slot: the node among `nodes` making it}, {slot: the nodes reading it, in order})."""
    producers, readers = {}, {}
    for node in nodes:
        for slot in node.output_slots:
            producers[slot] = node
        for slot in node.input_slots:
            readers.setdefault(slot, []).append(node)
    return producers, readers


def last_uses(plan_nodes, order, kept):
    """node position -> tuple of slots no later node reads (fetched slots are kept), the
    nodes running in `order` (positions; runtime/chain_steps.py passes its own)."""
    last = {}
    for i in order:
        node = plan_nodes[i]
        if node.kind == "retval":
            continue
        for slot in node.output_slots:
            last[slot] = i  # an output nobody reads dies where it is made
        for slot in node.input_slots:
            last[slot] = i
    frees = {}
    for slot, i in last.items():
        if slot not in kept:
            frees.setdefault(i, []).append(slot)
    return {i: tuple(sorted(slots)) for i, slots in frees.items()}


def _exported_node_def(node):
    node_def = node_def_pb2.NodeDef(name=node.name, op=node.op_type, device=node.device)
    if node.kind == "kernel":
        node_def.CopyFrom(node.node_def)
        node_def.device = node.device
        del node_def.input[:]
        node_def.input.extend(node.input_names)
        return node_def
    node_def.attr["T"].type = node.output_dtypes[0].as_datatype_enum
    node_def.attr["index"].i = node.index
    if node.kind == "retval":
        node_def.input.extend(node.input_names)
    return node_def


def input_ref_flags(op_def, node_def):
    """Whether each data input of `node_def` is a ref input of `op_def` (lists expanded)."""
    flags = []
    for arg in op_def.input_arg:
        if arg.number_attr:
            count = node_def.attr[arg.number_attr].i
        elif arg.type_list_attr:
            count = len(node_def.attr[arg.type_list_attr].list.type)
        else:
            count = 1
        flags.extend([arg.is_ref] * count)
    return flags



def nodes_from_graph_def(graph_def):
    """(name -> NodeInfo, names in order) for a bare GraphDef, dtypes from the op registry."""
    nodes, order = {}, []
    for node_def in graph_def.node:
        op_def = op_registry.get(node_def.op)
        node_def = node_def_pb2.NodeDef.FromString(node_def.SerializeToString())
        op_registry.add_default_attrs(node_def, op_def)
        data = [parse_tensor_name(i) for i in node_def.input if not i.startswith("^")]
        control = [i[1:] for i in node_def.input if i.startswith("^")]
        nodes[node_def.name] = NodeInfo(
            node_def.name, node_def.op, node_def, data, control,
            op_registry.output_dtypes(op_def, node_def.attr),
            input_ref_flags(op_def, node_def), device=node_def.device,
            is_stateful=op_def.is_stateful)
        order.append(node_def.name)
    return nodes, order
