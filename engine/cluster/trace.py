"""FULL_TRACE across a cluster: step stats as TensorFlow's workers report them, partition
graphs named as TensorFlow's master names them.

On each task a TaskCollector records its partitions' nodes (no _Send/_Recv, as every
TensorFlow collector; no _Arg/_Retval, which a TensorFlow master never has: the client's
feeds and fetches are client-terminated _Recv/_Send) and, for every tensor that came from
another task, a `RecvTensor` entry labelled as TensorFlow's WorkerCacheLogger labels it.
The client puts every task's DeviceStepStats on its own clock (`clock_offsets`).
"""

import time

from engine.cluster.cluster_spec import task_name
from engine.runtime.partition import TransferlessCollector
from engine.proto import graph_pb2, step_stats_pb2
from engine.runtime.step_stats import describe_tensor

NOT_RECORDED = frozenset(("_Arg", "_Retval"))


class TaskCollector(TransferlessCollector):
    """One partition's step stats on its task (see the module docstring).

    `remote_recvs`: the partition's _Recv nodes whose tensor comes from another task,
    name -> (tensor_name, send_device)."""

    def __init__(self, device, remote_recvs):
        super().__init__(device)
        self._remote_recvs, self._recv_started = remote_recvs, {}

    def node_scheduled(self, node, *args):
        if node.op_type not in NOT_RECORDED:
            super().node_scheduled(node, *args)

    def node_started(self, node, *args):
        if node.name in self._remote_recvs:
            self._recv_started[node.name] = (time.time_ns(), time.perf_counter_ns())
        if node.op_type in NOT_RECORDED:
            self._skip = True
            return
        super().node_started(node, *args)

    def node_finished(self, node, outputs, *args):
        started = self._recv_started.pop(node.name, None)
        if started is not None:
            self._record_transfer(node, outputs, *started)
        return super().node_finished(node, outputs, *args)

    def _record_transfer(self, node, outputs, start_ns, start_perf):
        tensor_name, send_device = self._remote_recvs[node.name]
        elapsed_ns = time.perf_counter_ns() - start_perf
        value = outputs[0] if outputs else None
        nbytes = int(getattr(value, "nbytes", 0) or 0)
        rate = 8.0 * nbytes / max(1, elapsed_ns // 1000)  # megabits a second, as TF's
        stats = self.dev_stats.node_stats.add(
            node_name="RecvTensor", thread_id=self._thread_id,
            timeline_label=f"[{nbytes}B] [{rate:f}Mb/s] {tensor_name} from {send_device} "
                           f"to {self.dev_stats.device}")
        stats.all_start_nanos, stats.all_start_micros = start_ns, start_ns // 1000
        stats.scheduled_nanos, stats.scheduled_micros = start_ns, start_ns // 1000
        stats.op_end_rel_nanos = stats.all_end_rel_nanos = elapsed_ns
        stats.op_end_rel_micros = stats.all_end_rel_micros = elapsed_ns // 1000
        if value is not None:
            describe_tensor(stats.output.add(slot=0).tensor_description,
                            node.output_dtypes[0], value)


def remote_recvs(graph_def, device):
    """name -> (tensor_name, send_device) of the _Recv nodes fed from another task."""
    task = task_name(device)
    out = {}
    for node_def in graph_def.node:
        if node_def.op in ("_Recv", "_HostRecv"):
            send_device = node_def.attr["send_device"].s.decode()
            if task_name(send_device) != task:
                out[node_def.name] = (master_tensor_name(node_def.attr["tensor_name"].s.decode()),
                                      send_device)
    return out


def shifted(dev_stats_bytes, offset_ns):
    """A task's DeviceStepStats on the client's clock (`offset_ns`: task clock - client's)."""
    dev_stats = step_stats_pb2.DeviceStepStats.FromString(dev_stats_bytes)
    if offset_ns:
        for stats in dev_stats.node_stats:
            for field in ("all_start", "scheduled"):
                nanos = getattr(stats, field + "_nanos") - offset_ns
                setattr(stats, field + "_nanos", nanos)
                setattr(stats, field + "_micros", nanos // 1000)
    return dev_stats


def clock_offset(samples):
    """A task's clock minus the client's, from (client send ns, task ns, client reply ns)
    round trips, as NTP estimates it; 0 where the difference is within the round trip's
    uncertainty (tasks on the client's machine share its clock).

    >>> clock_offset([(1000, 5500, 2000), (3000, 8000, 5000)])
    4000
    >>> clock_offset([(1000, 1600, 2000)])
    0
    """
    best = min(samples, key=lambda s: s[2] - s[0])
    sent, task_ns, replied = best
    offset = task_ns - (sent + replied) // 2
    return offset if abs(offset) > (replied - sent) // 2 else 0


# Partition graphs as TensorFlow's master names them --------------------------------------------

def as_master_names(graph_def, client_device):
    """The partition graph with the client's feeds and fetches as a TensorFlow master cuts
    them: `_recv_<tensor>_<output>` / `_send_<tensor>_<output>`, client-terminated _Recv /
    _Send, where the engine runs `_arg_...` / `_retval_...` nodes (a display rewrite: the
    task runs the _Arg/_Retval graph). Names are rewritten by rule, the same in every
    partition (no TensorFlow op name starts with `_`)."""
    out = graph_pb2.GraphDef()
    out.CopyFrom(graph_def)
    for node_def in out.node:
        if node_def.op in ("_Arg", "_Retval"):
            _client_terminated(node_def, master_name(node_def.name), client_device)
            continue
        node_def.name = master_name(node_def.name)
        inputs = [_rename_input(i) for i in node_def.input]
        del node_def.input[:]
        node_def.input.extend(inputs)
        if node_def.op in ("_Send", "_Recv", "_HostSend", "_HostRecv"):
            node_def.attr["tensor_name"].s = master_tensor_name(
                node_def.attr["tensor_name"].s.decode()).encode()
    return out


def master_name(name):
    """A TensorFlow master's name for an engine node name.

    >>> master_name("_arg_tower_1/x_0_2_S5")
    '_recv_tower_1/x_0_S5'
    >>> master_name("_retval_loss_0_0"), master_name("w/read_S3")
    ('_send_loss_0', 'w/read_S3')
    """
    head, sep, tail = name.rpartition("_S")
    if not (sep and tail.isdigit()):
        head, sep, tail = name, "", ""
    for prefix, new_prefix in (("_arg_", "_recv_"), ("_retval_", "_send_")):
        if head.startswith(prefix):
            return new_prefix + head[len(prefix):].rsplit("_", 1)[0] + sep + tail
    return name


def master_tensor_name(tensor_name):
    """`edge_<id>_<node>` with the node's master name.

    >>> master_tensor_name("edge_117__arg_tower_1/x_0_2")
    'edge_117__recv_tower_1/x_0'
    """
    edge, sep, rest = tensor_name.partition("_")
    number, sep2, source = rest.partition("_")
    if edge != "edge" or not (sep and sep2 and number.isdigit()):
        return tensor_name
    return f"edge_{number}_{master_name(source)}"


def _client_terminated(node_def, name, client_device):
    tensor = name[len("_recv_"):] if node_def.op == "_Arg" else name[len("_send_"):]
    producer, _, output = tensor.rpartition("_")
    dtype = node_def.attr["T"].type
    inputs = list(node_def.input)
    node_def.Clear()
    node_def.name, node_def.device = name, client_device
    node_def.op = "_Recv" if node_def.name.startswith("_recv_") else "_Send"
    node_def.input.extend(inputs)
    attr = node_def.attr
    attr["tensor_type" if node_def.op == "_Recv" else "T"].type = dtype
    attr["tensor_name"].s = f"{producer}:{output}".encode()
    attr["send_device"].s = attr["recv_device"].s = client_device.encode()
    attr["send_device_incarnation"].i = 1
    attr["client_terminated"].b = True


def _rename_input(text):
    control = text.startswith("^")
    name, sep, output = text.lstrip("^").partition(":")
    return ("^" if control else "") + master_name(name) + sep + output
