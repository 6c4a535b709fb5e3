"""tf.*: building graphs and running them: Graph, Session, dtypes, the core ops, variables,
gradients, asserts, tf.graph_util, tf.random, tf.initializers, tf.debugging."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine.framework import dtypes, errors  # noqa: F401
from engine.framework.devices import DeviceSpec  # noqa: F401
from engine.cluster import session as _cluster_session  # noqa: F401 (tf.Session("grpc://..."))
from engine.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64,  # noqa: F401,A004
                                     complex128, double, float16, float32, float64, half, int8,
                                     int16, int32, int64, qint8, qint16, qint32, quint8,
                                     quint16, resource, string, uint8, uint16, uint32, uint64,
                                     variant, QUANTIZED_DTYPES)
from engine.framework.graph import (Graph, GraphKeys, add_to_collection,  # noqa: F401
                                    add_to_collections, get_all_collection_keys, get_collection,
                                    get_collection_ref, get_default_graph, get_default_session,
                                    init_scope, reset_default_graph)
from engine.framework.default_graph import name_scope  # noqa: F401
from engine.framework.operation import Operation  # noqa: F401
from engine.framework.sparse_tensor import SparseTensor, SparseTensorValue  # noqa: F401
from engine.ops.array_ops import reverse_sequence, sparse_placeholder  # noqa: F401
from engine.ops.array_ops import (boolean_mask, broadcast_to, concat, expand_dims,  # noqa: F401
                                  fill, gather, gather_nd, identity, identity_n,
                                  invert_permutation, newaxis, one_hot, ones, ones_like, pad,
                                  placeholder, placeholder_with_default, prevent_gradient, rank,
                                  reshape, reverse, reverse_v2, shape, shape_n, size, slice,
                                  split, squeeze, stack, stop_gradient, strided_slice, tile,
                                  transpose, unstack, where, where_v2, zeros, zeros_like)
from engine.ops.constant_op import constant  # noqa: F401
from engine.ops.sort_ops import argsort, sort  # noqa: F401
from engine.ops.repeat_ops import repeat  # noqa: F401
from engine.ops.batch_gather_ops import batch_gather, batch_scatter_update  # noqa: F401
from engine.ops.array_shape_ops import (  # noqa: F401
    convert_to_tensor_or_indexed_slices, convert_to_tensor_or_sparse_tensor, count_up_to,
    dimension_at_index, dimension_value, edit_distance, ensure_shape, fingerprint,
    get_static_value, guarantee_const, is_numeric_tensor, is_tensor, parallel_stack, timestamp)
from engine.ops.control_flow.ops import group, no_op, tuple, with_dependencies  # noqa: F401,A004
from engine.ops.control_flow.case import case  # noqa: F401
from engine.ops.control_flow.switch_case import switch_case  # noqa: F401
from engine.ops.control_flow.cond import cond  # noqa: F401
from engine.ops.logging_ops import Assert  # noqa: F401
from engine.ops.control_flow.while_loop import while_loop  # noqa: F401
from engine.ops.tensor_array_ops import TensorArray  # noqa: F401
from engine.ops.convert import (convert_to_tensor, convert_n_to_tensor,  # noqa: F401
                                register_tensor_conversion_function)
from engine.ops.functional_ops import foldl, foldr, map_fn, scan  # noqa: F401
from engine.ops.importer import import_graph_def  # noqa: F401
from engine.ops.raw_ops import raw_ops  # noqa: F401
from engine.ops import lookup_ops as _lookup_ops
from engine.ops.init_ops import (constant_initializer, glorot_normal_initializer,  # noqa: F401
                                 glorot_uniform_initializer, ones_initializer,
                                 random_normal_initializer, random_uniform_initializer,
                                 truncated_normal_initializer, variance_scaling_initializer,
                                 zeros_initializer, orthogonal_initializer,
                                 uniform_unit_scaling_initializer)
from engine.ops import init_ops as _init_ops
from engine.ops.math_ops import (abs, acos, add, add_n, argmax, argmin, asin, atan,  # noqa: F401,A004
                                 atan2, cast, ceil, clip_by_value, cos, cosh, count_nonzero,
                                 cumprod, cumsum, div, div_no_nan, divide, equal, erf, erfc,
                                 exp, expm1, floor, floor_div, floordiv, floormod, greater,
                                 greater_equal, is_finite, is_inf, is_nan, less, less_equal,
                                 log, log1p, logical_and, logical_not, logical_or, logical_xor,
                                 matmul, maximum, minimum, mod, multiply, negative, not_equal,
                                 pow, range, realdiv, reciprocal, reduce_all, reduce_any,
                                 reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                                 reduce_prod, reduce_sum, round, rsqrt, saturate_cast,
                                 scalar_mul, sigmoid, sign, sin, sinh, sqrt, square,
                                 squared_difference, subtract, tan, tanh, to_bfloat16,
                                 to_complex64, to_double, to_float, to_int32, to_int64,
                                 truediv, truncatediv, truncatemod)
from engine.ops.clip_ops import (clip_by_average_norm, clip_by_global_norm,  # noqa: F401
                                 clip_by_norm, global_norm)
from engine.ops.norm_ops import norm  # noqa: F401
from engine.ops.random_ops import (get_seed, random_normal, random_uniform,  # noqa: F401
                                   set_random_seed, truncated_normal)
from engine.ops.shuffle_ops import random_shuffle
from engine.ops import stateless_random_ops as _stateless
from engine.ops.state_ops import (assign, assign_add, assign_sub, scatter_add,  # noqa: F401
                                  scatter_div, scatter_max, scatter_min, scatter_mul,
                                  scatter_nd_add, scatter_nd_sub, scatter_nd_update, scatter_sub,
                                  scatter_update, tensor_scatter_nd_add, tensor_scatter_nd_sub,
                                  tensor_scatter_nd_max, tensor_scatter_nd_min,
                                  tensor_scatter_nd_update)
tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub
from engine.ops.variable_scope import (AUTO_REUSE, VariableScope, get_variable,  # noqa: F401
                                       get_local_variable, get_variable_scope, no_regularizer,
                                       variable_op_scope, variable_scope)
from engine.framework.default_graph import op_scope  # noqa: F401
from engine.ops.partitioned_variables import (  # noqa: F401
    fixed_size_partitioner, min_max_variable_partitioner, variable_axis_size_partitioner)
from engine.ops.variable_scope import create_partitioned_variables  # noqa: F401
from engine.ops.variables import (Variable, assert_variables_initialized,  # noqa: F401
                                  disable_resource_variables, enable_resource_variables,
                                  global_variables, global_variables_initializer,
                                  is_variable_initialized, local_variables,
                                  local_variables_initializer, model_variables,
                                  moving_average_variables, report_uninitialized_variables,
                                  resource_variables_enabled, trainable_variables,
                                  variables_initializer, VariableAggregation,
                                  VariableSynchronization)
from engine.ops.gradients import (AggregationMethod, IndexedSlices, NoGradient,  # noqa: F401
                                  NotDifferentiable, RegisterGradient, gradients, hessians,
                                  no_gradient, UnconnectedGradients)
from engine.ops.custom_gradient import custom_gradient  # noqa: F401
from engine.ops import check_ops as _check_ops, debug_ops as _debug_ops
from engine.ops import linalg_ops as _linalg, nn_conv_norm_ops as _nn_conv_norm
from engine.ops import einsum_ops as _einsum, least_squares as _least_squares
from engine.ops import segment_ops as _segment
from engine.ops import matrix_functions as _matrix_functions
from engine.ops.logging_ops import Assert as _Assert
from engine.ops.logging_ops import print_v2 as _print_v2
from engine.proto.attr_value_pb2 import AttrValue, NameAttrList  # noqa: F401
from engine.proto.function_pb2 import FunctionDef  # noqa: F401
from engine.proto.graph_pb2 import GraphDef  # noqa: F401
from engine.proto.meta_graph_pb2 import MetaGraphDef  # noqa: F401
from engine.proto.node_def_pb2 import NodeDef  # noqa: F401
from engine.proto.tensor_pb2 import TensorProto  # noqa: F401
from engine.framework.tensor import Tensor, is_symbolic_tensor  # noqa: F401
from engine.runtime import context_config as _context_config
from engine.framework.tensor_shape import Dimension, TensorShape  # noqa: F401
from engine.framework.tensor_util import (MakeNdarray, constant_value,  # noqa: F401
                                          make_ndarray, make_tensor_proto)
from engine.framework import graph_util as _graph_util
from engine.ops.template import make_template  # noqa: F401
from engine.runtime.session import (ConfigProto, GPUOptions, GraphOptions,  # noqa: F401
                                    InteractiveSession, OptimizerOptions, RunMetadata,
                                    RunOptions, Session)


def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def container(container_name):
    return get_default_graph().container(container_name)


graph_util = _Namespace("tf.graph_util", import_graph_def=import_graph_def, **{
    name: getattr(_graph_util, name) for name in (
        "convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes",
        "tensor_shape_from_node_def_name")})
random = _Namespace("tf.random", set_random_seed=set_random_seed, uniform=random_uniform,
                    normal=random_normal, truncated_normal=truncated_normal, get_seed=get_seed,
                    shuffle=random_shuffle,
                    stateless_uniform=_stateless.stateless_random_uniform,
                    stateless_normal=_stateless.stateless_random_normal,
                    stateless_truncated_normal=_stateless.stateless_truncated_normal,
                    stateless_categorical=_stateless.stateless_categorical,
                    stateless_multinomial=_stateless.stateless_multinomial,
                    stateless_binomial=_stateless.stateless_random_binomial,
                    stateless_gamma=_stateless.stateless_random_gamma,
                    stateless_poisson=_stateless.stateless_random_poisson,
                    stateless_parameterized_truncated_normal=(
                        _stateless.stateless_parameterized_truncated_normal),
                    fold_in=_stateless.fold_in, split=_stateless.split,
                    create_rng_state=_stateless.create_rng_state,
                    Algorithm=_stateless.Algorithm)
random.experimental = _Namespace(
    "tf.random.experimental", stateless_fold_in=_stateless.fold_in,
    stateless_split=_stateless.split, stateless_shuffle=_stateless.stateless_shuffle,
    index_shuffle=_stateless.index_shuffle,
    create_rng_state=_stateless.create_rng_state, Algorithm=_stateless.Algorithm)
initializers = _Namespace("tf.initializers", zeros=zeros_initializer, ones=ones_initializer,
                          constant=constant_initializer,
                          random_uniform=random_uniform_initializer,
                          random_normal=random_normal_initializer,
                          truncated_normal=truncated_normal_initializer,
                          glorot_uniform=glorot_uniform_initializer,
                          glorot_normal=glorot_normal_initializer,
                          variance_scaling=variance_scaling_initializer,
                          orthogonal=orthogonal_initializer,
                          uniform_unit_scaling=uniform_unit_scaling_initializer,
                          identity=_init_ops.identity_initializer,
                          he_normal=_init_ops.he_normal, he_uniform=_init_ops.he_uniform,
                          lecun_normal=_init_ops.lecun_normal,
                          lecun_uniform=_init_ops.lecun_uniform,
                          tables_initializer=_lookup_ops.tables_initializer)

# Hash tables (tf.lookup) and the op that initializes them all.
lookup = _Namespace(
    "tf.lookup", **{name: getattr(_lookup_ops, name) for name in (
        "StaticHashTable", "KeyValueTensorInitializer", "TextFileInitializer",
        "TextFileIndex")},
    experimental=_Namespace("tf.lookup.experimental",
                            MutableHashTable=_lookup_ops.MutableHashTable))
tables_initializer = initialize_all_tables = _lookup_ops.tables_initializer

# Debugging: tf.Print, tf.print, numeric checks, tf.py_func and the asserts.
Print = _debug_ops.Print
globals()["print"] = _print_v2  # tf.print, bound without shadowing the builtin here
check_numerics = _debug_ops.check_numerics
verify_tensor_all_finite = _debug_ops.verify_tensor_all_finite
add_check_numerics_ops = _debug_ops.add_check_numerics_ops
py_func = _debug_ops.py_func
py_function = _debug_ops.py_function
numpy_function = _debug_ops.numpy_function
_ASSERTS = {name: getattr(_check_ops, name) for name in _check_ops.ASSERTS}
globals().update(_ASSERTS)
debugging = _Namespace("tf.debugging", Assert=_Assert, check_numerics=check_numerics,
                       set_log_device_placement=_context_config.set_log_device_placement,
                       assert_shapes=_check_ops.assert_shapes,
                       get_log_device_placement=_context_config.get_log_device_placement,
                       assert_all_finite=verify_tensor_all_finite, is_finite=is_finite,
                       is_inf=is_inf, is_nan=is_nan, **_ASSERTS)

# Matrix, segment and sequence ops under their top-level TF 1.x names (tf.linalg and tf.nn
# name some of them again: engine/api/math_and_nn.py).
_LINALG = ("matrix_inverse", "matrix_determinant", "cholesky", "tensordot", "trace",
           "diag", "diag_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag",
           "matrix_band_part", "self_adjoint_eig", "self_adjoint_eigvals", "svd", "qr", "cross",
           "matrix_solve", "matrix_triangular_solve", "cholesky_solve", "eye",
           "matrix_transpose")
_SEGMENT = ("segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
            "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
            "unsorted_segment_prod", "unique", "setdiff1d", "scatter_nd", "sequence_mask",
            "meshgrid", "linspace")
globals().update({name: getattr(_linalg, name) for name in _LINALG})
einsum = _einsum.einsum
matrix_square_root = _matrix_functions.matrix_square_root
matrix_solve_ls = _least_squares.matrix_solve_ls
globals().update({name: getattr(_segment, name) for name in _SEGMENT})
lin_space = _segment.linspace  # TF 1.x's name
bincount = _segment.bincount_v1
space_to_batch_nd = _nn_conv_norm.space_to_batch_nd
batch_to_space_nd = _nn_conv_norm.batch_to_space_nd
