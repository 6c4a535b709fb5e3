"""Graph, Operation and Tensor: names, scopes, dependencies, devices, lookups, tracebacks.

Expected values are what TensorFlow 2.21 (tf.compat.v1, v2 behaviour off) gives; the bulk of
the comparisons against real TensorFlow are in test_api_snippets.py, these pin single facts.
"""

import numpy as np
import pytest

import engine as tf
from tests.scaling import assert_scales_linearly
from engine.framework import errors
from engine.proto import attr_value_pb2


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_uniquified_names_are_case_insensitive_like_tensorflow():
    tf.add(tf.constant(1), tf.constant(2))
    assert tf.add(1, 2).op.name == "Add_1"
    assert tf.add(1, 2, name="add").op.name == "add_2"
    g = tf.get_default_graph()
    assert g.unique_name("ADD") == "ADD_3"
    assert g.unique_name("x", mark_as_used=False) == "x"


def test_name_scopes_nest_uniquify_and_reenter():
    with tf.name_scope("outer") as outer:
        assert outer == "outer/"
        with tf.name_scope("inner") as inner:
            assert inner == "outer/inner/"
        with tf.name_scope("inner") as inner_again:
            assert inner_again == "outer/inner_1/"
        with tf.name_scope("outer/inner/"):
            assert tf.constant(1, name="c").op.name == "outer/inner/c"
        with tf.name_scope(None) as root:
            assert root == ""
            assert tf.constant(1).op.name == "Const"
    with tf.name_scope("outer") as second:
        assert second == "outer_1/"
    with pytest.raises(ValueError, match="not a valid scope name"):
        with tf.name_scope("_bad"):
            pass


def test_duplicate_absolute_name_is_rejected():
    with tf.name_scope("x/"):
        tf.no_op(name="x/")
    with pytest.raises(ValueError, match="Duplicate node name in graph: 'x'"):
        tf.no_op(name="x/")


def test_control_dependencies_nest_clear_and_mark_inputs():
    a, b = tf.constant(1, name="a"), tf.constant(2, name="b")
    with tf.control_dependencies([a]):
        c = tf.identity(b)
        with tf.control_dependencies(None):
            d = tf.identity(b)
        with tf.control_dependencies([b.op]):
            e = tf.identity(c)  # c was built under [a]: only b is added
    assert c.op.control_inputs == [a.op]
    assert d.op.control_inputs == []
    assert e.op.control_inputs == [b.op]
    assert list(c.op.node_def.input) == ["b", "^a"]
    assert a.op.node_def.attr["_has_manual_control_dependencies"].b


def test_group_sorts_control_inputs_in_graph_def():
    ops = [tf.no_op(name=n) for n in ("z", "a", "m")]
    init = tf.group(*ops, name="init")
    assert [op.name for op in init.control_inputs] == ["z", "a", "m"]
    node = next(n for n in tf.get_default_graph().as_graph_def().node if n.name == "init")
    assert list(node.input) == ["^a", "^m", "^z"]


def test_device_scopes_merge_and_functions_record_raw_strings():
    with tf.device("/cpu:0"):
        a = tf.constant(1.0)
        with tf.device("/job:worker/task:1"):
            b = tf.constant(1.0)
        with tf.device(None):
            c = tf.constant(1.0)
    with tf.device(lambda op: "/gpu:1" if op.type == "Const" else None):
        d = tf.constant(1.0)
        e = tf.identity(d)
    assert a.device == "/device:CPU:0"
    assert b.device == "/job:worker/task:1/device:CPU:0"
    assert c.device == ""
    assert d.device == "/gpu:1" and e.device == ""


def test_colocate_with_records_class_and_takes_the_device():
    with tf.device("/cpu:0"):
        a = tf.constant(1, name="a")
    with tf.device("/gpu:0"), tf.colocate_with(a):
        b = tf.constant(2)
    assert b.op.colocation_groups() == [b"loc:@a"]
    assert b.device == "/device:CPU:0"
    assert a.op.colocation_groups() == [b"loc:@a"]


def test_lookups_by_name_and_their_errors():
    g = tf.get_default_graph()
    a = tf.constant(1, name="a")
    assert g.get_operation_by_name("a") is a.op
    assert g.get_tensor_by_name("a:0") is a
    assert g.as_graph_element("a") is a.op
    with pytest.raises(KeyError, match="refers to an Operation not in the graph"):
        g.get_operation_by_name("nope")
    with pytest.raises(KeyError, match="exists but only has 1 outputs"):
        g.get_tensor_by_name("a:1")
    with pytest.raises(ValueError, match="The name 'a' refers to an Operation, not a Tensor"):
        g.get_tensor_by_name("a")
    with pytest.raises(ValueError, match="looks like an \\(invalid\\) Operation name"):
        g.get_tensor_by_name("b")
    with pytest.raises(TypeError, match="Operation names are strings"):
        g.get_operation_by_name(3)


def test_graph_version_and_ids_grow_with_the_graph():
    g = tf.get_default_graph()
    before_version, before_ids = g._version, g.version
    a = tf.constant(1)
    assert g.version == before_ids + 1 and a.op._id == g.version
    b = tf.identity(a)
    b.op._add_control_input(a.op)
    assert g._version >= before_version + 3


def test_collections_and_variables_register_themselves():
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(2.0, name="w", trainable=False)
    assert tf.global_variables() == [v, w]
    assert tf.trainable_variables() == [v]
    tf.add_to_collection("mine", 3)
    tf.get_collection_ref("mine").append(4)
    assert tf.get_collection("mine") == [3, 4]
    assert tf.get_collection("variables", scope="w") == [w]


def test_finalized_graph_refuses_new_ops():
    g = tf.Graph()
    g.finalize()
    with g.as_default(), pytest.raises(RuntimeError, match="Graph is finalized"):
        tf.constant(1)


def test_reset_default_graph_inside_a_graph_is_refused():
    with tf.Graph().as_default():
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            tf.reset_default_graph()


def test_tensor_printing_as_tensorflow():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    s = tf.add(tf.constant(1), 2)
    assert str(x) == 'Tensor("x:0", shape=(?, 3), dtype=float32)'
    assert repr(s) == "<tf.Tensor 'Add:0' shape=() dtype=int32>"
    assert str(tf.placeholder(tf.int32)) == 'Tensor("Placeholder:0", dtype=int32)'
    with tf.device("/cpu:0"):
        c = tf.constant(1.0, name="c")
    assert str(c) == 'Tensor("c:0", shape=(), dtype=float32, device=/device:CPU:0)'
    assert repr(s.op) == "<tf.Operation 'Add' type=AddV2>"


def test_operators_build_tensorflows_ops():
    x = tf.constant([1.0, 2.0], name="x")
    b = tf.constant([True, False], name="b")
    built = {"add": x + 1, "sub": 1 - x, "mul": x * x, "truediv": x / 2, "floordiv": x // 2,
             "mod": x % 2, "pow": x ** 2, "Neg": -x, "Abs": abs(x), "Less": x < 1,
             "GreaterEqual": x >= 1, "and": b & b, "or": b | b, "xor": b ^ b,
             "LogicalNot": ~b}
    types = {name: t.op.type for name, t in built.items()}
    assert types == {"add": "AddV2", "sub": "Sub", "mul": "Mul", "truediv": "RealDiv",
                     "floordiv": "FloorDiv", "mod": "FloorMod", "pow": "Pow", "Neg": "Neg",
                     "Abs": "Abs", "Less": "Less", "GreaterEqual": "GreaterEqual",
                     "and": "LogicalAnd", "or": "LogicalOr", "xor": "LogicalAnd",
                     "LogicalNot": "LogicalNot"}
    assert (x == x) is True and (x != x) is False
    with pytest.raises(TypeError, match="Iterating over a symbolic `tf.Tensor`"):
        iter(x)


def test_getitem_builds_one_strided_slice_with_tensorflows_masks():
    x = tf.constant(np.zeros((2, 3, 4), np.float32))
    y = x[1:, tf.newaxis, ..., -1]
    op = y.op
    assert op.type == "StridedSlice"
    masks = [op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                      "new_axis_mask", "shrink_axis_mask")]
    assert masks == [0, 1, 4, 2, 8]
    assert tf.constant_value(op.inputs[1]).tolist() == [1, 0, 0, -1]
    assert tf.constant_value(op.inputs[2]).tolist() == [0, 0, 0, 0]


def test_convert_to_tensor_cases_and_errors():
    assert tf.convert_to_tensor(1).dtype == tf.int32
    assert tf.convert_to_tensor(1.5).dtype == tf.float32
    assert tf.convert_to_tensor(2**40).dtype == tf.int64
    assert tf.convert_to_tensor(np.float64(1)).dtype == tf.float64
    assert tf.convert_to_tensor([1, 2], dtype=tf.float32).dtype == tf.float32
    c = tf.constant(1.0)
    assert tf.convert_to_tensor(c) is c
    with pytest.raises(TypeError, match="Expected int32, but got 1.5 of type 'float'"):
        tf.convert_to_tensor(1.5, dtype=tf.int32)
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32"):
        tf.convert_to_tensor(c, dtype=tf.int32)
    with pytest.raises(ValueError, match="None values not supported"):
        tf.convert_to_tensor(None)
    packed = tf.convert_to_tensor([c, 2.0])
    assert packed.op.type == "Pack" and packed.op.name == "packed"


def test_registered_conversion_function_is_used():
    class Box:
        def __init__(self, value):
            self.value = value

    tf.register_tensor_conversion_function(
        Box, lambda box, dtype=None, name=None, as_ref=False: tf.constant(box.value,
                                                                             dtype=dtype))
    assert tf.convert_to_tensor(Box(3)).op.type == "Const"
    assert (tf.constant(1) + Box(2)).op.inputs[1].op.name == "add/Const"


def test_type_mismatch_errors_say_what_tensorflow_says():
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int32 that does not "
                                        "match type float32 of argument 'x'"):
        tf.constant(1.0) + tf.constant(1)
    from engine.ops.op_def_library import apply_op
    with pytest.raises(TypeError, match="'Assign' Op requires that input 'ref' be a mutable"):
        apply_op("Assign", ref=tf.constant(1), value=2)


def test_unknown_op_raises_not_found_with_tensorflows_words():
    with pytest.raises(errors.NotFoundError, match="Op type not registered 'NoSuchOp'"):
        tf.get_default_graph().create_op("NoSuchOp", [], [])


def test_create_op_validates_against_the_op_def():
    g = tf.get_default_graph()
    a = tf.constant(1.0)
    t = attr_value_pb2.AttrValue(type=tf.float32.as_datatype_enum)
    op = g.create_op("Neg", [a], [tf.float32], attrs={"T": t})
    assert op.outputs[0].dtype == tf.float32 and op.name == "Neg"
    with pytest.raises(ValueError, match="NodeDef missing attr 'T'"):
        g.create_op("Neg", [a], [tf.float32])
    with pytest.raises(ValueError, match="was passed int32 from Const_1:0 incompatible"):
        g.create_op("Neg", [tf.constant(1)], [tf.float32], attrs={"T": t})


def test_get_attr_returns_tensorflows_types():
    x = tf.placeholder(tf.float32, [2], name="x")
    assert x.op.get_attr("dtype") == tf.float32
    assert x.op.get_attr("shape").dim[0].size == 2
    with pytest.raises(ValueError, match="Operation 'x' has no attr named 'nope'."):
        x.op.get_attr("nope")


def test_ref_variable_nodes_as_tensorflow_builds_them():
    v = tf.Variable(0, name="counter")
    names = [(op.name, op.type) for op in tf.get_default_graph().get_operations()]
    assert names == [("counter/initial_value", "Const"), ("counter", "VariableV2"),
                     ("counter/Assign", "Assign"), ("counter/read", "Identity")]
    assert repr(v) == "<tf.Variable 'counter:0' shape=() dtype=int32_ref>"
    assert v.initializer.name == "counter/Assign"
    assert v.value().name == "counter/read:0"
    assert tf.convert_to_tensor(v).name == "counter/read:0"
    assert tf.assign_add(v, 1).dtype == tf.int32._as_ref
    assert tf.global_variables_initializer().name == "init"


def test_random_seeds_follow_get_seed():
    a = tf.random_uniform([2])
    assert (a.op.get_attr("seed"), a.op.get_attr("seed2")) == (0, 0)
    b = tf.random_uniform([2], seed=3)
    assert (b.op.get_attr("seed"), b.op.get_attr("seed2")) == (87654321, 3)
    tf.set_random_seed(5)
    c = tf.random_uniform([2])
    d = tf.random_uniform([2])
    assert [(t.op.get_attr("seed"), t.op.get_attr("seed2")) for t in (c, d)] == [(5, 0), (5, 1)]
    tf.set_random_seed(0)
    assert tf.get_seed(0) == (0, 2**31 - 1)


def test_traceback_records_the_users_line():
    c = tf.constant(1.0, name="here")  # the line the traceback must name
    frames = c.op.traceback
    user = [f for f in frames if f.filename == __file__]
    assert user and user[-1].line == 'c = tf.constant(1.0, name="here")  # the line the ' \
                                     'traceback must name'
    assert str(frames).splitlines()[-1].startswith('File "')
    assert tuple(user[-1])[:3] == (__file__, user[-1].lineno, "test_traceback_records_the_users_line")


def test_op_errors_name_the_users_line():
    c = tf.constant(1.0, name="bad")
    error = errors.InvalidArgumentError(c.op.node_def, c.op, "boom")
    assert "Caused by op 'bad' (Const), defined at" in str(error)
    assert 'c = tf.constant(1.0, name="bad")' in str(error)


def test_debug_info_round_trips_through_graph_def():
    tf.constant(1.0, name="a")
    graph_def = tf.get_default_graph().as_graph_def()
    assert "a@" in graph_def.debug_info.name_to_trace_id
    assert __file__ in list(graph_def.debug_info.files)
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="imp")
    frames = g.get_operation_by_name("imp/a").traceback
    assert any(f.filename == __file__ for f in frames)
    plain = tf.get_default_graph().as_graph_def(include_debug_info=False)
    assert not plain.HasField("debug_info")


def test_as_graph_def_import_round_trip_and_shapes():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable(tf.zeros([2, 3]), name="w")
    y = tf.nn.softmax(tf.matmul(x, w), name="y")
    graph_def = tf.get_default_graph().as_graph_def(add_shapes=True)
    shapes = {n.name: n.attr["_output_shapes"].list.shape[0] for n in graph_def.node}
    assert [d.size for d in shapes["y"].dim] == [-1, 3]
    with tf.Graph().as_default() as g:
        y2, = tf.import_graph_def(graph_def, return_elements=["y:0"], name="copy")
    assert y2.name == "copy/y:0"
    assert y2.shape.as_list() == [None, 3] and y.dtype == y2.dtype
    original = {n.name: n for n in graph_def.node}
    for op in g.get_operations():
        node = original[op.name[len("copy/"):]]
        assert op.type == node.op
        assert [i.split("copy/", 1)[-1] for i in op.node_def.input] == list(node.input)


def test_import_input_map_and_unique_names_without_prefix():
    a = tf.constant(1.0, name="a")
    b = tf.identity(a, name="b")
    graph_def = tf.get_default_graph().as_graph_def()
    five = tf.constant(5.0, name="five")
    (b2,) = tf.import_graph_def(graph_def, input_map={"a:0": five}, return_elements=["b"],
                                name="m")
    assert b2.inputs[0] is five
    tf.import_graph_def(graph_def, name="")
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert names[-2:] == ["a_1", "b_1"]
    assert b.op.name == "b"


def test_import_errors():
    a = tf.constant(1.0, name="a")
    graph_def = tf.get_default_graph().as_graph_def()
    with pytest.raises(ValueError, match="Requested return node 'zz' not found in graph def"):
        tf.import_graph_def(graph_def, return_elements=["zz"])
    bad = tf.GraphDef()
    bad.node.add(name="x", op="Identity", input=["y"])
    with pytest.raises(ValueError, match="Node 'x': Unknown input node 'y'"):
        tf.import_graph_def(bad)
    bad = tf.GraphDef()
    bad.node.add(name="x", op="NoSuchOp")
    with pytest.raises(errors.NotFoundError):
        tf.import_graph_def(bad)
    del a


def _chain_of_adds(count):
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [])
        one = tf.constant(1.0)
        y = x
        for _ in range(count):
            y = tf.add(y, one)
    return g, y


def test_ten_thousand_nodes_build_in_linear_time():
    g, y = _chain_of_adds(10000)
    assert len(g.get_operations()) == 10002
    assert g.get_tensor_by_name(y.name) is y
    assert_scales_linearly(_chain_of_adds, 1000)
