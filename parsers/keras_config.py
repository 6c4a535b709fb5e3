"""A Keras model config (a .keras zip's config.json, an .h5's model_config, TensorBoard's
`graph_keras_model` summary) as a GraphDef of its layers, as TensorBoard draws it.

One node per layer, walked as TensorBoard's graph plugin walks a config (its keras_util): the
model and every model nested in it is a name scope (`cnn/conv`, `cnn/block/dense`), never a node; a layer's inputs are the layers its
inbound nodes name, a nested model standing for its output layer; a Sequential's layers take
the layer before them. Beyond TensorBoard's nodes: the op is the layer's class, every config
entry is an attr, `_output_shapes` holds the output shapes the config states (an InputLayer's
batch shape, the shape of each tensor a layer is called on, a Sequential layer's build input
shape), and Keras 2's list-form inbound nodes (tf_keras, old .h5 files) are read too.

>>> config = {"class_name": "Sequential", "config": {"name": "s", "layers": [
...     {"class_name": "InputLayer", "config": {"name": "x", "batch_shape": [None, 3]}},
...     {"class_name": "Dense", "config": {"name": "d", "units": 2, "activation": "relu"},
...      "build_config": {"input_shape": [None, 3]}}]}}
>>> graph = model_graph(config)
>>> [(node.name, node.op, list(node.input)) for node in graph.node]
[('s/x', 'InputLayer', []), ('s/d', 'Dense', ['s/x'])]
>>> graph.node[1].attr["units"].i, graph.node[1].attr["activation"].s
(2, b'relu')
"""

from __future__ import annotations

import json

from engine.framework import dtypes
from engine.proto import attr_value_pb2, graph_pb2, tensor_shape_pb2

MAX_DEPTH = 64  # models nested deeper than this are no model a person wrote
_KERAS_TENSOR = "__keras_tensor__"
# Config entries that are the node itself (its name) or have an attr of their own.
_NOT_ATTRS = frozenset({"name", "dtype", "layers", "input_layers", "output_layers"})


class ConfigError(ValueError):
    """A config that is no Keras model config: what is wrong, and where in it."""


def parse_config(text):
    """The config dict of a model config's JSON text (bytes or str), or ConfigError."""
    try:
        config = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ConfigError(f"not JSON: {error}") from None
    if not isinstance(config, dict) or not isinstance(config.get("config"), (dict, list)):
        raise ConfigError("not a Keras model config (no class_name and config)")
    return config


def model_label(config):
    """`name (Class)` of a model config, as a list of graphs names it.

    >>> model_label({"class_name": "Functional", "config": {"name": "cnn", "layers": []}})
    'cnn (Functional)'
    """
    return f"{_layer_config(config, 'the model').get('name', '?')} ({config.get('class_name', '?')})"


def model_graph(config):
    """The GraphDef of a model config (a dict): see the module docstring. ConfigError when a
    part of it is not what a Keras config holds."""
    try:
        return _GraphBuilder().build(config)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as error:
        if isinstance(error, ConfigError):
            raise
        # A shape this walk does not expect (each part it reads is checked; this is the net).
        raise ConfigError(f"not a Keras model config: {type(error).__name__}: {error}") from None


class _GraphBuilder:
    def __init__(self):
        self.graph = graph_pb2.GraphDef()
        self.model_outputs = {}    # scoped model name -> [(output layer, its output index)]
        self.fed_inputs = {}       # a nested model's input layer -> what its caller feeds it
        self.previous = None       # the node a Sequential's next layer takes
        self.shapes = {}           # node name -> {output index: shape}
        self.names = set()         # the scoped names of the layers added so far

    def build(self, config):
        for scope, layer, where in _walk(config, "", "the model", 0):
            if _is_model(layer, where):
                self._enter_model(scope, layer, where)
            else:
                self._add_layer(scope, layer, where)
        for node in self.graph.node:
            known = self.shapes.get(node.name)
            if known:
                shapes = node.attr["_output_shapes"].list.shape
                for index in range(max(known) + 1):
                    shapes.add().CopyFrom(_shape_proto(known.get(index)))
        return self.graph

    def _source(self, scope, name, tensor_index):
        """(node, output index) making output `tensor_index` of layer `name` in `scope`; a
        nested model stands for its output layers."""
        scoped = _scoped(scope, name)
        outputs = self.model_outputs.get(scoped)
        if outputs is None:
            return scoped, tensor_index
        return outputs[tensor_index] if tensor_index < len(outputs) else outputs[-1]

    def _enter_model(self, scope, layer, where):
        config = _layer_config(layer, where)
        name = _scoped(scope, _name(config, where))
        input_layers = _history_list(config.get("input_layers"), f"{where} input_layers")
        output_layers = _history_list(config.get("output_layers"), f"{where} output_layers")
        inbound = _inbound(layer, where)
        functional = bool(input_layers and output_layers)
        if inbound and functional:  # called by a functional model: its inputs fed one by one
            for (input_name, _, _), (source, _, index, _) in zip(input_layers, inbound):
                self.fed_inputs[_scoped(name, input_name)] = self._source(scope, source, index)
        elif inbound:  # a Sequential called by a functional model: its first layer takes that
            source, _, index, _ = inbound[0]
            self.previous = self._source(scope, source, index)
        elif self.previous is not None and functional:  # a functional model in a Sequential
            self.fed_inputs[_scoped(name, input_layers[0][0])] = self.previous
        if functional:
            self.model_outputs[name] = [(_scoped(name, layer_name), index)
                                        for layer_name, _, index in output_layers]
        else:
            layers = _layers(config, name)
            if not layers:
                raise ConfigError(f"{name}: a model without layers")
            last_where = f"{name} layer {len(layers) - 1}"
            last = _name(_layer_config(layers[-1], last_where), last_where)
            self.model_outputs[name] = [(_scoped(name, last), 0)]

    def _add_layer(self, scope, layer, where):
        config = _layer_config(layer, where)
        class_name = layer.get("class_name")
        if not isinstance(class_name, str):
            raise ConfigError(f"{where}: no class_name")
        name = _scoped(scope, _name(config, where))
        if name in self.names:  # two nodes of one name: a GraphDef no view can hold
            raise ConfigError(f"{where}: a second layer named {_short(name)} (Keras gives each "
                              "layer of a model a name of its own)")
        self.names.add(name)
        node = self.graph.node.add(name=name, op=class_name)
        node.attr["keras_class"].s = class_name.encode("utf-8", "surrogatepass")
        dtype = _dtype_enum(config.get("dtype"))
        if dtype is not None:
            node.attr["dtype"].type = dtype
        for key, value in config.items():
            converted = None if key in _NOT_ATTRS else _attr_value(value)
            if converted is not None:
                node.attr[str(key)].CopyFrom(converted)
        sources = []
        if layer.get("inbound_nodes") is not None:
            for source_name, _, index, shape in _inbound(layer, where):
                source = self._source(scope, source_name, index)
                sources.append(source)
                self._note_shape(source, shape)
        elif self.previous is not None:
            sources.append(self.previous)
        if node.name in self.fed_inputs:
            sources.append(self.fed_inputs[node.name])
        if any(source == node.name for source, _ in sources):
            raise ConfigError(f"{where}: layer {_short(node.name)} takes its own output")
        self._note_build_shapes(layer, sources)
        node.input.extend(source if index == 0 else f"{source}:{index}" for source, index in sources)
        if class_name == "InputLayer":
            self._note_shape((node.name, 0), config.get("batch_shape", config.get("batch_input_shape")))
        self.previous = (node.name, 0)

    def _note_build_shapes(self, layer, sources):
        """The shapes a layer was built for are its inputs' output shapes (what Keras 2 and a
        Sequential state no other way): one shape for one input, or one per input."""
        build = layer.get("build_config")
        shape = build.get("input_shape") if isinstance(build, dict) else None
        if len(sources) == 1 and _is_shape(shape):
            self._note_shape(sources[0], shape)
        elif isinstance(shape, list) and len(shape) == len(sources) > 1 and all(map(_is_shape, shape)):
            for source, one in zip(sources, shape):
                self._note_shape(source, one)

    def _note_shape(self, source, shape):
        if _is_shape(shape):
            self.shapes.setdefault(source[0], {}).setdefault(source[1], shape)


def _walk(layer, scope, where, depth):
    """(scope, layer config, where) for the model and every layer under it, in preorder; a
    nested model's layers are scoped by its name."""
    if depth > MAX_DEPTH:
        raise ConfigError(f"{where}: models nested more than {MAX_DEPTH} deep")
    config = _layer_config(layer, where)
    layers = _layers(config, _name(config, where) if config.get("layers") is not None else where)
    yield scope, layer, where
    if not layers:
        return
    inner = _scoped(scope, _name(config, where))
    for number, sublayer in enumerate(layers):
        yield from _walk(sublayer, inner, f"{inner} layer {number}", depth + 1)


def _layers(config, where):
    """A model config's layers (a list), [] when it has none."""
    layers = config.get("layers")
    if layers is not None and not isinstance(layers, list):
        raise ConfigError(f"{where}: layers is a {type(layers).__name__}, not a list")
    return layers or []


def _layer_config(layer, where):
    if not isinstance(layer, dict):
        raise ConfigError(f"{where}: a {type(layer).__name__}, not a layer config")
    config = layer.get("config")
    if isinstance(config, list):  # Keras 1 and early 2 wrote a Sequential's layers bare
        return {"name": layer.get("name", "sequential"), "layers": config}
    if not isinstance(config, dict):
        raise ConfigError(f"{where}: no config")
    return config


def _name(config, where):
    name = config.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}: no name")
    return name


def _scoped(scope, name):
    return f"{scope}/{name}" if scope else name


def _is_model(layer, where):
    return _layer_config(layer, where).get("layers") is not None


def _history_list(value, where):
    """[(layer, node index, tensor index)] of a model's input_layers/output_layers, which
    are one such triple, a list of them, or (Keras 3, a model of named inputs or outputs) a
    dict of them, taken in sorted key order as Keras flattens it (keras.tree.flatten)."""
    if not value:
        return []
    if isinstance(value, dict):
        value = [value[key] for key in sorted(value)]
    if not isinstance(value, list):
        raise ConfigError(f"{where}: a {type(value).__name__}, not a list")
    entries = value if isinstance(value[0], list) else [value]
    return [_history(entry, where) for entry in entries]


def _history(entry, where):
    if (not isinstance(entry, list) or len(entry) < 3 or not isinstance(entry[0], str)
            or not all(isinstance(x, int) and x >= 0 for x in entry[1:3])):
        raise ConfigError(f"{where}: {_short(entry)} is not [layer, node index, tensor index]")
    return entry[0], entry[1], entry[2]


def _inbound(layer, where):
    """[(layer, node index, tensor index, shape or None)] of every tensor a layer is called
    on, call by call: Keras 3's keras tensors in args and kwargs, Keras 2's lists."""
    found = []
    nodes = layer.get("inbound_nodes") or []
    if not isinstance(nodes, list):
        raise ConfigError(f"{where}: inbound_nodes is a {type(nodes).__name__}, not a list")
    for node in nodes:
        if isinstance(node, dict):  # Keras 3: {"args": [...], "kwargs": {...}}
            _keras_tensors(node.get("args"), found, where, 0)
            _keras_tensors(node.get("kwargs"), found, where, 0)
        elif isinstance(node, list):  # Keras 2: [[layer, node index, tensor index, kwargs], ...]
            found += [(*_history(entry, f"{where} inbound_nodes"), None) for entry in node]
        else:
            raise ConfigError(f"{where}: an inbound node is a {type(node).__name__}")
    return found


def _keras_tensors(value, found, where, depth):
    """Every keras tensor in a call's arguments (lists and dicts of them too), in the order
    Keras flattens them (a dict's values in sorted key order: a model of named inputs called
    on a dict takes them by key, however the caller ordered it)."""
    if depth > MAX_DEPTH:
        raise ConfigError(f"{where}: call arguments nested more than {MAX_DEPTH} deep")
    if isinstance(value, dict):
        if value.get("class_name") == _KERAS_TENSOR:
            config = value.get("config") if isinstance(value.get("config"), dict) else {}
            name, node_index, tensor_index = _history(config.get("keras_history"), f"{where} keras_history")
            found.append((name, node_index, tensor_index, config.get("shape")))
        else:
            for key in sorted(value, key=str):
                _keras_tensors(value[key], found, where, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _keras_tensors(item, found, where, depth + 1)


def _dtype_enum(value):
    """The DataType of a layer's dtype (a name, or a DTypePolicy's), None for a mixed policy."""
    if isinstance(value, dict):
        value = value.get("config", {}).get("name") if isinstance(value.get("config"), dict) else None
    if not isinstance(value, str):
        return None
    try:
        return dtypes.as_dtype(value).as_datatype_enum
    except (TypeError, ValueError, KeyError):
        return None


def _is_shape(value):
    return isinstance(value, list) and all(
        d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= 0) for d in value)


def _shape_proto(shape):
    if shape is None:
        return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return tensor_shape_pb2.TensorShapeProto(dim=[{"size": -1 if d is None else d} for d in shape])


_INT64 = range(-(2**63), 2**63)


def _attr_value(value):
    """An AttrValue for one config entry, None for None: numbers, strings and booleans as
    themselves, a list of them as a list, a shape ([None, 8, 8, 1]) as a shape, a serialized
    Keras object (an initializer, a regularizer) by its class, anything else as JSON text.

    >>> _attr_value([None, 8]).shape.dim[0].size, _attr_value([3, 3]).list.i
    (-1, [3, 3])
    >>> _attr_value({"class_name": "GlorotUniform", "config": {"seed": None}}).s
    b'GlorotUniform'
    """
    attr = attr_value_pb2.AttrValue()
    if value is None:
        return None
    if isinstance(value, bool):
        attr.b = value
    elif isinstance(value, int) and value in _INT64:
        attr.i = value
    elif isinstance(value, float):
        attr.f = value
    elif isinstance(value, str):
        attr.s = value.encode("utf-8", "surrogatepass")
    elif isinstance(value, list) and None in value and _is_shape(value):
        attr.shape.CopyFrom(_shape_proto(value))
    elif isinstance(value, list) and _fills_list(attr.list, value):
        pass
    elif isinstance(value, dict) and isinstance(value.get("class_name"), str):
        inner = value.get("config")
        settings = {k: v for k, v in inner.items() if v is not None} if isinstance(inner, dict) else {}
        attr.s = (value["class_name"] + (f" {_json(settings)}" if settings else "")).encode(
            "utf-8", "surrogatepass")
    else:
        attr.s = _json(value).encode("utf-8", "surrogatepass")
    return attr


def _fills_list(target, values):
    """Fill an AttrValue's list from a list of one kind of scalar; False for any other list."""
    kinds = {type(v) for v in values}
    if kinds <= {bool}:
        target.b.extend(values)
    elif kinds <= {int} and all(v in _INT64 for v in values):
        target.i.extend(values)
    elif kinds <= {int, float} and all(v in _INT64 for v in values if isinstance(v, int)):
        target.f.extend(values)
    elif kinds <= {str}:
        target.s.extend(v.encode("utf-8", "surrogatepass") for v in values)
    else:
        return False
    return True


def _json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _short(value):
    text = _json(value)
    return text if len(text) <= 60 else text[:57] + "..."
