"""Partitioning: one graph per device, each cross-device edge cut by a _Send/_Recv pair.

What TensorFlow's Partition() (graph/graph_partition.cc) does to the placed, pruned client
graph of a run, reproduced with its names:
- feeds become `_arg_<tensor>_<i>` and fetches `_retval_<tensor>_<i>` on the client device
  (CPU:0), as DirectSession's call-frame rewrite puts them;
- destinations are visited in the client graph's node order, their data inputs (in slot
  order) then control inputs; an input from another device gets a `_Send` on the producer's
  device and a `_Recv` on the consumer's, both named `<producer>/_<n>` from the session's one
  counter, with TensorFlow's attrs: tensor_name `edge_<id>_<producer>`, send_device,
  send_device_incarnation (1), recv_device, client_terminated (false), _src, _dst, and T on
  the send, tensor_type on the recv. A tensor goes once per destination device: later
  consumers there share the first _Recv;
- a control edge across devices sends a dummy: `<producer>/ctrl/_<n>` (an empty float Const
  with the control input), its _Send, the _Recv, and an Identity of it that the consumer
  depends on.
Edge ids follow how TensorFlow numbers the client graph's edges (`edge_ids`).
"""

import heapq

from engine.framework import dtypes, op_families
from engine.framework import op_registry
from engine.runtime.plan import NodeInfo, parse_tensor_name, prune
from engine.proto import node_def_pb2
from engine.runtime.step_stats import GpuStepStatsCollector, StepStatsCollector

INCARNATION = 1  # DirectSession's devices keep one incarnation


class DevicePartition:
    """One device's share of a run: NodeInfos in TensorFlow's partition order, and what the
    plan of that device feeds, fetches and must run."""

    def __init__(self, device):
        self.device = device
        self.nodes = {}          # name -> NodeInfo (feed producers too, for their dtypes)
        self.order = []          # node names in partition order (see `_partition_order`)
        self.feeds = []          # tensor names fed here (the client only)
        self.fetches = {}        # fetched tensor name -> the tensor here that carries it
        self.targets = []        # nodes run for their effect: sends, the run's targets
        self.retvals = {}        # fetched tensor name -> TensorFlow's _Retval name
        self.export_order = []   # every node name, _Arg and _Retval too, as TensorFlow's
        self.transfer_controls = {}  # name -> "^send" inputs only the executor needs

    def add(self, info):
        self.nodes[info.name] = info
        self.order.append(info.name)


def partition(nodes, order, placement, feeds, fetches, targets, client, new_name):
    """{device: DevicePartition} for a run, and the placement of each node used.

    nodes: name -> NodeInfo; order: names in graph order; placement: name -> device;
    feeds, fetches: tensor names (any order; used sorted, as TensorFlow); targets: node
    names; client: the device of _Arg/_Retval; new_name(prefix): `prefix/_<n>`.
    """
    feeds, fetches = sorted(set(feeds)), sorted(set(fetches))
    feed_set = {parse_tensor_name(f) for f in feeds}
    needed = prune(nodes, feed_set, [parse_tensor_name(f)[0] for f in fetches
                                     if parse_tensor_name(f) not in feed_set] + list(targets),
                   fed_placeholders_cut_controls=False)
    used_feeds = [f for f in feeds if _feed_used(parse_tensor_name(f), needed, nodes, fetches)]
    arg_of = {parse_tensor_name(f): f"_arg_{f.replace(':', '_')}_{i}"
              for i, f in enumerate(used_feeds)}
    retval_of = {f: f"_retval_{f.replace(':', '_')}_{i}" for i, f in enumerate(fetches)}
    client_order = grappler_order(nodes, fetches, targets)
    ids = edge_ids(nodes, client_order, used_feeds, fetches, arg_of)

    parts = {}

    def part(device):
        if device not in parts:
            parts[device] = DevicePartition(device)
        return parts[device]

    where = {name: placement[name] for name in needed}
    where.update({arg: client for arg in arg_of.values()})
    added = {device: [] for device in set(where.values()) | {client}}
    inputs_of, controls_of, extra, deps = {}, {}, {}, {}
    dup_recv = {}

    fed_tensor = {arg: tensor for tensor, arg in arg_of.items()}

    def source_of(producer, output):
        if (producer, output) in feed_set:
            return arg_of[(producer, output)], 0
        return producer, output

    def cut(src, output, dst, dst_device, edge_id, dtype, control):
        """The _Recv (or, for a control edge, the Identity) carrying src:output to dst."""
        key = (src, output, dst_device)
        if key in dup_recv:
            return dup_recv[key]
        src_device = where[src]
        tensor_name = f"edge_{edge_id}_{src}"
        send_input = f"{src}:{output}" if output else src
        if control:
            dummy = _dummy_const(new_name(src + "/ctrl"), src, src_device)
            extra.setdefault(src_device, []).append(dummy)
            added[src_device].append(dummy.name)
            send_input, dtype = dummy.name, dtypes.float32
        send = _send(new_name(src), send_input, src, dst, src_device, dst_device, tensor_name,
                     dtype, fed_tensor.get(src))
        recv = _recv(new_name(src), src, dst, src_device, dst_device, tensor_name, dtype)
        for device, info in ((src_device, send), (dst_device, recv)):
            extra.setdefault(device, []).append(info)
            added[device].append(info.name)
        result = recv.name
        if control:
            identity = _identity(new_name(src), recv.name, dst_device)
            extra[dst_device].append(identity)
            added[dst_device].append(identity.name)
            result = identity.name
        dup_recv[key] = result
        return result

    visit = [n for n in client_order if n in needed] + list(arg_of.values()) + \
        [retval_of[f] for f in fetches]
    fetch_of = {r: f for f, r in retval_of.items()}
    for dst in visit:
        if dst in fetch_of:
            fetch = fetch_of[dst]
            added[client].append(dst)
            producer, output = parse_tensor_name(fetch)
            src, src_output = source_of(producer, output)
            carrier = f"{src}:{src_output}"
            if where[src] != client:
                dtype = nodes[producer].output_dtypes[output]
                recv = cut(src, src_output, dst, client, ids[("retval", fetch)], dtype, False)
                carrier = f"{recv}:0"
            part(client).fetches[fetch] = fetch if where[src] == client else carrier
            part(client).retvals[fetch] = dst
            deps[dst] = {parse_tensor_name(carrier)[0]}
            continue
        dst_device = where[dst]
        added[dst_device].append(dst)
        if dst in fetch_of or dst not in nodes:
            deps[dst] = set()
            continue
        info = nodes[dst]
        new_inputs = [source_of(p, o) for p, o in info.inputs]
        for slot in canonical_slots(info):
            src, src_output = new_inputs[slot]
            if where[src] == dst_device:
                continue
            producer, output = info.inputs[slot]
            edge = ids[(src, src_output, dst, slot)]
            dtype = nodes[producer].output_dtypes[output].base_dtype
            new_inputs[slot] = (cut(src, src_output, dst, dst_device, edge, dtype, False), 0)
        new_controls = []
        for producer in info.control_inputs:
            if where[producer] == dst_device:
                new_controls.append(producer)
                continue
            edge = ids[(producer, -1, dst, 0)]
            new_controls.append(cut(producer, -1, dst, dst_device, edge, None, True))
        deps[dst] = {p for p, _ in new_inputs
                     if p not in nodes or not _back_edge(nodes, p, info)} | set(new_controls)
        # The plan rewrites fed inputs itself: give it the fed tensor, not the _Arg.
        inputs_of[dst] = [info.inputs[s] if new_inputs[s] == source_of(*info.inputs[s])
                          else new_inputs[s] for s in range(len(new_inputs))]
        controls_of[dst] = new_controls

    for device, names in added.items():
        p = part(device)
        for info in extra.get(device, ()):
            p.nodes[info.name] = info
            deps[info.name] = {src for src, _ in info.inputs} | set(info.control_inputs)
        for name in names:
            if name in nodes and name in inputs_of:
                p.nodes[name] = _placed(nodes[name], inputs_of[name], controls_of[name], device)
        p.export_order = _partition_order(deps, names)
        p.order = [n for n in p.export_order if n in p.nodes]
        p.targets = [n for n in p.order if p.nodes[n].op_type in ("_Send", "_HostSend")]
        p.targets += [t for t in targets if t in p.nodes]
    client_part = part(client)
    client_part.feeds = list(used_feeds)
    for producer, _ in feed_set:
        client_part.nodes.setdefault(producer, nodes[producer])
    parts = {device: p for device, p in parts.items() if p.order or p.fetches}
    order_transfers(parts)
    return parts


def order_transfers(parts):
    """Control edges that keep partitions run by one-at-a-time executors from deadlocking.

    TensorFlow's _Recv is asynchronous: its executor goes on with other nodes while it waits.
    Ours blocks its partition's thread, so a _Recv must not start before the _Sends of its
    own partition that the other side may be waiting for. With G a topological order of all
    partitions together (sends as early, recvs as late as it allows), each partition's sends
    run in G's order (a chain), and each recv after the last send before it in G: then the
    G-earliest send not yet run can always run, and no partition waits forever. The edges
    are the executor's only: `p.transfer_controls` lets the exported graphs leave them out.
    """
    owner, deps, consumers, sends_by_key = {}, {}, {}, {}
    for device, p in parts.items():
        for name in p.order:
            owner[name] = device
            info = p.nodes[name]
            if info.op_type in ("_Send", "_HostSend"):
                sends_by_key[_transfer_key(info)] = name
    for device, p in parts.items():
        for name in p.order:
            info = p.nodes[name]
            sources = {s for s, _ in info.inputs if s in owner} | \
                {c for c in info.control_inputs if c in owner}
            if info.op_type in ("_Recv", "_HostRecv"):
                sources.add(sends_by_key[_transfer_key(info)])
            deps[name] = sources
            for source in sources:
                consumers.setdefault(source, []).append(name)
    for p in parts.values():
        # A loop's Exit fires after its last iteration, so after the body: G orders it after
        # the frame's NextIterations, not as soon as the Switch it reads from.
        for exits, next_iterations in _loop_ends(p):
            for name in exits:
                for source in next_iterations - deps[name]:
                    deps[name].add(source)
                    consumers.setdefault(source, []).append(name)
    rank = {"_Send": 0, "_HostSend": 0, "_Recv": 2, "_HostRecv": 2}
    sequence = {name: i for i, name in enumerate(owner)}

    def key(name):
        return (rank.get(parts[owner[name]].nodes[name].op_type, 1), sequence[name], name)

    pending = {name: len(sources) for name, sources in deps.items()}
    ready = [key(n) for n, count in pending.items() if count == 0]
    heapq.heapify(ready)
    position = {}
    while len(position) < len(pending):
        while ready:
            name = heapq.heappop(ready)[2]
            position[name] = len(position)
            for consumer in consumers.get(name, ()):
                pending[consumer] -= 1
                if pending[consumer] == 0:
                    heapq.heappush(ready, key(consumer))
        if len(position) < len(pending):
            # What is left waits on a cycle: a while loop's NextIteration -> Merge edge. As
            # TensorFlow's executor enters a frame at a Merge whose Enter input is there, the
            # order enters the cycle at its first Merge (any node, were there none).
            # A Merge is entered only once all but its back edges have run: one whose Enter
            # waits on a _Recv would order that loop's sends before what the recv waits for.
            stuck = [n for n in pending if n not in position and pending[n] > 0]
            merges = [n for n in stuck
                      if parts[owner[n]].nodes[n].op_type in op_families.MERGE]
            merges = [n for n in merges if all(
                s in position or parts[owner[s]].nodes[s].op_type in op_families.NEXT_ITERATION
                for s in deps[n])] or merges or stuck
            start = min(merges, key=key)
            pending[start] = 0
            heapq.heappush(ready, key(start))
    for p in parts.values():
        p.transfer_controls = {}
        transfers = sorted((n for n in p.order if p.nodes[n].op_type in op_families.SEND_RECV),
                           key=position.get)
        last_send = None
        for name in transfers:
            info = p.nodes[name]
            if last_send is not None and last_send not in info.control_inputs:
                info.control_inputs.append(last_send)
                p.transfer_controls.setdefault(name, set()).add("^" + last_send)
            if info.op_type in ("_Send", "_HostSend"):
                last_send = name


def _loop_ends(p):
    """(Exits, NextIterations) of each while loop frame in partition `p`, found forward
    from its Enters (a nested loop's own are its own frame's)."""
    consumers = {}
    for name in p.order:
        info = p.nodes[name]
        for source in [s for s, _ in info.inputs] + list(info.control_inputs):
            consumers.setdefault(source, []).append(name)
    frames = {}
    for name in p.order:
        info = p.nodes[name]
        if info.op_type not in op_families.ENTER:
            continue
        frame = info.node_def.attr["frame_name"].s
        exits, next_iterations = frames.setdefault(frame, (set(), set()))
        seen, stack = {name}, [(name, 1)]
        while stack:
            current, depth = stack.pop()
            for consumer in consumers.get(current, ()):
                if consumer in seen or consumer not in p.nodes:
                    continue
                seen.add(consumer)
                kind = p.nodes[consumer].op_type
                if depth == 1 and kind in op_families.EXIT:
                    exits.add(consumer)
                    continue
                if depth == 1 and kind in op_families.NEXT_ITERATION:
                    next_iterations.add(consumer)
                inner = depth + (kind in op_families.ENTER) - (kind in op_families.EXIT)
                stack.append((consumer, inner))
    return list(frames.values())


def _transfer_key(info):
    attr = info.node_def.attr
    return attr["send_device"].s, attr["recv_device"].s, attr["tensor_name"].s


def _feed_used(tensor, needed, nodes, fetches):
    if f"{tensor[0]}:{tensor[1]}" in fetches:
        return True
    return any(tensor in nodes[name].inputs for name in needed)


def canonical_slots(info):
    """Data input slots in the order TensorFlow's client graph has them: Grappler sorts the
    inputs of a commutative op (Mul, AddV2, ...) by name."""
    slots = list(range(len(info.inputs)))
    node_def = info.node_def
    dtype = node_def.attr["T"].type if node_def is not None and "T" in node_def.attr else None
    if len(slots) > 1 and op_registry.is_commutative(info.op_type, dtype):
        slots.sort(key=lambda s: _input_string(info.inputs[s]))
    return slots


def _input_string(edge):
    producer, output = edge
    return producer if output == 0 else f"{producer}:{output}"


def grappler_order(nodes, fetches, targets):
    """The node order of the graph Grappler hands back: the fanin of the fetches and targets
    (fed nodes kept), depth-first from them, then sorted topologically breadth-first, a
    node's data consumers before its control consumers."""
    roots = [parse_tensor_name(f)[0] for f in fetches] + list(targets)
    postorder, seen = [], set()
    for root in roots:
        if root in seen:
            continue
        stack = [(root, False)]
        while stack:
            name, done = stack.pop()
            if done:
                postorder.append(name)
                continue
            if name in seen:
                continue
            seen.add(name)
            stack.append((name, True))
            info = nodes[name]
            fanin = [info.inputs[s][0] for s in canonical_slots(info)] + info.control_inputs
            stack.extend((p, False) for p in reversed(fanin) if p not in seen)
    position = {name: i for i, name in enumerate(postorder)}
    pending, data_out, control_out = {}, {}, {}
    for name in postorder:
        info = nodes[name]
        inputs = [p for p, _ in info.inputs if not _back_edge(nodes, p, info)]
        pending[name] = len(inputs) + len(info.control_inputs)
        for producer in inputs:
            data_out.setdefault(producer, []).append(name)
        for producer in info.control_inputs:
            control_out.setdefault(producer, []).append(name)
    ready = [n for n in postorder if pending[n] == 0]
    i = 0
    while i < len(ready):
        name = ready[i]
        i += 1
        for consumer in sorted(data_out.get(name, ()), key=position.get) + \
                sorted(control_out.get(name, ()), key=position.get):
            pending[consumer] -= 1
            if pending[consumer] == 0:
                ready.append(consumer)
    return ready


def _back_edge(nodes, producer, consumer):
    """A loop's NextIteration -> Merge edge, which a topological order leaves out (as
    TensorFlow's does): every other edge of a while loop runs forward."""
    return (consumer.op_type in ("Merge", "RefMerge")
            and nodes[producer].op_type in ("NextIteration", "RefNextIteration"))


def edge_ids(nodes, client_order, used_feeds, fetches, arg_of):
    """TensorFlow's edge ids in the client graph, which name the tensors sent.

    Edge 0 is _SOURCE->_SINK; the graph imported from Grappler numbers each node's input
    edges in node order (data inputs in canonical order, then control inputs), then one edge
    per node from _SOURCE (no inputs) and to _SINK (no outputs); the copy into the client
    graph starts with its own _SOURCE->_SINK edge (every id moves up one); the call-frame
    rewrite then adds an edge per consumer of each feed's _Arg and two per _Retval.
    Keys: (src, output, dst, slot), (src, -1, dst, 0) for control, ("retval", fetch).
    """
    ids, out_edges, has_in, has_out = {}, {}, set(), set()
    next_id = 1
    for name in client_order:
        info = nodes[name]
        for slot in canonical_slots(info):
            producer, output = info.inputs[slot]
            ids[(producer, output, name, slot)] = next_id + 1
            out_edges.setdefault((producer, output), []).append((name, slot))
            has_in.add(name)
            has_out.add(producer)
            next_id += 1
        for producer in info.control_inputs:
            ids[(producer, -1, name, 0)] = next_id + 1
            has_in.add(name)
            has_out.add(producer)
            next_id += 1
    next_id += sum(name not in has_in for name in client_order)
    next_id += sum(name not in has_out for name in client_order)
    next_id += 1
    for feed in used_feeds:
        tensor = parse_tensor_name(feed)
        for dst, slot in out_edges.get(tensor, ()):
            ids[(arg_of[tensor], 0, dst, slot)] = next_id
            next_id += 1
    for fetch in fetches:
        ids[("retval", fetch)] = next_id
        next_id += 2
    return ids


def _partition_order(deps, added):
    """TensorFlow's order of a partition graph: the order nodes were added, re-sorted
    topologically taking the earliest ready node first (its GraphDef import)."""
    index = {name: i for i, name in enumerate(added)}
    pending, consumers = {}, {}
    for name in added:
        sources = {s for s in deps.get(name, ()) if s in index}
        pending[name] = len(sources)
        for source in sources:
            consumers.setdefault(source, []).append(name)
    ready = [index[n] for n in added if pending[n] == 0]
    heapq.heapify(ready)
    result = []
    while ready:
        name = added[heapq.heappop(ready)]
        result.append(name)
        for consumer in consumers.get(name, ()):
            pending[consumer] -= 1
            if pending[consumer] == 0:
                heapq.heappush(ready, index[consumer])
    placed = set(result)
    return result + [n for n in added if n not in placed]


# Nodes -----------------------------------------------------------------------------------------

def _placed(info, inputs, controls, device):
    return NodeInfo(info.name, info.op_type, info.node_def, inputs, controls,
                    info.output_dtypes, info.ref_inputs, op=info.op, device=device,
                    is_stateful=info.is_stateful)


def _transfer_def(name, op, src, dst, send_device, recv_device, tensor_name):
    node_def = node_def_pb2.NodeDef(name=name, op=op, device=send_device if op == "_Send"
                                    else recv_device)
    attr = node_def.attr
    attr["_dst"].s = dst.encode()
    attr["_src"].s = src.encode()
    attr["client_terminated"].b = False
    attr["recv_device"].s = recv_device.encode()
    attr["send_device"].s = send_device.encode()
    attr["send_device_incarnation"].i = INCARNATION
    attr["tensor_name"].s = tensor_name.encode()
    return node_def


def _send(name, input_name, src, dst, send_device, recv_device, tensor_name, dtype,
          fed_tensor=None):
    """A _Send of `input_name`; of a feed's _Arg, the plan reads `fed_tensor` (it makes the
    _Arg itself)."""
    node_def = _transfer_def(name, "_Send", src, dst, send_device, recv_device, tensor_name)
    node_def.attr["T"].type = dtype.base_dtype.as_datatype_enum
    node_def.input.append(input_name)
    source = fed_tensor or parse_tensor_name(input_name)
    # A fetched ref (a variable) goes as the Ref itself, read once the run has finished, as
    # a fetch of it on its own device is: TensorFlow 1.x's aliasing, so a fetched variable
    # shows the value the run left in it, wherever the variable lives. Other consumers get
    # its value as the _Send reads it.
    return NodeInfo(name, "_Send", node_def, [source], [], [], (dtype.is_ref_dtype,),
                    device=send_device, is_stateful=True)


def _recv(name, src, dst, send_device, recv_device, tensor_name, dtype):
    node_def = _transfer_def(name, "_Recv", src, dst, send_device, recv_device, tensor_name)
    node_def.attr["tensor_type"].type = dtype.base_dtype.as_datatype_enum
    return NodeInfo(name, "_Recv", node_def, [], [], [dtype], device=recv_device,
                    is_stateful=True)


def _dummy_const(name, src, device):
    """The tiny tensor a control edge sends: an empty float Const run after `src`."""
    node_def = node_def_pb2.NodeDef(name=name, op="Const", device=device)
    node_def.input.append("^" + src)
    node_def.attr["dtype"].type = dtypes.float32.as_datatype_enum
    value = node_def.attr["value"].tensor
    value.dtype = dtypes.float32.as_datatype_enum
    value.tensor_shape.dim.add(size=0)
    return NodeInfo(name, "Const", node_def, [], [src], [dtypes.float32], device=device)


def _identity(name, recv_name, device):
    node_def = node_def_pb2.NodeDef(name=name, op="Identity", device=device)
    node_def.input.append(recv_name)
    node_def.attr["T"].type = dtypes.float32.as_datatype_enum
    return NodeInfo(name, "Identity", node_def, [(recv_name, 0)], [], [dtypes.float32],
                    (False,), device=device)


class _SkipTransfers:
    """Step stats without _Send/_Recv: TensorFlow's StepStatsCollector skips transfer nodes."""

    _skip = False

    def node_scheduled(self, node, *args):
        if node.op_type not in op_families.SEND_RECV:
            super().node_scheduled(node, *args)

    def node_started(self, node, *args):
        self._skip = node.op_type in op_families.SEND_RECV
        if not self._skip:
            super().node_started(node, *args)

    def op_started(self, node, *args):
        if not self._skip:
            super().op_started(node, *args)

    def op_finished(self, node, *args):
        if not self._skip:
            super().op_finished(node, *args)

    def node_finished(self, node, *args):
        if not self._skip:
            return super().node_finished(node, *args)
        return None


class TransferlessCollector(_SkipTransfers, StepStatsCollector):
    """A CPU partition's step stats, without _Send/_Recv."""


class GpuTransferlessCollector(_SkipTransfers, GpuStepStatsCollector):
    """A GPU partition's step stats (and its stream:all), without _Send/_Recv."""
