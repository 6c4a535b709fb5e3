"""tf.Session: run fetches given feeds, with an executor cached per (feeds, fetches, targets).

As TensorFlow's DirectSession: each distinct (graph version, feeds, fetches, targets) gets a
plan (pruned, rewritten with _Arg/_Retval, placed, ordered; engine/runtime/plan.py) bound to this
session's kernels and variables (engine/runtime/executor.py), built once and reused. Variables and
the random generators of stateful ops live in the session, so every plan shares them.

The graph is placed on the session's devices (engine/runtime/placer.py: ConfigProto device_count,
allow_soft_placement, log_device_placement). A run whose nodes all sit on the client device
(CPU:0) keeps the one-executor path; otherwise it is cut into one graph per device
(engine/runtime/partition.py), each with its own plan and executor, run concurrently, one thread per
device, exchanging tensors through the step's rendezvous (engine/runtime/rendezvous.py).

A run can be observed (engine/runtime/observers.py): factories given to `observe_runs(factory)` on
the calling thread or to `session._add_run_observer(factory)` hand each partition's executor an
observer, and the run takes the traced path; the step-stats collector (FULL_TRACE) and the
VLOG writer come in the same way, after them.
"""

import functools
import itertools
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from engine import kernels
from engine.framework import errors, graph, op_registry, topological
from engine.framework.graph import get_default_graph
from engine.optimizer import session_rewrite
from engine.proto import config_pb2
from engine.runtime import context_config
from engine.runtime import deadline, host_memory, mutexes, placement_log, threads, vlog
from engine.runtime import observers as observers_lib, step_stats
from engine.runtime import partition as partition_lib, placer as placer_lib, plan as plan_lib
from engine.runtime.executor import Executor, fetched_ref
from engine.runtime.fetches import FetchMapper, structure_key
# observe_runs is also engine.runtime.session.observe_runs
from engine.runtime.observers import observe_runs  # noqa: F401
from engine.runtime.random_philox import node_generator
from engine.runtime.rendezvous import RENDEZVOUS_KEY, RendezvousMgr, set_running_step
from engine.runtime.resources import ResourceMgr
from engine.runtime.session_feeds import feed_converter, feed_names_and_values, is_operation

RunOptions = config_pb2.RunOptions
RunMetadata = config_pb2.RunMetadata
ConfigProto = config_pb2.ConfigProto
GPUOptions = config_pb2.GPUOptions
GraphOptions = config_pb2.GraphOptions
OptimizerOptions = config_pb2.OptimizerOptions

_FULL_TRACE = config_pb2.RunOptions.FULL_TRACE
_NO_TRACE = config_pb2.RunOptions.NO_TRACE

def _ignoring_fp_errors(fn):
    """`fn` run with every NumPy floating-point error ignored: kernels compute log(-1) = nan
    as TensorFlow does, without NumPy's warnings."""
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        # NumPy 2's decorator sets its state per call in a context variable (thread-safe,
        # reentrant) and makes no errstate object: half the cost of a `with` (0.9 us a run).
        return np.errstate(all="ignore")(fn)

    @functools.wraps(fn)
    def ignoring(*args, **kwargs):  # NumPy 1's decorator keeps the old state on itself
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return ignoring


def get_default_session():
    """The innermost session entered with `with sess:` / `sess.as_default()`, or None.

    The stack itself lives with the default graph's (engine.framework.graph), which Tensor.eval and
    Operation.run read.
    """
    return graph.get_default_session()


class _PlanEntry:
    """A cached executor and what a run needs around it, precomputed."""

    __slots__ = ("executor", "feed_converters", "fetch_positions", "results_in_order",
                 "partition_graph", "parts", "client_results")

    def __init__(self, executor, feed_converters, fetch_positions, parts=None):
        self.executor = executor
        self.feed_converters = feed_converters  # in sorted feed-name order
        self.fetch_positions = fetch_positions  # element index -> executor result index
        # The executor's results are the elements' values as they are (no op, no repeat).
        self.results_in_order = fetch_positions == list(range(len(fetch_positions)))
        self.partition_graph = None
        self.parts = parts  # several devices: [_Part], the client's first
        self.client_results = None  # sorted fetch i -> index among the client's results


class _Part:
    """One device's partition of a run: its plan's executor and its graph for RunMetadata."""

    __slots__ = ("device", "executor", "graph_def")

    def __init__(self, device, executor, graph_def):
        self.device, self.executor, self.graph_def = device, executor, graph_def


class BaseSession:
    """A session over one engine Graph: variables, plan cache, run()."""

    _runs_in_process = True  # a cluster session (engine/cluster/session.py) runs on its tasks

    def __init__(self, target="", graph=None, config=None):
        if graph is None:
            graph = get_default_graph()
        if config is not None and not isinstance(config, config_pb2.ConfigProto):
            raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
        self._graph = graph
        self._target = target if isinstance(target, str) else target.decode()
        self._config = config if config is not None else context_config.default_config()
        self._closed = False
        self._resources = ResourceMgr()
        self._session_state = {}
        self._entries = {}
        self._mappers = {}
        self._feed_key_names = {}  # feed_dict key (a Tensor, a name) -> its tensor's name
        self._nodes, self._node_order, self._nodes_version = {}, [], None
        self._step_ids = itertools.count(1)  # next() on a count is atomic under the GIL
        self._devices = placer_lib.session_devices(self._config)
        self._client_device = placer_lib.CLIENT_DEVICE  # a cluster's: its master task's
        self._placement, self._placement_version = None, None
        self._edge_names = itertools.count()  # TF's edge_name_counter_: <node>/_<n>
        self._rendezvous = self._session_state[RENDEZVOUS_KEY] = RendezvousMgr()
        self._workers = None
        self._run_observers = ()  # run observer factories (engine/runtime/observers.py)
        self._entry_lock = threading.RLock()
        kernels.registered_ops("CPU")  # load the kernel tables before any thread runs
        threads.configure(self._config.intra_op_parallelism_threads)
        host_memory.keep_freed_memory()
        if self._config.log_device_placement:
            placement_log.log_device_mapping(placer_lib.device_mapping_message(self._devices))

    # Properties ------------------------------------------------------------------------------

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return self._target

    @property
    def resources(self):
        """This session's ResourceMgr (variables' values)."""
        return self._resources

    def as_default(self):
        return graph.default_session(self)

    def close(self):
        if not self._closed:
            self._closed = True
            self._entries.clear()
            self._resources.clear()
            if self._workers is not None:
                self._workers.shutdown(wait=False)

    def __del__(self):
        try:
            self._entries.clear()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass

    # Run -------------------------------------------------------------------------------------

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the graph to compute `fetches` (any nesting of graph elements) given feeds."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        mapper, fetch_key = self._fetch_mapper(fetches)
        feed_names, feed_values = self._feeds(feed_dict) if feed_dict else ((), ())
        key = (self._graph_version(), feed_names, fetch_key, session_rewrite.override())
        entry = self._entries.get(key)
        if entry is None:
            with self._entry_lock:  # as DirectSession's executor_lock_: one build per key
                entry = self._entries.get(key)
                if entry is None:
                    entry = self._entries[key] = self._new_entry(mapper, feed_names)
        values = [convert(value) for convert, value in zip(entry.feed_converters, feed_values)]
        step_id = next(self._step_ids)
        trace = options is not None and options.trace_level != _NO_TRACE
        factories = self._run_observers + observers_lib.this_thread.factories
        collectors = None
        if trace:
            collectors = (step_stats.Collectors() if entry.parts is None else
                          step_stats.Collectors(partition_lib.TransferlessCollector,
                                                partition_lib.GpuTransferlessCollector))
            factories += (collectors,)
        if vlog.wanted():  # VLOG: an observer writing TF's lines (engine/runtime/vlog.py)
            factories += (vlog.run_observer,)
        timeout_ms = (options.timeout_in_ms if options is not None and options.timeout_in_ms
                      else self._config.operation_timeout_in_ms)
        run_deadline = deadline.after_ms(timeout_ms)
        results = self._execute(entry, values, factories, step_id, run_deadline)
        if run_metadata is not None and options is not None:
            self._fill_run_metadata(entry, options, run_metadata, collectors)
        if entry.results_in_order:
            return mapper.build(results)
        return mapper.build([results[p] if p is not None else None
                             for p in entry.fetch_positions])

    @_ignoring_fp_errors
    def _execute(self, entry, values, factories, step_id, run_deadline):
        """The run's executors under its deadline: the results of the client's retvals."""
        previous_deadline = deadline.swap(run_deadline)  # not a generator context manager:
        try:  # that costs a microsecond a run
            if entry.parts is not None:
                return self._run_partitions(entry, values, factories, step_id, run_deadline)
            if factories:
                plan = entry.executor.plan
                observer = observers_lib.observer_for(factories, plan.device, step_id, plan)
                return observers_lib.run(entry.executor, values, observer, step_id)
            return entry.executor.run(values, step_id)
        finally:
            deadline.swap(previous_deadline)
            if self._resources.held_mutex_locks:  # a run that failed inside a critical section
                mutexes.release_held_by_this_thread(self._resources.held_mutex_locks)

    def _fill_run_metadata(self, entry, options, run_metadata, collectors):
        if collectors is not None:
            step_stats.run_metadata_step_stats(run_metadata, collectors.collectors)
        if options.output_partition_graphs:
            if entry.parts is not None:
                graphs = [part.graph_def for part in entry.parts]
            else:
                if entry.partition_graph is None:
                    entry.partition_graph = entry.executor.plan.partition_graph()
                graphs = [entry.partition_graph]
            for graph_def in graphs:
                run_metadata.partition_graphs.add().CopyFrom(graph_def)

    def _add_run_observer(self, factory):
        """Every later run of this session is observed through `factory`
        (engine/runtime/observers.py)."""
        self._run_observers += (factory,)

    def _remove_run_observer(self, factory):
        self._run_observers = tuple(f for f in self._run_observers if f is not factory)

    def _fetch_mapper(self, fetches):
        """(FetchMapper, names key) for `fetches`; remembered for a fetch that cannot change
        (by identity) and for a flat list, tuple or dict of graph elements (by its elements)."""
        cached = self._mappers.get(id(fetches))
        if cached is not None and cached[0] is fetches:
            return cached[1], cached[2]
        structure = structure_key(fetches)
        if structure is not None:
            cached = self._mappers.get(structure)
            if cached is not None:
                return cached[1], cached[2]
        mapper = FetchMapper.for_fetch(fetches, self._graph, session=self)
        key = tuple(("^" + e.name) if is_operation(e) else e.name for e in mapper.elements)
        if len(self._mappers) > 256:
            self._mappers.clear()
        if structure is not None:  # ints (ids) and tuples never collide as keys
            self._mappers[structure] = (None, mapper, key)
        elif not isinstance(fetches, (list, tuple, dict, set)):  # containers may change
            self._mappers[id(fetches)] = (fetches, mapper, key)
        return mapper, key

    def _feeds(self, feed_dict):
        """(feed tensor names, raw values), sorted by name, keys resolved as TF resolves them."""
        return feed_names_and_values(self._graph, feed_dict, self._feed_key_names)

    def _graph_version(self):
        graph = self._graph
        version = getattr(graph, "version", None)
        return version if version is not None else len(graph.get_operations())

    # Plans -----------------------------------------------------------------------------------

    def _new_entry(self, mapper, feed_names):
        graph = self._graph
        if not graph.get_operations():
            raise RuntimeError("The Session graph is empty. Add operations to the graph "
                               "before calling run().")
        fetch_names, target_names, element_names = [], [], []
        for element in mapper.elements:
            if is_operation(element):
                target_names.append(element.name)
                element_names.append(None)
            else:
                fetch_names.append(element.name)
                element_names.append(element.name)
        nodes, order = self._graph_nodes()
        placement = self._placed(nodes, order)
        # The graph optimizer, where Grappler sits (engine/optimizer/session_rewrite.py).
        nodes, order, placement, _ = session_rewrite.rewrite(
            self._config, nodes, order, placement, feed_names, fetch_names, target_names,
            placer_lib.CLIENT_DEVICE, graph._functions, kernels.has_kernel)
        sorted_fetches = sorted(set(fetch_names))
        index = {name: i for i, name in enumerate(sorted_fetches)}
        positions = [index[name] if name is not None else None for name in element_names]
        converters = [feed_converter(graph.get_tensor_by_name(name)) for name in feed_names]
        feed_set = {plan_lib.parse_tensor_name(name) for name in feed_names}
        roots = [plan_lib.parse_tensor_name(f)[0] for f in fetch_names
                 if plan_lib.parse_tensor_name(f) not in feed_set] + target_names
        client = self._client_device
        if self._runs_in_process and all(placement[name] == client for name in plan_lib.prune(nodes, feed_set, roots)):
            plan = plan_lib.build(nodes, order, list(feed_names), fetch_names, target_names)
            executor = Executor(plan, self._resources, self._rng, self._session_state)
            return _PlanEntry(executor, converters, positions)
        parts = partition_lib.partition(nodes, order, placement, feed_names, fetch_names,
                                        target_names, client, self._new_edge_name)
        entry = _PlanEntry(None, converters, positions, [])
        for device in sorted(parts, key=lambda d: (d != client, d)):
            entry.parts.append(self._bind_partition(parts[device], feed_names, entry,
                                                    sorted_fetches))
        entry.executor = entry.parts[0].executor
        if entry.client_results is None:  # targets only, none of them on the client
            entry.client_results = []
        return entry

    def _bind_partition(self, part, feed_names, entry, sorted_fetches):
        """A device's partition planned and bound; the client's _Retvals named as TF's."""
        is_client = part.device == self._client_device
        carried = sorted(set(part.fetches.values()))
        plan = plan_lib.build(part.nodes, part.order, list(feed_names) if is_client else [],
                              carried, part.targets, device=part.device)
        for node in plan.nodes:
            node.device = part.device
        with placer_lib.device_scope(part.device):
            executor = Executor(plan, self._resources, self._rng, self._session_state,
                                device_type=placer_lib.device_type(part.device))
        if is_client:
            position = {name: i for i, name in enumerate(carried)}
            entry.client_results = [position[part.fetches[f]] for f in sorted_fetches]
            retvals = sorted((n for n in plan.nodes if n.kind == "retval"), key=lambda n: n.index)
            by_carrier = dict(zip(carried, retvals))
            for index, fetch in enumerate(sorted_fetches):
                retval = by_carrier[part.fetches[fetch]]
                retval.name, retval.index = part.retvals[fetch], index
            plan.retvals = {node.name: node for node in retvals}
        graph_def = plan.partition_graph()
        rank = {name: i for i, name in enumerate(part.export_order)}
        ordered = sorted(graph_def.node, key=lambda n: rank.get(n.name, len(rank)))
        del graph_def.node[:]
        graph_def.node.extend(ordered)
        for node_def in graph_def.node:  # the executor's ordering edges are not TF's
            added = part.transfer_controls.get(node_def.name)
            if added:
                kept = [i for i in node_def.input if i not in added]
                del node_def.input[:]
                node_def.input.extend(kept)
        return _Part(part.device, executor, graph_def)

    def _new_edge_name(self, prefix):
        return f"{prefix}/_{next(self._edge_names)}"

    def _placed(self, nodes, order):
        """name -> device for every node of the graph, placed again as the graph grows."""
        version = self._graph_version()
        if self._placement_version != version:
            placer = placer_lib.Placer(self._devices, self._config.allow_soft_placement,
                                       client=self._client_device)
            self._placement = placer.place(nodes, order)
            self._placement_version = version
            if self._config.log_device_placement:
                placer_lib.log_placement(placer.log)
        return self._placement

    # Runs across devices -----------------------------------------------------------------------

    def _run_partitions(self, entry, values, factories, step_id, run_deadline=None):
        """Every partition's executor on its own thread (the client's on this one)."""
        if self._workers is None:
            self._workers = ThreadPoolExecutor(thread_name_prefix="partition")
        rendezvous = self._rendezvous.find(step_id)
        # Every observer is made before any executor runs (engine/runtime/observers.py).
        observers = [observers_lib.observer_for(factories, part.device, step_id,
                                                part.executor.plan) if factories else None
                     for part in entry.parts]

        def run(part, feeds, observer):
            set_running_step(step_id)
            try:
                with placer_lib.device_scope(part.device), deadline.running_until(run_deadline):
                    return observers_lib.run(part.executor, feeds, observer, step_id)
            except BaseException as error:
                rendezvous.start_abort(error)
                raise

        others = [self._workers.submit(run, part, [], observer)
                  for part, observer in zip(entry.parts[1:], observers[1:])]
        failures = []
        try:
            first = entry.parts[0]
            results = run(first, values if first.device == self._client_device else [],
                          observers[0])
        except Exception as error:  # noqa: BLE001  (the first cause wins, below)
            failures.append(error)
        for future in others:
            try:
                future.result()
            except Exception as error:  # noqa: BLE001
                failures.append(error)
        self._rendezvous.cleanup(step_id)
        if failures:
            raise next((e for e in failures if not isinstance(e, errors.CancelledError)),
                       failures[0])
        return [fetched_ref(results[i]) for i in entry.client_results]

    def _graph_nodes(self):
        """NodeInfo for every op in the graph (incrementally, as the graph grows)."""
        version = self._graph_version()
        if version != self._nodes_version:
            for op in self._graph.get_operations():
                if op.name not in self._nodes:
                    self._nodes[op.name] = node_info(op)
                    self._node_order.append(op.name)
            # As TensorFlow's session checks the graph each time it grew, before planning.
            topological.check_no_cycle(
                (info.name, info.op_type,
                 [producer for producer, _ in info.inputs] + info.control_inputs,
                 [True] * len(info.inputs) + [False] * len(info.control_inputs))
                for info in map(self._nodes.get, self._node_order))
            self._nodes_version = version
        return self._nodes, self._node_order

    @staticmethod
    def _rng(ctx):
        """The Philox generator of a random node, kept per session so every plan shares it."""
        return node_generator(ctx)

    # Context managers ------------------------------------------------------------------------

    def __enter__(self):
        self._graph_context = self._graph.as_default()
        self._graph_context.__enter__()
        self._default_context = self.as_default()
        self._default_context.__enter__()
        return self

    def __exit__(self, exc_type, exc_value, exc_tb):
        self._default_context.__exit__(exc_type, exc_value, exc_tb)
        self._graph_context.__exit__(exc_type, exc_value, exc_tb)
        self.close()
        return False


class Session(BaseSession):
    """tf.Session(target="", graph=None, config=None).

    A target naming a cluster (`tcp://scheduler:8786`, `grpc://host:port` of a task) makes
    a session whose partitions run on the cluster's tasks: the subclass declared with
    `serves_cluster_targets=True` (engine/cluster/session.py, imported by engine/api/core.py), so
    that this module knows nothing of clusters.
    """

    _cluster_class = None

    def __init_subclass__(cls, serves_cluster_targets=False, **kwargs):
        super().__init_subclass__(**kwargs)
        if serves_cluster_targets:
            Session._cluster_class = cls

    def __new__(cls, target="", graph=None, config=None):
        if cls is Session and _names_cluster(target):
            if Session._cluster_class is None:
                raise errors.UnimplementedError(
                    None, None, f"Session target {target!r} names a cluster, and no cluster "
                    f"session is loaded: import engine.cluster.session (`import engine as "
                    f"tf` does)")
            return super().__new__(Session._cluster_class)
        return super().__new__(cls)


class InteractiveSession(BaseSession):
    """A session that installs itself (and its graph) as the default on construction."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._graph_context = self._graph.as_default()
        self._graph_context.__enter__()
        self._default_context = self.as_default()
        self._default_context.__enter__()
        self._explicitly_closed = False

    def close(self):
        if not self._explicitly_closed:
            self._explicitly_closed = True
            self._default_context.__exit__(None, None, None)
            self._graph_context.__exit__(None, None, None)
        super().close()


# Helpers ---------------------------------------------------------------------------------------

def _names_cluster(target):
    target = target.decode() if isinstance(target, bytes) else target
    return isinstance(target, str) and "://" in target


def node_info(op):
    """The plan's view of one engine Operation."""
    node_def = op.node_def
    op_def = op_registry.lookup(op.type)
    ref_flags = plan_lib.input_ref_flags(op_def, node_def) if op_def is not None else None
    inputs = [(t.op.name, t.value_index) for t in op.inputs]
    if ref_flags is not None and len(ref_flags) != len(inputs):
        ref_flags = None
    return plan_lib.NodeInfo(
        op.name, op.type, node_def, inputs, [c.name for c in op.control_inputs],
        [t.dtype for t in op.outputs], ref_flags, op=op, device=op.device,
        is_stateful=bool(op_def is not None and op_def.is_stateful))
