"""A GraphDef whose library holds `depth` functions, each calling the next (the last an
Identity), called once on 2.0: the probe behind tests/fixtures/hostile/runs.json's
`function_chain`, run on TensorFlow by tools/make_hostile_fixtures.py and on the engine by
tests/engine/test_hostile_imports.py (each passes its own `tf`)."""

DT_FLOAT = 1


def function_chain_graph(tf, depth):
    graph_def = tf.GraphDef()
    for i in range(depth):
        function = graph_def.library.function.add()
        function.signature.name = f"f{i}"
        function.signature.input_arg.add(name="x", type=DT_FLOAT)
        function.signature.output_arg.add(name="y", type=DT_FLOAT)
        if i < depth - 1:
            function.node_def.add(name="call", op=f"f{i + 1}", input=["x"])
            function.ret["y"] = "call:y:0"
        else:
            node = function.node_def.add(name="id", op="Identity", input=["x"])
            node.attr["T"].type = DT_FLOAT
            function.ret["y"] = "id:output:0"
    const = graph_def.node.add(name="c", op="Const")
    const.attr["dtype"].type = DT_FLOAT
    const.attr["value"].tensor.dtype = DT_FLOAT
    const.attr["value"].tensor.float_val.append(2.0)
    graph_def.node.add(name="top", op="f0", input=["c"])
    return graph_def


def function_chain(tf, depth):
    """What `top` gives."""
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(function_chain_graph(tf, depth), name="")
        with tf.Session(graph=graph) as sess:
            return float(sess.run("top:0"))
