"""Shapes as lists of int-or-None (None for the whole list when the rank is unknown): reading
them from an input, merging and broadcasting them, and ShapeError for the incompatible ones."""

from engine.framework.tensor_shape import TensorShape


class ShapeError(ValueError):
    """Static shapes TensorFlow would reject while building the graph."""


def _dims(info):
    shape = info.shape
    if shape is None or not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    return None if shape.ndims is None else shape.as_list()


def with_rank(info, rank, what="", fill_unknown=False):
    """`info`'s dims after TensorFlow's WithRank check (ShapeError "Shape must be rank R but is
    rank N", " for WHAT" where given); where its rank is unknown, None, or with fill_unknown
    `rank` unknown dims, as WithRank gives."""
    dims = _dims(info)
    if dims is None:
        return [None] * rank if fill_unknown else None
    if len(dims) != rank:
        raise ShapeError(f"Shape must be rank {rank} but is rank {len(dims)}"
                         + (f" for {what}" if what else ""))
    return dims


def merge_dim(a, b):
    if a is None:
        return b
    if b is not None and a != b:
        raise ShapeError(f"Dimensions must be equal, but are {a} and {b}")
    return a


def merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise ShapeError(f"Shapes must be equal rank, but are {len(a)} and {len(b)}")
    for index, (x, y) in enumerate(zip(a, b)):  # TensorFlow's words for shapes that differ
        if x is not None and y is not None and x != y:
            raise ShapeError(f"Dimension {index} in both shapes must be equal, but are {x} and "
                             f"{y}. Shapes are {_text(a)} and {_text(b)}.")
    return [merge_dim(x, y) for x, y in zip(a, b)]


def _text(dims):
    """A partial shape as TensorFlow's DebugString writes it: [?,3]."""
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def broadcast(a, b):
    """BroadcastBinaryOpOutputShapeFn on dims lists (None for unknown)."""
    if a is None or b is None:
        return None
    rank = max(len(a), len(b))
    a, b = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(y if x is None else x)
        elif x == y:
            out.append(x)
        else:
            raise ShapeError(f"Dimensions must be equal, but are {x} and {y}")
    return out


def _unknown(rank):
    return None if rank is None else [None] * rank


def _attr_shape(attrs, name="shape"):
    shape = attrs.get(name)
    if shape is None:
        return None
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    return None if shape.ndims is None else shape.as_list()
