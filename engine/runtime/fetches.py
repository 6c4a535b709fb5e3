"""Fetch structures as TensorFlow's session.py reads them: flatten to graph elements, rebuild.

Session.run accepts a graph element (Tensor, Operation, name string, anything with
`_as_graph_element`), a SparseTensor (fetched as a SparseTensorValue), an IndexedSlices (a
gather's gradient, fetched as an IndexedSlicesValue), or lists, tuples,
namedtuples, dicts and attrs classes of those, nested.
`FetchMapper.for_fetch(fetch, graph)` flattens the structure once into unique elements; its
`build(values)` puts the fetched values back into the same structure (None for an Operation).
"""

import collections.abc

from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue


class FetchMapper:
    """Maps one fetch structure to its leaf graph elements and back."""

    __slots__ = ("elements", "_build")

    def __init__(self, elements, build):
        self.elements = elements  # unique leaves, in first-seen order
        self._build = build       # values (aligned with elements) -> structure

    def build(self, values):
        return self._build(values)

    @classmethod
    def for_fetch(cls, fetch, graph, session=None):
        """`session`: the one whose runs build values (a fetched session handle becomes a
        TensorHandle of it)."""
        unique, index = [], {}

        def leaf_index(element):
            key = id(element)
            position = index.get(key)
            if position is None:
                position = index[key] = len(unique)
                unique.append(element)
            return position

        builder = _mapper(fetch, graph, leaf_index, session)
        return cls(unique, builder)


def structure_key(fetch):
    """A hashable key equal for every fetch of the same flat structure of the same elements,
    so a session can reuse its FetchMapper; None for a structure it is not kept for.

    Only a list, tuple or dict (string keys) of Tensors, Operations, Variables and names:
    these compare by identity (names by value), and name the same graph element for good.
    A namedtuple, an attrs class or a nesting is flattened again on every run.
    """
    cls = fetch.__class__
    leaf_types = _LEAF_TYPES or _load_leaf_types()
    if cls is list or cls is tuple:
        for item in fetch:
            if item.__class__ not in leaf_types:
                return None
        return cls, tuple(fetch)
    if cls is dict:
        for key, item in fetch.items():
            if key.__class__ is not str or item.__class__ not in leaf_types:
                return None
        return cls, tuple(fetch.items())
    return None


_LEAF_TYPES = None


def _load_leaf_types():
    global _LEAF_TYPES
    # here: engine.ops imports the session's modules
    from engine.framework.operation import Operation
    from engine.ops.variables import RefVariable, ResourceVariable
    from engine.framework.tensor import Tensor
    # Exact classes: a subclass may compare or convert otherwise.
    _LEAF_TYPES = frozenset({Tensor, Operation, RefVariable, ResourceVariable, str})
    return _LEAF_TYPES


def _mapper(fetch, graph, leaf_index, session=None):
    """A function values -> structure for `fetch`, registering its leaves with leaf_index."""
    if fetch is None:
        raise TypeError(f'Argument `fetch` = {fetch} has invalid type "{type(fetch).__name__}". '
                        "Cannot be None")
    if isinstance(fetch, (list, tuple)):
        parts = [_mapper(item, graph, leaf_index, session) for item in fetch]
        if isinstance(fetch, tuple) and hasattr(fetch, "_fields"):
            make = type(fetch)
            return lambda values: make(*[part(values) for part in parts])
        make = type(fetch)
        if make in (list, tuple):
            return lambda values: make([part(values) for part in parts])
        return lambda values: make(part(values) for part in parts)
    if isinstance(fetch, collections.abc.Mapping):
        keys = list(fetch.keys())
        parts = [_mapper(fetch[key], graph, leaf_index, session) for key in keys]
        make = type(fetch)

        def build_mapping(values):
            items = [(key, part(values)) for key, part in zip(keys, parts)]
            if make is dict:
                return dict(items)
            try:
                return make(items)
            except TypeError:  # a Mapping that cannot be built from items
                return dict(items)
        return build_mapping
    if isinstance(fetch, SparseTensor):
        # TensorFlow's session fetches a SparseTensor's three tensors and gives them back
        # as a SparseTensorValue.
        parts = [leaf_index(as_fetch_element(t, graph))
                 for t in (fetch.indices, fetch.values, fetch.dense_shape)]
        return lambda values: SparseTensorValue(*[values[p] for p in parts])
    if hasattr(fetch, "_fetch_tensors") and hasattr(fetch, "nested_row_splits"):
        # a RaggedTensor: its nested row splits and flat values, given back as a
        # RaggedTensorValue (engine/ops/ragged/ragged_tensor.py)
        return _ragged_mapper(fetch, graph, leaf_index)
    indexed_slices = _indexed_slices_types()
    if isinstance(fetch, indexed_slices[0]):
        # values, indices and the dense shape where it has one, as TensorFlow's session
        parts = [leaf_index(as_fetch_element(t, graph))
                 for t in (fetch.values, fetch.indices, fetch.dense_shape) if t is not None]
        make = indexed_slices[1]
        return lambda values: make(*[values[p] for p in parts], *[None] * (3 - len(parts)))
    attrs_fields = getattr(type(fetch), "__attrs_attrs__", None)
    if attrs_fields is not None:
        names = [field.name for field in attrs_fields]
        parts = [_mapper(getattr(fetch, name), graph, leaf_index, session)
                 for name in names]
        make = type(fetch)
        return lambda values: make(**{name: part(values) for name, part in zip(names, parts)})
    element = as_fetch_element(fetch, graph)
    position = leaf_index(element)
    if getattr(element, "op", None) is not None and element.op.type in _HANDLE_OPS:
        from engine.ops.session_ops import fetched_handle  # engine.ops imports the session
        wrap = fetched_handle(element, session)
        if wrap is not None:
            return lambda values: wrap(values[position])
    return lambda values: values[position]


_HANDLE_OPS = frozenset({"GetSessionHandle", "GetSessionHandleV2"})


def _ragged_mapper(fetch, graph, leaf_index):
    from engine.framework.ragged_tensor_value import RaggedTensorValue
    parts = [leaf_index(as_fetch_element(t, graph)) for t in fetch._fetch_tensors()]

    def build(values):
        result = values[parts[-1]]
        for position in reversed(parts[:-1]):
            result = RaggedTensorValue(result, values[position])
        return result
    return build


def _indexed_slices_types():
    """(IndexedSlices, IndexedSlicesValue), imported here: engine.ops imports the session."""
    from engine.ops.indexed_slices import IndexedSlices, IndexedSlicesValue
    return IndexedSlices, IndexedSlicesValue


def as_fetch_element(fetch, graph):
    """The Tensor or Operation `fetch` names in `graph`, with TensorFlow's fetch errors."""
    try:
        return graph.as_graph_element(fetch, allow_tensor=True, allow_operation=True)
    except TypeError as error:
        raise TypeError(f'Argument `fetch` = {fetch} has invalid type "{type(fetch).__name__}" '
                        f"must be a string or Tensor. ({error})") from None
    except (ValueError, KeyError) as error:
        raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a Tensor. "
                         f"({error})") from None
