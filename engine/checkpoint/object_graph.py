"""A TF2 checkpoint's variables by name: its object graph maps each key to the variable's name.

tf.train.Checkpoint and tf.saved_model.save store a variable under the path of the objects
that hold it (`dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`, `variables/0/.ATTRIBUTES/...`), and
the serialized TrackableObjectGraph under `_CHECKPOINTABLE_OBJECT_GRAPH` names, per key,
the variable's own name (its `full_name`, the VarHandleOp's shared_name when it was made).
A name-based restore (TensorFlow's tf.compat.v1 Saver reading a TF2 checkpoint does the
same) finds a graph's variables through these names.

>>> graph = trackable_object_graph_pb2.TrackableObjectGraph()
>>> node = graph.nodes.add()
>>> _ = node.attributes.add(name="VARIABLE_VALUE", full_name="w",
...                         checkpoint_key="w/.ATTRIBUTES/VARIABLE_VALUE")
>>> variable_keys(graph.SerializeToString())
{'w': 'w/.ATTRIBUTES/VARIABLE_VALUE'}
"""

from google.protobuf.message import DecodeError

from engine.proto import trackable_object_graph_pb2

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def variable_keys(serialized):
    """{variable name: checkpoint key} from a serialized TrackableObjectGraph (the first key
    where two objects hold the same variable, as a Keras export saves each weight twice);
    ValueError when the bytes are not one."""
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    try:
        graph.ParseFromString(serialized)
    except DecodeError as error:
        raise ValueError(f"{OBJECT_GRAPH_KEY} is not a TrackableObjectGraph ({error})") from None
    keys = {}
    for node in graph.nodes:
        for attribute in node.attributes:
            if attribute.name == "VARIABLE_VALUE" and attribute.full_name:
                keys.setdefault(attribute.full_name, attribute.checkpoint_key)
    return keys
