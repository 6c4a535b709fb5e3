"""function_optimization: function calls inlined and functional control flow lowered, as
Grappler's function optimizer does before a graph runs (InlineFunctionCalls).

Every node is visited once, in the order TensorFlow numbers them (the graph's own, then what
each step adds, so that nested calls and the calls a lowering makes are reached too):
- an If, Case or While marked `_lower_using_switch_merge` is lowered to frames
  (control_flow_lowering.py);
- a call (PartitionedCall, StatefulPartitionedCall, a node whose op is a library function)
  is replaced by its body (function_inlining.py), unless a fed node, marked for XLA, or one
  TensorFlow's checks refuse: arguments or results that do not match, `_noinline` (heeded
  unless AGGRESSIVE), an implementation-selection function (`api_implements`), a stateful
  body node that no control output waits for, a Switch whose dead output can reach a result.
  Those stay calls, run by the function library as before.
Before either, a call or op taking a resource and no control input waits for its other
inputs (strict input semantics), and one inside a TF1 loop without a control input waits for
its frame (frame forwarding), as TensorFlow adds those edges.

A marked If/Case/While of the graph itself (a TF1 graph built with control flow v2) is lowered
before any pass, as TensorFlow's LowerFunctionalOpsPass does before placement
(`lower_functional_ops`, which engine.optimizer.optimize runs as a stage of its own), keeping
its name fetchable; its names follow that pass's order over the part of the graph the run
needs (TensorFlow's runs over the whole graph, so with other lowered ops outside the run its
`/_N` numbers can differ).

What cannot run fails here with TensorFlow's classes: a call of a function the library does
not have, and a function that calls itself (inlining would never end; TensorFlow 2.21 itself
overflows its stack on such a graph).
"""

from engine.framework import errors, op_families
from engine.framework.function_graph import (called_functions, reachable_functions,
                                             recursion_message,
                                             recursive_call)
from engine.optimizer.control_flow_lowering import (LOWER_USING_SWITCH_MERGE, lower,
                                                    lowers_using_switch_merge)
from engine.optimizer.editable_graph import EditableGraph
from engine.optimizer.function_inlining import (
    DO_NOT_KEEP, FETCHABLE, LOWER_AS_MULTI_DEVICE, PARTITIONED_CALLS, TARGETABLE,
    FunctionBody, InlineOptions, NotInlinable, called_function, inline_function_body,
    is_function_call, is_resource, validate_inlining)
from engine.optimizer.report import Report
from engine.proto import rewriter_config_pb2

# Stateful ops whose side effects need no control output to be kept (TensorFlow's
# IsExemptFromSideEffectsExecutionValidation).
_EXEMPT_SIDE_EFFECTS = frozenset({
    "CollectiveGather", "CollectiveReduce", "CollectiveBcastSend", "CollectiveBcastRecv",
    "CollectiveBcastSendV2", "CollectiveBcastRecvV2", "NcclAllReduce", "Send", "Recv",
    "CollectiveAssignGroupsV2", "CollectiveInitializeCommunicator", "RandomUniform",
    "RandomUniformInt", "RandomStandardNormal", "ParameterizedTruncatedNormal",
    "TruncatedNormal", "RandomShuffle", "Multinomial", "RandomGamma", "RandomGammaGrad",
    "RandomPoisson", "RandomPoissonV2", "ReadVariableOp", "CudnnRNN", "CudnnRNNBackprop",
    "CudnnRNNV2", "CudnnRNNV3", "CudnnRNNBackpropV2", "CudnnRNNBackpropV3",
    "EnqueueTPUEmbeddingSparseBatch", "EnqueueTPUEmbeddingIntegerBatch",
    "EnqueueTPUEmbeddingSparseTensorBatch", "EnqueueTPUEmbeddingRaggedTensorBatch",
    "EnqueueTPUEmbeddingArbitraryTensorBatch", "SaveV2", "RestoreV2", "InfeedEnqueue",
    "InfeedEnqueueTuple"})
_XLA_MARKS = ("_xla_compile_id", "_tpu_replicate", "_XlaMustCompile")


def optimize(graph_def, context):
    report = Report()
    if not graph_def.library.function:
        return graph_def, report  # Grappler: "Nothing to do."
    library = {f.signature.name: f for f in graph_def.library.function}
    graph = EditableGraph(graph_def, library)
    options = context.rewrite_options
    aggressive = options.function_optimization == rewriter_config_pb2.RewriterConfig.AGGRESSIVE
    frames = _loop_frames(graph)
    chains = {}  # node number -> the functions it was inlined out of, outermost first
    bodies = {}
    number = 0
    while number < graph.num_node_ids():
        node = graph.node(number)
        number += 1
        if node is None:
            continue
        chain = chains.get(node.id, ())
        if lowers_using_switch_merge(node):
            if node.op in _LOWERED_OPS:
                _add_strict_input_semantics(graph, node)
                _add_frame_forwarding_edge(graph, node, frames)
                first = graph.num_node_ids()
                name, op = node.name, node.op
                lower(graph, node, keep_fetchable=False)
                _inherit(chains, chain, first, graph.num_node_ids())
                report.note("changed", f"{name} ({op}) lowered to frames")
            continue
        if not is_function_call(node, library) or node.op == "SymbolicGradient":
            continue
        if any(_marked(node, mark) for mark in _XLA_MARKS) or node.name in context.feeds:
            continue
        function_name, attrs = called_function(node)
        function_def = library.get(function_name)
        if function_def is None:
            raise errors.InvalidArgumentError(
                None, None, f'Failed to find function "{function_name}" in function library '
                            f"(called by node {node.name})")
        if function_name in chain:
            cycle = list(chain[chain.index(function_name):]) + [function_name]
            raise errors.InvalidArgumentError(None, None, recursion_message(cycle))
        body = _body(bodies, function_def, library, attrs)
        forced = _marked(node, LOWER_AS_MULTI_DEVICE)
        multi_device = node.op in PARTITIONED_CALLS or forced
        inline_options = InlineOptions(
            keep_caller=(FETCHABLE if node.name in context.fetches else
                         TARGETABLE if node.name in context.keep else DO_NOT_KEEP),
            from_control_outputs=multi_device, multi_device=multi_device,
            ignore_noinline=aggressive)
        try:
            validate_inlining(node, body, inline_options)
            if not (aggressive or forced):
                _validate_side_effects(body, multi_device)
            _validate_no_dead_outputs(body, library, bodies)
        except NotInlinable as why:
            report.note("changed", f"{node.name} stays a call of {function_name}: {why}", 0)
            continue
        _add_strict_input_semantics(graph, node)
        _add_frame_forwarding_edge(graph, node, frames)
        first = graph.num_node_ids()
        name = node.name
        inline_function_body(graph, node, body, inline_options)
        _inherit(chains, chain + (function_name,), first, graph.num_node_ids())
        report.note("added", f"{name}: {function_name} inlined",
                    sum(graph.node(i) is not None for i in range(first, graph.num_node_ids())))
    if not report.total and not report.changes:
        return graph_def, report
    result = graph.to_graph_def(graph_def.versions)
    result.library.function.extend(reachable_functions(result, library))
    return result, report


_LOWERED_OPS = frozenset({"If", "StatelessIf", "Case", "StatelessCase", "While",
                          "StatelessWhile"})


def needs_lowering(graph_def):
    """Whether the graph itself holds an If/Case/While marked `_lower_using_switch_merge`."""
    return bool(graph_def.library.function) and any(
        node.op in _LOWERED_OPS and _marked(node, LOWER_USING_SWITCH_MERGE)
        for node in graph_def.node)


def lower_functional_ops(graph_def):
    """TensorFlow's LowerFunctionalOpsPass, which runs on the session's graph before placement
    (and so before Grappler's passes, with a counter of its own): a marked If/Case/While of
    the graph itself is lowered keeping its name fetchable (an IdentityN of its outputs), and
    the calls its lowering makes (`_lower_as_multi_device_function`) are inlined at once, each
    leaving an IdentityN (or NoOp) of its name; other calls wait for Grappler. Returns
    (GraphDef, Report)."""
    report = Report()
    library = {f.signature.name: f for f in graph_def.library.function}
    graph = EditableGraph(graph_def, library)
    number = 0
    while number < graph.num_node_ids():
        node = graph.node(number)
        number += 1
        if node is None:
            continue
        if is_function_call(node, library) and _marked(node, LOWER_AS_MULTI_DEVICE):
            function_name, attrs = called_function(node)
            function_def = library.get(function_name)
            if function_def is None:
                raise errors.InvalidArgumentError(
                    None, None, f'Failed to find function "{function_name}" in function '
                                f"library (called by node {node.name})")
            chain = recursive_call(function_name, library)
            if chain:
                raise errors.InvalidArgumentError(None, None, recursion_message(chain))
            name = node.name
            try:
                inline_function_body(graph, node, FunctionBody(function_def, library, attrs),
                                     InlineOptions(keep_caller=FETCHABLE))
            except NotInlinable as why:
                report.note("changed", f"{name} stays a call of {function_name}: {why}", 0)
                continue
            report.note("added", f"{name}: {function_name} inlined", 0)
        elif node.op in _LOWERED_OPS and lowers_using_switch_merge(node):
            name, op = node.name, node.op
            lower(graph, node, keep_fetchable=True)
            report.note("changed", f"{name} ({op}) lowered to frames")
    return graph.to_graph_def(graph_def.versions, graph_def.library), report


def _body(bodies, function_def, library, attrs):
    """The FunctionBody of a function for these instantiation attrs (made once)."""
    key = (function_def.signature.name,
           tuple(sorted((k, v.SerializeToString(deterministic=True))
                        for k, v in attrs.items() if not k.startswith("_"))))
    if key not in bodies:
        bodies[key] = FunctionBody(function_def, library, attrs)
    return bodies[key]


def _inherit(chains, chain, first, end):
    if chain:
        for number in range(first, end):
            chains[number] = chain


def _marked(node, attr):
    value = node.attr.get(attr)
    if value is None:
        return False
    return bool(value.s) if value.WhichOneof("value") == "s" else bool(value.b)


# TensorFlow's validations -------------------------------------------------------------------

def _validate_side_effects(body, from_control_outputs):
    """Every stateful body node must reach a control source: a control output of a
    PartitionedCall's function, a result of a call by op name."""
    sources = {node.id for node in (body.control_ret_nodes if from_control_outputs
                                    else body.ret_nodes)}
    for node in body.graph.nodes():
        if node.op in ("_Arg", "_Retval") or node.op in _EXEMPT_SIDE_EFFECTS:
            continue
        op_def = body.graph.op_def(node.op)
        if op_def is None or not op_def.is_stateful:
            continue
        if not _reaches(node, lambda n: n.id in sources):
            raise NotInlinable(f"Can't guarantee execution of a side-effectful node, that is "
                               f"not reachable from function control source. Function body "
                               f"node: {node.name}")


def _validate_no_dead_outputs(body, library, bodies, seen=()):
    """No Switch (nor a call by op name whose own body has one) may reach a result without
    a Merge in between."""
    results = {node.id for node in body.ret_nodes}
    for node in body.graph.nodes():
        dead_source = node.op in op_families.SWITCH
        if not dead_source and node.op in library and node.op not in seen:
            name, attrs = called_function(node)
            try:
                _validate_no_dead_outputs(_body(bodies, library[name], library, attrs),
                                          library, bodies, seen + (node.op,))
            except NotInlinable:
                dead_source = True
        if dead_source and _reaches(node, lambda n: n.id in results, through_merges=False):
            raise NotInlinable(f"Can't inline a function with dead outputs. Dead tensor "
                               f"source: {node.name}")


def _reaches(start, wanted, through_merges=True):
    stack, seen = [start], {start.id}
    while stack:
        node = stack.pop()
        if wanted(node):
            return True
        if not through_merges and node.op in op_families.MERGE:
            continue
        for edge in node.out_edges:
            if edge.dst.id not in seen:
                seen.add(edge.dst.id)
                stack.append(edge.dst)
    return False


# Edges TensorFlow adds before inlining or lowering ------------------------------------------

def _add_strict_input_semantics(graph, node):
    """A node taking a resource and no control input, or reading a constant Enter, waits for
    its other inputs (Placeholders excepted): TensorFlow's AddStrictInputSemantics."""
    controls = {edge.src.id for edge in node.in_edges if edge.is_control}
    has_resource = any(is_resource(t) for t in node.input_types())
    constant_enter = any(edge.src.op in op_families.ENTER and _marked(edge.src, "is_constant")
                         for edge in node.in_edges)
    if not ((not controls and has_resource) or constant_enter):
        return
    sources = {}
    for edge in node.in_edges:
        if not edge.is_control and edge.src.id not in controls:
            sources[edge.src.id] = edge.src
    for src in sources.values():
        if src.op != "Placeholder":
            graph.add_control_edge(src, node, allow_duplicates=True)


def _loop_frames(graph):
    """node number -> the Enter that opened its TF1 loop frame (nodes outside loops absent):
    TensorFlow's ControlFlowInfo of the graph as given, read along the numbering (each node
    after the inputs it does not get over a back edge)."""
    frame_of, parent_of, opened = {}, {}, {}
    for node in graph.nodes():
        edge = next((e for e in node.in_edges if e.src.id < node.id), None)
        if edge is None:
            continue
        src = edge.src
        if src.op in op_families.ENTER:
            parent = frame_of.get(src.id)
            key = (parent.id if parent is not None else None, src.attr["frame_name"].s)
            frame = opened.setdefault(key, src)
            parent_of.setdefault(frame.id, parent)
        elif src.op in op_families.EXIT:
            inner = frame_of.get(src.id)
            frame = parent_of.get(inner.id) if inner is not None else None
        else:
            frame = frame_of.get(src.id)
        if frame is not None:
            frame_of[node.id] = frame
    return frame_of


def _add_frame_forwarding_edge(graph, node, frames):
    """A node inside a TF1 loop with no control input gets one from its frame (the constant
    Enter, else the Merge after the Enter), so that its body's constants run in the frame."""
    enter = frames.get(node.id)
    if enter is None or node.has_control_inputs():
        return
    if _marked(enter, "is_constant"):
        graph.add_control_edge(enter, node)
        return
    merge = next((e.dst for e in enter.out_edges
                  if not e.is_control and e.dst.op in op_families.MERGE), None)
    if merge is not None:
        graph.add_control_edge(merge, node)
