"""Tensor: one output of an Operation, named "op:i", with TF 1.x printing and operators."""

from engine.framework import dtypes as _dtypes
from engine.framework.tensor_shape import TensorShape, as_shape, shape_text, unknown_shape

_UNKNOWN = unknown_shape()


class Tensor:
    """A symbolic value: output `value_index` of `op`. Hashable by identity; == is identity."""

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "_consumers", "_name",
                 "__weakref__")

    # Lets NumPy defer to our reflected operators (np.float32(2) * tensor).
    __array_priority__ = 100

    def __init__(self, op, value_index, dtype, shape=None):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = _UNKNOWN if shape is None else shape
        self._consumers = []
        self._name = None

    @property
    def op(self):
        return self._op

    @property
    def value_index(self):
        return self._value_index

    @property
    def dtype(self):
        return self._dtype

    @property
    def graph(self):
        return self._op._graph

    @property
    def name(self):
        name = self._name
        if name is None:
            name = self._name = f"{self._op.name}:{self._value_index}"
        return name

    @property
    def device(self):
        return self._op.device

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        shape = as_shape(shape)
        current = self._shape
        if current.ndims is not None and shape.ndims is not None:
            if current.ndims != shape.ndims:
                raise ValueError(f"Shapes must be equal rank, but are {current.ndims} and "
                                 f"{shape.ndims}")
            for index, (a, b) in enumerate(zip(current.as_list(), shape.as_list())):
                if a is not None and b is not None and a != b:
                    raise ValueError(f"Dimension {index} in both shapes must be equal, but are "
                                     f"{a} and {b}. Shapes are {shape_text(current)} and "
                                     f"{shape_text(shape)}.")
        self._shape = current.merge_with(shape)

    @property
    def ndim(self):
        return self._shape.ndims

    def consumers(self):
        return list(self._consumers)

    def _as_node_def_input(self):
        return self._op.name if self._value_index == 0 else self.name

    def _as_tf_output(self):
        return self._op, self._value_index

    def eval(self, feed_dict=None, session=None):
        from engine.framework.graph import _run_using_default_session
        return _run_using_default_session(self, feed_dict, self.graph, session)

    def __str__(self):
        shape = f", shape={self._shape}" if self._shape.ndims is not None else ""
        device = f", device={self.device}" if self.device else ""
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name}{device})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __iter__(self):
        raise TypeError(
            "Iterating over a symbolic `tf.Tensor` is not allowed. You can attempt the "
            "following resolutions to the problem: If you are running in Graph mode, use Eager "
            "execution mode or decorate this function with @tf.function. If you are using "
            "AutoGraph, you can try decorating this function with @tf.function. If that does "
            "not work, then you may be using an unsupported feature or your source code may "
            "not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/"
            "master/tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-"
            "source-code for more information.")

    def __bool__(self):
        raise TypeError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt "
            "the following resolutions to the problem: If you are running in Graph mode, use "
            "Eager execution mode or decorate this function with @tf.function. If you are using "
            "AutoGraph, you can try decorating this function with @tf.function. If that does "
            "not work, then you may be using an unsupported feature or your source code may "
            "not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/"
            "master/tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-"
            "source-code for more information.")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please "
                        f"call `x.shape` rather than `len(x)` for shape information.")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error may "
            f"indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            f"supported.")

    # Operators are installed by engine.ops.math_ops (_install_operators), which needs the ops.


def is_ref_dtype(dtype):
    return dtype._is_ref_dtype


def is_symbolic_tensor(tensor):
    """tf.is_symbolic_tensor: a graph tensor (every engine Tensor; not a Variable, not a value)."""
    return isinstance(tensor, Tensor)


__all__ = ["Tensor", "TensorShape", "_dtypes"]
