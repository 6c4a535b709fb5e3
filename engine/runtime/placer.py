"""Placement: a device for every node, as TensorFlow's Placer chooses it.

A session's devices come from its ConfigProto: `device_count["CPU"]` logical CPUs (one by
default) and a GPU per CUDA device CuPy sees (none without CuPy). Nodes are grouped first:
`_class: ["loc:@x"]` colocates a node with x, and a ref or resource input keeps a node with the
variable it reads (TensorFlow's colocation of reference edges). A group goes to the device its
members ask for; unconstrained groups go to the first device of the highest priority type
(GPU, then CPU) with kernels for all members. Where the requested device does not exist, or has
no kernel for a member, soft placement (allow_soft_placement) picks the best device that does;
without it the run fails with TensorFlow's InvalidArgumentError. As TensorFlow, nodes with
inputs are placed first, then generators (no inputs, one output: constants, variables' handles),
which follow their consumers when those all sit on one device, and metadata ops (Shape, Size,
Rank) and lone Identities follow their input.
"""

import contextlib
import functools

from engine.runtime import placement_log
from engine.framework import errors, op_families
from engine.framework.devices import DeviceSpec, local_name, matches, merge
from engine.kernels import has_kernel
from engine.kernels.cuda import backend
from engine.kernels.cuda.backend import device_description
from engine.runtime.node_run import user_frames

CLIENT_DEVICE = local_name("CPU", 0)
DEVICE_TYPE_PRIORITY = ("GPU", "CPU")  # TensorFlow's registered priorities, highest first


def cuda_device_count():
    """How many GPUs the process has: CUDA devices CuPy sees, or simulated ones
    (engine/kernels/cuda/backend.py); 0 without CuPy or without a GPU."""
    return backend.device_count()


def session_devices(config):
    """Full names of a session's devices: CPU:0..n-1, then GPU:0..m-1 where CuPy sees GPUs."""
    counts = dict(config.device_count) if config is not None else {}
    cpus = max(1, counts.get("CPU", 1))
    gpus = cuda_device_count()
    if "GPU" in counts:
        gpus = min(gpus, max(0, counts["GPU"]))
    return ([local_name("CPU", i) for i in range(cpus)]
            + [local_name("GPU", i) for i in range(gpus)])


def device_type(full_name):
    return DeviceSpec.from_string(full_name).device_type


def device_scope(device):
    """The CUDA device a GPU partition's kernels run on (CuPy's current device is the
    calling thread's, and a plan's constants are made when it is bound); nothing on a CPU."""
    index = _gpu_index(device)
    if index is None:
        return contextlib.nullcontext()
    current = backend.current()
    return contextlib.nullcontext() if current is None else current.xp.cuda.Device(index)


@functools.lru_cache(maxsize=64)
def _gpu_index(device):
    spec = DeviceSpec.from_string(device)
    return (spec.device_index or 0) if spec.device_type == "GPU" else None


def colocation_groups(nodes, order):
    """name -> group root, joining `_class` colocation and ref/resource edges (union-find)."""
    parent = {name: name for name in order}

    def find(name):
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra

    for name in order:
        info = nodes[name]
        attr = info.node_def.attr.get("_class") if info.node_def is not None else None
        if attr is not None:
            for entry in attr.list.s:
                entry = entry.decode() if isinstance(entry, bytes) else entry
                if entry.startswith("loc:@") and entry[5:] in parent:
                    union(entry[5:], name)
        for (producer, output), is_ref in zip(info.inputs, info.ref_inputs):
            if producer in parent and _reference_edge(nodes[producer], output, is_ref):
                union(producer, name)
    _join_control_flow(nodes, order, parent, union)
    _join_frames(nodes, order, parent, union)
    _join_dead_regions(nodes, order, parent, union)
    return {name: find(name) for name in order}


def _join_control_flow(nodes, order, parent, union):
    """Joins each outermost tf.cond and tf.while_loop into one group (with the Switches it
    reads through and the Merges and Exits it ends in).

    TensorFlow's partitioner cuts a loop or a cond across devices (dead tensors travel through
    the rendezvous, and AddControlFlow gives every partition its own copy of a loop's frame);
    the engine's does not, so a construct is placed whole: on the GPU where every node of it
    has a GPU kernel, else on the CPU. The values are the same on either.
    """
    first_of = {}
    for name in order:
        key = _outermost_context(nodes[name])
        if key is None:
            continue
        if key in first_of:
            union(first_of[key], name)
        else:
            first_of[key] = name
    for name in order:
        info = nodes[name]
        inside = _outermost_context(info) is not None
        producers = [p for p, _ in info.inputs] + list(info.control_inputs)
        for producer in producers:
            if producer not in parent:
                continue
            source = nodes[producer]
            if (inside and source.op_type in op_families.SWITCH) or (
                    info.op_type in op_families.MERGE | op_families.EXIT
                    and _outermost_context(source) is not None):
                union(producer, name)


def _join_frames(nodes, order, parent, union):
    """Joins the nodes of each while loop's frame, read from the graph itself (an imported
    graph has no contexts): from every Enter, forward to the Exits of its frame."""
    consumers = _consumers(nodes, order)
    for name in order:
        if nodes[name].op_type not in op_families.ENTER:
            continue
        seen, stack = {name}, [(name, 1)]
        while stack:
            current, depth = stack.pop()
            for consumer in consumers.get(current, ()):
                if consumer in seen or consumer not in parent:
                    continue
                seen.add(consumer)
                union(name, consumer)
                kind = nodes[consumer].op_type
                inner = depth + (kind in op_families.ENTER) - (kind in op_families.EXIT)
                if inner > 0:
                    stack.append((consumer, inner))


def _join_dead_regions(nodes, order, parent, union):
    """Joins every node that may be dead (downstream of a Switch, before a Merge) with the
    producers it may be dead through: the region a Switch starts, whether or not the graph
    recorded a context for it (a gradient's Switch is built outside any; an imported graph
    has none), so no dead tensor has to cross devices."""
    may_be_dead = set()
    for name in order:
        info = nodes[name]
        if info.op_type in op_families.MERGE:
            continue
        producers = [p for p, _ in info.inputs] + list(info.control_inputs)
        for producer in producers:
            if producer in parent and (producer in may_be_dead
                                       or nodes[producer].op_type in op_families.SWITCH):
                may_be_dead.add(name)
                union(producer, name)
        if info.op_type in op_families.SWITCH:
            may_be_dead.add(name)
    for name in order:  # a Merge ends the regions it joins
        info = nodes[name]
        if info.op_type in op_families.MERGE:
            for producer, _ in info.inputs:
                if producer in may_be_dead:
                    union(producer, name)


def _outermost_context(info):
    """The outermost control-flow context `info`'s op was built in (None at top level, or
    for a graph imported from a GraphDef, which has no contexts)."""
    op = info.op
    context = getattr(op, "_control_flow_context", None) if op is not None else None
    if context is None:
        return None
    while getattr(context, "outer_context", None) is not None:
        context = context.outer_context
    return id(context)


def _reference_edge(producer, output, consumer_takes_ref):
    dtype = producer.output_dtypes[output] if output < len(producer.output_dtypes) else None
    if dtype is None:
        return False
    if dtype.is_ref_dtype:
        return consumer_takes_ref
    return getattr(dtype, "name", "") == "resource"


class Placer:
    """Places every node of a graph on one of `devices` (see the module docstring)."""

    def __init__(self, devices, allow_soft_placement=False, kernel_check=has_kernel,
                 client=CLIENT_DEVICE):
        self.devices = list(devices)
        self.client = client  # where unconstrained nodes go: the client's task (a cluster's)
        self.allow_soft_placement = allow_soft_placement
        self.kernel_check = kernel_check
        self.log = []  # (name, op type, device) in the order TensorFlow logs them

    def place(self, nodes, order):
        """name -> full device name, for every node in `order`."""
        self.log = []
        unconstrained = all(not nodes[n].device and "_class" not in nodes[n].node_def.attr
                            for n in order)
        if unconstrained and all(device_type(d) == "CPU" for d in self.devices):
            # The common case: nothing asked for and only CPUs: all on the first.
            generators = [n for n in order if _is_generator(nodes[n])]
            generator_set = set(generators)
            self.log = [(n, nodes[n].op_type, self.client)
                        for n in [n for n in order if n not in generator_set] + generators]
            return dict.fromkeys(order, self.client)
        groups = colocation_groups(nodes, order)
        members = {}
        for name in order:
            members.setdefault(groups[name], []).append(name)
        consumers = _consumers(nodes, order)
        placed, group_device = {}, {}
        generators = [n for n in order if _is_generator(nodes[n])]
        generator_set = set(generators)
        for name in [n for n in order if n not in generator_set] + generators:
            root = groups[name]
            device = group_device.get(root)
            if device is None:
                device = self._group_device(nodes, members[root], name)
                alone = len(members[root]) == 1 and not nodes[name].device
                if alone and name in generator_set:
                    device = _follow_consumers(name, consumers, placed, device,
                                               self._supports(nodes, [name]))
                elif alone and _inherits_input(nodes, name, consumers):
                    source = placed.get(nodes[name].inputs[0][0])
                    if source is not None and source in self._supports(nodes, [name]):
                        device = source
                group_device[root] = device
            placed[name] = device
            self.log.append((name, nodes[name].op_type, device))
        return placed

    # -------------------------------------------------------------------------------------------

    def _supports(self, nodes, names):
        """The devices with a kernel for every node in `names`, in priority order."""
        types = [t for t in DEVICE_TYPE_PRIORITY
                 if all(self.kernel_check(nodes[n].op_type, t) for n in names)]
        return [d for t in types for d in self.devices if device_type(d) == t]

    def _default_device(self, nodes, names):
        supported = self._supports(nodes, names)
        return supported[0] if supported else self.client

    def _group_device(self, nodes, names, first):
        """The device for a colocation group: its request, else the best supported one."""
        requested, asker = _group_request(nodes, names)
        if not requested:
            return self._default_device(nodes, names)
        candidates = [d for d in self.devices if matches(requested, d)]
        supported = self._supports(nodes, names)
        usable = [d for d in candidates if d in supported]
        if usable:
            return usable[0]
        if self.allow_soft_placement:
            spec = DeviceSpec.from_string(requested)
            same_type = [d for d in supported if device_type(d) == spec.device_type]
            return (same_type or supported or [self.client])[0]
        if not candidates:
            raise _placement_error(nodes[asker], requested, self.devices)
        if not supported and not any(self.kernel_check(nodes[n].op_type, "CPU") for n in names):
            return candidates[0]  # no kernel anywhere: the executor reports it, as it does
        spec = DeviceSpec.from_string(requested)
        raise _placement_error(nodes[asker], requested, self.devices, no_kernel=spec.device_type)


def _group_request(nodes, names):
    """(device spec, node asking) for a group: a variable's request first, then the others'.

    As TensorFlow, a member joined through a reference edge whose own request conflicts is
    ignored ("Ignoring device specification ... because the input edge ... is a reference
    connection"); the first compatible requests are merged.
    """
    ordered = sorted(names, key=lambda n: not _holds_state(nodes[n]))
    merged, asker = "", None
    for name in ordered:
        spec = nodes[name].device
        if not spec:
            continue
        if not merged:
            merged, asker = spec, name
            continue
        if _compatible(merged, spec):
            merged = merge(merged, spec)
    return merged, asker


def _compatible(a, b):
    sa, sb = DeviceSpec.from_string(a), DeviceSpec.from_string(b)
    return all(getattr(sa, f) is None or getattr(sb, f) is None or getattr(sa, f) == getattr(sb, f)
               for f in DeviceSpec.__slots__)


def _holds_state(info):
    return any(d.is_ref_dtype or getattr(d, "name", "") == "resource" for d in info.output_dtypes)


def _is_generator(info):
    """No inputs and one non-ref output (TensorFlow's IsGeneratorNode)."""
    return (not info.inputs and len(info.output_dtypes) == 1
            and not info.output_dtypes[0].is_ref_dtype)


def _inherits_input(nodes, name, consumers):
    info = nodes[name]
    if info.device or not info.inputs:
        return False
    if info.op_type in op_families.METADATA:
        return True
    return (info.op_type in op_families.IDENTITY
            and len(info.inputs) + len(info.control_inputs) == 1
            and len(consumers.get(name, ())) == 1)


def _follow_consumers(name, consumers, placed, default, supported):
    """A generator's device: its consumers' when they all sit on one device it supports."""
    devices = {placed.get(c) for c in consumers.get(name, ())}
    if len(devices) == 1:
        (device,) = devices
        if device is not None and device in supported:
            return device
    return default


def _consumers(nodes, order):
    out = {}
    for name in order:
        info = nodes[name]
        for producer, _ in info.inputs:
            out.setdefault(producer, []).append(name)
        for producer in info.control_inputs:
            out.setdefault(producer, []).append(name)
    return out


def _placement_error(info, requested, devices, no_kernel=None):
    if no_kernel:
        text = (f"Cannot assign a device for operation {info.name}: Could not satisfy explicit "
                f"device specification '{requested}' because no supported kernel for "
                f"{no_kernel} devices is available.")
    else:
        text = (f"Cannot assign a device for operation {info.name}: {{{{node {info.name}}}}} "
                f"was explicitly assigned to {requested} but available devices are "
                f"[ {', '.join(devices)} ]. Make sure the device specification refers to a "
                f"valid device.")
        if DeviceSpec.from_string(requested).device_type == "GPU":
            text += " The requested device appears to be a GPU, but CUDA is not enabled."
    error = errors.InvalidArgumentError(info.node_def, info.op,
                                        _graph_execution_message(info, text))
    error.node_name, error.op_type, error.kernel_message = info.name, info.op_type, text
    return error


def _graph_execution_message(info, text):
    """TensorFlow's Session.run wording: where the node was defined, then `[[name]]`."""
    message = "Graph execution error:\n\n"
    frames = user_frames(info.op)
    if frames:
        message += f"Detected at node '{info.name}' defined at (most recent call last):\n"
        message += "".join(f'    File "{f[0]}", line {f[1]}, in {f[2]}\n' for f in frames)
        message += f"Node: '{info.name}'\n"
    return message + text + f"\n\t [[{info.name}]]"


def device_mapping_message(devices):
    """What TensorFlow logs at session creation with log_device_placement."""
    gpus = [d for d in devices if device_type(d) == "GPU"]
    if not gpus:
        return "Device mapping: no known devices."
    lines = []
    for d in gpus:
        index = DeviceSpec.from_string(d).device_index
        described = device_description(index)
        lines.append(f"{d} -> device: {index}" + (f", {described}" if described else ""))
    return "Device mapping:\n" + "\n".join(lines)


def log_placement(entries, stream=None):
    """`name: (Op): device` per node, as TensorFlow's placer prints (stdout) and logs them
    (stderr): engine/runtime/placement_log.py."""
    placement_log.log_placement(entries, stream)
