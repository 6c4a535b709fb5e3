"""Hostile GraphDefs (issue 18) import and run as TensorFlow does: same errors, same values, no
RecursionError or IndexError, and no time quadratic in a chain's length."""

import cProfile
import json
import pstats
from pathlib import Path

import pytest
from google.protobuf import text_format

import engine as tf

FIXTURES = json.loads((Path(__file__).parents[1] / "fixtures" / "hostile" / "imports.json").read_text())


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_import_matches_tensorflow(name):
    case = FIXTURES[name]
    graph_def = tf.GraphDef()
    text_format.Parse(case["graph_def"], graph_def)
    with tf.Graph().as_default() as graph:
        if "error" in case:
            with pytest.raises(ValueError) as raised:
                tf.import_graph_def(graph_def, name="")
            assert type(raised.value).__name__ == case["error"]
            assert str(raised.value) == case["message"]
            return
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=graph) as sess:
            if "run_error" in case:
                with pytest.raises(tf.errors.OpError) as raised:
                    sess.run(case["fetch"])
                assert type(raised.value).__name__ == case["run_error"]
                # TensorFlow 2.21's DebugString starts on a line of its own after a marker
                # (taken out of the fixture); the words and the proto's text are the same
                words = " ".join(str(raised.value).split())
                assert " ".join(" ".join(case["run_error_lines"]).split()) in words, words
                return
            assert sess.run(case["fetch"]).tolist() == case["value"]


def test_python_identity_chain_folds_without_recursion():
    """992 tf.identity calls broke constant folding (recursion) in graph building."""
    with tf.Graph().as_default():
        shape = tf.constant([2, 1])
        for _ in range(3000):
            shape = tf.identity(shape)
        reshaped = tf.reshape(tf.constant([1.0, 2.0]), shape)
        assert reshaped.shape.as_list() == [2, 1]  # the shape folded through the chain
        with tf.Session() as sess:
            assert sess.run(reshaped).tolist() == [[1.0], [2.0]]


def test_identity_chain_builds_in_linear_time():
    """Building a chain used to fold every input's constant value: n^2 in the chain length.
    Counted in Python function calls (cProfile), not seconds: the same on a loaded machine."""
    def calls(length):
        profile = cProfile.Profile()
        with tf.Graph().as_default():
            profile.enable()
            value = tf.constant(1.0)
            for _ in range(length):
                value = tf.identity(value)
            profile.disable()
        return pstats.Stats(profile).total_calls

    calls(200)  # first calls: imports, caches
    short, long = calls(1000), calls(4000)
    assert long < 4 * short * 1.2, (short, long)  # 4x the nodes: 4x the calls, not 16x


def test_names_hundreds_of_scopes_deep_import_in_linear_calls():
    """Uniquifying imported names looked up every prefix of every name: depth^2 per node, a
    hang at 1,500 levels. Counted in calls (cProfile): 4x the depth, about 4x the calls."""
    def calls(depth):
        graph_def, scope = tf.GraphDef(), ""
        for _ in range(depth):
            scope = f"{scope}/layer1" if scope else "layer1"
            graph_def.node.add(name=f"{scope}/op", op="NoOp")
        profile = cProfile.Profile()
        with tf.Graph().as_default():
            tf.no_op(name="layer1/op")  # a name taken: the import uniquifies against it
            profile.enable()
            tf.import_graph_def(graph_def, name="")
            profile.disable()
        return pstats.Stats(profile).total_calls

    calls(50)  # first calls: imports, caches
    short, long = calls(300), calls(1200)
    assert long < 4 * short * 1.3, (short, long)


def _absurd_const_graph(dtype, dims):
    graph_def = tf.GraphDef()
    const = graph_def.node.add(name="c", op="Const")
    const.attr["dtype"].type = dtype.as_datatype_enum
    tensor = const.attr["value"].tensor
    tensor.dtype = dtype.as_datatype_enum
    for size in dims:
        tensor.tensor_shape.dim.add(size=size)
    if dtype == tf.string:
        tensor.string_val.append(b"x")
    shape = graph_def.node.add(name="shape", op="Shape", input=["c"])
    shape.attr["T"].type = dtype.as_datatype_enum
    shape.attr["out_type"].type = tf.int32.as_datatype_enum
    return graph_def


@pytest.mark.parametrize("dtype,dims,words", [
    (tf.float32, [10**6, 10**6], "shape[1000000,1000000] and type float"),
    # 10^10 strings: at least 640 GB (10^9 fitted in the 128 GB of a GPU machine, and ran)
    (tf.string, [10**10], "shape[10000000000] and type string")])
def test_absurd_constants_stay_lazy_until_run_and_then_name_the_node(dtype, dims, words):
    """A Const declaring 10^12 elements in a few bytes imports (its shape is known without its
    values); running it is TensorFlow's OOM, naming the node, not a 3.6 TiB allocation."""
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(_absurd_const_graph(dtype, dims), name="")
        const = graph.get_tensor_by_name("c:0")
        assert const.shape.as_list() == dims
        assert graph.get_tensor_by_name("shape:0").shape.as_list() == [len(dims)]
        with tf.Session() as sess:
            with pytest.raises(tf.errors.ResourceExhaustedError) as raised:
                sess.run(const)
    assert raised.value.node_def.name == "c"
    assert f"OOM when allocating tensor with {words} by allocator cpu" in str(raised.value)


def test_a_long_cast_chain_into_a_shape_is_not_a_recursion():
    with tf.Graph().as_default():
        shape = tf.constant([2, 1])
        for i in range(3000):
            shape = tf.cast(shape, tf.int64 if i % 2 else tf.int32)
        reshaped = tf.reshape(tf.constant([1.0, 2.0]), shape)
        with tf.Session() as sess:
            assert sess.run(reshaped).tolist() == [[1.0], [2.0]]


def test_while_loops_nested_50_deep_run_as_tensorflow():
    """50 nested loops compiled to Python past its 100 levels of indentation: the run was an
    IndentationError traceback; such frames now run on frames.py (runs.json: TensorFlow's)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "programs"))
    from deep_nested_while import deep_while

    runs = json.loads((Path(__file__).parents[1] / "fixtures" / "hostile" / "runs.json").read_text())
    for depth, value in runs["deep_nested_while"].items():
        assert deep_while(tf, int(depth)) == value


def test_a_chain_of_1000_functions_runs_as_tensorflow():
    """Each nested call's executor runs inside its caller's: 110 levels hit Python's recursion
    limit (and the recursion check walked the chain recursively); TensorFlow runs 1,000."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "programs"))
    from function_chain import function_chain

    runs = json.loads((Path(__file__).parents[1] / "fixtures" / "hostile" / "runs.json").read_text())
    for depth, value in runs["function_chain"].items():
        assert function_chain(tf, int(depth)) == value
