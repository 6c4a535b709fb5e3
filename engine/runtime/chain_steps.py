"""Chains of elementwise nodes run as one compiled loop on the fast path, whatever the graph says.

Grappler's remapper fuses only what a graph's shapes show to be large (engine/optimizer/
remapping.py: DEFAULT fuses chains of at least DEFAULT_MIN_ELEMENTS elements known from the
graph alone), so a model whose batch is a placeholder's None, as every TF2 signature's is, runs
each elementwise op on its own: a BERT layer's GELU is five passes over a [1024, 3072] tensor,
its LayerNorm four over [1024, 768]. Here the executor's untraced loop (engine/runtime/
executor.py, `run`) finds the same trees the remapper would fuse (engine/kernels/fused_chain
.FUSABLE ops, each intermediate read by its consumer alone, not fetched) and replaces their
steps by one: when its inputs are large it runs the chain as a `_FusedElementwise` kernel
would (engine/kernels/cpu/fused.py: one compiled loop, broadcasts included, its result
written over an input no one else holds, as forwarding does), else (small, still compiling,
numba absent) the nodes' own steps, unchanged.

Nothing that observes a run sees the difference: a traced run (step stats, the debugger,
VLOG) goes through engine/runtime/frames.py node by node, the partition graph is the plan's,
and the values are the unfused kernels' bit for bit (fused_numba computes each step as its
op's kernel does; test_chain_steps.py compares the two).

`Chains` also finds tf.nn.moments over the last axis (moment_steps.py) and runs its three
nodes as one step, freed and ordered as a chain's members are.
"""

import os

import numpy as np

from engine.kernels.cpu import fused
from engine.kernels.fused_chain import FUSABLE, MAX_STEPS
from engine.optimizer import remapping
from engine.proto import node_def_pb2
from engine.runtime import epilogue_steps, moment_steps
from engine.runtime.node_run import exclusive_inputs, raise_node_error
from engine.runtime.plan import last_uses

ENABLED = os.environ.get("GI_CHAIN_STEPS", "1") not in ("", "0")
# A chain runs compiled when one of its inputs has this many elements or more: below it the
# nodes' own NumPy calls are as quick (remapping.DEFAULT_MIN_ELEMENTS says where fusing pays).
MIN_ELEMENTS = remapping.DEFAULT_MIN_ELEMENTS
# The attrs a member's NodeDef keeps for remapping's signature (others, such as
# _output_shapes, describe the node but do not change what it computes).
_ATTRS = ("T", "SrcT", "DstT", "Truncate")
# Tests set this: a chain's first large run then compiles its loop and waits for it (a run
# otherwise takes the nodes' own steps until the loop is ready).
WAIT = False


class Chains:
    """The chains of a plan's kernel nodes (`nodes`, in run order), found before its steps are
    bound, and the slots each step frees once the chains run at their roots' places
    (`frees_at`: the forwarding steps are bound with them)."""

    def __init__(self, plan, nodes):
        plan_position = {node.name: k for k, node in enumerate(plan.nodes)}
        by_name = {node.name: node for node in nodes}
        signatures = {node.name: sig for node in nodes
                      if (sig := _signature(node)) is not None}
        producer_of = {by_name[name].output_slots[0]: name for name in signatures}

        def joins(producer, consumer):
            """Whether `producer` folds into the chain of `consumer`: its one reader."""
            return (producer in signatures
                    and set(by_name[producer].consumers) == {plan_position[consumer]}
                    and producer not in by_name[consumer].info.control_inputs)

        # A chain runs at its last node's place, so its other members read their inputs
        # later than they did: no node that may change state runs in between (an Assign or
        # an optimizer's Apply op writes a variable's array in place, which an Identity or a
        # Reshape of it may be what a member reads).
        order = {node.name: k for k, node in enumerate(nodes)}
        stateful_before = [0]
        for node in nodes:
            stateful_before.append(stateful_before[-1] + _changes_state(node))
        self.members_of, self.absorbed = {}, set()
        # tf.nn.moments' three nodes, one step at the first Mean's place (moment_steps.py)
        self.moments = moment_steps.find(nodes, stateful_before, set(plan.fetch_slots.values()))
        for group in self.moments.values():
            for name in group.names:
                signatures.pop(name, None)
        for node in reversed(nodes):  # a chain ends at a node that joins no chain after it
            name = node.name
            if name in signatures and name not in self.absorbed and name not in self.moments:
                members = _grow(name, by_name, producer_of, joins)
                first = min(order[m] for m in members)
                if len(members) >= 2 and stateful_before[order[name]] == stateful_before[first]:
                    self.members_of[name] = members
                    self.absorbed.update(members - {name})
        self.by_name, self.signatures, self.producer_of = by_name, signatures, producer_of
        self.plan_position = plan_position
        rank = {i: k for k, i in enumerate(plan.order)}
        for root, group in self.moments.items():
            self.members_of[root] = group.names
            self.absorbed.update(group.names - {root})
        # a chain (or one fusable node) that alone reads a product runs on its rows as they
        # are made, at the product's place (epilogue_steps.py)
        grouped = {name for members in self.members_of.values() for name in members}
        chains = {root: members for root, members in self.members_of.items()
                  if root not in self.moments}
        placed = {member: root for root, members in self.members_of.items()
                  for member in members}
        self.epilogues = epilogue_steps.find(
            nodes, chains, [name for name in signatures if name not in grouped],
            lambda name: rank[plan_position[placed.get(name, name)]], stateful_before,
            set(plan.fetch_slots.values()))
        for host, epilogue in self.epilogues.items():
            self.members_of.pop(epilogue.root, None)
            self.members_of[host] = {host} | epilogue.members
            self.absorbed.update(epilogue.members)
        self.root_of = {member: root for root, members in self.members_of.items()
                        for member in members}
        self.frees = self._last_uses(plan) if self.members_of else {}

    def _last_uses(self, plan):
        """plan position -> slots to free after that node's step, in the order the steps now
        run (plan.last_uses over it): a chain's members at its root's place, among themselves
        in their own order (the order the fallback runs them in). A value a chain reads whose
        last reader ran before the chain's root now dies with the chain; one that another
        chain or a later node reads is not given to a member to write over (forwarding)."""
        rank = {i: k for k, i in enumerate(plan.order)}

        def when(i):
            root = self.root_of.get(plan.nodes[i].name)
            return (rank[self.plan_position[root]] if root is not None else rank[i], rank[i])

        return last_uses(plan.nodes, sorted(plan.order, key=when),
                         set(plan.fetch_slots.values()))

    def __bool__(self):
        return bool(self.members_of)

    def frees_at(self, node):
        """The slots to free after `node`'s own step (a member's: in the fallback), the
        chains taken into account."""
        return self.frees.get(self.plan_position[node.name], ())

    def combine(self, steps, make_context, fed_slots, template):
        """`steps` ((step, node, frees) in run order) with each chain's steps replaced by one,
        at its root's place, freeing what its members free (frees_at).
        make_context(node_def, dtypes, device) makes the fused node's KernelContext as the
        executor makes its nodes'."""
        chosen_of = {}
        for item in steps:
            root = self.root_of.get(item[1].name)
            if root is not None:
                chosen_of.setdefault(root, []).append(item)
        result = []
        for step, node, frees in steps:
            if node.name in self.absorbed:
                continue
            members = self.members_of.get(node.name)
            if members is None:
                result.append((step, node, frees))
                continue
            chosen = chosen_of[node.name]
            all_frees = tuple(dict.fromkeys(s for _, _, f in chosen for s in f))
            group = self.moments.get(node.name)
            epilogue = self.epilogues.get(node.name)
            if group is not None:
                step = moment_steps.moments_step(group, [(s, n) for s, n, _ in chosen])
            elif epilogue is not None:
                step = self._epilogue_step(epilogue, chosen, make_context, all_frees,
                                           fed_slots, template)
            else:
                step = _chain_step(node, members, chosen, self.by_name, self.producer_of,
                                   self.signatures, make_context, all_frees, fed_slots,
                                   template)
            result.append((step, node, all_frees))
        return result

    def _epilogue_step(self, epilogue, chosen, make_context, frees, fed_slots, template):
        """The product's step with its chain on its rows (epilogue_steps.epilogue_step); the
        chain's own step (a chain's, or its one node's) is the fallback."""
        (matmul_step, matmul, _), members = chosen[0], chosen[1:]
        root = self.by_name[epilogue.root]
        if len(epilogue.members) > 1:
            chain_step = _chain_step(root, epilogue.members, members, self.by_name,
                                     self.producer_of, self.signatures, make_context, frees,
                                     fed_slots, template)
        else:
            chain_step = members[0][0]
        _, in_slots, _, plan = fused_plan(root, epilogue.members, self.by_name,
                                          self.producer_of, self.signatures, make_context)
        matmul_ctx = make_context(matmul.node_def, matmul.output_dtypes, matmul.device)
        return epilogue_steps.epilogue_step(epilogue, matmul_step, matmul_ctx, root, chain_step,
                                            plan, in_slots, root.output_slots[0], MIN_ELEMENTS,
                                            lambda: WAIT)


def _changes_state(node):
    """Whether a node may change state: a stateful op, or one given a ref (Assign and the TF1
    optimizers' Apply ops are not marked stateful; their ref input says what they write)."""
    return bool(node.info.is_stateful or any(node.info.ref_inputs))


def _signature(node):
    """remapping.signature's (input dtype, output dtype) of a node that may join a chain,
    else None."""
    if (node.op_type not in FUSABLE or len(node.output_slots) != 1 or any(node.deref)
            or node.info.is_stateful or "GPU" in (node.info.device or "").upper()):
        return None
    return remapping.signature(_bare(node, []))


def _bare(node, inputs):
    """The node's NodeDef with only the attrs that say what it computes, reading `inputs`."""
    source = node.node_def
    bare = node_def_pb2.NodeDef(name=node.name, op=node.op_type, input=inputs)
    for attr in _ATTRS:
        if attr in source.attr:
            bare.attr[attr].CopyFrom(source.attr[attr])
    return bare


def _grow(root, by_name, producer_of, joins):
    """The chain ending at `root`: it and every producer that joins it, up to MAX_STEPS."""
    members, frontier = {root}, [root]
    while frontier:
        consumer = frontier.pop(0)
        for slot in by_name[consumer].input_slots:
            producer = producer_of.get(slot)
            if producer is None or producer in members or not joins(producer, consumer):
                continue
            if len(members) >= MAX_STEPS:
                continue
            members.add(producer)
            frontier.append(producer)
    return members


def _slot_name(slot):
    return f"#{slot}"  # no node is named so ('#' is not allowed in a TensorFlow name)


def fused_plan(root, members, by_name, producer_of, signatures, make_context):
    """(NodeDef, input slots, context, fused.plan_of) of the _FusedElementwise node standing
    for `members` (ending at `root`), as the remapper would make it."""
    nodes = {}
    for name in members:
        node = by_name[name]
        nodes[name] = _bare(node, [producer_of[s] if producer_of.get(s) in members
                                   else _slot_name(s) for s in node.input_slots])
    node_def, _ = remapping.fused_node(root.name, members, nodes,
                                       {name: signatures[name] for name in members})
    node_def.device = root.node_def.device
    in_slots = [int(text[1:]) for text in node_def.input]
    ctx = make_context(node_def, root.output_dtypes, root.device)
    return node_def, in_slots, ctx, fused.plan_of(ctx)


def _chain_step(root, members, chosen, by_name, producer_of, signatures, make_context, frees,
                fed_slots, template):
    """One step running the chain of `members` (ending at `root`): compiled when large, else
    the members' own steps (`chosen`, in run order)."""
    node_def, in_slots, ctx, plan = fused_plan(root, members, by_name, producer_of, signatures,
                                               make_context)
    (out,) = root.output_slots
    # inputs the result may be written over: read last here, once, not fed, not a constant
    offered = tuple(k for k, slot in enumerate(in_slots)
                    if slot in frees and in_slots.count(slot) == 1 and slot not in fed_slots
                    and (slot >= len(template) or template[slot] is None))
    offered_slots = [in_slots[k] for k in offered]
    member_steps = [(step, node) for step, node, _ in chosen]
    minimum, ndarray, run_compiled = MIN_ELEMENTS, np.ndarray, fused.run_compiled

    def step(values):
        large = False
        for slot in in_slots:
            value = values[slot]
            if value.__class__ is ndarray and value.size >= minimum:
                large = True
                break
        value = None
        if large:
            inputs = [values[slot] for slot in in_slots]
            for slot in offered_slots:
                values[slot] = None
            result = run_compiled(plan, inputs, wait=WAIT, ctx=ctx,
                                  donated=exclusive_inputs(inputs, offered))
            if result is not None:
                values[out] = result
                return
            for slot, k in zip(offered_slots, offered):
                values[slot] = inputs[k]
            del inputs
        for member, node in member_steps:
            try:
                member(values)
            except Exception as error:  # noqa: BLE001  (named by the member that failed)
                raise_node_error(node, error)

    step.chain = node_def  # (what the chain is: tests and a reader of the executor)
    return step
