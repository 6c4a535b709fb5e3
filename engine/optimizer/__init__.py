"""The graph optimizer: Grappler's meta optimizer over GraphDefs, one pure pass per module.

    result = engine.optimizer.optimize(graph_def, fetches=("loss",), keep=("x",))
    result.graph_def                  # the optimized GraphDef
    for stage in result.stages:       # one per pass that ran, in order
        stage.name                    # the RewriterConfig field: "constant_folding", ...
        stage.graph_def               # the graph after this pass
        stage.report                  # Report: counts (removed, folded, added, fused,
                                      # changed) and a short list of what changed

A pass is `fn(graph_def, context) -> (graph_def, report)`: pure (it gets its own copy of the
graph), in a module of this package, registered in PASSES, the one ordered table (as
Grappler's meta optimizer orders its optimizers), keyed by its RewriterConfig field:

    pruning                      model_pruner.py       nodes the fetches do not need
    function_optimization        function_optimizer.py calls inlined, If/Case/While lowered
                                                       to frames (function_inlining.py,
                                                       control_flow_lowering.py)
    common_subgraph_elimination  common_subgraph.py    identical nodes computed once
    constant_folding             constant_folding.py   nodes of constants become Const
    arithmetic_optimization      arithmetic.py         x+0, x*1, --x, casts, transposes,
                                                       (x+c1)+c2 -> x+(c1+c2)
    remapping                    remapping.py          elementwise chains fused (helper
                                                       `kernels`; skipped while absent)
    loop_optimization            dead_branches.py      Switch on a constant predicate
    dependency_optimization      dependency.py         Identity, NoOp, control edges

Every pass keeps the nodes of `fetches`, of fed tensors and of `keep` by name (a fetched node
may become a Const of the same name; a fed one is never read as a constant), never folds
through stateful or random ops, and leaves a graph that computes the same values.

What runs is decided by a RewriterConfig (ConfigProto.graph_options.rewrite_options), as
TensorFlow decides it: each field ON/OFF/DEFAULT (DEFAULT is on), `disable_model_pruning`,
`disable_meta_optimizer`, `min_graph_nodes` (graphs smaller than it are left alone; 0 means
TensorFlow's 4, negative never skips), `meta_optimizer_iterations` (TWO by default: the list
runs twice, a pass skipped where no pass changed the graph since it last ran), `optimizers` (TensorFlow's short names,
"constfold", "arithmetic", ... : only those run). GRAPH_INSPECTOR_REWRITE=off in the
environment turns every pass off in the process. The session runs it once per plan
(engine/optimizer/session_rewrite.py), so a cached run pays nothing.
"""

import importlib
import importlib.util
import os
import time

from engine.framework import errors, topological
from engine.optimizer import graph_view, rules
from engine.optimizer.report import Report, Stage
from engine.proto import rewriter_config_pb2

RewriterConfig = rewriter_config_pb2.RewriterConfig

# (RewriterConfig field, module, TensorFlow's short name in RewriterConfig.optimizers), in
# the order Grappler's meta optimizer runs them (meta_optimizer.cc InitializeOptimizers).
PASSES = (
    ("pruning", "engine.optimizer.model_pruner", "pruning"),
    ("function_optimization", "engine.optimizer.function_optimizer", "function"),
    ("common_subgraph_elimination", "engine.optimizer.common_subgraph",
     "common_subgraph_elimination"),
    ("constant_folding", "engine.optimizer.constant_folding", "constfold"),
    ("arithmetic_optimization", "engine.optimizer.arithmetic", "arithmetic"),
    ("remapping", "engine.optimizer.remapping", "remap"),
    ("loop_optimization", "engine.optimizer.dead_branches", "loop"),
    ("dependency_optimization", "engine.optimizer.dependency", "dependency"),
)
PASS_NAMES = tuple(name for name, _, _ in PASSES)
DEFAULT_MIN_GRAPH_NODES = 4  # Grappler's kDefaultMinGraphNodes
ENV_SWITCH = "GRAPH_INSPECTOR_REWRITE"


class Context:
    """What every pass is told: the nodes to keep and the options.

    fetches: node names whose outputs are read after the graph runs; feeds: node names with a
    fed output (never constants); keep: more names to keep; preserved: all of them.
    """

    def __init__(self, fetches=(), feeds=(), keep=(), rewrite_options=None):
        self.fetches = frozenset(fetches)
        self.feeds = frozenset(feeds)
        self.keep = frozenset(keep)
        self.preserved = self.fetches | self.feeds | self.keep
        self.rewrite_options = rewrite_options or RewriterConfig()

    def is_preserved(self, name):
        return name in self.preserved


class OptimizeResult:
    """The optimized graph and each pass's stage (its graph and report), in order."""

    def __init__(self, graph_def, stages, seconds=0.0):
        self.graph_def = graph_def
        self.stages = stages
        self.seconds = seconds

    @property
    def changed(self):
        return any(stage.report.total for stage in self.stages)

    def as_dict(self):
        return {"nodes_before": self.stages[0].report.nodes_before if self.stages else
                len(self.graph_def.node), "nodes_after": len(self.graph_def.node),
                "seconds": round(self.seconds, 6),
                "stages": [stage.as_dict() for stage in self.stages]}


def preload():
    """Loads the OpDefs and CPU kernels the passes consult (about a second, once per process)
    so that the per-pass times in a report are the passes' own."""
    from engine import kernels
    from engine.framework import op_registry

    op_registry.registered_ops()
    kernels.registered_ops("CPU")
    for _, module, _ in PASSES:
        _pass_function(module)


def rewrites_disabled_by_environment():
    return os.environ.get(ENV_SWITCH, "").strip().lower() in ("off", "0", "false", "no")


_FUNCTIONS = {}


def _pass_function(module_name):
    """The module's `optimize`, or None while the module does not exist (an open slot)."""
    if module_name not in _FUNCTIONS:
        found = importlib.util.find_spec(module_name) is not None
        _FUNCTIONS[module_name] = (importlib.import_module(module_name).optimize if found
                                   else None)
    return _FUNCTIONS[module_name]


def enabled_passes(rewrite_options=None, passes=None):
    """The (name, fn) pairs that run for `rewrite_options`, in order; `passes` (names)
    narrows them further (and turns on a pass the options leave on DEFAULT or ON)."""
    options = rewrite_options or RewriterConfig()
    if rewrites_disabled_by_environment() or options.disable_meta_optimizer:
        return []
    if passes is not None:
        unknown = sorted(set(passes) - set(PASS_NAMES))
        if unknown:
            raise ValueError(f"unknown pass {unknown[0]!r}; passes: {', '.join(PASS_NAMES)}")
    chosen = set(options.optimizers)
    result = []
    for name, module, short in PASSES:
        if passes is not None and name not in passes:
            continue
        if chosen and short not in chosen and name not in chosen:
            continue
        if name == "pruning":
            if options.disable_model_pruning:
                continue
        elif getattr(options, name) == RewriterConfig.OFF:
            continue
        fn = _pass_function(module)
        if fn is not None:
            result.append((name, fn))
    return result


def optimize(graph_def, *, fetches=(), feeds=(), keep=(), rewrite_options=None, passes=None,
             graph_size=None, check_cycles=True):
    """Runs the enabled passes over a copy of `graph_def`; an OptimizeResult.

    fetches: node or tensor names ("y", "y:0") read after the run (none: the nodes nothing
    reads are the outputs, and keep their names); feeds: fed tensor or node
    names; keep: node names that must stay. `passes` (names of PASS_NAMES) runs only those.
    graph_size: how many nodes the whole graph has when `graph_def` is the part of it a run
    needs (a session's): Grappler is given the whole graph, and skips only a small one.
    The input GraphDef is not changed. A graph whose non-loop nodes form a cycle is refused
    before any pass, with TensorFlow's InvalidArgumentError ("Graph is invalid, contains a
    cycle with N nodes, including: ...", as a session run raises it); a session, which
    checked its whole graph already, passes check_cycles=False.
    """
    started = time.perf_counter()
    if check_cycles:
        topological.check_no_cycle(graph_def)
    options = rewrite_options or RewriterConfig()
    fetches = _node_names(fetches) or _sinks(graph_def)
    context = Context(fetches, _node_names(feeds), _node_names(keep), options)
    context.passes = frozenset(passes or ())  # passes named on purpose (remapping asks)
    current = type(graph_def)()
    current.CopyFrom(graph_def)
    stages = []
    if not rewrites_disabled_by_environment() and (passes is None or
                                                   "function_optimization" in passes):
        lowered = _lower_before_placement(current, stages)
        if graph_size is not None:
            graph_size += len(lowered.node) - len(current.node)
        current = lowered
    chosen = enabled_passes(options, passes)
    minimum = options.min_graph_nodes or DEFAULT_MIN_GRAPH_NODES
    if 0 <= minimum and (graph_size if graph_size is not None else len(current.node)) < minimum:
        chosen = []
    rounds = 1 if options.meta_optimizer_iterations == RewriterConfig.ONE else 2
    try:
        with graph_view.sharing():
            _run_rounds(current, chosen, context, rounds, stages, minimum,
                        options.fail_on_optimizer_errors)
    finally:
        rules.forget_values()
    current = stages[-1].graph_def if stages else current
    return OptimizeResult(current, stages, time.perf_counter() - started)


def _lower_before_placement(graph_def, stages):
    """TensorFlow's LowerFunctionalOpsPass, which runs before placement and Grappler whatever
    Grappler's options (engine/optimizer/function_optimizer.py): a stage of its own,
    `lower_functional_ops`, when the graph has a marked If/Case/While of its own."""
    from engine.framework.function_graph import FunctionGraphError
    from engine.optimizer.function_optimizer import lower_functional_ops, needs_lowering

    if not needs_lowering(graph_def):
        return graph_def
    started = time.perf_counter()
    try:
        lowered, report = lower_functional_ops(graph_def)
    except FunctionGraphError as error:
        # A body that cannot be instantiated fails the run, as in TensorFlow, with its class
        # (the words are the engine's: which function, node and input).
        raise errors.InvalidArgumentError(None, None, str(error)) from None
    report.seconds = time.perf_counter() - started
    report.nodes_before, report.nodes_after = len(graph_def.node), len(lowered.node)
    stages.append(Stage(LOWER_BEFORE_PLACEMENT, lowered, report, 0))
    return lowered


LOWER_BEFORE_PLACEMENT = "lower_functional_ops"


def _run_rounds(current, chosen, context, rounds, stages, minimum, fail_on_errors):
    """Runs the passes in order, `rounds` times; a pass is not run again on a graph no pass
    has changed since it last ran (it would change nothing), so a quiet second round costs
    nothing. A pass that raises is skipped, its graph left as it was, as Grappler's meta
    optimizer does unless RewriterConfig.fail_on_optimizer_errors; but an OpError says the
    graph cannot run at all (function_optimization: a call of a function the library lacks, a
    function that calls itself) and fails the run."""
    changes = 0  # how many stages so far changed the graph
    seen_at = {}  # pass name -> `changes` when it last ran
    for iteration in range(rounds):
        if iteration and len(current.node) < minimum:
            break  # Grappler: "Stopping after iteration 1, graph is tiny"
        for name, fn in chosen:
            if seen_at.get(name) == changes:
                continue
            before = len(current.node)
            work = type(current)()
            work.CopyFrom(current)
            graph_view.hand_over(current, work)
            pass_started = time.perf_counter()
            try:
                current, report = fn(work, context)
            except errors.OpError:
                raise  # the graph cannot run (a call of a missing function, a recursive one)
            except Exception as error:  # noqa: BLE001  (a pass's bug must not fail a run)
                if fail_on_errors:
                    raise
                report = Report()
                report.error = f"{type(error).__name__}: {error}"
                report.changes.append(f"pass failed, graph left as it was: {report.error}")
            report.seconds = time.perf_counter() - pass_started
            report.nodes_before, report.nodes_after = before, len(current.node)
            stages.append(Stage(name, current, report, iteration))
            if report.total:
                changes += 1
            seen_at[name] = changes


def _sinks(graph_def):
    """The nodes nothing reads: a graph's outputs when no fetches are named."""
    read = {text.lstrip("^").split(":")[0] for node in graph_def.node for text in node.input}
    return [node.name for node in graph_def.node if node.name not in read]


def _node_names(names):
    result = []
    for name in names:
        name = name[1:] if name.startswith("^") else name
        node, sep, index = name.rpartition(":")
        result.append(node if sep and index.isdigit() else name)
    return result


__all__ = ["Context", "OptimizeResult", "PASSES", "PASS_NAMES", "Report", "RewriterConfig",
           "Stage", "enabled_passes", "optimize", "preload"]
