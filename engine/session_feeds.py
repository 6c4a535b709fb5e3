"""How Session.run reads its feed_dict: keys as graph tensors, values converted to the tensor's
dtype and checked against its static shape, with TensorFlow's errors."""

import numpy as np


def is_operation(element):
    return hasattr(element, "outputs") and hasattr(element, "node_def")


def is_graph_tensor(value):
    return hasattr(value, "value_index") and hasattr(value, "op") and hasattr(value, "graph")


def feed_tensor(graph, key):
    try:
        return graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
    except Exception as error:  # noqa: BLE001  (TF reports every failure the same way)
        detail = error.args[0] if error.args else str(error)
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: {detail}") from None


def feed_converter(tensor):
    """value -> ndarray of the tensor's dtype, with TensorFlow's checks (session.py)."""
    np_dtype = tensor.dtype.base_dtype.as_numpy_dtype
    name = tensor.name
    shape = tensor.shape
    dims = None if shape.ndims is None else tuple(shape.as_list())
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
        else:
            converted = np.asarray(value, dtype=np_dtype)
        if dims is not None:
            got = converted.shape
            if len(got) != len(dims) or any(d is not None and d != g
                                            for d, g in zip(dims, got)):
                raise ValueError(f"Cannot feed value of shape {got} for Tensor {name}, "
                                 f"which has shape {shape}")
        return converted
    return convert


def fits_dtype(value, np_dtype):
    kind = np.dtype(np_dtype).kind
    if kind in "iu":
        info = np.iinfo(np_dtype)
        return info.min <= value <= info.max
    return True
