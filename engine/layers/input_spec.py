"""tf.layers.InputSpec: the rank, dtype, shape and axis sizes a layer accepts, checked on every
call with tf_keras's words (input_spec.assert_input_compatibility)."""

from engine.framework import dtypes
from engine.framework.tensor_shape import TensorShape
from engine.ops.nest import flatten


class InputSpec:
    """What a layer's input must be: dtype, shape or ndim (or max_ndim / min_ndim), and
    sizes of given axes."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        shape = TensorShape(shape)
        shape = None if shape.ndims is None else tuple(shape.as_list())
        if shape is not None:
            self.ndim, self.shape = len(shape), shape
        else:
            self.ndim, self.shape = ndim, None
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.name, self.optional = name, optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: "
                            f"axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: "
                                 f"{max_dim}")

    def __repr__(self):
        spec = [f"dtype={self.dtype}" if self.dtype else "",
                f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "",
                f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "",
                f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _display_shape(shape):
    return str(tuple(shape.as_list()))


def assert_input_compatibility(input_spec, inputs, layer_name):
    """ValueError (TypeError for what is not a tensor) where `inputs` break `input_spec`."""
    if not input_spec:
        return
    input_spec, inputs = flatten(input_spec), flatten(inputs)
    for x, spec in zip(inputs, input_spec):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise TypeError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                            f"{type(x)}) as input for layer '{layer_name}'.")
    if len(inputs) != len(input_spec):
        raise ValueError(f'Layer "{layer_name}" expects {len(input_spec)} input(s), but it '
                         f"received {len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, input_spec)):
        if spec is None or (x is None and spec.optional):
            continue
        shape = TensorShape(x.shape)
        if shape.ndims is None:
            return
        where = f'Input {index} of layer "{layer_name}" is incompatible with the layer: '
        ndim = shape.ndims
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{where}expected ndim={spec.ndim}, found ndim={ndim}. Full "
                             f"shape received: {tuple(shape)}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{where}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{where}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                             f"Full shape received: {tuple(shape)}")
        if spec.dtype is not None and x.dtype.name != spec.dtype:
            raise ValueError(f"{where}expected dtype={spec.dtype}, found dtype={x.dtype}")
        dims = shape.as_list()
        for axis, value in spec.axes.items():
            value = getattr(value, "value", value)
            if value is not None and dims[int(axis)] not in {value, None}:
                raise ValueError(f'Input {index} of layer "{layer_name}" is incompatible with '
                                 f"the layer: expected axis {axis} of input shape to have "
                                 f"value {value}, but received input with shape "
                                 f"{_display_shape(shape)}")
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                if dims and dims[-1] == 1:
                    dims = dims[:-1]
                if spec_shape and spec_shape[-1] == 1:
                    spec_shape = spec_shape[:-1]
            for spec_dim, dim in zip(spec_shape, dims):
                if spec_dim is not None and dim is not None and spec_dim != dim:
                    raise ValueError(f"{where}expected shape={spec.shape}, found "
                                     f"shape={_display_shape(shape)}")
