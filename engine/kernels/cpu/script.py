"""PyFunc and PyFuncStateless: the Python function registered under the node's token, called
in-process (engine/runtime/py_funcs.py), as TensorFlow's PyFuncOp
(tensorflow/python/lib/core/py_func.cc).

Inputs reach the function as NumPy arrays (strings as object arrays of bytes). A Python error
becomes TensorFlow's status: ValueError and TypeError InvalidArgumentError, StopIteration
OutOfRangeError, MemoryError ResourceExhaustedError, NotImplementedError UnimplementedError,
anything else UnknownError; the message is the exception line and its traceback.
"""

import traceback

import numpy as np

from engine.runtime import py_funcs
from engine.framework import dtypes, errors
from engine.kernels import register
from engine.kernels.common import datatype_string, invalid

_STATUS = ((ValueError, errors.InvalidArgumentError), (TypeError, errors.InvalidArgumentError),
           (StopIteration, errors.OutOfRangeError), (MemoryError, errors.ResourceExhaustedError),
           (NotImplementedError, errors.UnimplementedError))


def _as_input(value):
    array = np.asarray(value)
    if array.dtype.kind in "SU":
        return array.astype(object)
    return array


def _convert(value):
    """FuncRegistry._convert: a NumPy array of the returned value (text as bytes)."""
    result = np.asarray(value, order="C")
    if result.dtype.char == "S" and result is not value:
        return np.asarray(value, order="C", dtype=object)
    if result.dtype.char == "U" and result is not value:
        value = np.vectorize(lambda x: x.encode("utf8"))(value)
        return np.asarray(value, order="C", dtype=object)
    if result.dtype.char in "SU":  # the engine holds string tensors as object arrays of bytes
        return np.vectorize(lambda x: x.encode("utf8") if isinstance(x, str) else x,
                            otypes=[object])(result) if result.size else result.astype(object)
    return result


def _error(ctx, exc):
    """TensorFlow's PyExceptionFetch: 'Type: message', then the traceback."""
    line = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    frames = traceback.format_tb(exc.__traceback__)[1:]  # from the function on
    text = f"{line}\nTraceback (most recent call last):\n\n" + "\n".join(frames) + \
        f"\n{line}\n\n"
    for python_type, error_class in _STATUS:
        if isinstance(exc, python_type):
            return error_class(ctx.node_def, None, text)
    return errors.UnknownError(ctx.node_def, None, text)


def _returned_values(result):
    if isinstance(result, bytes):
        result = [result]
    if isinstance(result, (tuple, list)):
        return [_convert(x) for x in result]
    result = _convert(result)
    if result.dtype == object and result.ndim == 0 and result.item() is None:
        return []  # a function returning None: no outputs
    return [result]


@register("PyFunc")
@register("PyFuncStateless")
def py_func(ctx, *inputs):
    token = ctx.attr("token")
    token = token.decode() if isinstance(token, bytes) else token
    func = py_funcs.lookup(token)
    if func is None:
        raise invalid(ctx, f"ValueError: Could not find callback with key={token} in the "
                           "registry.")
    try:
        result = func(*[_as_input(x) for x in inputs])
    except Exception as exc:  # the function's error is the op's status, as in TensorFlow
        raise _error(ctx, exc) from exc
    values = _returned_values(result)
    types = [dtypes.as_dtype(t) for t in (ctx.attr("Tout") or [])]
    if len(values) != len(types):
        raise invalid(ctx, f"{token} returns {len(values)} values, but expects to see "
                           f"{len(types)} values.")
    outputs = []
    for i, (value, dtype) in enumerate(zip(values, types)):
        got = dtypes.as_dtype(np.bytes_ if value.dtype == object else value.dtype)
        if got != dtype:
            raise invalid(ctx, f"{i}-th value returned by {token} is {datatype_string(got)}, "
                               f"but expects {datatype_string(dtype)}")
        outputs.append(value)
    if not types:
        return None
    # One output is the value itself (the executor's single-output path), more a tuple.
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


class EagerValue(np.ndarray):
    """An EagerPyFunc's input: a NumPy array that also answers .numpy(), as the EagerTensor
    TensorFlow hands the function does."""

    def numpy(self):
        return np.asarray(self)


@register("EagerPyFunc")
def eager_py_func(ctx, *inputs):
    """tf.py_function (EagerPyFunc): the function gets EagerValues; what it returns (tensors,
    arrays or Python values) is converted to the declared Tout dtypes, as TensorFlow's
    EagerFunc converts it."""
    token = ctx.attr("token")
    token = token.decode() if isinstance(token, bytes) else token
    func = py_funcs.lookup(token)
    if func is None:
        raise invalid(ctx, f"ValueError: Could not find callback with key={token} in the "
                           "registry.")
    args = [_as_input(x).view(EagerValue) for x in inputs]
    types = [dtypes.as_dtype(t) for t in (ctx.attr("Tout") or [])]
    try:
        result = func(*args)
        if not types:
            return None
        values = list(result) if isinstance(result, (list, tuple)) else [result]
        if len(values) != len(types):
            raise ValueError(f"{token} returns {len(values)} values, but expects to see "
                             f"{len(types)} values.")
        outputs = []
        for value, dtype in zip(values, types):
            value = value.numpy() if hasattr(value, "numpy") else value
            if dtype == dtypes.string:
                outputs.append(_convert(value).astype(object))
            else:
                outputs.append(np.asarray(value, dtype=dtype.as_numpy_dtype, order="C"))
    except Exception as exc:  # the function's error is the op's status, as in TensorFlow
        raise _error(ctx, exc) from exc
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
