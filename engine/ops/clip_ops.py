"""tf.clip_by_global_norm, tf.global_norm and tf.clip_by_norm, built as TensorFlow 1.x does."""

from collections.abc import Sequence

import numpy as np

from engine.framework import dtypes
from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops, math_ops
from engine.ops.constant_op import constant
from engine.ops.convert import convert_to_tensor
from engine.ops.indexed_slices import IndexedSlices
from engine.ops.nn_ops import l2_loss


def _check_sequence(t_list):
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def _dense(t, name):
    return convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=name)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t), clip_norm), the norm taken over `axes` (all by default)."""
    with name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
        values = _dense(t, "t")
        if np.isscalar(clip_norm):
            clip_norm = max(clip_norm, 0)
        else:
            clip_norm = math_ops.cast(math_ops.maximum(clip_norm, 0), dtype=values.dtype)
        l2sum = math_ops.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        l2sum_safe = array_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = array_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        clipped = array_ops.identity(intermediate / math_ops.maximum(l2norm, clip_norm),
                                     name=name)
        if isinstance(t, IndexedSlices):
            return IndexedSlices(clipped, t.indices, t.dense_shape)
        return clipped


def global_norm(t_list, name=None):
    """sqrt(sum of every tensor's squared L2 norm); None entries are skipped."""
    t_list = _check_sequence(t_list)
    graph = get_default_graph()
    with name_scope(name, "global_norm", t_list):
        values = [None if t is None else _dense(t, f"t_{i}") for i, t in enumerate(t_list)]
        half_squared_norms = []
        for v in values:
            if v is not None:
                with graph.colocate_with(v.op):
                    half_squared_norms.append(l2_loss(v))
        half_squared_norm = math_ops.reduce_sum(array_ops.stack(half_squared_norms))
        return math_ops.sqrt(half_squared_norm * constant(2.0, dtype=half_squared_norm.dtype),
                             name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Every tensor scaled by clip_norm / max(global_norm, clip_norm); returns (list, norm)."""
    t_list = _check_sequence(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    graph = get_default_graph()
    with name_scope(name, "clip_by_global_norm", t_list + [clip_norm]) as name:
        # Where the norm is Inf or NaN, (use_norm - use_norm) makes every value NaN.
        scale_for_finite = clip_norm * math_ops.minimum(
            1.0 / use_norm, constant(1.0, dtype=use_norm.dtype) / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)
        values = [None if t is None else _dense(t, f"t_{i}") for i, t in enumerate(t_list)]
        clipped = []
        for i, v in enumerate(values):
            if v is None:
                clipped.append(None)
                continue
            with graph.colocate_with(v.op):
                clipped.append(array_ops.identity(v * math_ops.cast(scale, v.dtype),
                                                  name=f"{name}_{i}"))
        return [IndexedSlices(c, t.indices, t.dense_shape) if isinstance(t, IndexedSlices)
                else c for c, t in zip(clipped, t_list)], use_norm


def clip_by_average_norm(t, clip_norm, name=None):
    """tf.clip_by_average_norm (TF 1.x): t scaled so its L2 norm per element is at most
    clip_norm."""
    with name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
        t = convert_to_tensor(t, name="t")
        n_element = math_ops.cast(array_ops.size(t), dtypes.float32)
        l2norm_inv = math_ops.rsqrt(math_ops.reduce_sum(t * t, math_ops.range(
            array_ops.rank(t))))
        return array_ops.identity(
            t * clip_norm * math_ops.minimum(l2norm_inv * n_element,
                                             constant(1.0) / clip_norm), name=name)
