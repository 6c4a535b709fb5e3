"""Shape functions of control flow v1 (Switch, Merge, Enter, Exit, ...), of the functional ops
(If, Case, While, function calls) and of the ops whose output TensorFlow leaves unknown."""

from engine.shape_inference.dims import _dims


def unknown(attrs, inputs):
    """TensorFlow's UnknownShape: every output of unknown rank (a _Recv, a function call, a
    ReadVariableOp without handle data, a StackPopV2)."""
    return None


def switch(attrs, inputs):
    return (_dims(inputs[0]), _dims(inputs[0]))


def switch_n(attrs, inputs):
    """_SwitchN: every output the data's shape."""
    return tuple(_dims(inputs[0]) for _ in range(attrs["num_outs"]))


def merge_op(attrs, inputs):
    """MergeShape: the inputs' rank when they all agree on it, each dim where they agree on it;
    and value_index, a scalar."""
    out = _dims(inputs[0])
    for info in inputs[1:]:
        if out is None:
            break
        dims = _dims(info)
        if dims is None or len(dims) != len(out):
            out = None
            break
        out = [a if a == b else None for a, b in zip(out, dims)]
    return (out, [])


def enter(attrs, inputs):
    """Enter's output is unknown unless the value is a loop constant (is_constant)."""
    return _dims(inputs[0]) if attrs.get("is_constant") else None


def _declared_or(attrs, fallback):
    """The output_shapes attr of a functional op when it has one, else `fallback`."""
    shapes = attrs.get("output_shapes") or ()
    if shapes:
        return tuple(_dims_of(shape) for shape in shapes)
    return fallback


def _dims_of(shape):
    return None if shape.ndims is None else shape.as_list()


def if_or_case(attrs, inputs):
    """IfShapeInferenceFn / CaseShapeInferenceFn: output_shapes, else unknown."""
    count = len(attrs.get("Tout") or ())
    return _declared_or(attrs, (None,) * count)


def while_(attrs, inputs):
    """WhileShapeInferenceFn: output_shapes, else each loop variable's input shape."""
    return _declared_or(attrs, tuple(_dims(info) for info in inputs))
