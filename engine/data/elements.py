"""What a dataset's or an iterator's elements are, told the same way by both: the nesting of
their components and a (DType, TensorShape) spec per flat component, and the output_types and
output_shapes attrs of the ops that make or read them."""

from engine.data import structure
from engine.framework.tensor import Tensor
from engine.framework.type_spec import TensorSpec


def flat_attrs(specs):
    """The output_types and output_shapes attrs of an op whose outputs have these specs."""
    return {"output_types": [dtype for dtype, _ in specs],
            "output_shapes": [shape for _, shape in specs]}


class Elements:
    """output_types, output_shapes, output_classes and element_spec, each in the elements'
    nesting, from `_structure` (the nesting; its leaves unused) and `_specs` ([(DType,
    TensorShape)] per flat component)."""

    @property
    def output_types(self):
        return structure.pack_as(self._structure, [dtype for dtype, _ in self._specs])

    @property
    def output_shapes(self):
        return structure.pack_as(self._structure, [shape for _, shape in self._specs])

    @property
    def output_classes(self):
        return structure.pack_as(self._structure, [Tensor for _ in self._specs])

    @property
    def element_spec(self):
        """A tf.TensorSpec per component, in the elements' nesting."""
        return structure.pack_as(self._structure, [TensorSpec(shape, dtype)
                                                   for dtype, shape in self._specs])
