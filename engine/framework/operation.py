"""Operation: one node of a Graph, backed by a real NodeDef proto kept in sync with it."""

import numpy as np

from engine.framework import dtypes as _dtypes
from engine.framework import op_registry
from engine.framework import traceback as _traceback
from engine.proto import attr_value_pb2
from engine.framework.tensor import Tensor, _UNKNOWN
from engine.framework.tensor_shape import TensorShape

_shape_inference = None  # engine.shape_inference once imported


def _infer_shapes(op, attrs=None):
    """Output shapes from engine.shape_inference, unknown where it cannot tell."""
    global _shape_inference
    if _shape_inference is None:
        try:
            from engine import shape_inference as module
        except ImportError as error:
            # An op made while engine.shape_inference is itself being imported (the import
            # circle at start-up) has unknown shapes, and the next op tries again; any other
            # import error is a bug to see, not a reason for every shape to be unknown.
            if "circular import" in str(error) or "partially initialized" in str(error):
                return None
            raise
        _shape_inference = module
    infos = [_LazyInputInfo(tensor) for tensor in op._inputs]
    if attrs is None:
        from engine.framework.attr_value import to_python
        attrs = {key: _TensorAttrShape(value.tensor) if value.HasField("tensor") else to_python(value)
                 for key, value in op._node_def.attr.items() if not key.startswith("_")}
    shapes = _shape_inference.infer_shapes(op._op_def, attrs, infos)
    return [s if isinstance(s, TensorShape) else TensorShape(s) for s in shapes]


def _shape_error_text(error, node_def, inputs):
    """TensorFlow's words for a node its shape function refuses: the function's message, then
    " for '<the NodeDef summarised>' with input shapes: [2,3], [4,5]." (an error marked `bare`
    is said alone, as TensorFlow says what MakeShapeFromShapeTensor refuses)."""
    if getattr(error, "bare", False):
        return str(error)
    from engine.framework.node_summary import shape_text, summarize_node_def
    shapes = ", ".join(shape_text(None if t.shape.ndims is None else
                                  [d.value for d in t.shape.dims]) for t in inputs)
    from engine.framework.tensor_util import constant_value
    from engine.shape_inference.error_context import computed_inputs
    computed = "" if getattr(error, "before_input_tensors", False) else ", ".join(
        f"input[{i}] = <{text}>" for i, text in computed_inputs(node_def.op, inputs,
                                                               constant_value))
    if computed:
        shapes += " and with computed input tensors: " + computed
    partial = ",".join(f"input[{i}] = {shape_text(dims)}"
                       for i, dims in sorted(getattr(error, "partial_shapes", {}).items())
                       if dims is not None)
    if partial:
        partial = " and with input tensors computed as partial shapes: " + partial
    return f"{error} for '{summarize_node_def(node_def)}' with input shapes: {shapes}{partial}."


def _static_value(tensor, depth=0):
    """The tensor's value where shape inference can know it: tensor_util.constant_value's
    cases, and a StridedSlice, Pack, ConcatV2, ExpandDims, BroadcastArgs, Fill, integer Prod
    or integer arithmetic (Sub, AddV2, Mul, Maximum, ...) of small constants (a shape's dims, mostly),
    which TensorFlow's shape inference evaluates as a small constant subgraph."""
    from engine.framework.tensor_util import constant_value
    kind = tensor._op._node_def.op
    if kind in _FLOAT_SCALAR_ARITHMETIC and tensor._dtype.is_floating and depth <= _MAX_DEPTH:
        # (n - 1.) / 2. of a known n: kaiser_window's range bounds, which TensorFlow's shape
        # inference evaluates to give the window its static length.
        if tensor._shape.ndims != 0:
            return None
        return _kernel_value(tensor, depth)
    if kind in _INT_ARITHMETIC and tensor._dtype.base_dtype.name not in ("int32", "int64"):
        return None
    if kind in _SMALL_INT_OPS and tensor._dtype.base_dtype.name not in ("int32", "int64"):
        return None
    if kind in ("Identity", "StopGradient") and depth <= _MAX_DEPTH:
        return _static_value(tensor._op._inputs[0], depth + 1)
    if kind == "ShapeN" and depth <= _MAX_DEPTH:
        # Output i is input i's shape where every input's value is known: TensorFlow's shape
        # refiner evaluates a ShapeN of constants as a constant subgraph (tf.image.ssim's, of
        # constant images), not one with any other input, whose static shape alone it reads
        # for Shape only.
        if any(_static_value(t, depth + 1) is None for t in tensor._op._inputs):
            return None
        source = tensor._op._inputs[tensor._value_index]
        return np.array(source._shape.as_list(), dtype=tensor._dtype.as_numpy_dtype)
    if kind in _KERNEL_FOLDABLE and depth <= _MAX_DEPTH:
        return _kernel_value(tensor, depth)
    if kind == "Cast" and depth <= _MAX_DEPTH:  # also of a computed value (window lengths)
        value = constant_value(tensor)
        return value if value is not None else _kernel_value(tensor, depth)
    if depth > _MAX_DEPTH or kind not in ("StridedSlice", "Pack", "ConcatV2", "ExpandDims",
                                 "BroadcastArgs", "Fill", *_INT_ARITHMETIC, *_SMALL_INT_OPS):
        return constant_value(tensor) if kind in _FOLDABLE else None
    op = tensor._op
    values = [_static_value(t, depth + 1) for t in op._inputs]
    if kind in ("StridedSlice", "Slice") and values and values[0] is None:
        # A slice of a partially known shape whose picked dims are known (x.shape[1] of an
        # [?, 2] tensor): TensorFlow's shape inference infers it from the shapes.
        values[0] = _partial_shape_array(op._inputs[0])
    if any(v is None for v in values) or not values:
        return None
    if kind in _INT_ARITHMETIC:
        # Small integer arithmetic on known values (ranks, sizes): TensorFlow's shape
        # inference evaluates such constant subgraphs (rank(x) - rank(y) in ones([...])).
        if any(np.size(v) > 1000 for v in values):
            return None
        if kind in ("FloorDiv", "FloorMod") and np.any(np.asarray(values[1]) == 0):
            return None  # the kernel's error to raise when it runs
        return np.asarray(_INT_ARITHMETIC[kind](*values), dtype=tensor._dtype.as_numpy_dtype)
    if kind in _SMALL_INT_OPS:
        if any(np.size(v) > 1000 for v in values):
            return None
        if kind != "Slice" and any(np.asarray(v).dtype == object for v in values):
            return None
        try:
            return _small_int_op(kind, op, tensor, [np.asarray(v) for v in values])
        except (ValueError, IndexError, TypeError):
            return None
    if kind == "Fill":
        dims, value = (np.asarray(v) for v in values)
        if dims.ndim != 1 or np.prod(dims) > 1000 or (dims < 0).any():
            return None
        return np.full(dims.tolist(), value, dtype=tensor._dtype.as_numpy_dtype)
    if kind == "ExpandDims":
        return np.expand_dims(values[0], int(values[1]))
    if kind == "BroadcastArgs":
        try:
            shape = np.broadcast_shapes(*(tuple(np.asarray(v).reshape(-1).tolist())
                                          for v in values))
        except ValueError:
            return None
        return np.array(shape, dtype=tensor._dtype.as_numpy_dtype)
    if kind == "ConcatV2":
        return np.concatenate(values[:-1], axis=int(values[-1]))
    if kind == "Pack":
        if op.get_attr("axis") != 0:
            return None
        return np.array(values, dtype=tensor._dtype.as_numpy_dtype)
    from engine.kernels.slicing import SliceError, resolve_shrinks, strided_slice_index
    x, begin, end, strides = (np.asarray(v) for v in values)
    if x.size > 1000:
        return None
    masks = [op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                      "new_axis_mask", "shrink_axis_mask")]
    try:
        result = x[resolve_shrinks(strided_slice_index(x.ndim, begin, end, strides, *masks),
                                   x.shape)]
    except (SliceError, IndexError, ValueError):
        return None
    if x.dtype == object:  # a partially known shape: known only where no dim is unknown
        if any(d is None for d in np.asarray(result, object).reshape(-1)):
            return None
        return np.asarray(result, dtype=tensor._dtype.as_numpy_dtype)
    return result


def _partial_shape_array(tensor):
    """The dims of a Shape op's input as an object array (None where unknown), or None."""
    if tensor._op._node_def.op != "Shape" or tensor._op._inputs[0]._shape.ndims is None:
        return None
    return np.array(tensor._op._inputs[0]._shape.as_list(), dtype=object)


def _kernel_value(tensor, depth):
    """The output of an op of _KERNEL_FOLDABLE whose inputs are all known and small, by its
    CPU kernel (TensorFlow's shape inference runs such constant subgraphs' kernels: the dense
    shape sparse_merge and sparse_slice give a constant SparseTensor)."""
    from engine import kernels
    from engine.kernels.context import KernelContext
    op = tensor._op
    values = [_static_value(t, depth + 1) for t in op._inputs]
    if any(v is None or np.size(v) > 1000 for v in values):
        return None
    kernel = kernels.lookup(op._node_def.op)
    if kernel is None:
        return None
    try:
        context = KernelContext(op._node_def, [t._dtype for t in op._outputs], None)
        outputs = kernel(context, *[np.asarray(v) for v in values])
    except Exception:  # noqa: BLE001  (a kernel refusing the values: not known statically)
        return None
    if len(op._outputs) == 1:
        outputs = (outputs,)
    return np.asarray(outputs[tensor._value_index])


def _small_int_op(kind, op, tensor, values):
    """Prod, Slice, GatherV2 and SparseReshape's new dense shape on small known integer
    values: TensorFlow's shape inference evaluates such constant subgraphs with the ops'
    kernels (the shape safe_embedding_lookup_sparse reshapes a constant SparseTensor to)."""
    dtype = tensor._dtype.as_numpy_dtype
    if kind == "Prod":
        x, axes = values
        keep = bool(op.get_attr("keep_dims"))
        axes = tuple(int(a) % max(x.ndim, 1) for a in axes.reshape(-1))
        return np.asarray(np.prod(x, axis=axes, keepdims=keep), dtype=dtype)
    if kind == "Slice":
        x, begin, size = values
        index = tuple(slice(int(b), None if int(n) == -1 else int(b) + int(n))
                      for b, n in zip(begin.reshape(-1), size.reshape(-1)))
        if len(index) != x.ndim:
            return None
        if x.dtype == object and any(d is None for d in x[index].reshape(-1)):
            return None  # a slice of a partially known shape reaching an unknown dim
        return np.asarray(x[index], dtype=dtype)
    if kind == "GatherV2":
        params, indices, axis = values
        if int(axis) != 0 or op.get_attr("batch_dims") != 0:
            return None
        if ((indices < 0) | (indices >= params.shape[0])).any():
            return None
        return np.asarray(params[indices], dtype=dtype)
    # SparseReshape: only its output_shape (output 1), all three inputs known
    if tensor._value_index != 1:
        return None
    indices, shape, target = values
    if indices.ndim != 2 or shape.ndim != 1 or target.ndim != 1:
        return None
    dense = int(np.prod(shape))
    known = [int(d) for d in target if d != -1]
    product = int(np.prod(known)) if known else 1
    if len(known) == target.size:
        return np.asarray(target, dtype=dtype) if product == dense else None
    if len(known) != target.size - 1 or (product and dense % product):
        return None
    return np.asarray([(dense // product if product else 0) if d == -1 else int(d)
                       for d in target], dtype=dtype)


class _TensorAttrShape:
    """A tensor attr as a shape function sees it: only its shape (np.shape reads `.shape`), so
    a Const declaring 10^12 elements is not built to infer its shape."""

    __slots__ = ("shape",)

    def __init__(self, tensor_proto):
        self.shape = tuple(dim.size for dim in tensor_proto.tensor_shape.dim)


class _LazyInputInfo:
    """A shape function's InputInfo whose value and shape_value are worked out when first read.

    Most shape functions never read them; working them out for every input of every new op
    made a chain of n Identity ops cost n^2 to build.
    """

    __slots__ = ("dtype", "shape", "_tensor", "_value", "_shape_value")
    _UNSET = object()

    def __init__(self, tensor):
        self.dtype, self.shape, self._tensor = tensor._dtype, tensor._shape, tensor
        self._value = self._shape_value = self._UNSET

    @property
    def value(self):
        if self._value is self._UNSET:
            foldable = self._tensor._op._node_def.op in _FOLDABLE
            self._value = _static_value(self._tensor) if foldable else None
        return self._value

    @property
    def shape_value(self):
        if self._shape_value is self._UNSET:
            shape_op = self._tensor._op._node_def.op in _SHAPE_OPS
            self._shape_value = _partial_shape_value(self._tensor) \
                if shape_op and self.value is None else None
        return self._shape_value


def _partial_shape_value(tensor):
    """A 1-D int tensor's value as far as known, as dims (TF's constant_value_as_shape)."""
    if tensor._dtype.base_dtype.name not in ("int32", "int64") or tensor._shape.ndims != 1:
        return None
    from engine.framework.tensor_util import constant_value_as_shape
    try:
        shape = constant_value_as_shape(tensor)
    except (ValueError, TypeError):
        return None
    return None if shape.ndims is None else shape.as_list()


# Ops whose output may be a partially known shape (constant_value_as_shape reads them).
_SHAPE_OPS = frozenset({"Shape", "Pack", "ConcatV2", "Cast", "StridedSlice"})

_INT_ARITHMETIC = {"Sub": np.subtract, "AddV2": np.add, "Add": np.add, "Mul": np.multiply,
                   "Maximum": np.maximum, "Minimum": np.minimum, "Neg": np.negative,
                   "FloorDiv": np.floor_divide, "FloorMod": np.mod}

# How deep _static_value follows inputs: tf.signal.frame's padded length is 12 ops from its
# constants, all of which TensorFlow's shape inference evaluates.
_MAX_DEPTH = 16

# Float scalar arithmetic evaluated by the kernels when its inputs are known.
# (Minimum and Round too: tf.image.resize_images' preserve_aspect_ratio sizes, whose static
# [7, 10] TensorFlow's shape inference works out from the image's static shape.)
_FLOAT_SCALAR_ARITHMETIC = frozenset({"Sub", "AddV2", "RealDiv", "Mul", "Neg", "Minimum",
                                      "Maximum", "Round"})

# Small integer ops TensorFlow's shape inference evaluates when their inputs are known.
_SMALL_INT_OPS = frozenset({"Prod", "Slice", "GatherV2", "SparseReshape"})

# Ops evaluated by their kernels when every input is known (small): what the sparse ops that
# build a constant SparseTensor's shape need, linspace's size (a SelectV2 and a Reshape of its
# num) that gives tf.linspace(0., 1., 6) its static shape [6] as in TensorFlow, tf.sparse.eye's
# and expand_dims' sizes and axes, and the counts tf.repeat reshapes and tiles by.
_KERNEL_FOLDABLE = frozenset({"SparseReorder", "SparseSlice", "StringToHashBucketFast",
                              "SelectV2", "GreaterEqual", "Reshape", "Cast", "BroadcastTo",
                              "Max", "Sum"})

_FOLDABLE = frozenset({*_SMALL_INT_OPS, *_KERNEL_FOLDABLE, "Const", "Shape", "ShapeN", "Size", "Rank",
                       "Range", "Cast",
                       "ConcatV2", "Pack", "Fill", "Identity", "StopGradient", "StridedSlice", "ExpandDims",
                       "BroadcastArgs", *_INT_ARITHMETIC})


class Operation:
    """A node: name, type, inputs, control_inputs, outputs, node_def, op_def, traceback."""

    __slots__ = ("_graph", "_node_def", "_op_def", "_inputs", "_control_inputs", "_outputs",
                 "_id", "_raw_trace", "_traceback", "_const_cache", "_control_outputs",
                 "_control_flow_context", "__weakref__")

    @classmethod
    def _create(cls, graph, node_def, op_def, inputs, control_inputs, output_types=None,
                input_types=None, raw_trace=None, shapes=None, traceback=None,
                decoded_attrs=None):
        """Builds the op; `decoded_attrs` (from apply_op) means the node is already checked."""
        op = cls.__new__(cls)
        op._graph = graph
        op._node_def = node_def
        op._op_def = op_def
        op._inputs = inputs
        op._control_inputs = list(control_inputs)
        op._raw_trace = raw_trace
        op._traceback = traceback
        op._const_cache = None
        op._control_outputs = []
        op._control_flow_context = None  # engine.ops.control_flow.v1: the cond/while it is in
        op._id = 0
        names = [t._as_node_def_input() for t in inputs]
        if control_inputs:
            names.extend("^" + c._node_def.name for c in control_inputs)
        node_def.input.extend(names)
        op_registry.add_default_attrs(node_def, op_def)
        if decoded_attrs is None:
            op_registry.validate(node_def, op_def)
            expected = op_registry.input_dtypes(op_def, node_def.attr)
            _check_input_types(node_def, inputs, expected)
        if output_types is None:
            output_types = op_registry.output_dtypes(
                op_def, decoded_attrs if decoded_attrs is not None else node_def.attr)
        op._outputs = [Tensor(op, i, dtype) for i, dtype in enumerate(output_types)]
        if shapes is None:
            try:
                shapes = _infer_shapes(op, decoded_attrs)
            except ValueError as error:
                if _shape_inference is None or not isinstance(error,
                                                              _shape_inference.ShapeError):
                    raise
                raise ValueError(_shape_error_text(error, node_def, inputs)) from None
        if shapes:
            for tensor, shape in zip(op._outputs, shapes):
                tensor._shape = _UNKNOWN if shape is None else shape
        graph._add_op(op)
        for tensor in inputs:
            tensor._consumers.append(op)
        for control in op._control_inputs:
            control._control_outputs.append(op)
        return op

    # -- the NodeDef's view --

    @property
    def name(self):
        return self._node_def.name

    @property
    def type(self):
        return self._node_def.op

    @property
    def graph(self):
        return self._graph

    @property
    def node_def(self):
        return self._node_def

    @property
    def op_def(self):
        return self._op_def

    @property
    def device(self):
        return self._node_def.device

    @property
    def inputs(self):
        return tuple(self._inputs)

    @property
    def _input_types(self):
        return [t.dtype for t in self._inputs]

    @property
    def control_inputs(self):
        return list(self._control_inputs)

    @property
    def outputs(self):
        return list(self._outputs)

    @property
    def _output_types(self):
        return [t.dtype for t in self._outputs]

    @property
    def num_inputs(self):
        return len(self._inputs)

    @property
    def num_outputs(self):
        return len(self._outputs)

    @property
    def _control_outputs_list(self):
        return list(self._control_outputs)

    def values(self):
        return tuple(self._outputs)

    @property
    def traceback(self):
        """The creation stack, outermost frame first (None for an op imported without one)."""
        if self._traceback is None and self._raw_trace is not None:
            self._traceback = _traceback.materialize(self._raw_trace)
            self._raw_trace = None
        return self._traceback

    @property
    def _is_stateful(self):
        return self._op_def.is_stateful

    def get_attr(self, name):
        """The attr as TensorFlow returns it: protos for shapes, tensors and funcs."""
        attr = self._node_def.attr.get(name)
        if attr is None:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.")
        field = attr.WhichOneof("value")
        if field is None:
            return []
        if field == "list":
            for kind in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
                items = getattr(attr.list, kind)
                if items:
                    if kind == "type":
                        return [_dtypes.as_dtype(t) for t in items]
                    return list(items)
            return []
        if field == "type":
            return _dtypes.as_dtype(attr.type)
        return getattr(attr, field)

    def _get_attr_type(self, name):
        return self.get_attr(name)

    def _get_attr_bool(self, name):
        return self.get_attr(name)

    def _get_attr_int(self, name):
        return self.get_attr(name)

    def colocation_groups(self):
        default = [f"loc:@{self.name}".encode()]
        attr = self._node_def.attr.get("_class")
        if attr is None:
            return default
        groups = [s for s in attr.list.s if s.startswith(b"loc:@")]
        return groups or default

    def _const_value(self):
        """The NumPy value of a Const op, decoded once."""
        if self._const_cache is None:
            from engine.framework.tensor_util import MakeNdarray
            self._const_cache = MakeNdarray(self._node_def.attr["value"].tensor)
        return self._const_cache

    # -- mutation (the graph's version changes, so session plans know) --

    def _get_control_flow_context(self):
        return self._control_flow_context

    def _set_control_flow_context(self, ctx):
        self._control_flow_context = ctx

    def _set_attr(self, name, attr_value):
        if not isinstance(attr_value, attr_value_pb2.AttrValue):
            raise TypeError("attr_value must be an AttrValue proto")
        self._node_def.attr[name].CopyFrom(attr_value)
        self._graph._version += 1

    def _clear_attr(self, name):
        if name in self._node_def.attr:
            del self._node_def.attr[name]
            self._graph._version += 1

    def _set_device(self, device):
        if not isinstance(device, str):
            device = device.to_string() if hasattr(device, "to_string") else str(device or "")
        if self._node_def.device != device:
            self._node_def.device = device
            self._graph._version += 1

    def _set_device_from_string(self, device_str):
        self._set_device(device_str)

    def _add_control_input(self, op):
        self._add_control_inputs([op])

    def _add_control_inputs(self, ops):
        for op in ops:
            if not isinstance(op, Operation):
                raise TypeError(f"op must be an Operation: {op}")
            if op in self._control_inputs:
                continue
            self._control_inputs.append(op)
            op._control_outputs.append(self)
            self._node_def.input.append("^" + op.name)
        self._graph._version += 1

    def _remove_all_control_inputs(self):
        for op in self._control_inputs:
            op._control_outputs.remove(self)
        self._control_inputs = []
        data = [name for name in self._node_def.input if not name.startswith("^")]
        del self._node_def.input[:]
        self._node_def.input.extend(data)
        self._graph._version += 1

    def _update_input(self, index, tensor):
        old = self._inputs[index]
        if old.dtype.base_dtype != tensor.dtype.base_dtype:
            raise ValueError(f"Input {index} of node {self.name} was passed "
                             f"{tensor.dtype.base_dtype.name} from {tensor.name} incompatible "
                             f"with expected {old.dtype.base_dtype.name}.")
        old._consumers.remove(self)
        self._inputs = list(self._inputs)
        self._inputs[index] = tensor
        tensor._consumers.append(self)
        self._node_def.input[index] = tensor._as_node_def_input()
        self._graph._version += 1

    def run(self, feed_dict=None, session=None):
        from engine.framework.graph import _run_using_default_session
        _run_using_default_session(self, feed_dict, self._graph, session)

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        return str(self._node_def)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other


def _check_input_types(node_def, inputs, expected):
    if len(inputs) != len(expected):
        raise ValueError(f"NodeDef expected {len(expected)} inputs, got {len(inputs)}; NodeDef: "
                         f"{{{{node {node_def.name}}}}}")
    for index, (tensor, want) in enumerate(zip(inputs, expected)):
        got = tensor._dtype
        if got is want or got == want:
            continue
        if not want._is_ref_dtype and got.base_dtype == want:
            continue  # a ref tensor feeds a value input by reading it
        raise ValueError(f"Input {index} of node {node_def.name} was passed {got.name} from "
                         f"{tensor.name} incompatible with expected {want.name}.")
