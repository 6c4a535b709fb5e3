"""The graph-writing parts of tf.train (write_graph, export helpers)."""

import os

from google.protobuf import text_format

from engine.framework import dtypes
from engine.framework.graph import GraphKeys, get_default_graph
from engine.framework.tensor import Tensor
from engine.lib_io import file_io
from engine.ops.control_flow.cond import cond
from engine.ops.init_ops import zeros_initializer
from engine.ops.state_ops import is_variable_initialized
from engine.ops.variable_scope import get_variable
from engine.ops.variables import Variable


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a Graph's GraphDef (or a GraphDef) to logdir/name, text or binary; returns the path."""
    graph_def = graph_or_graph_def
    if hasattr(graph_or_graph_def, "as_graph_def"):
        graph_def = graph_or_graph_def.as_graph_def()
    file_io.recursively_create_dir(logdir)
    path = os.path.join(logdir, name)
    # As TensorFlow's atomic_write_string_to_file: a failed write (a full disk) leaves the
    # previous file whole, and raises its error naming the file.
    file_io.write_atomically(path, text_format.MessageToString(graph_def) if as_text
                             else graph_def.SerializeToString(deterministic=True))
    return path


# -- the global step (training_util) --

def get_global_step(graph=None):
    """The graph's global step: the variable in collection GLOBAL_STEP, else the tensor
    "global_step:0" (a plain tf.Variable(0, name="global_step") is found as its tensor, as in
    TensorFlow); None without one."""
    graph = graph or get_default_graph()
    collection = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(collection) == 1:
        global_step = collection[0]
    elif len(collection) > 1:
        raise TypeError(f"Multiple tensors in global_step collection. {collection}")
    else:
        try:
            global_step = graph.get_tensor_by_name("global_step:0")
        except KeyError:
            return None
    assert_global_step(global_step)
    return global_step


def assert_global_step(global_step_tensor):
    """TypeError unless `global_step_tensor` is a variable or tensor of an integer scalar."""
    if not isinstance(global_step_tensor, (Variable, Tensor)):
        raise TypeError(f"Existing \"global_step\" must be a Variable or Tensor: "
                        f"{global_step_tensor}.")
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError(f"Existing \"global_step\" does not have integer type: "
                        f"{global_step_tensor.dtype}")
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f"Existing \"global_step\" is not scalar: {shape}")


def create_global_step(graph=None):
    """An int64 scalar "global_step" variable, zero, not trainable, in GLOBAL_STEP."""
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), graph.name_scope(None):
        return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=dtypes.int64,
                            initializer=zeros_initializer(), trainable=False,
                            collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph=None):
    graph = graph or get_default_graph()
    global_step = get_global_step(graph)
    if global_step is None:
        global_step = create_global_step(graph)
    return global_step


def global_step(sess, global_step_tensor):
    """The global step's value, as a Python int."""
    return int(sess.run(global_step_tensor))


GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def get_or_create_global_step_read(graph=None):
    """The global step read once per run, as TensorFlow's hooks read it (cond on initialized,
    plus 0), made once per graph under the global step's name; None without a global step."""
    graph = graph or get_default_graph()
    cached = graph.get_collection(GLOBAL_STEP_READ_KEY)
    if cached:
        return cached[0]
    global_step = get_global_step(graph)
    if global_step is None:
        return None
    with graph.as_default(), graph.name_scope(None), \
            graph.name_scope(global_step.op.name + "/"):
        if isinstance(global_step, Variable):
            value = cond(is_variable_initialized(global_step), global_step.read_value,
                         lambda: global_step.initial_value)
        else:  # the tensor of a plain variable named global_step: read as it is
            value = global_step
        read = value + 0
        graph.add_to_collection(GLOBAL_STEP_READ_KEY, read)
    return read
