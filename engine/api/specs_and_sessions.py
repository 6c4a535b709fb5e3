"""Type specs (tf.TypeSpec, tf.TensorSpec, ..., tf.type_spec_from_value; tf.data's
DatasetSpec, Options and NumpyIterator are engine/data's), session handles
(tf.get_session_handle, ...), the sparse conditional accumulator, tf.IdentityReader, and the
toggles and odds of the TF1 namespace (tensor equality, check-numerics instrumentation,
traceback filtering, tf.check_pinned, tf.nondifferentiable_batch_function, op libraries,
tf.CXX_VERSION, tf.user_ops), tf.CriticalSection.
tf.LMDBReader stays unsupported (docs/ARCHITECTURE.md says why)."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.framework.type_spec import (IndexedSlicesSpec, NoneTensorSpec,  # noqa: F401
                                        OptionalSpec, SparseTensorSpec, TensorArraySpec,
                                        TensorSpec, TypeSpec, type_spec_from_value)
from engine.api import core as _core
from engine.framework import errors as _errors, op_libraries as _op_libraries
from engine.framework import switches as _switches
from engine.ops import accumulator_ops as _accumulators, io_ops as _io_ops
from engine.ops.critical_section_ops import CriticalSection  # noqa: F401
from engine.ops import session_ops as _session_ops, user_ops as _user_ops
from engine.ops import batch_ops as _batch_ops, check_numerics_callback as _check_numerics
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
nondifferentiable_batch_function = _batch_ops.batch_function
load_op_library = _op_libraries.load_op_library
load_library = _op_libraries.load_library
load_file_system_library = _op_libraries.load_file_system_library
user_ops = _Namespace("tf.user_ops", my_fact=_user_ops.my_fact)
_special_math.sparse.SparseConditionalAccumulator = SparseConditionalAccumulator
