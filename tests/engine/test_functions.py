"""Functions and control flow v2: FunctionDefLibrary bodies instantiated and run.

The GraphDefs TensorFlow 2.21 wrote for a v2 while_loop and cond run through
tests/engine/test_graph_fixtures.py; here a small hand-written library exercises what those
do not: placeholder attrs ($T), `node:output_arg:index` inputs into multi-output ops, a
function calling a function (a node whose op is a library function), PartitionedCall,
StatelessIf, StatelessWhile, StatelessCase, and the per-(function, attrs) instance cache.
TensorFlow 2.21 imported LIBRARY_GRAPH and fetched TF_VALUES (with `twice`'s T fixed to
float: its Python importer takes no attr-polymorphic library functions).
"""

import numpy as np
import pytest
from google.protobuf import text_format

import engine as tf
from engine.runtime import function_library as function
from engine.proto import graph_pb2, rewriter_config_pb2

RewriterConfig = rewriter_config_pb2.RewriterConfig

LIBRARY_GRAPH = r"""
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { } } } }
node { name: "n" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "shape" value { shape { } } } }
node { name: "double" op: "PartitionedCall" input: "x"
       attr { key: "Tin" value { list { type: DT_FLOAT } } }
       attr { key: "Tout" value { list { type: DT_FLOAT } } }
       attr { key: "f" value { func { name: "twice" attr { key: "T" value { type: DT_FLOAT } } } } } }
node { name: "split_sum" op: "split_sum" input: "x" }
node { name: "pos" op: "Greater" input: "x" input: "zero" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 0 } } } }
node { name: "if" op: "StatelessIf" input: "pos" input: "x"
       attr { key: "Tcond" value { type: DT_BOOL } }
       attr { key: "Tin" value { list { type: DT_FLOAT } } }
       attr { key: "Tout" value { list { type: DT_FLOAT } } }
       attr { key: "then_branch" value { func { name: "twice" attr { key: "T" value { type: DT_FLOAT } } } } }
       attr { key: "else_branch" value { func { name: "negate" } } } }
node { name: "loop" op: "StatelessWhile" input: "n" input: "x"
       attr { key: "T" value { list { type: DT_INT32 type: DT_FLOAT } } }
       attr { key: "cond" value { func { name: "positive" } } }
       attr { key: "body" value { func { name: "countdown_double" } } } }
node { name: "case" op: "StatelessCase" input: "n" input: "x"
       attr { key: "Tin" value { list { type: DT_FLOAT } } }
       attr { key: "Tout" value { list { type: DT_FLOAT } } }
       attr { key: "branches" value { list {
         func { name: "negate" }
         func { name: "twice" attr { key: "T" value { type: DT_FLOAT } } } } } } }
library {
  function {
    signature { name: "twice" input_arg { name: "a" type_attr: "T" }
                output_arg { name: "out" type_attr: "T" }
                attr { name: "T" type: "type" } }
    node_def { name: "sum" op: "AddV2" input: "a" input: "a"
               attr { key: "T" value { placeholder: "T" } } }
    ret { key: "out" value: "sum:z:0" }
  }
  function {
    signature { name: "negate" input_arg { name: "a" type: DT_FLOAT }
                output_arg { name: "out" type: DT_FLOAT } }
    node_def { name: "neg" op: "Neg" input: "a" attr { key: "T" value { type: DT_FLOAT } } }
    ret { key: "out" value: "neg:y:0" }
  }
  function {
    signature { name: "split_sum" input_arg { name: "a" type: DT_FLOAT }
                output_arg { name: "out" type: DT_FLOAT } }
    node_def { name: "pair" op: "Pack" input: "a" input: "twice_a:out:0"
               attr { key: "N" value { i: 2 } } attr { key: "T" value { type: DT_FLOAT } }
               attr { key: "axis" value { i: 0 } } }
    node_def { name: "twice_a" op: "twice" input: "a" attr { key: "T" value { type: DT_FLOAT } } }
    node_def { name: "parts" op: "Unpack" input: "pair:output:0"
               attr { key: "num" value { i: 2 } } attr { key: "T" value { type: DT_FLOAT } }
               attr { key: "axis" value { i: 0 } } }
    node_def { name: "total" op: "AddV2" input: "parts:output:0" input: "parts:output:1"
               attr { key: "T" value { type: DT_FLOAT } } }
    ret { key: "out" value: "total:z:0" }
  }
  function {
    signature { name: "positive" input_arg { name: "k" type: DT_INT32 }
                input_arg { name: "v" type: DT_FLOAT } output_arg { name: "ok" type: DT_BOOL } }
    node_def { name: "zero" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
               attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 0 } } } }
    node_def { name: "gt" op: "Greater" input: "k" input: "zero:output:0"
               attr { key: "T" value { type: DT_INT32 } } }
    ret { key: "ok" value: "gt:z:0" }
  }
  function {
    signature { name: "countdown_double" input_arg { name: "k" type: DT_INT32 }
                input_arg { name: "v" type: DT_FLOAT }
                output_arg { name: "k_out" type: DT_INT32 } output_arg { name: "v_out" type: DT_FLOAT } }
    node_def { name: "one" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
               attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
    node_def { name: "dec" op: "Sub" input: "k" input: "one:output:0"
               attr { key: "T" value { type: DT_INT32 } } }
    node_def { name: "dbl" op: "PartitionedCall" input: "v"
               attr { key: "Tin" value { list { type: DT_FLOAT } } }
               attr { key: "Tout" value { list { type: DT_FLOAT } } }
               attr { key: "f" value { func { name: "twice" attr { key: "T" value { type: DT_FLOAT } } } } } }
    ret { key: "k_out" value: "dec:z:0" }
    ret { key: "v_out" value: "dbl:output:0" }
  }
}
"""

FETCHES = ["double:0", "split_sum:0", "if:0", "loop:0", "loop:1", "case:0"]
TF_VALUES = {  # TensorFlow 2.21 imported LIBRARY_GRAPH and fetched FETCHES
    (1.5, 3): [3.0, 4.5, 3.0, 0, 12.0, 3.0],
    (-2.0, 0): [-4.0, -6.0, 2.0, 0, -2.0, 2.0],
    (0.5, 7): [1.0, 1.5, 1.0, 0, 64.0, 1.0],
}


def library_graph():
    graph_def = text_format.Parse(LIBRARY_GRAPH, graph_pb2.GraphDef())
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    return graph


@pytest.mark.parametrize("x,n", sorted(TF_VALUES))
def test_library_functions_compute_tensorflows_values(x, n):
    graph = library_graph()
    with tf.Session(graph=graph) as sess:
        got = sess.run(FETCHES, {"x:0": x, "n:0": n})
    for name, value, want in zip(FETCHES, got, TF_VALUES[(x, n)]):
        np.testing.assert_allclose(value, want, err_msg=name)


INLINING_OFF = tf.ConfigProto(graph_options=tf.GraphOptions(
    rewrite_options=RewriterConfig(function_optimization=RewriterConfig.OFF)))


@pytest.mark.parametrize("x,n", sorted(TF_VALUES))
def test_the_function_library_computes_them_too_when_inlining_is_off(x, n):
    with tf.Session(graph=library_graph(), config=INLINING_OFF) as sess:
        got = sess.run(FETCHES, {"x:0": x, "n:0": n})
    for name, value, want in zip(FETCHES, got, TF_VALUES[(x, n)]):
        np.testing.assert_allclose(value, want, err_msg=name)


@pytest.mark.parametrize("config, called", [
    # Inlined: the PartitionedCall `double` and the call by op name `split_sum` (with the
    # `twice` it calls); the unmarked StatelessIf/While/Case stay, and run their branches.
    (None, ["countdown_double", "positive", "twice"]),
    (INLINING_OFF, ["countdown_double", "positive", "split_sum", "twice"]),
])
def test_instances_are_cached_per_function_and_attrs(config, called):
    graph = library_graph()
    with tf.Session(graph=graph, config=config) as sess:
        sess.run(FETCHES, {"x:0": 1.0, "n:0": 2})
        sess.run(FETCHES, {"x:0": 2.0, "n:0": 3})
        library = sess._session_state[function.LIBRARY_KEY]
    names = sorted(name for name, _ in library._instances)
    assert names == called  # one "twice" (T=float)


def test_a_runaway_functional_while_fails_naming_the_node(monkeypatch):
    monkeypatch.setenv("GI_MAX_LOOP_ITERATIONS", "20")
    graph = library_graph()
    with tf.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.ResourceExhaustedError, match="Loop frame 'loop' ran more "
                                                                   "than 20 iterations"):
            sess.run("loop:1", {"x:0": 1.0, "n:0": 1000})


def test_an_unknown_function_attr_placeholder_is_an_error():
    graph_def = text_format.Parse(LIBRARY_GRAPH, graph_pb2.GraphDef())
    for node in graph_def.node:
        if node.name == "double":
            del node.attr["f"].func.attr["T"]
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    with tf.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Attr T is not defined"):
            sess.run("double:0", {"x:0": 1.0})


def lowered_library_graph():
    """LIBRARY_GRAPH with its StatelessIf, StatelessWhile and StatelessCase marked
    `_lower_using_switch_merge`, as TF2 marks the ops tf.cond, tf.while_loop and
    tf.switch_case make."""
    graph_def = text_format.Parse(LIBRARY_GRAPH, graph_pb2.GraphDef())
    for node in graph_def.node:
        if node.op in ("StatelessIf", "StatelessWhile", "StatelessCase"):
            node.attr["_lower_using_switch_merge"].b = True
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(graph_def, name="")
    return graph


@pytest.mark.parametrize("x,n", sorted(TF_VALUES))
def test_lowered_if_while_and_case_compute_tensorflows_values(x, n):
    # n = 0 takes the case's first branch, 3 and 7 are out of range: the last (TensorFlow's
    # SwitchN too), as the unlowered Case does.
    with tf.Session(graph=lowered_library_graph()) as sess:
        metadata = tf.RunMetadata()
        got = sess.run(FETCHES, {"x:0": x, "n:0": n},
                       options=tf.RunOptions(output_partition_graphs=True),
                       run_metadata=metadata)
    for name, value, want in zip(FETCHES, got, TF_VALUES[(x, n)]):
        np.testing.assert_allclose(value, want, err_msg=name)
    ops = {node.op for graph in metadata.partition_graphs for node in graph.node}
    assert not ops & {"StatelessIf", "StatelessWhile", "StatelessCase", "PartitionedCall"}
    assert {"Switch", "_SwitchN", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"} <= ops
