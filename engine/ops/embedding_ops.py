"""tf.nn.embedding_lookup: a GatherV2 of the embedding rows, whose gradient is IndexedSlices,
as TensorFlow's (one table; sharded tables are not supported yet)."""

from engine.framework.default_graph import name_scope
from engine.framework.graph import get_default_graph
from engine.ops import array_ops
from engine.ops.convert import convert_to_tensor


def _clip(params, ids, max_norm):
    if max_norm is None:
        return params
    raise NotImplementedError("tf.nn.embedding_lookup's max_norm is not supported by the "
                              "engine yet")


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows of `params` (a tensor, a variable, or a list of shards) at `ids`."""
    if params is None or (isinstance(params, (list, tuple)) and not params):
        raise ValueError("Need at least one param")
    if not isinstance(params, (list, tuple)):
        params = [params]
    with name_scope(name, "embedding_lookup", list(params) + [ids]) as name:
        ids = convert_to_tensor(ids, name="ids")
        if len(params) == 1:
            with get_default_graph().colocate_with(getattr(params[0], "op", None)):
                result = _clip(array_ops.gather(params[0], ids, name=name), ids, max_norm)
            return array_ops.identity(result)
        raise NotImplementedError("tf.nn.embedding_lookup over a list of sharded tables is "
                                  "not supported by the engine yet")

