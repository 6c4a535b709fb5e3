"""The signatures a TF2 SavedModel serves (TensorFlow's signature_serialization): each a
tf.function with an input_signature or a ConcreteFunction, wrapped in a function
`signature_wrapper_<name>` that takes its inputs by keyword and returns a dict of tensors
(a dict's own keys, else `output_<i>`). Without `signatures=`, the root's only tf.function
with an input signature (or its `_default_save_signature`) serves as `serving_default`.
"""

from engine.framework.tensor import Tensor
from engine.ops import nest
from engine.ops.def_function import ConcreteFunction, Function
from engine.savedmodel import constants
from engine.savedmodel.saved_objects import SignatureMap, function_attributes

DEFAULT_SIGNATURE_ATTR = "_default_save_signature"


def _not_a_signature(value):
    return ValueError(
        f"Expected a TensorFlow function for which to generate a signature, but got {value}. "
        "Only `tf.functions` with an input signature or concrete functions can be used as a "
        "signature.")


def _concrete(value):
    if isinstance(value, ConcreteFunction):
        return value
    if isinstance(value, Function) and value.input_signature is not None:
        return value.get_concrete_function()
    raise _not_a_signature(value)


def _function_to_export(root):
    """find_function_to_export: the root's `_default_save_signature`, else its only
    tf.function with an input signature."""
    candidates = []
    for name, function in function_attributes(root):
        if name == DEFAULT_SIGNATURE_ATTR:
            return function
        if function.input_signature is not None:
            candidates.append(function)
    # TensorFlow exports the trace (a ConcreteFunction), so its wrapper has no name of it.
    return candidates[0].get_concrete_function() if len(candidates) == 1 else None


def _normalized_outputs(outputs, function_name):
    """A signature's outputs as {key: tensor} (signature_serialization._normalize_outputs)."""
    if isinstance(outputs, dict):
        for key, value in outputs.items():
            if not isinstance(key, str):
                raise ValueError(f"Got a dictionary with a non-string key {key!r} in the output "
                                 f"of the function {function_name} used to generate the "
                                 "SavedModel signature.")
            if not isinstance(value, Tensor):
                raise ValueError(f"Got a non-Tensor value {value!r} for key {key!r} in the output "
                                 f"of the function {function_name} used to generate the "
                                 "SavedModel signature.")
        return dict(outputs)
    flat = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return {f"output_{i}": value for i, value in enumerate(flat)}


def _wrapper(value):
    """The signature function of `value` (a tf.function or a ConcreteFunction), traced in the
    current graph; `signature_wrapper_<its __name__>`, `signature_wrapper` for a
    ConcreteFunction, which has none (as TensorFlow names it)."""
    concrete = _concrete(value)
    specs = nest.flatten(list(concrete.structured_input_signature[0]))
    name = getattr(value, "__name__", None)

    def signature_wrapper(*args):
        return _normalized_outputs(concrete(*args), concrete.name.decode())

    return Function(signature_wrapper, f"signature_wrapper_{name}" if name else "signature_wrapper",
                    input_signature=specs).get_concrete_function()


def signature_functions(root, signatures):
    """The SignatureMap tf.saved_model.save writes for `signatures=` (None, one function or
    a dict of them)."""
    if signatures is None:
        found = _function_to_export(root)
        signatures = {} if found is None else {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: found}
    elif not isinstance(signatures, dict):
        signatures = {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    for key, value in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Expected a string signature key, got {key!r}.")
        _concrete(value)  # every signature checked before any is traced
    return SignatureMap((key, _wrapper(value)) for key, value in signatures.items())
