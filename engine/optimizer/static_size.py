"""How many elements a node's first output has at least, read from the GraphDef alone.

The remapper fuses a chain by default only where the chain is large (remapping.py), so it
asks each node for a lower bound of its output's element count, known without running it:

    sizes = StaticSizes(nodes)        # nodes: name -> NodeDef
    sizes.elements("x")               # an int, or None where nothing says

Where a size comes from: a node's `_output_shapes` attr (TensorFlow writes it with
add_shapes=True), a Const's tensor shape, the `shape` attr of a Placeholder or a variable
when fully defined, and the constant shape input of a random op or a Fill. An elementwise op
(fused_chain.FUSABLE) broadcasts its inputs, so its output has at least as many elements as
its largest known input; Identity-like ops pass theirs on. Anything else is unknown.
"""

import math

from engine.framework import tensor_util
from engine.kernels.fused_chain import FUSABLE
from engine.optimizer import rules

_SHAPE_ATTR_OPS = frozenset({"Placeholder", "PlaceholderWithDefault", "VariableV2", "Variable",
                             "VarHandleOp", "TemporaryVariable"})
_SHAPE_INPUT_OPS = frozenset({"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                              "RandomUniformInt", "Fill", "Zeros", "Ones"})
_MAX_RANK = 254  # TensorFlow's largest rank: a longer "shape" vector is no shape
_PASS_THROUGH = frozenset({"Identity", "Snapshot", "StopGradient", "PreventGradient",
                           "CheckNumerics", "ReadVariableOp"})


def _producer(text):
    """The producing node's name of an input (None for a control input) and its output."""
    if text.startswith("^"):
        return None, -1
    name, sep, index = text.rpartition(":")
    return (name, int(index)) if sep and index.isdigit() else (text, 0)


def _product(dims):
    """The element count of fully known dims, else None."""
    dims = list(dims)
    if any(d < 0 for d in dims):
        return None
    return math.prod(dims)  # Python ints: exact however absurd a file's dims


class StaticSizes:
    """Lower bounds of each node's first output's element count (memoised; cycles, as a
    loop's NextIteration makes, end as unknown)."""

    def __init__(self, nodes):
        self._nodes = nodes
        self._known = {}

    def elements(self, name):
        if name in self._known:
            return self._known[name]
        # Depth first without recursion (a chain of 1,000 adds would pass Python's limit):
        # a node is settled once every input it depends on is.
        stack, entered = [name], set()
        while stack:
            current = stack[-1]
            if current in self._known:
                stack.pop()
                continue
            waiting = [p for p in self._depends_on(current) if p not in self._known
                       and p not in entered]
            if waiting and current not in entered:
                entered.add(current)
                stack.extend(waiting)
                continue
            stack.pop()
            self._known[current] = self._own(current)
        return self._known[name]

    def _depends_on(self, name):
        node = self._nodes.get(name)
        if node is None or self._from_attrs(node) is not None:
            return []
        if node.op in FUSABLE or node.op in _PASS_THROUGH:
            return [p for p, index in map(_producer, node.input) if p and index == 0
                    and p in self._nodes]
        return []

    def _own(self, name):
        node = self._nodes.get(name)
        if node is None:
            return None
        known = self._from_attrs(node)
        if known is not None:
            return known
        if node.op in FUSABLE or node.op in _PASS_THROUGH:
            sizes = [self._known.get(p) for p, index in map(_producer, node.input)
                     if p and index == 0]
            sizes = [s for s in sizes if s is not None]
            if not sizes:
                return None
            return max(sizes) if node.op in FUSABLE else sizes[0]
        return None

    def _from_attrs(self, node):
        """What the node says of itself (its attrs, or a constant shape input)."""
        shapes = node.attr.get("_output_shapes")
        if shapes is not None and shapes.list.shape:
            known = tensor_util.shape_elements(shapes.list.shape[0])
            if known is not None:
                return known
        if node.op == "Const" and "value" in node.attr:
            return tensor_util.shape_elements(node.attr["value"].tensor.tensor_shape)
        if node.op in _SHAPE_ATTR_OPS and "shape" in node.attr:
            return tensor_util.shape_elements(node.attr["shape"].shape)
        if node.op in _SHAPE_INPUT_OPS and node.input:
            return self._constant_dims(node.input[0])
        return None

    def _constant_dims(self, text):
        """The element count a constant shape input names (a 1-D integer Const), else None."""
        name, index = _producer(text)
        node = self._nodes.get(name) if name else None
        if node is None or index != 0 or node.op != "Const" or "value" not in node.attr:
            return None
        if (tensor_util.shape_elements(node.attr["value"].tensor.tensor_shape) or 0) > _MAX_RANK:
            return None  # not a shape: never read (a file's Const may claim any size)
        try:
            dims = rules.constant_value(node)
        except Exception:  # noqa: BLE001  (an unreadable constant says nothing)
            return None
        if dims.ndim != 1 or dims.dtype.kind not in "iu":
            return None
        return _product(int(d) for d in dims)
