"""The TF1 API that `import engine as tf` gives (engine/__init__.py loads it on first use)."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine.framework import dtypes, errors  # noqa: F401
from engine import tf1_renames as _tf1_renames
from engine.framework.devices import DeviceSpec  # noqa: F401
from engine.framework.devices import replica_device_setter as _replica_device_setter
from engine.cluster import cluster_spec as _cluster_spec, server as _cluster_server
from engine.cluster import session as _cluster_session  # noqa: F401 (tf.Session("grpc://..."))
from engine.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64,  # noqa: F401,A004
                                     complex128, double, float16, float32, float64, half, int8,
                                     int16, int32, int64, qint8, qint32, quint8, resource, string,
                                     uint8, uint16, uint32, uint64, variant)
from engine.framework.graph import (Graph, GraphKeys, add_to_collection,  # noqa: F401
                                    add_to_collections, get_all_collection_keys, get_collection,
                                    get_collection_ref, get_default_graph, get_default_session,
                                    init_scope, reset_default_graph)
from engine.framework.default_graph import name_scope  # noqa: F401
from engine.framework.operation import Operation  # noqa: F401
from engine.ops import nn, train as _train  # noqa: F401
from engine.ops.array_ops import reverse_sequence  # noqa: F401,E402
from engine.ops.array_ops import (boolean_mask, broadcast_to, concat, expand_dims,  # noqa: F401
                                  fill, gather, gather_nd, identity, identity_n,
                                  invert_permutation, newaxis, one_hot, ones, ones_like, pad,
                                  placeholder, placeholder_with_default, prevent_gradient, rank,
                                  reshape, reverse, reverse_v2, shape, shape_n, size, slice,
                                  split, squeeze, stack, stop_gradient, strided_slice, tile,
                                  transpose, unstack, where, where_v2, zeros, zeros_like)
from engine.ops.constant_op import constant  # noqa: F401
from engine.ops.control_flow.ops import group, no_op, tuple, with_dependencies  # noqa: F401,A004
from engine.ops.control_flow.case import case  # noqa: F401
from engine.ops.control_flow.cond import cond  # noqa: F401
from engine.ops.logging_ops import Assert  # noqa: F401
from engine.ops.control_flow.while_loop import while_loop  # noqa: F401
from engine.ops.tensor_array_ops import TensorArray  # noqa: F401
from engine.ops.convert import (convert_to_tensor, convert_n_to_tensor,  # noqa: F401
                                register_tensor_conversion_function)
from engine.ops.importer import import_graph_def  # noqa: F401
from engine.ops.init_ops import (constant_initializer, glorot_normal_initializer,  # noqa: F401
                                 glorot_uniform_initializer, ones_initializer,
                                 random_normal_initializer, random_uniform_initializer,
                                 truncated_normal_initializer, variance_scaling_initializer,
                                 zeros_initializer)
from engine.ops.math_ops import (abs, acos, add, add_n, argmax, argmin, asin,  # noqa: F401,A004
                                 atan, atan2, cast, ceil, clip_by_value, cos, cosh, count_nonzero,
                                 cumprod, cumsum, div, div_no_nan, divide, equal, erf, erfc, exp,
                                 expm1, floor, floor_div, floordiv, floormod, greater,
                                 greater_equal, is_finite, is_inf, is_nan, less, less_equal, log,
                                 log1p, logical_and, logical_not, logical_or, logical_xor, matmul,
                                 maximum, minimum, mod, multiply, negative, not_equal, pow, range,
                                 realdiv, reciprocal, reduce_all, reduce_any, reduce_logsumexp,
                                 reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum,
                                 round, rsqrt, saturate_cast, scalar_mul, sigmoid, sign, sin, sinh,
                                 sqrt, square, squared_difference, subtract, tan, tanh, to_bfloat16,
                                 to_complex64, to_double, to_float, to_int32, to_int64, truediv,
                                 truncatediv, truncatemod)
from engine.ops.random_ops import (get_seed, random_normal, random_uniform,  # noqa: F401
                                   set_random_seed, truncated_normal)
from engine.ops.state_ops import assign, assign_add, assign_sub  # noqa: F401
from engine.ops.variable_scope import (AUTO_REUSE, VariableScope, get_variable,  # noqa: F401
                                       get_variable_scope, variable_scope)
from engine.ops.variables import (Variable, assert_variables_initialized,  # noqa: F401
                                  disable_resource_variables, enable_resource_variables,
                                  global_variables, global_variables_initializer,
                                  is_variable_initialized, local_variables,
                                  local_variables_initializer, model_variables,
                                  moving_average_variables, report_uninitialized_variables,
                                  resource_variables_enabled, trainable_variables,
                                  variables_initializer)
from engine.proto.attr_value_pb2 import AttrValue, NameAttrList  # noqa: F401
from engine.proto.function_pb2 import FunctionDef  # noqa: F401
from engine.proto.graph_pb2 import GraphDef  # noqa: F401
from engine.proto.meta_graph_pb2 import MetaGraphDef  # noqa: F401
from engine.proto.node_def_pb2 import NodeDef  # noqa: F401
from engine.proto.tensor_pb2 import TensorProto  # noqa: F401
from engine.framework.tensor import Tensor  # noqa: F401
from engine.framework.tensor_shape import Dimension, TensorShape  # noqa: F401
from engine.framework.tensor_util import MakeNdarray, constant_value, make_ndarray  # noqa: F401
from engine.framework.tensor_util import make_tensor_proto  # noqa: F401

from engine.runtime.session import (ConfigProto, GPUOptions, GraphOptions,  # noqa: F401
                            InteractiveSession, OptimizerOptions, RunMetadata, RunOptions,
                            Session)

def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def container(container_name):
    return get_default_graph().container(container_name)


def make_template(*args, **kwargs):
    raise NotImplementedError("tf.make_template is not supported by the engine")


def disable_v2_behavior():
    """Already TF 1.x: nothing to do."""


def disable_eager_execution():
    """The engine only builds graphs: nothing to do."""


def executing_eagerly():
    return False


from engine.ops import losses as _losses, optimizers as _optimizers  # noqa: E402
from engine.ops.gradients import (AggregationMethod, IndexedSlices, NoGradient,  # noqa: E402,F401
                                  NotDifferentiable, RegisterGradient, gradients, no_gradient)

train = _Namespace("tf.train", write_graph=_train.write_graph, Optimizer=_optimizers.Optimizer,
                   GradientDescentOptimizer=_optimizers.GradientDescentOptimizer,
                   MomentumOptimizer=_optimizers.MomentumOptimizer,
                   AdamOptimizer=_optimizers.AdamOptimizer,
                   RMSPropOptimizer=_optimizers.RMSPropOptimizer,
                   AdagradOptimizer=_optimizers.AdagradOptimizer,
                   get_global_step=_train.get_global_step,
                   create_global_step=_train.create_global_step,
                   get_or_create_global_step=_train.get_or_create_global_step)
losses = _Namespace("tf.losses", Reduction=_losses.Reduction,
                    compute_weighted_loss=_losses.compute_weighted_loss,
                    mean_squared_error=_losses.mean_squared_error,
                    softmax_cross_entropy=_losses.softmax_cross_entropy,
                    sparse_softmax_cross_entropy=_losses.sparse_softmax_cross_entropy,
                    get_losses=_losses.get_losses, add_loss=_losses.add_loss)
from engine.framework import graph_util as _graph_util  # noqa: E402
graph_util = _Namespace("tf.graph_util", import_graph_def=import_graph_def, **{
    name: getattr(_graph_util, name) for name in (
        "convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes",
        "tensor_shape_from_node_def_name")})
random = _Namespace("tf.random", set_random_seed=set_random_seed, uniform=random_uniform,
                    normal=random_normal, truncated_normal=truncated_normal, get_seed=get_seed)
initializers = _Namespace("tf.initializers", zeros=zeros_initializer, ones=ones_initializer,
                          constant=constant_initializer,
                          random_uniform=random_uniform_initializer,
                          random_normal=random_normal_initializer,
                          truncated_normal=truncated_normal_initializer,
                          glorot_uniform=glorot_uniform_initializer,
                          glorot_normal=glorot_normal_initializer,
                          variance_scaling=variance_scaling_initializer)
io = _Namespace("tf.io", write_graph=_train.write_graph)
# tf.math: only the ops the engine has under no other name yet.
math = _Namespace("tf.math", in_top_k=nn.in_top_k)


def _compat():
    import sys
    module = sys.modules[__name__]
    return _Namespace("tf.compat", v1=module, v2=module)


compat = _compat()

# tf.summary (FileWriter, scalar, merge, merge_all) and its TF 1.0 name tf.train.SummaryWriter.
from engine import summary  # noqa: E402

from engine import data  # noqa: E402,F401  (tf.data, tf.compat.v1.data)

# tf.train's checkpoints: the Saver, the state file, meta graphs.
from engine.checkpoint import reader as _checkpoint_reader, state as _checkpoint_state  # noqa: E402
from engine.ops import meta_graph as _meta_graph, saver as _saver  # noqa: E402
train.Saver = _saver.Saver
train.latest_checkpoint = _checkpoint_state.latest_checkpoint
train.get_checkpoint_state = _checkpoint_state.get_checkpoint_state
train.checkpoint_exists = _checkpoint_state.checkpoint_exists
train.update_checkpoint_state = _checkpoint_state.update_checkpoint_state
train.NewCheckpointReader = _checkpoint_reader.NewCheckpointReader
train.load_checkpoint = _checkpoint_reader.load_checkpoint
train.list_variables = _checkpoint_reader.list_variables
train.load_variable = _checkpoint_reader.load_variable
train.import_meta_graph = _saver.import_meta_graph
train.export_meta_graph = _meta_graph.export_meta_graph
train.replica_device_setter = _replica_device_setter
train.ClusterSpec = _cluster_spec.ClusterSpec
train.Server = _cluster_server.Server
from engine.savedmodel import SAVED_MODEL as saved_model  # noqa: E402 (tf.saved_model, TF 1.x's)

from engine.api_tf1 import *  # noqa: E402,F401,F403 (tf.app, tf.flags, tf.gfile, tf.logging, ...)

train.__dict__.update(TRAIN_TF1)
from engine import api_breadth as _api_breadth  # noqa: E402
from engine.api_breadth import *  # noqa: E402,F401,F403 (asserts, tf.Print, tf.py_func, ...)
train.__dict__.update(TRAIN_BREADTH)
io.__dict__.update(IO_BREADTH)  # noqa: F405  (from api_breadth)
losses.__dict__.update(LOSSES_BREADTH)
random.shuffle = random_shuffle  # noqa: F405  (from api_breadth)
linalg = _api_breadth.LINALG_BREADTH
for _name, _value in NN_BREADTH.items():
    setattr(nn, _name, _value)
_tf1_renames.install(__import__("sys").modules[__name__])
