"""tf.TensorArray as TensorFlow 1.x builds it in a graph (tensor_array_ops._GraphTensorArray):
a TensorArrayV3 resource and a float "flow" tensor that orders the ops on it.

Every write, scatter or split returns a new TensorArray object sharing the handle, with the
op's flow_out as its flow; reads, gathers and concats take the flow so they run after the
writes they depend on. A while loop carries a TensorArray as its flow (see
engine.ops.control_flow.while_context). The gradients (engine.ops.tensor_array_grad) write
into a gradient array made by TensorArrayGradV3 for each tf.gradients call.
"""

import contextlib
import logging

from engine.framework import dtypes
from engine.framework.default_graph import get_default_graph, name_scope
from engine.ops import array_ops, math_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from engine.framework.tensor_util import constant_value


class TensorArray:
    """A list of tensors of one dtype, written and read by index inside the graph."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if handle is not None and tensor_array_name:
            raise ValueError("Cannot provide both `handle` and `tensor_array_name` arguments "
                             "at the same time.")
        if handle is not None and not isinstance(handle, Tensor):
            raise TypeError(f"Expected `handle` to be a Tensor, but got `{handle}` of type "
                            f"`{type(handle)}` instead.")
        if handle is None and size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        if handle is not None and size is not None:
            raise ValueError("Cannot provide both a `handle` and `size` arguments at the same "
                             "time.")
        if handle is not None and element_shape is not None:
            raise ValueError("Cannot provide both `handle` and `element_shape` arguments at "
                             "the same time.")
        if handle is not None and dynamic_size is not None:
            raise ValueError("Cannot provide both `handle` and `dynamic_size` arguments at "
                             "the same time.")
        if handle is not None and clear_after_read is not None:
            raise ValueError("Cannot provide both `handle` and `clear_after_read` arguments "
                             "at the same time.")
        if clear_after_read is None:
            clear_after_read = True
        self._dynamic_size = dynamic_size or False
        self._dtype = dtypes.as_dtype(dtype).base_dtype
        self._colocate_with_first_write_call = colocate_with_first_write_call
        self._colocate_with = [] if colocate_with_first_write_call else None
        # A one-element list, shared by the arrays a write returns: what one learns of the
        # element shape, all see.
        self._element_shape = [as_shape(element_shape) if element_shape is not None
                               else unknown_shape()]
        self._infer_shape = infer_shape
        self._size = size
        with name_scope(name, "TensorArray", [handle, size, flow]) as scope:
            if handle is not None:
                if flow is None:
                    raise ValueError("flow must not be None if handle is not None.")
                self._handle, self._flow = handle, flow
                return
            graph = get_default_graph()

            def create():
                return apply_op("TensorArrayV3", name=scope, size=size, dtype=self._dtype,
                                element_shape=self._element_shape[0],
                                identical_element_shapes=infer_shape,
                                dynamic_size=self._dynamic_size,
                                clear_after_read=clear_after_read,
                                tensor_array_name=tensor_array_name or "")

            if colocate_with_first_write_call:
                with graph.device(None), graph.colocate_with(None, ignore_existing=True):
                    self._handle, self._flow = create()
            else:
                self._handle, self._flow = create()

    @property
    def flow(self):
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def handle(self):
        return self._handle

    @property
    def element_shape(self):
        return self._element_shape[0]

    @property
    def dynamic_size(self):
        return self._dynamic_size

    def _check_element_shape(self, shape):
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected "
                             f"{self.element_shape} ")
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    @contextlib.contextmanager
    def _maybe_colocate_with(self, value):
        if not self._colocate_with_first_write_call:
            yield
            return
        if not self._colocate_with:
            self._colocate_with.append(value)
        with get_default_graph().colocate_with(self._colocate_with[0]):
            yield

    def identity(self):
        """A TensorArray whose flow is an Identity of this one's."""
        return build_ta_with_new_flow(self, array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        """The gradient TensorArray of this one for the tf.gradients call `source`."""
        if flow is None:
            flow = self.flow
        graph = get_default_graph()
        with name_scope(name, "TensorArrayGrad", [self._handle]):
            with graph.colocate_with(self._handle):
                g_handle, _ = apply_op("TensorArrayGradV3", name=name, handle=self._handle,
                                       source=source, flow_in=flow)
                with graph.control_dependencies([g_handle]):
                    flow = array_ops.identity(flow, name="gradient_flow")
                g = TensorArray(dtype=self._dtype, handle=g_handle, flow=flow,
                                infer_shape=self._infer_shape,
                                colocate_with_first_write_call=False)
                g._element_shape = self._element_shape
                return g

    def read(self, index, name=None):
        """The element at `index`."""
        value = apply_op("TensorArrayReadV3", name=name, handle=self._handle, index=index,
                         flow_in=self._flow, dtype=self._dtype)
        handle_shape = _handle_element_shape(self._handle)
        if handle_shape is not None:
            value._shape = handle_shape
        if self._element_shape:
            value.set_shape(self._element_shape[0])
        return value

    def write(self, index, value, name=None):
        """A TensorArray with `value` written at `index`."""
        with name_scope(name, "TensorArrayWrite", [self._handle, index, value]):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            _check_dtypes(value, self._dtype)
            self._check_element_shape(value.shape)
            with self._maybe_colocate_with(value):
                flow_out = apply_op("TensorArrayWriteV3", name=name, handle=self._handle,
                                    index=index, value=value, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def stack(self, name=None):
        """The elements stacked along a new first axis (a gather of range(size))."""
        graph = get_default_graph()
        with graph.colocate_with(self._handle):
            with name_scope(name, "TensorArrayStack", [self._handle]):
                value = self.gather(math_ops.range(0, self.size()), name=name)
                if (self.element_shape and not self._dynamic_size
                        and self._size is not None):
                    size = (constant_value(self._size) if isinstance(self._size, Tensor)
                            else self._size)
                    value.set_shape(TensorShape([None if size is None else int(size)])
                                    .concatenate(self.element_shape))
                return value

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        element_shape = self._element_shape[0] if self._element_shape else unknown_shape()
        value = apply_op("TensorArrayGatherV3", name=name, handle=self._handle,
                         indices=indices, flow_in=self._flow, dtype=self._dtype,
                         element_shape=element_shape)
        handle_shape = _handle_element_shape(self._handle)
        if handle_shape is not None:
            value._shape = TensorShape(value.op.inputs[1].shape).concatenate(handle_shape)
        if self.element_shape:
            value.set_shape(TensorShape([None]).concatenate(self.element_shape))
        return value

    def concat(self, name=None):
        """The elements concatenated along their first axis."""
        rest = self.element_shape[1:] if self.element_shape.ndims else unknown_shape()
        value, _ = apply_op("TensorArrayConcatV3", name=name, handle=self._handle,
                            flow_in=self._flow, dtype=self._dtype,
                            element_shape_except0=rest)
        if self.element_shape:
            dim0 = None
            if self._infer_shape:
                size = constant_value(self.size())
                first = self.element_shape.as_list()[0] if self.element_shape.ndims else None
                if size is not None and first is not None:
                    dim0 = int(size) * first
            value.set_shape(TensorShape([dim0]).concatenate(self.element_shape[1:]))
        return value

    def unstack(self, value, name=None):
        """A TensorArray holding the rows of `value` (a scatter to range(rows))."""
        with name_scope(name, "TensorArrayUnstack", [self._handle, value]):
            num_elements = array_ops.shape(value)[0]
            return self.scatter(indices=math_ops.range(0, num_elements), value=value,
                                name=name)

    def scatter(self, indices, value, name=None):
        """A TensorArray with the rows of `value` written at `indices`."""
        with name_scope(name, "TensorArrayScatter", [self._handle, value, indices]):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            _check_dtypes(value, self._dtype)
            self._check_element_shape(value.shape[1:] if value.shape.ndims is not None
                                      else unknown_shape())
            with self._maybe_colocate_with(value):
                flow_out = apply_op("TensorArrayScatterV3", name=name, handle=self._handle,
                                    indices=indices, value=value, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def split(self, value, lengths, name=None):
        """A TensorArray holding `value` cut along its first axis into `lengths` pieces."""
        with name_scope(name, "TensorArraySplit", [self._handle, value, lengths]):
            value = convert_to_tensor(value, dtype=self._dtype, name="value")
            with self._maybe_colocate_with(value):
                lengths_64 = math_ops.cast(lengths, dtypes.int64)
                clengths = constant_value(lengths_64)
                if value.shape.ndims is not None and clengths is not None:
                    if clengths.shape and clengths.max() == clengths.min():
                        self._check_element_shape(
                            TensorShape([int(clengths[0])]).concatenate(value.shape[1:]))
                flow_out = apply_op("TensorArraySplitV3", name=name, handle=self._handle,
                                    value=value, lengths=lengths_64, flow_in=self._flow)
            return build_ta_with_new_flow(self, flow_out)

    def size(self, name=None):
        """The number of elements: the fixed size as a tensor, else a TensorArraySizeV3."""
        if not self._dynamic_size and self._size is not None:
            return convert_to_tensor(self._size, dtype=dtypes.int32)
        return apply_op("TensorArraySizeV3", name=name, handle=self._handle,
                        flow_in=self.flow)

    def close(self, name=None):
        """The op that closes the array (its elements freed)."""
        return apply_op("TensorArrayCloseV3", name=name, handle=self._handle)


def _handle_element_shape(handle):
    """The element shape TensorFlow's shape functions carry on a TensorArray handle (its
    "handle data": the TensorArrayV3's element_shape when fully defined or when elements
    must share one shape), found through the Enters and gradient arrays between; None
    where TensorFlow has none. The engine's shape functions see no handle data, so reads
    and gathers set what TensorFlow's infer from it."""
    op = handle.op
    while op.type in ("Enter", "Identity", "Switch", "Merge", "TensorArrayGradV3") \
            and op.inputs:
        op = op.inputs[0].op
    if op.type != "TensorArrayV3":
        return None
    shape = as_shape(op.get_attr("element_shape"))
    if shape.is_fully_defined() or op.get_attr("identical_element_shapes"):
        return shape
    return None


def build_ta_with_new_flow(old_ta, flow):
    """A TensorArray sharing `old_ta`'s handle and element shape, with `flow`."""
    new_ta = TensorArray(dtype=old_ta.dtype, handle=old_ta.handle, flow=flow,
                         infer_shape=old_ta._infer_shape,
                         colocate_with_first_write_call=old_ta._colocate_with_first_write_call)
    new_ta._dynamic_size = old_ta._dynamic_size
    new_ta._size = old_ta._size
    new_ta._colocate_with = old_ta._colocate_with
    new_ta._element_shape = old_ta._element_shape
    return new_ta


def _check_dtypes(value, dtype):
    # TensorFlow only logs this mismatch while building; the kernel rejects it when it runs.
    if value.dtype.base_dtype != dtype:
        logging.getLogger("tensorflow").error(
            "Error: Input value %s has dtype %s, but expected dtype %s.  This leads to "
            "undefined behavior and will be an error in future versions of TensorFlow.",
            value, value.dtype.base_dtype.name, dtype.name)
