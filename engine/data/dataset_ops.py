"""tf.data.Dataset as TensorFlow 1.x graph code uses it: each transformation adds the dataset
op TensorFlow 2.21's tf.compat.v1 adds (TensorSliceDataset, MapDataset, BatchDatasetV2,
ShuffleDataset, ...), with its constants named as TensorFlow names them; the dataset is that
op's DT_VARIANT output. Elements are nested tuples/dicts of components (engine.data.structure).
"""

import threading
import warnings

import numpy as np

from engine.framework import dtypes
from engine.data import dataset_spec, options as dataset_options, structure, tracing
from engine.data.elements import Elements, flat_attrs
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.debug_ops import py_func, py_function
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed
from engine.framework.tensor import Tensor
from engine.framework.tensor_shape import TensorShape, as_shape
from engine.framework.tensor_util import constant_value_as_shape


class DatasetV1(Elements):
    """A dataset: its variant tensor and its elements' structure and component specs."""

    def __init__(self, variant_tensor, element_structure, specs, inputs=()):
        self._variant_tensor = variant_tensor
        self._structure = element_structure   # nesting of components (leaves unused)
        self._specs = list(specs)              # [(DType, TensorShape)] per flat component
        self._options_attr = dataset_options.Options()
        for input_dataset in inputs:          # TensorFlow's DatasetV2.__init__ merges them
            self._options_attr = self._options_attr.merge(input_dataset._options_attr)
        self._options_attr._set_mutable(False)

    def _derived(self, op_type, inputs, specs=None, element_structure=None, **attrs):
        specs = self._specs if specs is None else specs
        element_structure = self._structure if element_structure is None else element_structure
        variant = apply_op(op_type, **inputs, **flat_attrs(specs), **attrs)
        return DatasetV1(variant, element_structure, specs, inputs=(self,))

    # -- sources --

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        element, components = _normalize(tensors)
        specs = []
        for component in components:
            if component.shape.ndims == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            specs.append((component.dtype, TensorShape(component.shape.dims[1:]
                                                        if component.shape.dims is not None
                                                        else None)))
        sizes = [c.shape.dims[0] for c in components if c.shape.dims is not None]
        known = [int(d) for d in sizes if d is not None and getattr(d, "value", d) is not None]
        if len(set(known)) > 1:
            raise ValueError(f"Dimensions {known[0]} and "
                             f"{next(k for k in known if k != known[0])} are not compatible")
        variant = apply_op("TensorSliceDataset", components=components,
                           output_shapes=[s for _, s in specs], is_files=False)
        return DatasetV1(variant, element, specs)

    @staticmethod
    def from_tensors(tensors, name=None):
        element, components = _normalize(tensors)
        specs = [(c.dtype, c.shape) for c in components]
        variant = apply_op("TensorDataset", components=components,
                           output_shapes=[s for _, s in specs])
        return DatasetV1(variant, element, specs)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid arguments to RangeDataset: {args}")
        start, stop, step = ((0, args[0], 1) if len(args) == 1 else
                             (args[0], args[1], 1) if len(args) == 2 else args)
        inputs = {key: convert_to_tensor(value, dtypes.int64, name=key)
                  for key, value in (("start", start), ("stop", stop), ("step", step))}
        specs = [(dtypes.as_dtype(output_type), TensorShape([]))]
        variant = apply_op("RangeDataset", **inputs, **flat_attrs(specs))
        return DatasetV1(variant, None, specs)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """Elements a Python generator yields, as TensorFlow builds it: a FlatMapDataset over
        from_tensors(0) whose function makes a GeneratorDataset; its init, next and finalize
        functions call the generator through PyFunc (numpy_function) ops."""
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None:
                raise TypeError("The `output_types` argument can not be used together with "
                                "the `output_signature` argument.")
            if output_shapes is not None:
                raise TypeError("The `output_shapes` argument can not be used together with "
                                "the `output_signature` argument.")
            output_types = structure.map_structure(lambda spec: spec.dtype, output_signature)
            output_shapes = structure.map_structure(lambda spec: spec.shape, output_signature)
        elif output_types is None:
            raise TypeError("To specify the output signature you need to provide either the "
                            "`output_signature` argument or the `output_types` argument.")
        flat_types = [dtypes.as_dtype(t) for t in structure.flatten(output_types)]
        if output_shapes is None:
            output_shapes = structure.map_structure(lambda _: TensorShape(None), output_types)
            flat_shapes = [TensorShape(None)] * len(flat_types)
        else:
            flat_shapes = [as_shape(s) for s in _flatten_up_to(output_types, output_shapes,
                                                                 "output_shapes")]
        args = () if args is None else tuple(convert_to_tensor(a, name=f"args_{i}")
                                             for i, a in enumerate(args))
        state = _GeneratorState(generator)

        def get_iterator_id_fn(unused_dummy):
            return py_func(state.get_next_id, list(args), dtypes.int64)

        def generator_next_fn(iterator_id_t):
            def generator_py_func(iterator_id):
                values = next(state.get_iterator(iterator_id))
                try:
                    flat_values = _flatten_up_to(output_types, values, "values")
                except (TypeError, ValueError) as e:
                    raise TypeError(f"`generator` yielded an element that did not match the "
                                    f"expected structure. The expected structure was "
                                    f"{output_types}, but the yielded element was "
                                    f"{values}.") from e
                arrays = []
                for value, dtype in zip(flat_values, flat_types):
                    try:
                        arrays.append(np.asarray(value, dtype=dtype.as_numpy_dtype,
                                                 order="C"))
                    except (TypeError, ValueError) as e:
                        raise TypeError(f"`generator` yielded an element that could not be "
                                        f"converted to the expected type. The expected type "
                                        f"was {dtype.name}, but the yielded element was "
                                        f"{value}.") from e
                for array, shape in zip(arrays, flat_shapes):
                    if not shape.is_compatible_with(array.shape):
                        raise TypeError(f"`generator` yielded an element of shape "
                                        f"{array.shape} where an element of shape {shape} "
                                        f"was expected.")
                return arrays

            if not (_truthy(output_types) and _truthy(output_shapes)):
                # TensorFlow's other branch (one output of unknown rank, as when
                # output_shapes is left out): tf.py_function (EagerPyFunc), shapes unset.
                return py_function(generator_py_func, [iterator_id_t], flat_types)
            flat_values = py_func(generator_py_func, [iterator_id_t], flat_types)
            for tensor, shape in zip(flat_values, flat_shapes):
                tensor.set_shape(shape)
            return structure.pack_as(output_types, flat_values)

        def finalize_fn(iterator_id_t):
            def finalize_py_func(iterator_id):
                state.iterator_completed(iterator_id)
                return np.array(0, dtype=np.int64)
            return py_func(finalize_py_func, [iterator_id_t], dtypes.int64)

        def flat_map_fn(dummy_arg):
            return _generator_dataset(dummy_arg, get_iterator_id_fn, generator_next_fn,
                                      finalize_fn, output_types, flat_types, flat_shapes)

        return DatasetV1.from_tensors(0).flat_map(flat_map_fn)

    @staticmethod
    def zip(datasets, name=None):
        flat = structure.flatten(datasets)
        if not all(isinstance(d, DatasetV1) for d in flat):
            raise TypeError("The argument to `Dataset.zip()` must be a (nested) structure of "
                            "`Dataset` objects.")
        element = structure.pack_as(datasets, [d._structure for d in flat])
        specs = [spec for d in flat for spec in d._specs]
        variant = apply_op("ZipDataset", input_datasets=[d._variant_tensor for d in flat],
                           **flat_attrs(specs))
        return DatasetV1(variant, element, specs, inputs=flat)

    # -- transformations --

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        traced = tracing.trace(map_func, self._structure, self._specs, "map")
        func = _func_attr(traced)
        element = traced.output_structure
        if num_parallel_calls is None:
            return self._derived("MapDataset", {"input_dataset": self._variant_tensor,
                                                "other_arguments": traced.captured},
                                 traced.output_specs, element, f=func,
                                 use_inter_op_parallelism=True, preserve_cardinality=False)
        calls = convert_to_tensor(num_parallel_calls, dtypes.int64, name="num_parallel_calls")
        return self._derived("ParallelMapDatasetV2",
                             {"input_dataset": self._variant_tensor,
                              "other_arguments": traced.captured, "num_parallel_calls": calls},
                             traced.output_specs, element, f=func, deterministic="default",
                             use_inter_op_parallelism=True, preserve_cardinality=False)

    def flat_map(self, map_func, name=None):
        traced = tracing.trace(map_func, self._structure, self._specs, "flat_map")
        inner = traced.output_structure
        if not isinstance(inner, DatasetV1):
            raise TypeError("The `map_func` argument must return a `Dataset` object.")
        return self._derived("FlatMapDataset", {"input_dataset": self._variant_tensor,
                                                "other_arguments": traced.captured},
                             inner._specs, inner._structure, f=_func_attr(traced))

    def filter(self, predicate, name=None):
        traced = tracing.trace(predicate, self._structure, self._specs, "filter")
        if [(d, s.ndims) for d, s in traced.output_specs] not in ([(dtypes.bool, 0)],
                                                                   [(dtypes.bool, None)]):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor, but its return type was "
                             f"{traced.output_specs[0][0].name if traced.output_specs else None}.")
        return self._derived("FilterDataset", {"input_dataset": self._variant_tensor,
                                               "other_arguments": traced.captured},
                             predicate=_func_attr(traced))

    def cache(self, filename="", name=None):
        filename = convert_to_tensor(filename, dtypes.string, name="filename")
        return self._derived("CacheDataset", {"input_dataset": self._variant_tensor,
                                              "filename": filename})

    def batch(self, batch_size, drop_remainder=False, name=None):
        size = convert_to_tensor(batch_size, dtypes.int64, name="batch_size")
        drop = convert_to_tensor(drop_remainder, dtypes.bool, name="drop_remainder")
        static = _constant_int(batch_size) if drop_remainder is True else None
        specs = [(dtype, TensorShape([static]).concatenate(shape)) for dtype, shape in self._specs]
        return self._derived("BatchDatasetV2", {"input_dataset": self._variant_tensor,
                                                "batch_size": size, "drop_remainder": drop},
                             specs, parallel_copy=False)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """PaddedBatchDatasetV2: each component padded to `padded_shapes` (None dims: the
        batch's longest) with `padding_values` (zeros, "" for strings, by default)."""
        size = convert_to_tensor(batch_size, dtypes.int64, name="batch_size")
        if padded_shapes is None:
            padded_shapes = self.output_shapes
            for i, (_, shape) in enumerate(self._specs):
                if shape.ndims is None:
                    raise ValueError(f"You must provide `padded_shapes` argument because "
                                     f"component {i} has unknown rank.")
        flat_padded = _flatten_up_to(self._structure, padded_shapes, "padded_shapes")
        shapes, static_shapes = [], []
        for padded, (_, input_shape) in zip(flat_padded, self._specs):
            tensor, static = _padded_shape_to_tensor(padded, input_shape)
            shapes.append(tensor)
            static_shapes.append(static)
        if padding_values is None:
            padding_values = structure.pack_as(
                self._structure, [_default_padding(dtype) for dtype, _ in self._specs])
        flat_values = _flatten_up_to(self._structure, padding_values, "padding_values")
        values = [_padding_value_to_tensor(value, dtype)
                  for value, (dtype, _) in zip(flat_values, self._specs)]
        drop = convert_to_tensor(drop_remainder, dtypes.bool, name="drop_remainder")
        static_batch = _constant_int(batch_size) if _constant_bool(drop) else None
        specs = [(dtype, TensorShape([static_batch]).concatenate(shape))
                 for (dtype, _), shape in zip(self._specs, static_shapes)]
        # Toutput_types comes from the padding values' dtypes.
        variant = apply_op("PaddedBatchDatasetV2", input_dataset=self._variant_tensor,
                           batch_size=size, padded_shapes=shapes, padding_values=values,
                           drop_remainder=drop, parallel_copy=False,
                           output_shapes=[s for _, s in specs])
        return DatasetV1(variant, self._structure, specs, inputs=(self,))

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """InterleaveDataset: `cycle_length` datasets made by `map_func` read `block_length`
        elements at a time, in turn."""
        if num_parallel_calls is not None:
            raise NotImplementedError("Dataset.interleave(num_parallel_calls=...) "
                                      "(ParallelInterleaveDatasetV4) is not supported by the "
                                      "engine yet")
        traced = tracing.trace(map_func, self._structure, self._specs, "interleave")
        inner = traced.output_structure
        if not isinstance(inner, DatasetV1):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{type(inner)}.")
        cycle = convert_to_tensor(-1 if cycle_length is None else cycle_length, dtypes.int64,
                                  name="cycle_length")
        block = convert_to_tensor(1 if block_length is None else block_length, dtypes.int64,
                                  name="block_length")
        return self._derived("InterleaveDataset",
                             {"input_dataset": self._variant_tensor,
                              "other_arguments": traced.captured, "cycle_length": cycle,
                              "block_length": block},
                             inner._specs, inner._structure, f=_func_attr(traced))

    def concatenate(self, dataset, name=None):
        """ConcatenateDataset: this dataset's elements, then `dataset`'s; shapes where both
        agree, others unknown."""
        mismatch = TypeError(f"Incompatible dataset elements:\n  {_spec_repr(self)} vs.   "
                             f"{_spec_repr(dataset)}")
        try:
            structure.assert_same_structure(self._structure, dataset._structure)
        except ValueError:
            raise mismatch from None
        if len(self._specs) != len(dataset._specs):
            raise mismatch
        specs = []
        for (dtype, shape), (other_dtype, other_shape) in zip(self._specs, dataset._specs):
            if dtype != other_dtype:
                raise mismatch
            specs.append((dtype, _common_shape(shape, other_shape)))
        variant = apply_op("ConcatenateDataset", input_dataset=self._variant_tensor,
                           another_dataset=dataset._variant_tensor,
                           output_types=[d for d, _ in specs], output_shapes=[s for _, s in specs])
        return DatasetV1(variant, self._structure, specs, inputs=(self, dataset))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        size = convert_to_tensor(buffer_size, dtypes.int64, name="buffer_size")
        seed_t, seed2_t = _seed_tensors(seed)
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return self._derived("ShuffleDataset", {"input_dataset": self._variant_tensor,
                                                "buffer_size": size, "seed": seed_t,
                                                "seed2": seed2_t},
                             reshuffle_each_iteration=reshuffle)

    def repeat(self, count=None, name=None):
        count = convert_to_tensor(-1 if count is None else count, dtypes.int64, name="count")
        return self._derived("RepeatDataset", {"input_dataset": self._variant_tensor,
                                               "count": count})

    def take(self, count, name=None):
        count = convert_to_tensor(count, dtypes.int64, name="count")
        return self._derived("TakeDataset", {"input_dataset": self._variant_tensor,
                                             "count": count})

    def skip(self, count, name=None):
        count = convert_to_tensor(count, dtypes.int64, name="count")
        return self._derived("SkipDataset", {"input_dataset": self._variant_tensor,
                                             "count": count})

    def prefetch(self, buffer_size, name=None):
        size = convert_to_tensor(buffer_size, dtypes.int64, name="buffer_size")
        with get_default_graph().colocate_with(self._variant_tensor.op):
            return self._derived("PrefetchDataset", {"input_dataset": self._variant_tensor,
                                                     "buffer_size": size},
                                 slack_period=0, legacy_autotune=False)

    # -- options --

    def options(self):
        """The options of this dataset and its inputs (TensorFlow's graph-mode legacy value,
        with its warning), immutable."""
        warnings.warn("To make it possible to preserve tf.data options across serialization "
                      "boundaries, their implementation has moved to be part of the "
                      "TensorFlow graph. As a consequence, the options value is in general no "
                      "longer known at graph construction time. Invoking this method in graph "
                      "mode retains the legacy behavior of the original implementation, but "
                      "note that the returned value might not reflect the actual value of the "
                      "options.")
        return self._options_attr

    def with_options(self, options, name=None):
        """OptionsDataset: this dataset with `options` (a tf.data.Options) merged into its
        own; the op carries them serialized. The engine runs the pipeline as it would without
        them (TensorFlow's options steer its threads and graph rewrites)."""
        with get_default_graph().colocate_with(self._variant_tensor.op):
            variant = apply_op("OptionsDataset", input_dataset=self._variant_tensor,
                               serialized_options=options.serialize(), **flat_attrs(self._specs))
        dataset = DatasetV1(variant, self._structure, self._specs, inputs=(self,))
        dataset._options_attr._set_mutable(True)
        dataset._options_attr = dataset._options_attr.merge(options)
        dataset._options_attr._set_mutable(False)
        return dataset

    @property
    def _type_spec(self):
        return dataset_spec.dataset_type_spec(self)

    def as_numpy_iterator(self):
        raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager "
                           "mode.")

    # -- iterators (engine.data.iterator_ops) --

    def make_one_shot_iterator(self):
        from engine.data import iterator_ops
        return iterator_ops.make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        from engine.data import iterator_ops
        return iterator_ops.make_initializable_iterator(self, shared_name)

    def __iter__(self):
        raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in eager "
                           "mode or within tf.function.")


Dataset = DatasetV1
dataset_spec.DatasetSpec.dataset_class = DatasetV1


def _truthy(value):
    """Python truth as TensorFlow's from_generator tests it: a TensorShape of unknown rank is
    false, a DType true, a structure true when it holds something."""
    if isinstance(value, TensorShape):
        return value.ndims is not None
    if isinstance(value, (tuple, list, dict)):
        return bool(value)
    return True


class _GeneratorState:
    """The Python generator's iterators by id, as TensorFlow's DatasetV2._GeneratorState."""

    def __init__(self, generator):
        self._generator = generator
        self._lock = threading.Lock()
        self._next_id = 0
        self._args = {}
        self._iterators = {}

    def get_next_id(self, *args):
        with self._lock:
            ret = self._next_id
            self._next_id += 1
        self._args[ret] = args
        return np.array(ret, dtype=np.int64)

    def get_iterator(self, iterator_id):
        iterator_id = int(np.asarray(iterator_id))
        try:
            return self._iterators[iterator_id]
        except KeyError:
            iterator = iter(self._generator(*self._args.pop(iterator_id)))
            self._iterators[iterator_id] = iterator
            return iterator

    def iterator_completed(self, iterator_id):
        del self._iterators[int(np.asarray(iterator_id))]


def _generator_dataset(init_args, init_func, next_func, finalize_func, output_types,
                       flat_types, flat_shapes):
    """The GeneratorDataset op, its three functions traced (the state: init_func's output)."""
    init_specs = [(init_args.dtype, init_args.shape)]
    init = tracing.trace(init_func, None, init_specs, "from_generator()")
    state_structure, state_specs = init.output_structure, init.output_specs
    nxt = tracing.trace(next_func, state_structure, state_specs, "from_generator()")
    finalize = tracing.trace(finalize_func, state_structure, state_specs, "from_generator()")
    specs = list(zip(flat_types, [s for _, s in nxt.output_specs]))
    variant = apply_op("GeneratorDataset",
                       init_func_other_args=[init_args] + init.captured,
                       next_func_other_args=nxt.captured,
                       finalize_func_other_args=finalize.captured,
                       init_func=_func_attr(init), next_func=_func_attr(nxt),
                       finalize_func=_func_attr(finalize), **flat_attrs(specs))
    return DatasetV1(variant, output_types, specs)


def _func_attr(traced):
    from engine.proto import attr_value_pb2
    func = attr_value_pb2.NameAttrList(name=traced.name)
    func.attr["_tf_data_function"].b = True
    return func


def _normalize(tensors):
    """(element structure, flat component tensors) with Consts named normalize_element/
    component_i, as tf.data's structure.normalize_element names them."""
    flat = structure.flatten(tensors)
    components = []
    with get_default_graph().name_scope("normalize_element"):
        for i, value in enumerate(flat):
            if isinstance(value, DatasetV1):
                raise TypeError("A dataset is not a valid component of a dataset element")
            components.append(convert_to_tensor(value, name=f"component_{i}"))
    return tensors, components


def _flatten_up_to(element_structure, values, what):
    """`values` (padded_shapes, padding_values) flattened in the element's nesting: a shape
    such as [None, 2] is one leaf, not two."""
    if element_structure is None or not isinstance(element_structure, (tuple, dict)):
        return [values]
    if isinstance(element_structure, dict):
        if not isinstance(values, dict) or sorted(values) != sorted(element_structure):
            raise ValueError(f"The two structures don't have the same sequence of keys: "
                             f"`{what}` and the dataset's elements")
        return [x for key in sorted(element_structure)
                for x in _flatten_up_to(element_structure[key], values[key], what)]
    if not isinstance(values, (tuple, list)) or len(values) != len(element_structure):
        raise ValueError(f"The two structures don't have the same nested structure: `{what}` "
                         f"and the dataset's elements")
    return [x for item, value in zip(element_structure, values)
            for x in _flatten_up_to(item, value, what)]


def _padded_shape_to_tensor(padded_shape, input_shape):
    """(int64 tensor of the padded shape, -1 for unknown dims; its static TensorShape)."""
    if isinstance(padded_shape, Tensor):
        tensor = convert_to_tensor(padded_shape, dtypes.int64)
        static = constant_value_as_shape(tensor)
    else:
        static = as_shape(padded_shape)
        dims = [-1 if d is None else d for d in static.as_list()]
        tensor = convert_to_tensor(np.array(dims, np.int64), dtypes.int64)
    if not _padded_shape_compatible(static, input_shape):
        raise ValueError(f"The padded shape {_shape_text(static)} is not compatible with the "
                         f"shape {_shape_text(input_shape)} of the corresponding input component.")
    return tensor, static


def _padded_shape_compatible(padded, input_shape):
    if padded.ndims is None or input_shape.ndims is None:
        return True
    if padded.ndims != input_shape.ndims:
        return False
    return all(p is None or i is None or p >= i
               for p, i in zip(padded.as_list(), input_shape.as_list()))


def _shape_text(shape):
    """A TensorShape as TensorFlow 2 prints it: (2, None), (3,), <unknown>."""
    if shape.ndims is None:
        return "<unknown>"
    dims = ["None" if d is None else str(d) for d in shape.as_list()]
    return f"({dims[0]},)" if len(dims) == 1 else "(" + ", ".join(dims) + ")"


def _default_padding(dtype):
    if dtype == dtypes.string:
        return ""
    if dtype == dtypes.variant:
        raise TypeError("Unable to create default padding for a component of type variant.")
    if dtype == dtypes.bool:
        return False
    return np.zeros((), dtype.as_numpy_dtype)


def _padding_value_to_tensor(value, output_type):
    value = convert_to_tensor(value, name="padding_value")
    if value.shape.ndims not in (None, 0):
        raise ValueError(f"Invalid `padding_values`. `padding_values` values should be scalars, "
                         f"but got {_shape_text(value.shape)}.")
    if value.dtype != output_type:
        raise TypeError(f"Invalid `padding_values`. `padding_values` values type "
                        f"{value.dtype} does not match type {output_type} of the "
                        f"corresponding input component.")
    return value


def _common_shape(a, b):
    """The most specific shape both fit (TensorShape.most_specific_common_supertype)."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def _spec_repr(dataset):
    """A dataset's element_spec as TensorFlow prints it (TensorSpec(shape=..., dtype=tf....))."""
    leaves = [f"TensorSpec(shape={_shape_text(shape)}, dtype=tf.{dtype.name}, name=None)"
              for dtype, shape in dataset._specs]
    return _nested_repr(structure.pack_as(dataset._structure, leaves))


def _nested_repr(value):
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_nested_repr(value[key])}" for key in value) + "}"
    if isinstance(value, tuple):
        inner = ", ".join(_nested_repr(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return value


def _constant_bool(tensor):
    if tensor.op.type != "Const":
        return False
    return bool(np.asarray(tensor.op._const_value()))


def _constant_int(value):
    if isinstance(value, Tensor):
        const = value.op._const_value() if value.op.type == "Const" else None
        return None if const is None else int(np.asarray(const))
    return int(value)


def _seed_tensors(seed):
    """tf.data's random_seed.get_seed: the graph and op seeds as int64 tensors, seed2 made
    2**31 - 1 at run time when both are 0 (zeros would mean "seed from the OS")."""
    seed, seed2 = get_seed(seed)
    seed_t = convert_to_tensor(0 if seed is None else seed, dtypes.int64, name="seed")
    if seed2 is None:
        return seed_t, convert_to_tensor(0, dtypes.int64, name="seed2")
    graph = get_default_graph()
    with graph.name_scope("seed2") as scope:
        seed2_t = convert_to_tensor(seed2, dtypes.int64)
        both_zero = apply_op("LogicalAnd",
                             x=apply_op("Equal", x=seed_t, y=np.int64(0)),
                             y=apply_op("Equal", x=seed2_t, y=np.int64(0)))
        fallback = convert_to_tensor(2 ** 31 - 1, dtypes.int64)
        seed2_t = apply_op("SelectV2", condition=both_zero, t=fallback, e=seed2_t,
                           name=scope)
    return seed_t, seed2_t
