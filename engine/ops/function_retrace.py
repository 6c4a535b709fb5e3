"""A library function tf.function did not trace, as a ConcreteFunction: its body imported into
a tracing graph of its own, so that a call of it is differentiated as a traced function's
call is (engine/ops/function_call_grad.py). The backward function a call's gradient made is
such a function: differentiating its call is a second-order gradient through the call
(tf.gradients of tf.gradients, tf.hessians), which TensorFlow also builds by differentiating
the backward function's body into a forward/backward pair of its own.
"""

from engine.data.tracing import FunctionGraph
from engine.framework import op_families
from engine.framework.function_graph import ARG_OP, RET_OP, function_body_graph
from engine.ops.importer import import_graph_def
from engine.ops.op_def_library import apply_op
from engine.proto import graph_pb2


def concrete_of_library_function(op):
    """The ConcreteFunction of the function call `op` calls (registered under its name, its
    placeholders shaped as the call's inputs); None when the graph's library lacks it."""
    from engine.ops.def_function import ConcreteFunction
    outer = op.graph
    name = op.get_attr("f").name
    function_def = outer._get_function(name)
    if function_def is None:
        return None
    body = function_body_graph(function_def, dict(outer._functions))
    if any(node.op in op_families.SWITCH | op_families.MERGE for node in body.node):
        # v1 control flow (the engine traces tf.cond and tf.while_loop in a body so, where
        # TensorFlow builds If and While ops): its contexts are not in the graph def
        raise LookupError(
            f"No gradient defined for operation'{op.name}' (op type: {op.type}): the engine "
            f"cannot differentiate the body of {name} again, which holds TensorFlow 1 control "
            f"flow (tf.cond or tf.while_loop; TensorFlow 2 traces them as If and While ops)")
    arguments = sorted((n for n in body.node if n.op == ARG_OP),
                       key=lambda n: n.attr["index"].i)
    returns = sorted((n for n in body.node if n.op == RET_OP),
                     key=lambda n: n.attr["index"].i)
    graph_def = graph_pb2.GraphDef()
    for node in body.node:
        if node.op == RET_OP:
            continue
        copy = graph_def.node.add()
        if node.op == ARG_OP:  # an argument is a placeholder shaped as the call's input
            copy.name, copy.op = node.name, "Placeholder"
            copy.attr["dtype"].type = node.attr["T"].type
            shape = op.inputs[node.attr["index"].i].shape
            copy.attr["shape"].shape.CopyFrom(shape.as_proto())
        else:
            copy.CopyFrom(node)
    graph = FunctionGraph(outer)
    with graph.as_default():
        import_graph_def(graph_def, name="")
        placeholders = [graph.get_tensor_by_name(f"{n.name}:0") for n in arguments]
        results = [graph.get_tensor_by_name(_tensor_name(n.input[0])) for n in returns]
        outputs = [apply_op("Identity", name="Identity", input=t) for t in results]
    concrete = ConcreteFunction(name, graph, placeholders, outputs, outputs, outputs)
    # The library keeps the body as it was: the traced copy only serves the gradient.
    outer._add_function(function_def)
    concrete.function_def = function_def
    return concrete


def _tensor_name(name):
    return name if ":" in name else f"{name}:0"
