"""TensorFlow's autopacking: a list or tuple holding tensors converts to one Pack of them."""

from engine.framework.graph import get_default_graph
from engine.ops.constant_op import constant
from engine.ops.convert import register_tensor_conversion_function
from engine.ops.op_def_library import apply_op
from engine.framework.tensor import Tensor


def _nested_dtype(values):
    for value in values:
        if isinstance(value, Tensor):
            return value.dtype.base_dtype
        if isinstance(value, (list, tuple)):
            found = _nested_dtype(value)
            if found is not None:
                return found
    return None


def _autopacking_helper(values, dtype, name):
    must_pack = False
    converted = []
    with get_default_graph().name_scope(name) as scope:
        for i, elem in enumerate(values):
            if isinstance(elem, Tensor):
                if dtype is not None and elem.dtype.base_dtype != dtype:
                    raise TypeError(f"Cannot convert a list containing a tensor of dtype "
                                    f"{elem.dtype} to {dtype} (Tensor is: {elem!r})")
                converted.append(elem)
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                inner = _autopacking_helper(elem, dtype, str(i))
                if isinstance(inner, Tensor):
                    must_pack = True
                converted.append(inner)
            else:
                converted.append(elem)
        if not must_pack:
            return converted
        tensors = [elem if isinstance(elem, Tensor) else constant(elem, dtype=dtype, name=str(i))
                   for i, elem in enumerate(converted)]
        return apply_op("Pack", values=tensors, name=scope)


def _cast_nested(values, dtype):
    """The tensors among `values` (nested) cast to `dtype`, as TensorFlow 2.21's autopacking
    casts a list of tensors of another dtype (gen_math_ops.cast: a Cast node each)."""
    out = []
    for value in values:
        if isinstance(value, Tensor) and value.dtype.base_dtype != dtype:
            value = apply_op("Cast", x=value, DstT=dtype)
        elif isinstance(value, (list, tuple)):
            value = type(value)(_cast_nested(value, dtype))
        out.append(value)
    return out


def _autopacking_conversion(value, dtype=None, name=None, as_ref=False):
    inferred = _nested_dtype(value)
    if inferred is None:
        return NotImplemented
    if dtype is None:
        dtype = inferred
    elif dtype != inferred:
        value = _cast_nested(value, dtype)
    return _autopacking_helper(value, dtype, name or "packed")


register_tensor_conversion_function((list, tuple), _autopacking_conversion, 99)
