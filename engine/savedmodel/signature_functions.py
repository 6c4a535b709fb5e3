"""The signatures a TF2 SavedModel serves (TensorFlow's signature_serialization): each a
tf.function with an input_signature or a ConcreteFunction, wrapped in a function
`signature_wrapper_<name>` that takes its inputs by keyword and returns a dict of tensors
(a dict's own keys, else `output_<i>`). Without `signatures=`, the root's only traced
tf.function serves as `serving_default` when it has an input signature.
"""

from engine.framework.tensor import Tensor
from engine.ops import nest
from engine.ops.def_function import ConcreteFunction, Function
from engine.savedmodel import constants
from engine.savedmodel.saved_objects import SignatureMap, function_attributes


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


def _function_to_export(root, graph):
    """find_function_to_export: the root's one tf.function with traces, if it has an
    input signature."""
    traced = [function for _, function in function_attributes(root)
              if function.concrete_functions(graph)]
    if len(traced) == 1 and traced[0].input_signature is not None:
        return traced[0]
    return None


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


def _base_name(concrete):
    """`apply` of `__inference_apply_3`."""
    name = concrete.name.decode()
    name = name[len("__inference_"):] if name.startswith("__inference_") else name
    return name.rsplit("_", 1)[0] if name.rsplit("_", 1)[-1].isdigit() else name


def _wrapper(concrete):
    """The signature function of `concrete`, traced in the current graph."""
    specs = nest.flatten(list(concrete.structured_input_signature[0]))
    base = _base_name(concrete)

    def signature_wrapper(*args):
        return _normalized_outputs(concrete(*args), base)

    return Function(signature_wrapper, f"signature_wrapper_{base}",
                    input_signature=specs).get_concrete_function()


def signature_functions(root, signatures, graph):
    """The SignatureMap tf.saved_model.save writes for `signatures=` (None, one function or
    a dict of them)."""
    if signatures is None:
        found = _function_to_export(root, graph)
        signatures = {} if found is None else {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: found}
    elif not isinstance(signatures, dict):
        signatures = {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    concretes = {}
    for key, value in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Expected a string signature key, got {key!r}.")
        concretes[key] = _concrete(value)
    return SignatureMap((key, _wrapper(concrete)) for key, concrete in concretes.items())
