"""GPU kernels: shapes and array manipulation (Reshape, ConcatV2, StridedSlice, Gather, ...).

The checks are the CPU kernels' (engine/kernels/cpu/array.py), applied to shapes and to
host copies of the shape-like arguments, so errors read the same on both devices. Ops whose
outputs TensorFlow keeps in host memory (Shape, Size, Rank, BroadcastArgs, ...) compute on
the host and return NumPy arrays.
"""

import numpy as np

from engine.kernels import register_table
from engine.kernels.tensor_list import TensorList, zeros_like_list
from engine.kernels.cpu import array as cpu_array
from engine.kernels.cpu import grad as cpu_grad
from engine.kernels.common import check_axis, invalid, split_outputs
from engine.kernels.cpu.array import (broadcast_to_error, concat_axis, expand_axis, fill_dims,
                                      gather_batch_dims, index_error, one_hot_depth, out_dtype,
                                      pack_axis, pad_widths, reshape_dims, reverse_axes,
                                      slice_index, split_axis, split_v_sizes, squeeze_shape,
                                      strided_slice_spec, tile_multiples, transpose_perm,
                                      unpack_axis)
from engine.kernels.cuda.common import device, host

# Host in, host out: TensorFlow registers these on GPU with HostMemory outputs.
_HOST_OUTPUT_KERNELS = {
    "Shape": lambda ctx, x: np.array(x.shape, out_dtype(ctx)),
    "ShapeN": lambda ctx, *xs: tuple(np.array(x.shape, out_dtype(ctx)) for x in xs),
    "Size": lambda ctx, x: np.array(x.size, out_dtype(ctx)),
    "Rank": lambda ctx, x: np.array(x.ndim, np.int32),
    "InvertPermutation": lambda ctx, x: np.argsort(host(x)).astype(x.dtype),
    "BroadcastArgs": lambda ctx, s0, s1: cpu_array.broadcast_args(ctx, host(s0), host(s1)),
    "BroadcastGradientArgs": lambda ctx, s0, s1: cpu_grad.broadcast_gradient_args(
        ctx, host(s0), host(s1)),
    "ConcatOffset": lambda ctx, concat_dim, *shapes: cpu_grad.concat_offset(
        ctx, host(concat_dim), *[host(s) for s in shapes]),
}


def pad_constant(xp, x, widths, value):
    """`x` padded by `widths` ([[before, after], ...]) with `value` (a scalar, host or device)."""
    shape = tuple(d + before + after for d, (before, after) in zip(x.shape, widths))
    out = xp.full(shape, value, dtype=x.dtype)
    out[tuple(slice(before, before + d) for d, (before, _) in zip(x.shape, widths))] = x
    return out


def register_all(xp):
    def reshape(ctx, tensor, shape):
        return device(xp, tensor).reshape(reshape_dims(ctx, tensor.size, host(shape)))

    def transpose(ctx, x, perm):
        return xp.transpose(device(xp, x), transpose_perm(ctx, x.ndim, host(perm)))

    def concat(ctx, values, axis):
        axis = concat_axis(ctx, [v.shape for v in values], host(axis))
        return xp.concatenate([device(xp, v) for v in values], axis=axis)

    def pack(ctx, *values):
        axis = pack_axis(ctx, [v.shape for v in values])
        return xp.stack([device(xp, v) for v in values], axis=axis)

    def unpack(ctx, value):
        moved = xp.moveaxis(device(xp, value), unpack_axis(ctx, value.shape), 0)
        return split_outputs(moved[i] for i in range(moved.shape[0]))

    def split(ctx, axis, value):
        num = ctx.attrs["num_split"]
        axis = split_axis(ctx, value.shape, host(axis), num)
        return split_outputs(xp.split(device(xp, value), num, axis=axis))

    def split_v(ctx, value, size_splits, axis):
        axis, sizes = split_v_sizes(ctx, value.shape, host(size_splits), host(axis))
        return split_outputs(xp.split(device(xp, value), np.cumsum(sizes)[:-1].tolist(),
                                      axis=axis))

    def slice_(ctx, x, begin, size):
        return device(xp, x)[slice_index(ctx, x.shape, host(begin), host(size))]

    def strided_slice(ctx, x, begin, end, strides):
        index = strided_slice_spec(ctx, x.shape, host(begin), host(end), host(strides))
        return device(xp, x)[index]

    def strided_slice_grad(ctx, shape, begin, end, strides, dy):
        shape = tuple(int(d) for d in host(shape).reshape(-1))
        index = strided_slice_spec(ctx, shape, host(begin), host(end), host(strides))
        result = xp.zeros(shape, dy.dtype)
        target = result[index]
        result[index] = device(xp, dy).reshape(target.shape)
        return result

    def squeeze(ctx, x):
        return device(xp, x).reshape(squeeze_shape(ctx, x.shape))

    def expand_dims(ctx, x, dim):
        return xp.expand_dims(device(xp, x), expand_axis(ctx, x.ndim, host(dim)))

    def tile(ctx, x, multiples):
        return xp.tile(device(xp, x), tile_multiples(ctx, x.ndim, host(multiples)))

    def pad(ctx, x, paddings, constant=0):
        widths = pad_widths(ctx, x.shape, host(paddings))
        value = constant if isinstance(constant, int) else device(xp, constant)
        return pad_constant(xp, device(xp, x), widths, value)

    def mirror_pad(ctx, x, paddings):
        widths = pad_widths(ctx, x.shape, host(paddings))
        mode = "reflect" if ctx.attrs["mode"] == b"REFLECT" else "symmetric"
        return xp.pad(device(xp, x), widths, mode=mode)

    def fill(ctx, dims, value):
        value = device(xp, value)
        return xp.full(fill_dims(ctx, host(dims), value.shape), value, dtype=value.dtype)

    def range_(ctx, start, limit, delta):
        # Three host scalars in, as TensorFlow's GPU Range takes them; the sequence is the
        # CPU kernel's (its float accumulation order included), copied to the device.
        return xp.asarray(cpu_array.range_(ctx, host(start), host(limit), host(delta)))

    def check_indices(ctx, indices, limit):
        if indices.size and bool(((indices < 0) | (indices >= limit)).any()):
            index_error(ctx, host(indices), limit)

    def gather(ctx, params, indices, axis=0, batch_dims=0):
        params, indices = device(xp, params), device(xp, indices)
        axis = check_axis(ctx, int(host(axis)), params.ndim, "axis")
        check_indices(ctx, indices, params.shape[axis])
        if batch_dims == 0:
            return xp.take(params, indices, axis=axis)
        batch = params.shape[:batch_dims]
        flat_params = params.reshape((-1,) + params.shape[batch_dims:])
        flat_indices = indices.reshape((-1,) + indices.shape[batch_dims:])
        tail = params.shape[batch_dims:axis] + indices.shape[batch_dims:] + \
            params.shape[axis + 1:]
        if flat_params.shape[0] == 0:
            return xp.empty(batch + tail, params.dtype)
        parts = [xp.take(flat_params[b], flat_indices[b], axis=axis - batch_dims)
                 for b in range(flat_params.shape[0])]
        return xp.stack(parts).reshape(batch + tail)

    def gather_v2(ctx, params, indices, axis):
        return gather(ctx, params, indices, axis, gather_batch_dims(ctx, indices.ndim))

    def one_hot(ctx, indices, depth, on_value, off_value):
        depth = one_hot_depth(ctx, host(depth))
        indices = device(xp, indices)
        hot = xp.expand_dims(indices, -1) == xp.arange(depth, dtype=indices.dtype)
        result = xp.where(hot, device(xp, on_value), device(xp, off_value))
        axis = ctx.attrs.get("axis", -1)
        return xp.moveaxis(result, -1, axis) if axis != -1 else result

    def reverse_v2(ctx, tensor, axis):
        axes = reverse_axes(ctx, tensor.ndim, host(axis))
        return xp.flip(device(xp, tensor), axes) if axes else device(xp, tensor)

    def broadcast_to(ctx, x, shape):
        target = tuple(host(shape).reshape(-1).tolist())
        try:
            return xp.broadcast_to(device(xp, x), target).copy()
        except ValueError:
            raise broadcast_to_error(ctx, x.shape, target) from None

    def where(ctx, x):
        return xp.argwhere(device(xp, x)).astype(np.int64)

    def dynamic_stitch(ctx, *args):
        # TensorFlow's GPU DynamicStitch takes its indices in host memory. Where an index
        # repeats, the last value given for it wins, as on the CPU; resolving that on the
        # host leaves one gather and one scatter with unique targets for the device.
        n = len(args) // 2
        indices = [host(i).reshape(-1).astype(np.int64) for i in args[:n]]
        data = [device(xp, d) for d in args[n:]]
        tail = data[0].shape[args[0].ndim:]
        size = max((int(i.max()) + 1 for i in indices if i.size), default=0)
        result = xp.zeros((size,) + tail, data[0].dtype)
        targets = np.concatenate(indices) if indices else np.zeros(0, np.int64)
        if not targets.size:
            return result
        rows = xp.concatenate([d.reshape((i.size,) + tail) for i, d in zip(indices, data)])
        last = targets.size - 1 - np.unique(targets[::-1], return_index=True)[1]
        result[xp.asarray(targets[last])] = rows[xp.asarray(last)]
        return result

    def unsorted_segment_sum(ctx, data, segment_ids, num_segments):
        data, ids = device(xp, data), device(xp, segment_ids)
        count = int(host(num_segments))
        tail = data.shape[ids.ndim:]
        width = int(np.prod(tail, dtype=np.int64))
        flat_ids = ids.reshape(-1)
        if flat_ids.size and bool((flat_ids >= count).any()):
            host_ids = host(flat_ids)
            bad = host_ids[host_ids >= count][0]
            raise invalid(ctx, f"segment_ids[0] = {bad} is out of range [0, {count})")
        if not flat_ids.size or not width or not count:
            return xp.zeros((count,) + tail, data.dtype)
        # A scatter-add as one bincount over (segment, column) slots; ids < 0 are dropped,
        # as TensorFlow drops them, by giving them weight 0. bincount sums in float64.
        keep = (flat_ids >= 0)[:, None]
        slots = xp.where(keep, flat_ids[:, None] * width + xp.arange(width), 0).reshape(-1)
        flat = data.reshape(flat_ids.size, width)

        def summed(values):
            weights = xp.where(keep, values, 0).reshape(-1).astype(np.float64)
            return xp.bincount(slots, weights=weights, minlength=count * width)

        if data.dtype.kind == "c":
            total = summed(flat.real) + 1j * summed(flat.imag)
        else:
            total = summed(flat)
        return total.astype(data.dtype).reshape((count,) + tail)

    def list_diff(ctx, x, y):
        out, idx = cpu_grad.list_diff(ctx, host(x), host(y))
        return xp.asarray(out), xp.asarray(idx)

    register_table({
        "Reshape": reshape, "Transpose": transpose,
        "ConcatV2": lambda ctx, *args: concat(ctx, args[:-1], args[-1]),
        "Concat": lambda ctx, concat_dim, *values: concat(ctx, values, concat_dim),
        "Pack": pack, "Unpack": unpack, "Split": split, "SplitV": split_v,
        "Slice": slice_, "StridedSlice": strided_slice, "StridedSliceGrad": strided_slice_grad,
        "Squeeze": squeeze, "ExpandDims": expand_dims, "Tile": tile,
        "Pad": pad, "PadV2": pad, "MirrorPad": mirror_pad, "Fill": fill, "Range": range_,
        "ZerosLike": lambda ctx, x: zeros_like_list(x, xp.zeros_like)
        if isinstance(x, TensorList) else xp.zeros_like(device(xp, x)),
        "OnesLike": lambda ctx, x: xp.ones_like(device(xp, x)),
        "GatherV2": gather_v2, "Gather": lambda ctx, params, indices: gather(ctx, params, indices),
        "OneHot": one_hot, "ReverseV2": reverse_v2, "BroadcastTo": broadcast_to, "Where": where,
        "DynamicStitch": dynamic_stitch, "ParallelDynamicStitch": dynamic_stitch,
        "UnsortedSegmentSum": unsorted_segment_sum, "ListDiff": list_diff,
        **_HOST_OUTPUT_KERNELS,
    }, "GPU")

