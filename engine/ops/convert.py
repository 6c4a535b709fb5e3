"""convert_to_tensor and the registry of conversion functions behind it."""

from engine.framework import dtypes
from engine.ops.constant_op import constant
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import Dimension, TensorShape

# (base type, priority, function), sorted by priority then registration order.
_CONVERSION_FUNCTIONS = []
_CACHE = {}


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Teach convert_to_tensor a type: `conversion_func(value, dtype, name, as_ref)`."""
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _CONVERSION_FUNCTIONS.append((base_type, priority, conversion_func))
    _CONVERSION_FUNCTIONS.sort(key=lambda entry: entry[1])
    _CACHE.clear()


def _functions_for(value_type):
    funcs = _CACHE.get(value_type)
    if funcs is None:
        funcs = _CACHE[value_type] = [f for base, _, f in _CONVERSION_FUNCTIONS
                                      if issubclass(value_type, base)]
    return funcs


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None,
                      as_ref=False):
    """A Tensor for `value` (a Tensor, Variable, Python or NumPy value), as TF 1.x converts."""
    if isinstance(value, Tensor):
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
            if not dtype.is_compatible_with(value.dtype):
                raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with "
                                 f"dtype {value.dtype.name}: {value!r}")
        return value
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    preferred_dtype = preferred_dtype or dtype_hint
    if preferred_dtype is not None and dtype is None:
        preferred_dtype = dtypes.as_dtype(preferred_dtype)
        try:
            result = _convert(value, preferred_dtype, name, as_ref)
        except (TypeError, ValueError):
            pass
        else:
            if result.dtype.base_dtype == preferred_dtype.base_dtype:
                return result
    return _convert(value, dtype, name, as_ref)


def _convert(value, dtype, name, as_ref):
    for func in _functions_for(type(value)):
        result = func(value, dtype=dtype, name=name, as_ref=as_ref)
        if result is NotImplemented:
            continue
        if not isinstance(result, Tensor):
            raise RuntimeError(f"{func} returned non-Tensor: {result!r}")
        if dtype is not None and not dtype.is_compatible_with(result.dtype):
            raise RuntimeError(f"{func} returned a Tensor with dtype {result.dtype.name}, not "
                               f"{dtype.name}")
        return result
    raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting "
                    f"elements to a supported type. See "
                    f"https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF "
                    f"dtypes.")


def convert_n_to_tensor(values, dtype=None, name=None, preferred_dtype=None):
    return [convert_to_tensor(v, dtype=dtype, preferred_dtype=preferred_dtype,
                              name=None if name is None else f"{name}_{i}")
            for i, v in enumerate(values)]


def _constant_conversion(value, dtype=None, name=None, as_ref=False):
    return constant(value, dtype=dtype, name=name or "Const")


def _tensor_conversion(value, dtype=None, name=None, as_ref=False):
    return value


def _shape_conversion(value, dtype=None, name=None, as_ref=False):
    if not value.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
    values = value.as_list()
    if dtype is None:
        dtype = dtypes.int64 if any(v >= 2**31 for v in values) else dtypes.int32
    return constant(values, dtype=dtype, name=name or "shape_as_tensor")


def _dimension_conversion(value, dtype=None, name=None, as_ref=False):
    """A known Dimension as an int32 (or int64) scalar, named as TensorFlow names it."""
    if value.value is None:
        raise ValueError(f"Cannot convert unknown Dimension {value} to a Tensor.")
    if dtype is not None:
        if dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Cannot convert Dimension {value} to dtype {dtype}. Allowed "
                            "dtypes are tf.int32 and tf.int64.")
    else:
        dtype = dtypes.int32
    return constant(value.value, dtype=dtype, name=name or "shape_as_tensor")


def _install():
    register_tensor_conversion_function(Tensor, _tensor_conversion, 100)
    register_tensor_conversion_function(TensorShape, _shape_conversion, 100)
    register_tensor_conversion_function(Dimension, _dimension_conversion, 100)
    for base in ((list, tuple), object):
        register_tensor_conversion_function(base, _constant_conversion, 200 if base is object
                                            else 100)


_install()
