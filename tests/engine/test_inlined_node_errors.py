"""A node inlined from a function fails with TensorFlow's words: its original name in the
`[[{{node ...}}]]` tag (TensorFlow's FormatNodeDefForError reads experimental_debug_info),
the inlined name and the function it came from as the error's fields.

TensorFlow 2.21, a tf.function `y = tf.reshape(x * 2.0, [2, 2])` saved and run in a
tf.compat.v1 Session on three values, raises:
    InvalidArgumentError: Graph execution error:

    Input to reshape is a tensor with 3 values, but the requested shape has 4
    	 [[{{node Reshape}}]]
"""

import numpy as np
import pytest

import engine as tf
from engine.proto import graph_pb2
from google.protobuf import text_format

GRAPH = r"""
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "PartitionedCall" op: "PartitionedCall" input: "x"
       attr { key: "Tin" value { list { type: DT_FLOAT } } }
       attr { key: "Tout" value { list { type: DT_FLOAT } } }
       attr { key: "f" value { func { name: "__inference_serve_7" } } } }
node { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 1 } } } }
node { name: "out" op: "AddV2" input: "PartitionedCall" input: "one"
       attr { key: "T" value { type: DT_FLOAT } } }
library {
  function {
    signature { name: "__inference_serve_7" input_arg { name: "x" type: DT_FLOAT }
                output_arg { name: "y" type: DT_FLOAT } }
    node_def { name: "mul/y" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
               attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { }
                                                    float_val: 2 } } } }
    node_def { name: "mul" op: "Mul" input: "x" input: "mul/y:output:0"
               attr { key: "T" value { type: DT_FLOAT } } }
    node_def { name: "Reshape/shape" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
               attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } }
                                                    int_val: 2 int_val: 2 } } } }
    node_def { name: "Reshape" op: "Reshape" input: "mul:z:0" input: "Reshape/shape:output:0"
               attr { key: "T" value { type: DT_FLOAT } } attr { key: "Tshape" value { type: DT_INT32 } } }
    ret { key: "y" value: "Reshape:output:0" }
  }
}
"""


def test_an_inlined_node_is_named_as_tensorflow_names_it():
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(text_format.Parse(GRAPH, graph_pb2.GraphDef()), name="")
    with tf.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as raised:
            sess.run("out:0", {"x:0": np.ones(3, np.float32)})
    error = raised.value
    assert error.message.endswith(
        "Input to reshape is a tensor with 3 values, but the requested shape has 4\n"
        "\t [[{{node Reshape}}]]")
    assert error.node_name == "PartitionedCall/Reshape"  # (a graph of 4 nodes: Grappler inlines)
    assert (error.op_type, error.function_name) == ("Reshape", "__inference_serve_7")
