"""NumPy CPU kernels of FractionalMaxPool and FractionalAvgPool with their gradients, the
pooling regions drawn as TensorFlow's fractional_pool_common.cc draws them from a Philox
stream of (seed, seed2) started afresh each run: a shuffle of region sizes (one 32-bit word
per size) or, pseudo-randomly, ceil(alpha * (i + u)) boundaries with u one RandDouble (two
words)."""

import math

import numpy as np

from engine.kernels import register
from engine.framework.errors import UnimplementedError
from engine.kernels.common import invalid
from engine.kernels.cpu.candidate_sampling import SimplePhilox
from engine.runtime.random_philox import GuardedPhiloxRandom


def _random_sizes(generator, input_length, output_length):
    """Sizes k and k + 1 (input_length % output_length of them) shuffled as tsl's
    RandomShuffle: position i swaps with i + word % (n - i)."""
    k, extra = divmod(input_length, output_length)
    sizes = [k + 1] * extra + [k] * (output_length - extra)
    rnd = SimplePhilox(generator.reserve_random_outputs((output_length + 3) // 4, 1))
    for i in range(output_length - 1):
        j = i + rnd.rand32() % (output_length - i)
        sizes[i], sizes[j] = sizes[j], sizes[i]
    return sizes


def _pseudo_random_sizes(generator, input_length, output_length):
    alpha = input_length / output_length
    k = input_length // output_length
    max_u = min((k + 2) / alpha - 1, (input_length + 1 - k) / alpha - (output_length - 1))
    rnd = SimplePhilox(generator.reserve_random_outputs(1, 1))
    u = rnd.rand_double() * max_u
    bounds = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, output_length)]
    bounds.append(input_length + 1)
    return [bounds[i + 1] - bounds[i] for i in range(output_length)]


def pooling_sequence(generator, input_length, output_length, pseudo_random):
    """The output_length + 1 region boundaries over input_length (the cumulative sizes)."""
    if input_length % output_length == 0:
        sizes = [input_length // output_length] * output_length
    elif pseudo_random:
        sizes = _pseudo_random_sizes(generator, input_length, output_length)
    else:
        sizes = _random_sizes(generator, input_length, output_length)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _regions(sequence, length, overlapping):
    """(start, end inclusive) of each region of a boundary sequence."""
    return [(int(sequence[i]), min(int(sequence[i + 1]) - 1 + int(overlapping), length - 1))
            for i in range(len(sequence) - 1)]


def _sequences(ctx, x, kind):
    if x.ndim != 4:
        raise invalid(ctx, "tensor_in must be 4-dimensional")
    ratio = list(ctx.attr("pooling_ratio"))
    if len(ratio) != 4:
        raise invalid(ctx, "pooling_ratio field must specify 4 dimensions")
    if ratio[0] != 1 or ratio[3] != 1:
        raise UnimplementedError(ctx.node_def, None, f"Fractional {kind} pooling is not yet "
                                 "supported on the batch nor channel dimension.")
    if not ctx.attr("deterministic", False) and (ctx.attr("seed", 0) or ctx.attr("seed2", 0)):
        raise invalid(ctx, "Both seed and seed2 should be 0 if deterministic is false.")
    # in float, as TensorFlow divides by its float ratios (11 / 2.2f is 5)
    out = [int(math.floor(np.float32(x.shape[i]) / np.float32(ratio[i]))) for i in range(4)]
    # A generator made afresh each run, as the kernel's own: the same regions every run
    # when seeded, new ones from the OS when both seeds are 0.
    generator = GuardedPhiloxRandom(ctx.attr("seed", 0), ctx.attr("seed2", 0))
    pseudo_random = ctx.attr("pseudo_random", False)
    rows = pooling_sequence(generator, x.shape[1], out[1], pseudo_random)
    cols = pooling_sequence(generator, x.shape[2], out[2], pseudo_random)
    return rows, cols


@register("FractionalMaxPool")
def fractional_max_pool(ctx, x):
    rows, cols = _sequences(ctx, x, "max")
    overlapping = ctx.attr("overlapping", False)
    out = np.empty((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i, (r0, r1) in enumerate(_regions(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, x.shape[2], overlapping)):
            out[:, i, j, :] = x[:, r0:r1 + 1, c0:c1 + 1, :].max(axis=(1, 2))
    return out, rows, cols


@register("FractionalAvgPool")
def fractional_avg_pool(ctx, x):
    """Each region's values added in row-major order, then divided by their count."""
    rows, cols = _sequences(ctx, x, "average")
    overlapping = ctx.attr("overlapping", False)
    out = np.empty((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i, (r0, r1) in enumerate(_regions(rows, x.shape[1], overlapping)):
        for j, (c0, c1) in enumerate(_regions(cols, x.shape[2], overlapping)):
            total = np.zeros((x.shape[0], x.shape[3]), x.dtype)
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    total = total + x[:, r, c, :]
            out[:, i, j, :] = total / x.dtype.type((r1 - r0 + 1) * (c1 - c0 + 1))
    return out, rows, cols


@register("FractionalMaxPoolGrad")
def fractional_max_pool_grad(ctx, orig_input, orig_output, out_backprop, row_seq, col_seq):
    """out_backprop added at the first input of each region equal to its pooled value."""
    overlapping = ctx.attr("overlapping", False)
    batch, height, width, depth = orig_input.shape
    grad = np.zeros(orig_input.size, out_backprop.dtype)
    flat_out = out_backprop.reshape(-1)
    targets = np.full(flat_out.size, -1, np.int64)
    channels = np.arange(depth)
    for i, (r0, r1) in enumerate(_regions(row_seq, height, overlapping)):
        for j, (c0, c1) in enumerate(_regions(col_seq, width, overlapping)):
            region = orig_input[:, r0:r1 + 1, c0:c1 + 1, :].reshape(batch, -1, depth)
            hit = region == orig_output[:, i, j, None, :]
            first = np.argmax(hit, axis=1)                       # [batch, depth]
            found = hit.any(axis=1)
            r = r0 + first // (c1 - c0 + 1)
            c = c0 + first % (c1 - c0 + 1)
            index = ((np.arange(batch)[:, None] * height + r) * width + c) * depth + channels
            out_index = ((np.arange(batch)[:, None] * (len(row_seq) - 1) + i)
                         * (len(col_seq) - 1) + j) * depth + channels
            targets[out_index[found]] = index[found]
    if (targets < 0).any():
        raise invalid(ctx, "Some of the out_backprop values could not be routed to an input: "
                           "orig_output is not the max of its region")
    np.add.at(grad, targets, flat_out)
    return grad.reshape(orig_input.shape)


@register("FractionalAvgPoolGrad")
def fractional_avg_pool_grad(ctx, orig_input_tensor_shape, out_backprop, row_seq, col_seq):
    """out_backprop spread evenly over each region, summed in double, then cast."""
    overlapping = ctx.attr("overlapping", False)
    batch, height, width, depth = (int(v) for v in orig_input_tensor_shape)
    grad = np.zeros((batch, height, width, depth), np.float64)
    for i, (r0, r1) in enumerate(_regions(row_seq, height, overlapping)):
        for j, (c0, c1) in enumerate(_regions(col_seq, width, overlapping)):
            count = (r1 - r0 + 1) * (c1 - c0 + 1)
            share = out_backprop[:, i, j, :].astype(np.float64) / count
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    grad[:, r, c, :] += share
    return grad.astype(out_backprop.dtype)
