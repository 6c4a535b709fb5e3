"""How Session.run reads its feed_dict: keys as graph tensors, values converted to the tensor's
dtype and checked against its static shape, with TensorFlow's errors."""

import numpy as np

from engine.framework.tensor import Tensor

# feed_dict keys whose resolution Session.run remembers (exact classes: a subclass may
# define equality otherwise), and how many it remembers before it starts again.
_NAME_KEY_TYPES = frozenset({Tensor, str})
_MAX_KNOWN_KEYS = 1024


def is_operation(element):
    return hasattr(element, "outputs") and hasattr(element, "node_def")


# Values that cannot be graph tensors: Session.run skips the duck-typed test for them (three
# missing attributes, three AttributeErrors raised and caught, on every run).
_PLAIN_VALUE_TYPES = frozenset({np.ndarray, int, float, bool, complex, str, bytes,
                                *np.sctypeDict.values()})


def is_graph_tensor(value):
    if value.__class__ in _PLAIN_VALUE_TYPES:
        return False
    return hasattr(value, "value_index") and hasattr(value, "op") and hasattr(value, "graph")


def feed_tensor(graph, key):
    try:
        return graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
    except Exception as error:  # noqa: BLE001  (TF reports every failure the same way)
        detail = error.args[0] if error.args else str(error)
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: {detail}") from None


def feed_names_and_values(graph, feed_dict, known):
    """(feed tensor names, raw values), sorted by name, keys resolved as TF resolves them.

    known: a session's dict of keys resolved before, key -> tensor name. A Tensor or a name,
    once resolved in the graph, names the same tensor for good (a graph only grows); other
    keys (a Variable, anything with _as_graph_element) are resolved on every run.
    """
    if not isinstance(feed_dict, dict):
        try:
            feed_dict = dict(feed_dict.items())
        except AttributeError:
            raise TypeError(f"FlattenDictItems: 'dict' must be a dictionary or "
                            f"collection.Mapping type object, instead of "
                            f"'{type(feed_dict).__name__}'.") from None
    named = {}
    for key, value in feed_dict.items():
        name = known.get(key) if key.__class__ in _NAME_KEY_TYPES else None
        if name is None:
            if key.__class__ not in _NAME_KEY_TYPES and hasattr(key, "_feed_components"):
                for tensor, part in _expanded(key, value):
                    _check_value(key, part)
                    named[feed_tensor(graph, tensor).name] = part
                continue
            name = feed_tensor(graph, key).name
            if key.__class__ in _NAME_KEY_TYPES:
                if len(known) >= _MAX_KNOWN_KEYS:
                    known.clear()
                known[key] = name
        _check_value(key, value)
        named[name] = value
    if len(named) == 1:
        ((name, value),) = named.items()
        return (name,), (value,)
    names = tuple(sorted(named))
    return names, [named[name] for name in names]


def _check_value(key, value):
    if is_graph_tensor(value):
        raise TypeError(
            "The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
            "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
            f"For reference, the tensor object was {value!r} which was passed to the "
            f"argument `feed_dict` with key {key!r}.")


def _expanded(key, value):
    """(tensor, value) pairs feeding a SparseTensor's or an IndexedSlices' key through its
    component tensors, as TensorFlow's session expands them: a SparseTensorValue (or any three
    values: indices, values, dense_shape) for a SparseTensor; an IndexedSlicesValue (or
    values, indices[, dense_shape]) for an IndexedSlices."""
    tensors, value_type = key._feed_components()
    if value_type == "RaggedTensorValue" and hasattr(value, "nested_row_splits"):
        # a ragged placeholder fed a RaggedTensorValue: its splits, then its flat values
        return zip(tensors, list(value.nested_row_splits) + [value.flat_values])
    try:
        parts = list(value)
    except TypeError:
        raise TypeError(f"The value fed for {key!r} must be a {value_type} or a tuple of "
                        f"its {len(tensors)} parts, not {type(value).__name__}") from None
    return zip(tensors, parts)


def feed_converter(tensor):
    """value -> ndarray of the tensor's dtype, with TensorFlow's checks (session.py)."""
    np_dtype = tensor.dtype.base_dtype.as_numpy_dtype
    name = tensor.name
    shape = tensor.shape
    dims = None if shape.ndims is None else tuple(shape.as_list())
    # A fully known shape is checked with one tuple comparison (Session.run's hot path).
    static = dims if dims is not None and None not in dims else None
    is_string = tensor.dtype.base_dtype.name == "string"
    feedable = getattr(tensor.graph, "is_feedable", None)
    if feedable is not None and not feedable(tensor):
        def refuse(value):
            raise ValueError(f"Tensor {name} may not be fed.")
        return refuse

    def convert(value):
        if value.__class__ is int and np_dtype is not np.object_:
            converted = np.asarray(value, dtype=np_dtype) if fits_dtype(value, np_dtype) else None
            if converted is None or converted != value:
                raise TypeError(
                    f"Type of feed value {value} with type {type(value)} is not compatible "
                    f"with Tensor type {np.dtype(np_dtype).name}. Try explicitly setting the "
                    f"type of the feed tensor to a larger type (e.g. int64).")
        elif is_string:
            converted = string_feed(value)
        else:
            converted = np.asarray(value, dtype=np_dtype)
        if dims is not None and converted.shape != static:
            got = converted.shape
            if len(got) != len(dims) or any(d is not None and d != g
                                            for d, g in zip(dims, got)):
                raise ValueError(f"Cannot feed value of shape {got} for Tensor {name}, "
                                 f"which has shape {shape}")
        return converted
    return convert


def string_feed(value):
    """A fed string value as the engine's strings are: bytes in an object array, text
    encoded as UTF-8 (as TensorFlow's feed of a str or a NumPy unicode array)."""
    array = np.asarray(value)
    if array.dtype.kind == "U":
        return np.char.encode(array, "utf-8").astype(object)
    array = np.asarray(value, dtype=object)
    flat = array.reshape(-1)
    for i, item in enumerate(flat):
        if isinstance(item, str):
            flat[i] = item.encode("utf-8")
    return array


def fits_dtype(value, np_dtype):
    kind = np.dtype(np_dtype).kind
    if kind in "iu":
        info = np.iinfo(np_dtype)
        return info.min <= value <= info.max
    return True
