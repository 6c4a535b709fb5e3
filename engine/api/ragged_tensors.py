"""tf.RaggedTensor, tf.RaggedTensorSpec, tf.ragged (as tf.compat.v1.ragged exports it),
tf.io.RaggedFeature and the raw tf.ragged_fill_empty_rows ops; `install` puts the ragged
dispatch on tf's elementwise ops, reductions, concat, stack, gather and the others
engine/ops/ragged/dispatch.py lists."""

from engine.api import input_output as _input_output
from engine.framework.api_namespace import Namespace as _Namespace
from engine.framework.ragged_tensor_value import RaggedTensorValue as _RaggedTensorValue
from engine.ops.ragged import dispatch as _dispatch
from engine.ops.ragged import ragged_array as _ragged_array
from engine.ops.ragged import factory as _factory
from engine.ops.ragged import ragged_grad as _ragged_grad  # noqa: F401  (gradients)
from engine.ops.ragged import parsing as _ragged_parsing
from engine.ops.ragged import ragged_ops as _ragged_ops
from engine.ops.ragged import segment_ids as _segment_ids
from engine.ops.ragged.ragged_tensor import RaggedTensor
from engine.ops.ragged.ragged_tensor_spec import RaggedTensorSpec

ragged = _Namespace(
    "tf.ragged", RaggedTensorValue=_RaggedTensorValue, boolean_mask=_ragged_array.boolean_mask,
    constant=_factory.constant, constant_value=_factory.constant_value,
    cross=_ragged_ops.cross, cross_hashed=_ragged_ops.cross_hashed,
    map_flat_values=_ragged_ops.map_flat_values, placeholder=_factory.placeholder,
    range=_ragged_ops.range,
    row_splits_to_segment_ids=_segment_ids.row_splits_to_segment_ids,
    segment_ids_to_row_splits=_segment_ids.segment_ids_to_row_splits,
    stack=_ragged_array.stack, stack_dynamic_partitions=_ragged_ops.stack_dynamic_partitions)
# tf.io.RaggedFeature (parse_example and parse_single_example; not a top-level name in TF1)
setattr(_input_output.io, "RaggedFeature", _ragged_parsing.RaggedFeature)
ragged_fill_empty_rows = _ragged_ops.ragged_fill_empty_rows
ragged_fill_empty_rows_grad = _ragged_ops.ragged_fill_empty_rows_grad


def install(api_module):
    _dispatch.install(api_module)
    _dispatch.install_operators(api_module)


__all__ = ["RaggedTensor", "RaggedTensorSpec", "ragged", "ragged_fill_empty_rows",
           "ragged_fill_empty_rows_grad"]
