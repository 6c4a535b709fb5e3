"""tf.compat.v1.data iterators: make_one_shot_iterator (a OneShotIterator whose
dataset_factory function rebuilds the dataset), make_initializable_iterator (IteratorV2 and
its MakeIterator initializer), Iterator.from_structure with make_initializer (one IteratorV2,
a MakeIterator per dataset), Iterator.from_string_handle (a feedable iterator: the
IteratorFromStringHandleV2 of a fed string handle), and get_next (IteratorGetNext, its outputs
packed in the dataset's element structure). Ops are colocated with the dataset, as TensorFlow's are.
"""

from engine.framework import dtypes
from engine.data import structure, tracing
from engine.data.elements import Elements, flat_attrs
from engine.framework.graph import get_default_graph
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.ops.random_ops import get_seed
from engine.framework.tensor_shape import TensorShape, as_shape


class Iterator(Elements):
    """A TF 1.x iterator over a dataset's elements."""

    def __init__(self, iterator_resource, initializer, element_structure, specs):
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        self._structure, self._specs = element_structure, list(specs)
        self._string_handle = apply_op("IteratorToStringHandle",
                                       resource_handle=iterator_resource)

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None,
                       output_classes=None):
        """A reinitializable iterator: no dataset yet; make_initializer(dataset) gives one."""
        types = structure.flatten(output_types)
        if output_shapes is None:
            shapes = [TensorShape(None)] * len(types)
        else:
            structure.assert_same_structure(output_types, output_shapes)
            shapes = [as_shape(s) for s in structure.flatten(output_shapes)]
        specs = [(dtypes.as_dtype(t), s) for t, s in zip(types, shapes)]
        resource = apply_op("IteratorV2", container="", shared_name=shared_name or "",
                            **flat_attrs(specs))
        return Iterator(resource, None, output_types, specs)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None,
                           output_classes=None):
        """A feedable iterator: whichever iterator's string_handle() is fed to
        `string_handle` (a tf.string placeholder) serves get_next."""
        types = structure.flatten(output_types)
        if output_shapes is None:
            shapes = [TensorShape(None)] * len(types)
        else:
            structure.assert_same_structure(output_types, output_shapes)
            shapes = [as_shape(s) for s in structure.flatten(output_shapes)]
        specs = [(dtypes.as_dtype(t), s) for t, s in zip(types, shapes)]
        string_handle = convert_to_tensor(string_handle, dtype=dtypes.string)
        resource = apply_op("IteratorFromStringHandleV2", string_handle=string_handle,
                            **flat_attrs(specs))
        return Iterator(resource, None, output_types, specs)

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was "
                             "likely created using `tf.data.Dataset.make_one_shot_iterator()`. "
                             "For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        if [d for d, _ in dataset._specs] != [d for d, _ in self._specs]:
            raise TypeError(f"Expected output types {self.output_types} but got dataset with "
                            f"output types {dataset.output_types}.")
        with get_default_graph().colocate_with(self._iterator_resource.op):
            return apply_op("MakeIterator", dataset=dataset._variant_tensor,
                            iterator=self._iterator_resource, name=name or "make_initializer")

    def get_next(self, name=None):
        with get_default_graph().colocate_with(self._iterator_resource.op):
            flat = apply_op("IteratorGetNext", iterator=self._iterator_resource, name=name,
                            **flat_attrs(self._specs))
        return structure.pack_as(self._structure, flat)

    def string_handle(self, name=None):
        if name is None:
            return self._string_handle
        return apply_op("IteratorToStringHandle", resource_handle=self._iterator_resource,
                        name=name)


def make_one_shot_iterator(dataset):
    """tf.compat.v1.data.make_one_shot_iterator: initialised on first use, once per session."""
    factory = tracing.dataset_factory(dataset._variant_tensor)
    # TensorFlow's Defun graph for the factory draws one op seed from the graph's counter:
    # random ops made after a one-shot iterator get the seeds they get in TensorFlow.
    get_seed(None)
    from engine.proto import attr_value_pb2
    with get_default_graph().colocate_with(dataset._variant_tensor.op):
        resource = apply_op("OneShotIterator",
                            dataset_factory=attr_value_pb2.NameAttrList(name=factory),
                            **flat_attrs(dataset._specs))
        return Iterator(resource, None, dataset._structure, dataset._specs)


def make_initializable_iterator(dataset, shared_name=None):
    """tf.compat.v1.data.make_initializable_iterator: run `iterator.initializer` first."""
    with get_default_graph().colocate_with(dataset._variant_tensor.op):
        resource = apply_op("IteratorV2", container="", shared_name=shared_name or "",
                            **flat_attrs(dataset._specs))
        initializer = apply_op("MakeIterator", dataset=dataset._variant_tensor,
                               iterator=resource)
        return Iterator(resource, initializer, dataset._structure, dataset._specs)


def get_output_types(dataset_or_iterator):
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
    return dataset_or_iterator.output_classes
