"""Type specs (tf.TypeSpec, tf.TensorSpec, ..., tf.type_spec_from_value, tf.data.DatasetSpec),
tf.data's Options and NumpyIterator, session handles (tf.get_session_handle, ...),
tf.CriticalSection, the sparse conditional accumulator, tf.IdentityReader, and the toggles and
odds of the TF1 namespace (tensor equality, check-numerics instrumentation, traceback
filtering, op libraries, tf.CXX_VERSION)."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine import data as _data
from engine.data import dataset_spec as _dataset_spec, options as _data_options
from engine.framework.type_spec import (IndexedSlicesSpec, NoneTensorSpec,  # noqa: F401
                                        OptionalSpec, SparseTensorSpec, TensorArraySpec,
                                        TensorSpec, TypeSpec, type_spec_from_value)

_data.DatasetSpec = _dataset_spec.DatasetSpec
_data.NumpyIterator = _dataset_spec.NumpyIterator
_data.Options = _data_options.Options
_data.ThreadingOptions = _data_options.ThreadingOptions
if not isinstance(vars(_data).get("experimental"), _Namespace):
    _data.experimental = _Namespace("tf.data.experimental")
_data.experimental.get_structure = _dataset_spec.get_structure

from engine.api import core as _core
from engine.framework import errors as _errors, op_libraries as _op_libraries
from engine.framework import switches as _switches
from engine.ops import accumulator_ops as _accumulators, io_ops as _io_ops
from engine.ops import session_ops as _session_ops, user_ops as _user_ops
from engine.ops import check_numerics_callback as _check_numerics
from engine.api import special_math as _special_math

# Session handles: tensors kept in a session between runs.
get_session_handle = _session_ops.get_session_handle
get_session_tensor = _session_ops.get_session_tensor
delete_session_tensor = _session_ops.delete_session_tensor

ConditionalAccumulatorBase = _accumulators.ConditionalAccumulatorBase
SparseConditionalAccumulator = _accumulators.SparseConditionalAccumulator
IdentityReader = _io_ops.IdentityReader

# Toggles, constants and TensorFlow's op libraries.
CXX_VERSION = _switches.CXX_VERSION
enable_tensor_equality = _switches.enable_tensor_equality
disable_tensor_equality = _switches.disable_tensor_equality
_core.debugging.enable_traceback_filtering = _switches.enable_traceback_filtering
_core.debugging.disable_traceback_filtering = _switches.disable_traceback_filtering
_core.debugging.is_traceback_filtering_enabled = _switches.is_traceback_filtering_enabled
_core.debugging.enable_check_numerics = _check_numerics.enable_check_numerics
_core.debugging.disable_check_numerics = _check_numerics.disable_check_numerics
_core.graph_util.must_run_on_cpu = _switches.must_run_on_cpu
_errors.raise_exception_on_not_ok_status = _switches.raise_exception_on_not_ok_status
check_pinned = _check_numerics.check_pinned
load_op_library = _op_libraries.load_op_library
load_library = _op_libraries.load_library
load_file_system_library = _op_libraries.load_file_system_library
user_ops = _Namespace("tf.user_ops", my_fact=_user_ops.my_fact)
_special_math.sparse.SparseConditionalAccumulator = SparseConditionalAccumulator
