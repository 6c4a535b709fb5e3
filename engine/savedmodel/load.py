"""tf.saved_model.load_v2 in graph mode (tf.compat.v1.saved_model.load_v2): a TF2 SavedModel
(TensorFlow's or the engine's) as Python objects whose functions build call ops in the
default graph, as TensorFlow 2.21's load does in a TF1 graph.

The object graph is rebuilt node by node: a user object gets its children as attributes (a
list or dict wrapper is a list or dict), a variable is a resource variable of the default
graph whose initializer restores its value from variables/ (one RestoreV2; TensorFlow's
graph-mode load does the same, so tf.global_variables_initializer() loads the values), a
tf.function and a concrete function are restored_functions' callables, and the root's
`signatures` map its signature functions, which take their inputs by keyword and return a
dict. A TF1 SavedModel (no object graph) is not loaded this way: tf.saved_model.load(sess,
tags, export_dir) loads it.
"""

import os

from engine.checkpoint.object_graph import OBJECT_GRAPH_KEY
from engine.checkpoint.reader import CheckpointReader
from engine.framework import dtypes, tensor_util
from engine.framework.graph import get_default_graph
from engine.framework.tensor_shape import TensorShape
from engine.ops.constant_op import constant
from engine.ops.op_def_library import apply_op
from engine.ops.variables import ResourceVariable
from engine.proto import trackable_object_graph_pb2
from engine.savedmodel import constants, structured_value
from engine.savedmodel.loader import meta_graph_def_from_tags, parse_saved_model
from engine.savedmodel.restored_functions import (RestoredConcreteFunction, RestoredFunction,
                                                  import_library)
from engine.savedmodel.restored_resources import (RestoredResource, asset_paths,
                                                  create_resources, initialize_resources)


class _UserObject:
    """A restored user object (TensorFlow's _UserObject): its children as attributes."""

    def __repr__(self):
        names = ", ".join(name for name in vars(self) if not name.startswith("_"))
        return f"<restored object with {names or 'no attributes'}>"


class _SignatureMap(dict):
    """The root's `signatures`: {key: signature function}."""


def _meta_graph(saved_model, tags, export_dir):
    graphs = saved_model.meta_graphs
    if tags is None:
        if len(graphs) == 1:
            return graphs[0]
        tag_sets = [list(g.meta_info_def.tags) for g in graphs]
        raise ValueError(
            "Importing a SavedModel with `tf.saved_model.load` requires a `tags=` argument if "
            f"there is more than one MetaGraph. Got `tags=None`, but there are {len(graphs)} "
            f"MetaGraphs in the SavedModel with tag sets: {tag_sets}. Pass a `tags=` argument "
            "to load this SavedModel.")
    tags = [tags] if isinstance(tags, str) else list(tags)
    if len(graphs) == 1:
        if set(graphs[0].meta_info_def.tags) != set(tags):
            raise ValueError(
                f"Got an incompatible argument to `tags`: {tags}. The SavedModel at "
                f"{export_dir} has one MetaGraph with tags {list(graphs[0].meta_info_def.tags)}. "
                "You may omit the argument, pass 'None', or pass matching tags.")
        return graphs[0]
    return meta_graph_def_from_tags(saved_model, tags)


def _checkpoint_graph(prefix):
    """The TrackableObjectGraph of the checkpoint at prefix."""
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.ParseFromString(CheckpointReader(prefix).get_tensor(OBJECT_GRAPH_KEY))
    return graph


def _checkpoint_keys(prefix):
    """{object graph node id: checkpoint key} of the variables in the checkpoint at prefix."""
    return {node_id: attribute.checkpoint_key
            for node_id, node in enumerate(_checkpoint_graph(prefix).nodes)
            for attribute in node.attributes if attribute.name == "VARIABLE_VALUE"}


def _checkpointed_resources(nodes, prefix):
    """The resource nodes whose state the checkpoint holds (a mutable table's keys, values)."""
    resources = {i for i, node in enumerate(nodes) if node.WhichOneof("kind") == "resource"}
    if not resources:
        return set()
    return {node_id for node_id, node in enumerate(_checkpoint_graph(prefix).nodes)
            if node_id in resources and node.attributes}


def _restore_variables(nodes, prefix):
    """{node id: a resource variable whose initial value is its restored value}."""
    saved = [(node_id, node.variable) for node_id, node in enumerate(nodes)
             if node.WhichOneof("kind") == "variable"]
    if not saved:
        return {}
    keys = _checkpoint_keys(prefix)
    missing = [node_id for node_id, _ in saved if node_id not in keys]
    if missing:
        raise ValueError(f"The SavedModel's checkpoint {prefix} holds no value for the "
                         f"variables of object graph nodes {missing}.")
    types = [dtypes.as_dtype(variable.dtype) for _, variable in saved]
    restored = apply_op("RestoreV2", prefix=constant(prefix),
                        tensor_names=constant([keys[node_id] for node_id, _ in saved]),
                        shape_and_slices=constant([""] * len(saved)), dtypes=types)
    restored = restored if isinstance(restored, (list, tuple)) else [restored]
    variables = {}
    for (node_id, variable), value, dtype in zip(saved, restored, types):
        shape = TensorShape(variable.shape)
        value.set_shape(shape)
        variables[node_id] = ResourceVariable(
            initial_value=value, trainable=variable.trainable, dtype=dtype, shape=shape,
            name=variable.name or None)
    return variables


def _concrete(graph, renamed, saved_graph, name, variables, bare=None, keywords=None):
    saved = saved_graph.concrete_functions[name]
    captured = []
    for node_id in saved.bound_inputs:
        if node_id not in variables:
            raise NotImplementedError(
                f"function {name} of the SavedModel captures object graph node {node_id}, "
                "which is neither a variable nor a constant: the engine loads functions that "
                "capture those")
        captured.append(variables[node_id])
    return RestoredConcreteFunction(
        graph, renamed[name], saved, captured,
        argument_keywords=bare.argument_keywords if bare is not None else keywords)


def _restore_constants(nodes, graph_def):
    """{node id: a Const of the default graph} for the captured constants (their value is
    the SavedModel graph's Const the node names)."""
    consts = {node.name: node for node in graph_def.node if node.op == "Const"}
    found = {}
    for node_id, node in enumerate(nodes):
        if node.WhichOneof("kind") == "constant":
            const = consts.get(node.constant.operation)
            if const is None:
                raise ValueError(f"object graph node {node_id} names the constant "
                                 f"{node.constant.operation!r}, which the SavedModel's graph "
                                 "lacks")
            found[node_id] = constant(tensor_util.MakeNdarray(const.attr["value"].tensor),
                                      name=node.constant.operation)
    return found


def _parameters(function_spec):
    """(parameter names, defaults of the last ones, input signature) of a saved tf.function."""
    spec = structured_value.decode(function_spec.fullargspec) or {}
    return (list(spec.get("args") or []), tuple(spec.get("defaults") or ()),
            structured_value.decode(function_spec.input_signature))


def _objects(nodes, saved_graph, graph, renamed, variables):
    """The Python object of each node (children not yet attached)."""
    objects = []
    for node_id, node in enumerate(nodes):
        kind = node.WhichOneof("kind")
        if kind in ("variable", "constant", "asset"):
            objects.append(variables[node_id])
        elif kind == "resource":
            objects.append(RestoredResource(variables[node_id]))
        elif kind == "function":
            parameters = _parameters(node.function.function_spec)
            concretes = [_concrete(graph, renamed, saved_graph, name, variables,
                                   keywords=parameters[0] or None)
                         for name in node.function.concrete_functions]
            objects.append(RestoredFunction(f"restored_function_{node_id}", concretes,
                                            *parameters))
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            objects.append(_concrete(graph, renamed, saved_graph, bare.concrete_function_name,
                                     variables, bare))
        elif kind == "user_object" and node.user_object.identifier == "trackable_list_wrapper":
            objects.append([])
        elif kind == "user_object" and node.user_object.identifier == "trackable_dict_wrapper":
            objects.append({})
        elif kind == "user_object" and node.user_object.identifier == "signature_map":
            objects.append(_SignatureMap())
        elif kind == "user_object":
            objects.append(_UserObject())
        else:
            raise NotImplementedError(f"the engine does not load a SavedModel's {kind} objects "
                                      f"(object graph node {node_id})")
    return objects


def _attach_children(nodes, objects):
    for node, obj in zip(nodes, objects):
        for child in node.children:
            value = objects[child.node_id]
            if isinstance(obj, list):
                obj.append(value)
            elif isinstance(obj, dict):
                obj[child.local_name] = value
            elif isinstance(obj, (_UserObject, RestoredResource)):
                setattr(obj, child.local_name, value)


def load(export_dir, tags=None, options=None):
    """Load the TF2 SavedModel in export_dir into the default graph; returns its root object."""
    export_dir = os.fspath(export_dir)
    saved_model = parse_saved_model(export_dir)
    meta = _meta_graph(saved_model, tags, export_dir)
    saved_graph = meta.object_graph_def
    if not saved_graph.nodes:
        raise NotImplementedError(
            f"{export_dir} is a TF1 SavedModel (its meta graph has no object graph): load it "
            "with tf.saved_model.load(sess, tags, export_dir); the engine's load_v2 reads TF2 "
            "SavedModels")
    graph = get_default_graph()
    renamed = import_library(graph, meta.graph_def.library)
    prefix = os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
    nodes = list(saved_graph.nodes)
    # What functions capture by node id: the variables, the constants' and assets' tensors,
    # the resources' handles (made by functions that may capture the others).
    variables = _restore_variables(nodes, prefix)
    variables.update(_restore_constants(nodes, meta.graph_def))
    variables.update(asset_paths(nodes, meta, export_dir))

    def make_concrete(name):
        return _concrete(graph, renamed, saved_graph, name, variables)

    resources = create_resources(nodes, make_concrete, _checkpointed_resources(nodes, prefix))
    variables.update(resources)
    initialize_resources(nodes, make_concrete, resources)
    objects = _objects(nodes, saved_graph, graph, renamed, variables)
    _attach_children(nodes, objects)
    root = objects[0]
    if isinstance(root, _UserObject) and not hasattr(root, "signatures"):
        root.signatures = _SignatureMap()
    return root
