"""tf.nn.embedding_lookup: a GatherV2 of the embedding rows, whose gradient is IndexedSlices,
as TensorFlow's; over shards (a list, or a PartitionedVariable's parts) TensorFlow's
DynamicPartition, per-shard gathers and ParallelDynamicStitch ("mod" and "div")."""

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.partitioned_variables import PartitionedVariable


def _clip(params, ids, max_norm):
    if max_norm is None:
        return params
    raise NotImplementedError("tf.nn.embedding_lookup's max_norm is not supported by the "
                              "engine yet")


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows of `params` (a tensor, a variable, a list of shards or a PartitionedVariable)
    at `ids`."""
    if params is None or (isinstance(params, (list, tuple)) and not params):
        raise ValueError("Need at least one param")
    if isinstance(params, PartitionedVariable):
        params = list(params)  # its parts are the shards, as TensorFlow takes them
    if not isinstance(params, (list, tuple)):
        params = [params]
    with name_scope(name, "embedding_lookup", list(params) + [ids]) as name:
        ids = convert_to_tensor(ids, name="ids")
        if len(params) == 1:
            with get_default_graph().colocate_with(getattr(params[0], "op", None)):
                result = _clip(array_ops.gather(params[0], ids, name=name), ids, max_norm)
            return array_ops.identity(result)
        return _sharded_lookup(params, ids, partition_strategy, name, max_norm)


def _sharded_lookup(params, ids, partition_strategy, name, max_norm):
    """TensorFlow's lookup over shards: each id's shard and row in it ("mod": id % n and
    id // n; "div": contiguous ranges, the first `size % n` shards one row longer), the ids
    dynamically partitioned, gathered per shard and stitched back in order."""
    from engine.framework import dtypes
    from engine.ops import data_flow_ops, math_ops
    from engine.ops.cast import cast
    from engine.ops.constant_op import constant
    from engine.ops.op_def_library import apply_op
    from engine.ops.shape_ops import shape, size
    graph = get_default_graph()
    num_shards = len(params)
    params = [p if hasattr(p, "handle") else convert_to_tensor(p) for p in params]
    flat_ids = array_ops.reshape(ids, [-1])
    original_indices = math_ops.range(size(flat_ids, out_type=dtypes.int32))
    if partition_strategy == "mod":
        p_assignments = flat_ids % num_shards
        new_ids = flat_ids // num_shards
    elif partition_strategy == "div":
        rows = [p.get_shape()[0].value for p in params]
        if any(r is None for r in rows):
            raise NotImplementedError("tf.nn.embedding_lookup's div strategy over shards of "
                                      "unknown size is not supported by the engine yet")
        num_total_ids = constant(sum(rows), flat_ids.dtype)
        ids_per_partition = num_total_ids // num_shards
        extras = num_total_ids % num_shards
        p_assignments = math_ops.maximum(flat_ids // (ids_per_partition + 1),
                                         (flat_ids - extras) // ids_per_partition)
        new_ids = array_ops.where(p_assignments < extras, flat_ids % (ids_per_partition + 1),
                                  (flat_ids - extras) % ids_per_partition)
    else:
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}.Must be one "
                         f"of either `mod` or `div`.")
    p_assignments = cast(p_assignments, dtypes.int32)
    gather_ids = data_flow_ops.dynamic_partition(new_ids, p_assignments, num_shards)
    pindices = data_flow_ops.dynamic_partition(original_indices, p_assignments, num_shards)
    partitioned_result = []
    for shard, pids in zip(params, gather_ids):
        with graph.device(None), graph.colocate_with(getattr(shard, "op", None)):
            partitioned_result.append(array_ops.gather(shard, pids))
    ret = apply_op("ParallelDynamicStitch", indices=pindices, data=partitioned_result,
                   name=name)
    element_shape_s = params[0].get_shape()[1:]
    for p in params[1:]:
        element_shape_s = element_shape_s.merge_with(p.get_shape()[1:])
    if element_shape_s.is_fully_defined():
        element_shape_d = element_shape_s.as_list()
    else:
        with graph.colocate_with(params[0].op):
            element_shape_d = shape(params[0])[1:]
    ret = array_ops.reshape(ret, array_ops.concat([shape(ids), element_shape_d], 0))
    ret.set_shape(ids.get_shape().concatenate(element_shape_s))
    return _clip(ret, ids, max_norm)



def _check_combiner(combiner):
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None, allow_fast_lookup=False):
    """tf.nn.embedding_lookup_sparse (TF 1.x): each row of `sp_ids` (a 2-D SparseTensor)
    combined into one embedding, weighted by `sp_weights` when given. As TensorFlow 2.21
    builds it: without weights the rows are read by SparseSegment{Sum,Mean,SqrtN} straight
    from the table (a sparse gradient), with weights through Unique, Gather and SegmentSum."""
    from engine.framework.sparse_tensor import SparseTensor
    if combiner is None:
        combiner = "mean"
    _check_combiner(combiner)
    if not isinstance(params, list):
        params = list(params) if isinstance(params, tuple) else [params]
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    ignore_weights = sp_weights is None
    if not ignore_weights:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor,"
                            f"got {type(sp_weights)}")
        sp_ids.values.get_shape().assert_is_compatible_with(sp_weights.values.get_shape())
        sp_ids.indices.get_shape().assert_is_compatible_with(sp_weights.indices.get_shape())
        sp_ids.dense_shape.get_shape().assert_is_compatible_with(
            sp_weights.dense_shape.get_shape())
    with name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as name:
        segment_ids = sp_ids.indices[:, 0]
        return _embedding_lookup_sparse_impl(params, segment_ids, sp_weights, sp_ids.values,
                                             combiner, ignore_weights, max_norm,
                                             allow_fast_lookup, partition_strategy, name)


def _embedding_lookup_sparse_impl(params, segment_ids, sp_weights, ids, combiner,
                                  ignore_weights, max_norm, allow_fast_lookup,
                                  partition_strategy, name):
    from engine.framework import dtypes
    from engine.framework.tensor import Tensor
    from engine.ops import math_ops, segment_ops
    from engine.ops.fill_ops import ones
    from engine.ops.op_def_library import apply_op
    from engine.ops.shape_ops import rank, shape
    from engine.ops.variables import ResourceVariable
    segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
    # A resource variable is a CompositeTensor to TensorFlow: not converted, and read through
    # Unique and a ResourceGather rather than the fast path.
    composite = isinstance(params[0], ResourceVariable)
    if len(params) == 1 and not isinstance(params[0], Tensor) and not composite:
        params = [convert_to_tensor(params[0], name="params")]
    sparse_gradient = False
    if (len(params) == 1 and not composite and params[0].device == segment_ids.device
            and max_norm is None and (allow_fast_lookup or ignore_weights)):
        idx, embeddings = ids, params[0]
        sparse_gradient = not allow_fast_lookup
    else:
        ids, idx = segment_ops.unique(ids)
        embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy,
                                      max_norm=max_norm)
    if not ignore_weights:
        if segment_ids.dtype != dtypes.int32:
            segment_ids = math_ops.cast(segment_ids, dtypes.int32)
        weights = sp_weights.values
        embeddings = array_ops.gather(embeddings, idx)
        original_dtype = embeddings.dtype
        if embeddings.dtype in (dtypes.float16, dtypes.bfloat16):
            embeddings = math_ops.cast(embeddings, dtypes.float32)
        if weights.dtype != embeddings.dtype:
            weights = math_ops.cast(weights, embeddings.dtype)
        ones_shape = array_ops.expand_dims(rank(embeddings) - 1, 0)
        weights_shape = shape(weights)
        bcast_weights_shape = array_ops.concat(
            [weights_shape, ones(ones_shape, dtype=weights_shape.dtype)], 0)
        orig_weights_shape = weights.get_shape()
        weights = array_ops.reshape(weights, bcast_weights_shape)
        if embeddings.get_shape().ndims is not None:
            weights.set_shape(orig_weights_shape.concatenate(
                [1 for _ in range(embeddings.get_shape().ndims - 1)]))
        embeddings *= weights
        if combiner == "sum":
            embeddings = segment_ops.segment_sum(embeddings, segment_ids, name=name)
        elif combiner == "mean":
            embeddings = segment_ops.segment_sum(embeddings, segment_ids)
            weight_sum = segment_ops.segment_sum(weights, segment_ids)
            embeddings = math_ops.div_no_nan(embeddings, weight_sum, name=name)
        else:
            embeddings = segment_ops.segment_sum(embeddings, segment_ids)
            weight_sum = segment_ops.segment_sum(math_ops.pow(weights, 2), segment_ids)
            embeddings = math_ops.div_no_nan(embeddings, math_ops.sqrt(weight_sum), name=name)
        if embeddings.dtype != original_dtype:
            embeddings = math_ops.cast(embeddings, original_dtype)
        return embeddings
    if segment_ids.dtype not in (dtypes.int32, dtypes.int64):
        segment_ids = math_ops.cast(segment_ids, dtypes.int32)
    op_type = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean",
               "sqrtn": "SparseSegmentSqrtN"}[combiner]
    return apply_op(op_type, data=embeddings, indices=idx, segment_ids=segment_ids,
                    sparse_gradient=sparse_gradient, name=name)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, name=None,
                                 partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """tf.nn.safe_embedding_lookup_sparse (TF 1.x): embedding_lookup_sparse of ids of any
    rank >= 2, with negative ids (and, unless summing, non-positive weights) dropped and an
    empty row giving zeros (or the embedding of `default_id`)."""
    from engine.framework import dtypes
    from engine.framework.tensor_shape import Dimension, dimension_value, unknown_shape
    from engine.ops import math_ops, sparse_ops
    from engine.ops.fill_ops import zeros_like
    from engine.ops.shape_ops import shape, size
    from engine.ops.variables import ResourceVariable
    from engine.framework.sparse_tensor import SparseTensor
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if not isinstance(embedding_weights, list):
        embedding_weights = (list(embedding_weights) if isinstance(embedding_weights, tuple)
                             else [embedding_weights])
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [
        w if isinstance(w, ResourceVariable) and dtype in (None, w.dtype)
        else convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with name_scope(name, "embedding_lookup",
                    embedding_weights + [sparse_ids, sparse_weights]) as scope:
        original_shape = sparse_ids.dense_shape
        original_rank_dim = dimension_value(sparse_ids.dense_shape.get_shape()[0])
        original_rank = size(original_shape) if original_rank_dim is None else original_rank_dim
        sparse_ids = sparse_ops.sparse_reshape(sparse_ids, [
            math_ops.reduce_prod(array_ops.slice(original_shape, [0], [original_rank - 1])),
            array_ops.gather(original_shape, original_rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values,
                                          sparse_ids.dense_shape)
        sparse_ids, sparse_weights = _prune_invalid_ids(sparse_ids, sparse_weights)
        if combiner != "sum":
            sparse_ids, sparse_weights = _prune_invalid_weights(sparse_ids, sparse_weights)
        sparse_ids, is_row_empty = sparse_ops.sparse_fill_empty_rows(sparse_ids,
                                                                     default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_ops.sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(
            embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
            partition_strategy=partition_strategy,
            name=None if default_id is None else scope, max_norm=max_norm,
            allow_fast_lookup=allow_fast_lookup)
        if default_id is None:
            is_row_empty = array_ops.tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                          array_ops.stack([1, shape(result)[1]]))
            result = array_ops.where(is_row_empty, zeros_like(result), result, name=scope)
        final_result = array_ops.reshape(result, array_ops.concat([
            array_ops.slice(math_ops.cast(original_shape, dtypes.int32), [0],
                            [original_rank - 1]),
            array_ops.slice(shape(result), [1], [-1])], 0))
        final_result.set_shape(unknown_shape(
            (Dimension(original_rank_dim) - 1).value).concatenate(result.get_shape()[1:]))
        return final_result


def _prune_invalid_ids(sparse_ids, sparse_weights):
    from engine.framework import dtypes
    from engine.ops import math_ops, sparse_ops
    from engine.ops.fill_ops import ones_like
    is_id_valid = math_ops.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None:
        is_id_valid = math_ops.logical_and(
            is_id_valid, ones_like(sparse_weights.values, dtype=dtypes.bool))
    sparse_ids = sparse_ops.sparse_retain(sparse_ids, is_id_valid)
    if sparse_weights is not None:
        sparse_weights = sparse_ops.sparse_retain(sparse_weights, is_id_valid)
    return sparse_ids, sparse_weights


def _prune_invalid_weights(sparse_ids, sparse_weights):
    from engine.ops import math_ops, sparse_ops
    if sparse_weights is not None:
        is_weights_valid = math_ops.greater(sparse_weights.values, 0)
        sparse_ids = sparse_ops.sparse_retain(sparse_ids, is_weights_valid)
        sparse_weights = sparse_ops.sparse_retain(sparse_weights, is_weights_valid)
    return sparse_ids, sparse_weights
