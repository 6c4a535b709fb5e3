"""A TF2 SavedModel's assets and resources (lookup tables) loaded into a graph, as TensorFlow's
graph-mode load rebuilds them: an asset is the path of its file under assets/ (a string
constant), a resource the handle its `_create_resource` function makes, initialized by its
`_initialize` function, whose op joins the TABLE_INITIALIZERS collection
(tf.tables_initializer() runs it). A resource whose state the checkpoint holds (a mutable
table) is not restored yet.
"""

import os

from engine.framework.graph import GraphKeys, get_default_graph
from engine.framework.operation import Operation
from engine.ops.constant_op import constant
from engine.savedmodel import constants


class RestoredResource:
    """A restored resource: its handle, and its functions as attributes."""

    def __init__(self, handle):
        self.resource_handle = handle


def asset_paths(nodes, meta, export_dir):
    """{node id: a string constant of the asset's path} for the asset nodes."""
    found = {}
    for node_id, node in enumerate(nodes):
        if node.WhichOneof("kind") == "asset":
            definition = meta.asset_file_def[node.asset.asset_file_def_index]
            path = os.path.join(export_dir, constants.ASSETS_DIRECTORY, definition.filename)
            found[node_id] = constant(path, name="asset_path")
    return found


def _function_of(nodes, node, local_name, make_concrete):
    """The restored concrete function of a resource's child function `local_name`."""
    for child in node.children:
        if child.local_name == local_name:
            function = nodes[child.node_id].function
            if function.concrete_functions:
                return make_concrete(function.concrete_functions[0])
    return None


def create_resources(nodes, make_concrete, checkpointed):
    """{node id: handle} of the resource nodes, each made by its `_create_resource`;
    checkpointed: the node ids whose state the checkpoint holds."""
    found = {}
    for node_id, node in enumerate(nodes):
        if node.WhichOneof("kind") != "resource":
            continue
        if node_id in checkpointed:
            raise NotImplementedError(
                f"object graph node {node_id} is a resource whose state the checkpoint holds "
                "(a mutable lookup table): the engine does not restore it yet")
        creator = _function_of(nodes, node, "_create_resource", make_concrete)
        if creator is None:
            raise NotImplementedError(f"resource node {node_id} of the SavedModel has no "
                                      "_create_resource function: the engine cannot make it")
        found[node_id] = creator()
    return found


def initialize_resources(nodes, make_concrete, resources):
    """Call each resource's `_initialize` and add its op to TABLE_INITIALIZERS."""
    graph = get_default_graph()
    for node_id in resources:
        initializer = _function_of(nodes, nodes[node_id], "_initialize", make_concrete)
        if initializer is None:
            continue
        result = initializer()
        op = result if isinstance(result, Operation) else getattr(result, "op", None)
        if op is not None:
            graph.add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
