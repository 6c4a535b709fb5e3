"""tf.data.DatasetSpec (the TypeSpec of a dataset), tf.data.NumpyIterator and
tf.data.experimental.get_structure, as TensorFlow's dataset_ops.py has them."""

from engine.framework.tensor_shape import TensorShape
from engine.framework.type_spec import TypeSpec, as_spec_shape


class DatasetSpec(TypeSpec):
    """tf.data.DatasetSpec(element_spec, dataset_shape=()): a dataset's element specs and the
    shape of its variant (a batch of datasets has more than ())."""

    __slots__ = ("_element_spec", "_dataset_shape")
    dataset_class = None   # DatasetV1, set by engine.data.dataset_ops (which imports this)

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = as_spec_shape(dataset_shape)

    element_spec = property(lambda self: self._element_spec)
    shape = property(lambda self: self._dataset_shape)

    @property
    def value_type(self):
        return DatasetSpec.dataset_class

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    def _serialize(self):
        return (self._element_spec, self._dataset_shape)


def dataset_type_spec(dataset):
    """The `_type_spec` type_spec_from_value reads off a dataset."""
    return DatasetSpec(dataset.element_spec, TensorShape([]))


class NumpyIterator:
    """tf.data.NumpyIterator(dataset): NumPy values of a dataset's elements. It iterates the
    dataset in Python, which TensorFlow allows only eagerly: in graph mode it raises, as
    TensorFlow's does."""

    def __init__(self, dataset):
        self._iterator = iter(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iterator)

    next = __next__


def get_structure(dataset_or_iterator):
    """tf.data.experimental.get_structure: the element_spec of a dataset or an iterator."""
    from engine.data.elements import Elements
    if isinstance(dataset_or_iterator, Elements):
        return dataset_or_iterator.element_spec
    raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                    f"`tf.data.Dataset` or tf.data.Iterator object, but got "
                    f"{type(dataset_or_iterator)}.")
