"""tf.nn.moments over the last axis run as one compiled pass on the fast path.

A layer norm written with tf.nn.moments (BERT's, Keras's LayerNormalization) is Mean(x),
SquaredDifference(x, mean), Mean of that, over the last axis with keep_dims: three passes over
x-sized tensors, one of them a tensor of squares written and read back. Here the executor's
untraced loop (engine/runtime/executor.py, `run`; chain_steps.Chains finds the groups with
its chains) runs the three as one step, at the first Mean's place: each row's mean, its
squares in a scratch row, their mean (engine/kernels/compiled/eigen_reduce_numba.py,
row_moments), the values the three kernels give, bit for bit (Eigen's order of additions for
both means, the difference and its square each rounded; test_moment_steps.py compares).
Where the compiled module is not loaded, or the values are not a float32 matrix of rows that
kernel takes, the three nodes' own steps run, unchanged. Traced runs go node by node.

BERT-12 (8 x 128 tokens, 25 layer norms): the three nodes took 7.5 ms of a 0.45 s call; a
[1024, 768] group 0.15 ms against 0.40 (A/B in one process, load 2.5, 2026-11-28). In a
training step the Mean's gradient takes the Shape of the squares: such readers get a stand-in
of their shape (a broadcast zero), as they read nothing else.
"""

import numpy as np

from engine.kernels.common import reduction_axes
from engine.kernels.cpu import compiled_forms, eigen_reduce
from engine.runtime.node_run import raise_node_error
from engine.runtime.plan import producers_and_readers


_ZERO = np.float32(0)


class Moments:
    """One group: the mean's Mean, the SquaredDifference, the variance's Mean (PlanNodes)."""

    def __init__(self, mean, squares, variance):
        self.mean, self.squares, self.variance = mean, squares, variance
        self.names = {mean.name, squares.name, variance.name}


def find(nodes, stateful_before, kept_slots):
    """{mean node name: Moments} for the groups among `nodes` (kernel nodes in run order): a
    Mean of x with keep_dims, a SquaredDifference of x and that mean read by a second Mean (and
    by ops of its shape alone), with keep_dims (the same reduction indices: checked as the step
    runs), the squares not fetched (`kept_slots`). The group runs at the first Mean's place:
    what the three read is there by then, and what reads them runs after it; no node that may
    change state (a variable x may be a view of) runs between the Means (`stateful_before`:
    such nodes before each node's index in `nodes`)."""
    index = {node.name: k for k, node in enumerate(nodes)}
    producer, readers = producers_and_readers(nodes)
    groups = {}
    for variance in nodes:
        if not _is_mean(variance):
            continue
        squares = producer.get(variance.input_slots[0])
        if (squares is None or squares.op_type != "SquaredDifference"
                or len(squares.input_slots) != 2 or squares.output_slots[0] in kept_slots
                or squares.info.control_inputs or variance.info.control_inputs):
            continue
        # besides the variance, only ops of its shape may read the squares (a training step's
        # Mean gradient takes their Shape): they are given a stand-in of that shape
        square_readers = [r for r in readers.get(squares.output_slots[0], ())
                          if r is not variance]
        if any(r.op_type not in _SHAPE_ONLY for r in square_readers):
            continue
        for x_slot, mean_slot in (squares.input_slots, squares.input_slots[::-1]):
            mean = producer.get(mean_slot)
            if (mean is not None and _is_mean(mean) and mean.input_slots[0] == x_slot
                    and mean.name not in groups
                    and index[mean.name] < index[squares.name] < index[variance.name]
                    and stateful_before[index[mean.name]] == stateful_before[index[variance.name]]):
                group = Moments(mean, squares, variance)
                group.squares_read = bool(square_readers)
                groups[mean.name] = group
                break
    return groups


# Ops that read a tensor's shape alone (engine/kernels/cpu/array.py).
_SHAPE_ONLY = frozenset({"Shape", "ShapeN", "Size", "Rank"})


def _is_mean(node):
    return (node.op_type == "Mean" and len(node.input_slots) == 2 and not any(node.deref)
            and "GPU" not in (node.info.device or "").upper()
            and node.node_def.attr["keep_dims"].b)


def moments_step(group, chosen):
    """One step computing the group's mean and variance: compiled when the module is loaded
    and the values suit it, else the three nodes' own steps (`chosen`: (step, node) in run
    order)."""
    mean_out, variance_out = group.mean.output_slots[0], group.variance.output_slots[0]
    x_slot, axis_slot = group.mean.input_slots
    variance_axis_slot = group.variance.input_slots[1]
    squares_out, squares_read = group.squares.output_slots[0], group.squares_read
    mean_node = group.mean

    def step(values):
        x = values[x_slot]
        if x.__class__ is np.ndarray and x.dtype == np.float32:
            module = compiled_forms.module("eigen_reduce", x.dtype, x.size)
            if module is not None:
                try:
                    axis = reduction_axes(None, values[axis_slot], x.ndim)
                    if reduction_axes(None, values[variance_axis_slot], x.ndim) != axis:
                        axis = None
                except Exception:  # noqa: BLE001  (the Means' own steps say what is wrong)
                    axis = None
                matrix = eigen_reduce.innermost(x, axis) if axis else None
                if matrix is not None and module.fits("moments", matrix):
                    means, variances = module.moments(x.reshape(matrix))
                    means.shape = variances.shape = tuple(
                        1 if a in axis else d for a, d in enumerate(x.shape))
                    values[mean_out], values[variance_out] = means, variances
                    if squares_read:  # a stand-in: no values, the squares' shape and dtype
                        values[squares_out] = np.broadcast_to(_ZERO, x.shape)
                    return
        for member, node in chosen:
            try:
                member(values)
            except Exception as error:  # noqa: BLE001  (named by the member that failed)
                raise_node_error(node, error)

    step.moments = mean_node.name  # (what the step is: tests and a reader of the executor)
    return step
