"""Elementwise work after a matrix product, run on each block of the product's rows as it is made.

A Dense layer's _FusedMatMul (a MatMul and its BiasAdd) is split by rows over the intra-op
threads (engine/kernels/cpu/threaded_matmul.py), and each thread adds the bias to its block
while the block is in its cache. What reads the product next is often elementwise alone: an
exact GELU's chain, a residual AddV2. On the executor's untraced fast path such a chain (a
chain_steps chain, or one fusable node) whose inputs are all made before the product, and
which alone reads it, runs in the product's place: its compiled loop (fused.flat_range) goes
over each block's elements right after the bias, written over the product, instead of a pass
of its own over the whole product later (a [1024, 3072] float32 product is 12 MB, twice the
second-level caches of this machine's two cores).

The values are the unfused ones bit for bit: the loop computes each element from the same
operands as the chain's own step would, and an element's path (Eigen's packet or scalar lane)
is fixed by its place in the whole output, not by the block it falls in. Where the loop is not
compiled yet, or the values do not suit it (small, broadcast along part of the output), the
product's step and the chain's step run as before. Traced runs go node by node.
"""

import numpy as np

from engine.kernels.cpu import fused
from engine.kernels.cpu.fused_contraction import fused_mat_mul_then
from engine.runtime.node_run import raise_node_error
from engine.runtime.plan import producers_and_readers


# Tests and measurements turn it off (chain_steps.ENABLED turns off all of the fast path's
# groups, this with them).
ENABLED = True


class Epilogue:
    """A _FusedMatMul (`matmul`, a PlanNode) and the chain run on its rows: `root` (the chain's
    last node's name), `members` (its node names), `product` (the matmul's output slot)."""

    def __init__(self, matmul, root, members, product):
        self.matmul, self.root, self.members, self.product = matmul, root, members, product


def find(nodes, chains, lone, run_rank, stateful_before, kept_slots):
    """{matmul name: Epilogue} among `nodes` (kernel nodes in run order). `chains`: {root:
    member names} of the chains found; `lone`: names of fusable nodes in no chain or group
    (a chain of one); run_rank(name): where a node's step runs; stateful_before: nodes that may
    change state before each node's index; kept_slots: fetched slots."""
    by_name = {node.name: node for node in nodes}
    index = {node.name: k for k, node in enumerate(nodes)}
    producer, readers = producers_and_readers(nodes)
    grouped = {name for members in chains.values() for name in members}
    candidates = list(chains.items()) + [(name, {name}) for name in lone]
    found = {}
    if not ENABLED:
        return found
    for root, members in candidates:
        if any(by_name[name].info.control_inputs for name in members):
            continue
        outside = list(dict.fromkeys(
            slot for name in members for slot in by_name[name].input_slots
            if producer.get(slot) is None or producer[slot].name not in members))
        for slot in outside:
            matmul = producer.get(slot)
            if (matmul is None or matmul.op_type != "_FusedMatMul" or len(matmul.output_slots) != 1
                    or matmul.name in found or matmul.name in grouped
                    or "GPU" in (matmul.info.device or "").upper()
                    or slot in kept_slots
                    or not {r.name for r in readers.get(slot, ())} <= members
                    or stateful_before[index[matmul.name]] != stateful_before[index[root]]):
                continue
            place = run_rank(matmul.name)
            if all(_ready_before(producer.get(other), place, run_rank)
                   for other in outside if other != slot):
                found[matmul.name] = Epilogue(matmul, root, members, slot)
                break
    return found


def _ready_before(node, place, run_rank):
    """Whether a value is there before the step at `place` runs: fed, an argument, a constant,
    or made by a step before it."""
    return (node is None or (node.op_type == "Const" and not node.input_slots)
            or run_rank(node.name) < place)


def epilogue_step(epilogue, matmul_step, matmul_ctx, chain_root, chain_step, chain_plan,
                  chain_inputs, chain_output, minimum, wait):
    """The step running the product and then its chain on its rows (compiled), or the two
    steps one after the other (an error in the chain's named by its node: chain_root, the last
    one, where no member names it). chain_inputs: the fused chain's input slots; chain_output: its
    output slot; minimum: the product's size from which the loop runs (as a chain's); wait():
    whether a loop not yet compiled is compiled now (tests)."""
    matmul = epilogue.matmul
    a_slot, b_slot, *arg_slots = matmul.input_slots
    product = epilogue.product
    donated = chain_inputs.index(product)
    ndarray = np.ndarray
    own_step = chain_step

    def chain_step(values):
        try:
            own_step(values)
        except Exception as error:  # noqa: BLE001  (named by its node, not the product's)
            raise_node_error(chain_root, error)

    def step(values):
        a, b = values[a_slot], values[b_slot]
        if a.__class__ is not ndarray or b.__class__ is not ndarray:
            matmul_step(values)
            chain_step(values)
            return

        def prepare(out):
            if out.size < minimum:
                return None
            inputs = [out if slot == product else values[slot] for slot in chain_inputs]
            loop = fused.flat_range(chain_plan, inputs, donated, wait())
            if loop is None:
                return None
            rows, columns = out.shape

            def then(start, stop):
                if start == 0 and stop == rows:
                    loop.whole()
                else:
                    loop.run(start * columns, stop * columns)
            return then

        try:
            done = fused_mat_mul_then(matmul_ctx, a, b, [values[s] for s in arg_slots], prepare)
        except Exception as error:  # noqa: BLE001  (the product's own error, named by it)
            raise_node_error(matmul, error)
        if done is None:
            matmul_step(values)
            chain_step(values)
            return
        out, ran = done
        if ran:
            values[chain_output] = out
            return
        values[product] = out
        chain_step(values)

    step.epilogue = epilogue.root  # (what the step is: tests and a reader of the executor)
    return step
