"""A TF2 SavedModel's functions loaded into a graph (TensorFlow's function_deserialization, in
graph mode): the library copied in under fresh names, each kept ConcreteFunction a callable
that builds a (Stateful)PartitionedCall of it with its captured variables' handles after the
arguments, and each tf.function a callable that picks, among its traces, the one whose input
signature the arguments fit.
"""

import itertools
import re

from engine.framework import dtypes
from engine.framework.tensor import Tensor
from engine.framework.type_spec import TensorSpec
from engine.ops import nest
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op
from engine.savedmodel import structured_value

_UIDS = itertools.count(1)


def _fresh_name(graph, name):
    """`name` with a new number in place of its own (TensorFlow gives loaded functions new
    uids), free in `graph`'s library."""
    base = re.sub(r"_\d+$", "", name)
    while True:
        candidate = f"{base}_{next(_UIDS)}"
        if not graph._is_function(candidate):
            return candidate


def import_library(graph, library):
    """Copy a FunctionDefLibrary into `graph` under fresh names; {saved name: name in graph}."""
    renamed = {function.signature.name: _fresh_name(graph, function.signature.name)
               for function in library.function}
    for function in library.function:
        copy = type(function)()
        copy.CopyFrom(function)
        copy.signature.name = renamed[function.signature.name]
        for node in copy.node_def:
            for value in node.attr.values():
                if value.HasField("func") and value.func.name in renamed:
                    value.func.name = renamed[value.func.name]
                elif value.HasField("list"):
                    for item in value.list.func:
                        item.name = renamed.get(item.name, item.name)
            if node.op in renamed:
                node.op = renamed[node.op]
        graph._add_function(copy)
    return renamed


class RestoredConcreteFunction:
    """One saved ConcreteFunction: called with its arguments (positional, or by keyword),
    it builds a call op in the default graph and returns its outputs in the saved structure."""

    def __init__(self, graph, name, saved, captured, argument_keywords=None):
        self.graph = graph
        self.name = name.encode()
        self._function_def = graph._get_function(name)
        self._captured = list(captured)
        self.structured_input_signature = structured_value.decode(
            saved.canonicalized_input_signature) or ((), {})
        self.structured_outputs = structured_value.decode(saved.output_signature)
        self._keywords = _aligned_keywords(self._flat_specs(), argument_keywords)

    @property
    def captured_inputs(self):
        """The captured variables' handles and constants' tensors."""
        return [getattr(value, "handle", value) for value in self._captured]

    @property
    def variables(self):
        return tuple(value for value in self._captured if hasattr(value, "handle"))

    def _flat_specs(self):
        args, kwargs = self.structured_input_signature
        return nest.flatten(list(args)) + [kwargs[key] for key in sorted(kwargs)]

    def _bind(self, args, kwargs):
        """The flat inputs, in the saved order, from positional and keyword arguments."""
        specs = self._flat_specs()
        if len(args) > len(self._keywords):
            raise TypeError(f"{self.name.decode()} takes {len(self._keywords)} positional "
                            f"arguments, got {len(args)}.")
        values = dict(zip(self._keywords, nest.flatten(list(args))))
        for key, value in kwargs.items():
            if key not in self._keywords:
                raise TypeError(f"{self.name.decode()} got unexpected keyword argument {key!r}; "
                                f"expected arguments: {self._keywords}.")
            if key in values:
                raise TypeError(f"{self.name.decode()} got two values for argument {key!r}.")
            values[key] = value
        inputs, missing = [], []
        for key, spec in zip(self._keywords, specs):
            if not isinstance(spec, TensorSpec):
                # A Python value the trace was made for: the call must pass the same or none.
                if key in values and values[key] != spec:
                    raise ValueError(f"{self.name.decode()} was traced with {key}={spec!r}, "
                                     f"got {values[key]!r}.")
            elif key not in values:
                missing.append(key)
            else:
                inputs.append(_as_input(values[key], spec))
        if missing:
            raise TypeError(f"{self.name.decode()} missing required arguments: "
                            f"{', '.join(missing)}.")
        return inputs

    def fits(self, args, kwargs):
        """Whether the arguments bind to this function's input signature."""
        try:
            self._bind(args, kwargs)
        except (TypeError, ValueError):
            return False
        return True

    def __call__(self, *args, **kwargs):
        return self._call_flat(self._bind(args, kwargs))

    def _call_flat(self, inputs):
        signature = self._function_def.signature
        op_type = "StatefulPartitionedCall" if signature.is_stateful else "PartitionedCall"
        out_types = [dtypes.as_dtype(arg.type) for arg in signature.output_arg]
        results = apply_op(op_type, args=list(inputs) + self.captured_inputs, Tout=out_types,
                           f=self.name.decode())
        results = [] if not isinstance(results, (list, tuple)) else list(results)
        specs = nest.flatten(self.structured_outputs)
        for result, spec in zip(results, specs):
            if isinstance(spec, TensorSpec):
                result.set_shape(spec.shape)
        if self.structured_outputs is None:
            return None
        return nest.pack_sequence_as(self.structured_outputs, results)


def _aligned_keywords(specs, keywords):
    """A name per flat argument: `keywords` name every argument, or only the tensors (a bare
    concrete function's argument_keywords: its Python values are part of the trace)."""
    keywords = list(keywords or [])
    tensors = [i for i, spec in enumerate(specs) if isinstance(spec, TensorSpec)]
    names = [getattr(spec, "name", None) or f"arg_{i}" for i, spec in enumerate(specs)]
    if len(keywords) >= len(specs):
        return keywords[:len(specs)]
    if len(keywords) == len(tensors):
        for index, keyword in zip(tensors, keywords):
            names[index] = keyword
    return names


def _as_input(value, spec):
    tensor = value if isinstance(value, Tensor) else convert_to_tensor(value, dtype=spec.dtype)
    if tensor.dtype.base_dtype != spec.dtype or not spec.shape.is_compatible_with(tensor.shape):
        raise TypeError(f"Can not cast {TensorSpec(tensor.shape, tensor.dtype)!r} to {spec!r}")
    return tensor


class RestoredFunction:
    """A saved tf.function: called, the first trace whose input signature the arguments fit."""

    def __init__(self, name, concrete_functions, parameter_names, defaults=(),
                 input_signature=None):
        self.__name__ = name
        self.concrete_functions = list(concrete_functions)
        self._parameters = list(parameter_names)
        self._defaults = dict(zip(self._parameters[len(self._parameters) - len(defaults):],
                                  defaults))
        self.input_signature = input_signature

    def _check_signature(self, args, kwargs, values):
        """A tf.function saved with an input signature binds its arguments to it first, and
        refuses one that does not fit in tf.function's words."""
        if self.input_signature is None:
            return
        for name, value, spec in zip(self._parameters, values, self.input_signature):
            if not isinstance(spec, TensorSpec):
                continue
            tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
            if tensor.dtype.base_dtype != spec.dtype or not spec.shape.is_compatible_with(tensor.shape):
                parameters = ", ".join(f"{n}: {s!r}" for n, s in
                                       zip(self._parameters, self.input_signature))
                raise TypeError(
                    "Binding inputs to tf.function failed due to `Can not cast "
                    f"{TensorSpec(tensor.shape, tensor.dtype, name)!r} to {spec!r}`. Received "
                    f"args: {tuple(args)!r} and kwargs: {kwargs!r} for signature: "
                    f"({parameters}).")

    def _positional(self, args, kwargs):
        """The arguments by the function's parameter order, defaults filled in."""
        values = list(args)
        rest = dict(kwargs)
        for name in self._parameters[len(values):]:
            if name in rest:
                values.append(rest.pop(name))
            elif name in self._defaults:
                values.append(self._defaults[name])
            else:
                break
        return values, rest

    def __call__(self, *args, **kwargs):
        values, rest = self._positional(args, kwargs)
        self._check_signature(args, kwargs, values)
        for concrete in self.concrete_functions:
            if concrete.fits(values, rest):
                return concrete(*values, **rest)
        expected = "\n".join(f"  Option {i + 1}: {c.structured_input_signature!r}"
                             for i, c in enumerate(self.concrete_functions))
        raise ValueError(
            "Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n  Positional arguments ({len(args)} total): {args!r}\n  Keyword arguments: "
            f"{kwargs!r}\n\n Expected these arguments to match one of the following "
            f"{len(self.concrete_functions)} option(s):\n\n{expected}")

    def get_concrete_function(self, *args, **kwargs):
        if not args and not kwargs and self.concrete_functions:
            return self.concrete_functions[0]
        values, rest = self._positional(args, kwargs)
        for concrete in self.concrete_functions:
            if concrete.fits(values, rest):
                return concrete
        raise ValueError("No trace of this loaded function fits the arguments.")
