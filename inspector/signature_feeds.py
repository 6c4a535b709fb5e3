"""What `run SAVED_MODEL --signature NAME` feeds: each input of the signature by its key, from
FILE.npy, FILE.json or a JSON value, checked against the signature's TensorSpec (dtype and shape) before
anything is imported or run.

A value converts to the input's dtype where no information is lost on the way: an integer
to a wider integer or to a float, a float64 to a float32 (as TensorFlow converts a Python
float), text to a string input, an empty array (JSON's `[]`) to any input; a float to an
integer input, a number to a string input or an integer out of the input's range is
refused, with one line naming the input and what its values are.

>>> spec = meta_graph_pb2.TensorInfo(name="x:0", dtype=types_pb2.DT_FLOAT)
>>> spec.tensor_shape.dim.add(size=-1)
size: -1
<BLANKLINE>
>>> convert_feed("m", "predict", "x", spec, [1, 2]).dtype
dtype('float32')
>>> spec_text(spec)
'float32, shape (-1,)'
"""

from __future__ import annotations

import numpy as np

from engine.framework import dtypes
from engine.proto import meta_graph_pb2, types_pb2  # noqa: F401  (meta_graph_pb2: the doctests)
from parsers.errors import InputError


def spec_text(info):
    """A TensorInfo's dtype and shape as saved_model_cli shows them: `float32, shape (-1, 3)`."""
    name = _dtype_name(info.dtype)
    if info.tensor_shape.unknown_rank:
        return f"{name}, shape unknown"
    dims = [dim.size for dim in info.tensor_shape.dim]
    return f"{name}, shape ({', '.join(str(d) for d in dims)}{',' if len(dims) == 1 else ''})"


def _dtype_name(enum):
    try:
        return dtypes.as_dtype(enum).name
    except TypeError:
        return types_pb2.DataType.Name(enum) if enum in types_pb2.DataType.values() else str(enum)


def signature_feeds(path, key, signature_def, feeds):
    """{input key: converted value} for the `(name, value)` pairs of --feed: every input
    given once, none unknown, each fitting its spec; InputError naming what is wrong."""
    inputs = signature_def.inputs
    by_tensor = {info.name: name for name, info in inputs.items()}
    given = {}
    for name, value in feeds:
        input_key = name if name in inputs else by_tensor.get(name, by_tensor.get(f"{name}:0"))
        if input_key is None:
            raise InputError(path, f"signature {key!r} has no input {name!r} (inputs: "
                                   f"{', '.join(sorted(inputs)) or 'none'})")
        if input_key in given:
            raise InputError(path, f"--feed {input_key}: given twice")
        given[input_key] = convert_feed(path, key, input_key, inputs[input_key], value)
    for input_key in sorted(set(inputs) - set(given)):
        raise InputError(path, f"signature {key!r} needs input {input_key!r} "
                               f"({spec_text(inputs[input_key])}): give --feed "
                               f"{input_key}=FILE.npy or JSON")
    return given


def convert_feed(path, key, input_key, info, value):
    """`value` as an array of the input's dtype and a shape its spec allows."""
    if info.WhichOneof("encoding") != "name":
        raise InputError(path, f"signature {key!r} input {input_key!r} is not a dense tensor "
                               f"({info.WhichOneof('encoding')}); the engine feeds dense ones")
    try:
        dtype = dtypes.as_dtype(info.dtype)
    except TypeError:
        raise InputError(path, f"signature {key!r} input {input_key!r} has no dtype the engine "
                               f"can feed ({spec_text(info)})") from None
    array = _as_dtype(path, input_key, info, dtype, value)
    if not info.tensor_shape.unknown_rank:
        wanted = [dim.size for dim in info.tensor_shape.dim]
        if len(wanted) != array.ndim or any(w >= 0 and w != g
                                            for w, g in zip(wanted, array.shape)):
            raise InputError(path, f"--feed {input_key}: a value of shape {array.shape} for an "
                                   f"input of {spec_text(info)}")
    return array


def _as_dtype(path, input_key, info, dtype, value):
    try:
        source = np.asarray(value)
    except ValueError as error:  # JSON lists of different lengths, or of more than 64 levels
        what = ("not a rectangular array (rows of different lengths)"
                if "inhomogeneous" in str(error) else f"not an array ({error})")
        raise InputError(path, f"--feed {input_key}: {what}") from None
    refused = InputError(path, f"--feed {input_key}: {_kind(source)} for an input of "
                               f"{spec_text(info)}")
    if source.size == 0 and source.dtype.kind in "biufSUO":
        # `[]` (JSON's empty list, float64 to NumPy) holds no value to lose: the input's dtype
        source = np.empty(source.shape, object if dtype == dtypes.string else source.dtype)
        if dtype != dtypes.string and dtype.is_numpy_compatible:
            return source.astype(dtype.as_numpy_dtype)
    if dtype == dtypes.string:
        if source.dtype.kind not in "SUO" or not all(isinstance(v, (str, bytes))
                                                    for v in source.reshape(-1).tolist()):
            raise refused
        result = np.empty(source.shape, dtype=object)
        result.reshape(-1)[:] = [v.encode() if isinstance(v, str) else v
                                 for v in source.reshape(-1).tolist()]
        return result
    if not dtype.is_numpy_compatible or source.dtype.kind not in "biuf" or (
            source.dtype.kind == "f" and not (dtype.is_floating or dtype.is_complex)) or (
            source.dtype.kind == "b" and dtype != dtypes.bool) or (
            dtype == dtypes.bool and source.dtype.kind != "b"):
        raise refused
    target = dtype.as_numpy_dtype
    if source.dtype.kind in "iu" and np.dtype(target).kind in "iu" and source.size:
        limits = np.iinfo(target)
        if source.min() < limits.min or source.max() > limits.max:
            raise InputError(path, f"--feed {input_key}: values out of range for an input of "
                                   f"{spec_text(info)}")
    return source.astype(target, copy=False)


_JSON_KINDS = {"NoneType": "null", "dict": "object", "list": "array", "str": "string",
               "bytes": "string", "int": "integer", "float": "number", "bool": "boolean"}


def _kind(array):
    """What the values are, for the line refusing them: `float64 values`, `string values`,
    `null values`, `integers past int64's range` (JSON's big integers), `values of mixed
    kinds (null, string)`."""
    if array.dtype.kind in "SU":
        return "string values"
    if array.dtype.kind != "O":
        return f"{np.dtype(array.dtype).name} values"
    kinds = sorted({_JSON_KINDS.get(type(v).__name__, type(v).__name__)
                    for v in array.reshape(-1).tolist()})
    if kinds == ["integer"]:
        return "integers past int64's range"
    if len(kinds) == 1:
        return f"{kinds[0]} values"
    return f"values of mixed kinds ({', '.join(kinds)})"
