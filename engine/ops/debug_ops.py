"""tf.Print, tf.check_numerics, tf.verify_tensor_all_finite, tf.add_check_numerics_ops and
tf.py_func, as TF 1.x builds them (logging_ops.py, numerics.py, script_ops.py).

tf.py_func keeps the Python function in a process-wide registry under a token
("pyfunc_<n>", TensorFlow's FuncRegistry); the PyFunc kernel (engine/kernels/cpu/script.py)
finds it there and calls it in-process with the inputs as NumPy arrays.
"""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.runtime.py_funcs import insert_function
from engine.ops.control_flow.ops import group, with_dependencies
from engine.ops.convert import convert_to_tensor
from engine.framework.default_graph import name_scope
from engine.ops.gradient_registry import NotDifferentiable, RegisterGradient
from engine.ops.op_def_library import apply_op
from engine.framework.tensor import Tensor

_CHECKED_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """Identity on `input_` that prints `message` and each of `data` to stderr when run."""
    attrs = {key: value for key, value in (("message", message), ("first_n", first_n),
                                           ("summarize", summarize)) if value is not None}
    return apply_op("Print", input=input_, data=list(data), name=name, **attrs)


def check_numerics(tensor, message, name=None):
    return apply_op("CheckNumerics", tensor=tensor, message=message, name=name)


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t` itself, after a CheckNumerics of it has run (a control dependency)."""
    x = t if x is None else x
    message = msg if message is None else message
    with name_scope(name, "VerifyFinite"):
        x = convert_to_tensor(x, name="x")
        with get_default_graph().colocate_with(x.op):
            verify_input = check_numerics(x, message=message)
            return with_dependencies([verify_input], x)


def add_check_numerics_ops():
    """A CheckNumerics on every half/float/double output in the default graph, chained so each
    op's inputs are checked before its outputs; returns a group of the last one."""
    check_op = []
    graph = get_default_graph()
    for op in graph.get_operations():
        for output in op.outputs:
            if output.dtype in _CHECKED_FLOATS:
                if op._get_control_flow_context() is not None:
                    raise ValueError("`tf.add_check_numerics_ops() is not compatible with "
                                     "TensorFlow control flow operations such as `tf.cond()` "
                                     "or `tf.while_loop()`.")
                message = op.name + ":" + str(output.value_index)
                with graph.control_dependencies(check_op):
                    check_op = [check_numerics(output, message=message)]
    return group(*check_op)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803  (TensorFlow's names)
    """Wraps `func` (NumPy arrays in, NumPy arrays or scalars out) as a PyFunc op."""
    return _internal_py_func(func, inp, Tout, "PyFunc" if stateful else "PyFuncStateless",
                             name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803
    """tf.numpy_function: tf.py_func (NumPy arrays in and out), a PyFunc op unless
    stateful=False makes it PyFuncStateless."""
    return py_func(func, inp, Tout, stateful=stateful, name=name)


def py_function(func, inp, Tout, name=None):  # noqa: N803  (TensorFlow's names)
    """tf.py_function (eager_py_func): `func` gets eager values (arrays with .numpy()) and
    its results are converted to Tout, as an EagerPyFunc op."""
    return _internal_py_func(func, inp, Tout, "EagerPyFunc", name)


def _internal_py_func(func, inp, Tout, op_type, name):  # noqa: N803
    if not callable(func):
        raise ValueError(f"Expected func to be callable. Received func={func} of type "
                         f"{type(func)}.")
    is_list = isinstance(Tout, (list, tuple))
    types = [dtypes.as_dtype(t) for t in (Tout if is_list else [Tout])]
    token = insert_function(func)
    graph = get_default_graph()
    while getattr(graph, "outer", None) is not None:
        graph = graph.outer  # a tf.data function's graph is dropped once traced
    if not hasattr(graph, "_py_funcs_used_in_graph"):
        graph._py_funcs_used_in_graph = []
    graph._py_funcs_used_in_graph.append(func)  # keeps it alive as long as the outer graph
    attrs = {"is_async": False} if op_type == "EagerPyFunc" else {}
    result = apply_op(op_type, input=list(inp), token=token, Tout=types, name=name, **attrs)
    if not types:  # no outputs: the Operation
        return result
    result = [result] if isinstance(result, Tensor) else list(result)
    return result if is_list else result[0]


@RegisterGradient("Print")
def _print_grad(op, *grad):
    return list(grad) + [None] * (len(op.inputs) - 1)


NotDifferentiable("PyFunc")
NotDifferentiable("PyFuncStateless")
# EagerPyFunc: TensorFlow differentiates the Python function on a tape, which the engine has not
# (tests/engine/test_op_registry.py lists it among the gradients not yet written).
