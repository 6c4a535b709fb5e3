"""tf.Session on a cluster: the graph placed on the cluster's tasks, cut per task and device,
each partition run on its task's Dask worker (engine/cluster/connection.py, task.py).

Planning is the engine's own (engine/runtime/session.py): this subclass gives it the cluster's
devices and master, and ships each run's partitions to their tasks instead of running them
on threads of this process. Variables live on their tasks, so they outlive the session and
are shared by every client of the cluster, as TensorFlow's.
"""

import contextlib
import time

from engine.runtime import observers as observers_lib, session as session_lib, step_stats
from engine.cluster import trace as trace_lib
from engine.cluster.cluster_spec import task_name
from engine.proto import graph_pb2


class ClusterSession(session_lib.Session, serves_cluster_targets=True):
    """A Session whose target names a cluster (see engine/runtime/session.py's Session)."""

    _runs_in_process = False

    def __init__(self, target="", graph=None, config=None):
        # Here, not at the top: the connection brings Dask, and engine/api/core.py imports this
        # module for every `import engine as tf`, cluster or not.
        from engine.cluster import connection as connection_lib
        target = target.decode() if isinstance(target, bytes) else target
        self._connection = connection_lib.Connection(target, config)
        super().__init__(target, graph, config)
        self._client_device = self._connection.client_device
        self._devices = list(self._connection.devices)
        self._shipped = {}  # id(entry) -> (handle, {task: [partition spec]})
        self._plans = {}    # id(entry) -> {device: the partition's plan}, for relayed observers

    @property
    def cluster_spec(self):
        """The tf.train.ClusterSpec of the cluster this session runs on."""
        return self._connection.cluster

    def _bind_partition(self, part, feed_names, entry, sorted_fetches):
        bound = super()._bind_partition(part, feed_names, entry, sorted_fetches)
        handle, by_task = self._shipped.setdefault(id(entry), (
            self._connection.new_handle(), {}))
        is_client = part.device == self._client_device
        spec = (part.device, _partition_graph_bytes(part),
                list(feed_names) if is_client else [], sorted(set(part.fetches.values())),
                list(part.targets), is_client)
        by_task.setdefault(task_name(part.device), []).append(spec)
        bound.graph_def = trace_lib.as_master_names(bound.graph_def, self._client_device)
        return bound

    def _new_edge_name(self, prefix):
        """A _Send/_Recv name as a TensorFlow master makes it (DirectSession's `prefix/_N`)."""
        return f"{prefix}_S{next(self._edge_names)}"

    def _run_partitions(self, entry, values, factories, step_id, run_deadline=None):
        handle, by_task = self._shipped[id(entry)]
        timeout_ms = 0 if run_deadline is None else \
            max(1, int((run_deadline - time.monotonic()) * 1000))
        # FULL_TRACE: the tasks record their step stats. Factories marked relays_from_tasks
        # (the debugger's) observe every task's partitions from here (engine/cluster/relay.py);
        # the others (VLOG) see only runs in this process.
        collectors = next((f for f in factories if isinstance(f, step_stats.Collectors)), None)
        relayed = [f for f in factories if getattr(f, "relays_from_tasks", False)]
        relay = self._relay(entry, relayed, step_id) if relayed else contextlib.nullcontext()
        with relay:
            try:
                results, stats = self._connection.run_step(
                    handle, by_task, step_id, list(values), timeout_ms,
                    trace=collectors is not None, relay=relay if relayed else None)
            except Exception as error:
                # An observer that stopped the run (the debugger's quit) is why it failed.
                if relayed and relay.error is not None:
                    raise relay.error from error
                raise
        if collectors is not None:
            collectors.collectors.extend(_Recorded(dev_stats) for dev_stats in stats)
        return [results[i] for i in entry.client_results]

    def _relay(self, entry, factories, step_id):
        """The client's end of a relayed step: an observer per partition from `factories`,
        made here for every partition (client's first) before any task runs."""
        from engine.cluster import relay as relay_lib, task as task_lib
        _, by_task = self._shipped[id(entry)]
        plans = self._plans.get(id(entry))
        if plans is None:
            specs = {spec[0]: spec for specs in by_task.values() for spec in specs}
            plans = self._plans[id(entry)] = {
                part.device: task_lib.partition_plan(
                    part.device, graph_pb2.GraphDef.FromString(specs[part.device][1]),
                    *specs[part.device][2:5])
                for part in entry.parts}
        observers = {}
        for device, plan in plans.items():
            observer = observers_lib.observer_for(factories, device, step_id, plan)
            if observer is not None:
                observers[device] = (observer, plan)
        limit = min(f.max_value_bytes for f in factories)
        return relay_lib.ClientRelay(self._connection.client, observers, limit)

    def close(self):
        super().close()
        self._shipped.clear()
        self._plans.clear()


class _Recorded:
    """A task's DeviceStepStats where the session expects a collector's."""

    def __init__(self, dev_stats):
        self.dev_stats = dev_stats

    def device_step_stats(self):
        return [self.dev_stats]


def _partition_graph_bytes(part):
    """A partition as the task rebuilds it: every node with its partition inputs, the
    executor's ordering edges included, on the partition's device."""
    graph_def = graph_pb2.GraphDef()
    names = list(part.order) + [n for n in part.nodes if n not in set(part.order)]
    for name in names:
        info = part.nodes[name]
        node_def = graph_def.node.add()
        node_def.CopyFrom(info.node_def)
        node_def.name, node_def.device = name, part.device
        del node_def.input[:]
        node_def.input.extend(f"{p}:{o}" if o else p for p, o in info.inputs)
        node_def.input.extend("^" + c for c in info.control_inputs)
    return graph_def.SerializeToString()
