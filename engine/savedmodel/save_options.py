"""tf.saved_model.SaveOptions and tf.saved_model.Asset as TensorFlow 2.21 makes them (its
save_options.py and trackable/asset.py): the options' defaults and checks, an asset's path
as a string constant on the CPU."""

import enum
import os

from engine.framework import dtypes
from engine.framework.graph import get_default_graph, init_scope
from engine.ops.convert import convert_to_tensor


class VariablePolicy(enum.Enum):
    """How variables are saved (tf.saved_model.experimental.VariablePolicy)."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    @staticmethod
    def from_obj(obj):
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == policy.value:
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


class SaveOptions:
    """Options for saving to SavedModel."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_debug_stripper", "experimental_io_device",
                 "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver",
                 "experimental_sharding_callback", "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = _validate_namespace_whitelist(namespace_whitelist)
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else dict()
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(
            experimental_variable_policy)
        self.experimental_skip_saver = experimental_skip_saver
        if experimental_image_format:
            raise ValueError("The option `experimental_image_format` is disabled in OSS.")
        self.experimental_image_format = experimental_image_format
        if experimental_sharding_callback is not None:
            # TensorFlow's message, its missing spaces too.
            raise ValueError(
                "The experimental_sharding_callback checkpoint option"
                "must be of type ShardingCallback. The option provided"
                f"was of type {type(experimental_sharding_callback)}.")
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


def _validate_namespace_whitelist(namespace_whitelist):
    if namespace_whitelist is None:
        return None
    if not isinstance(namespace_whitelist, list):
        raise TypeError(f"`namespace_whitelist` must be a list of strings. Got: "
                        f"{namespace_whitelist} with type {type(namespace_whitelist)}.")
    processed = []
    for namespace in namespace_whitelist:
        if not isinstance(namespace, str):
            raise ValueError(f"Whitelisted namespace must be a string. Got: {namespace} of "
                             f"type {type(namespace)}.")
        processed.append(namespace)
    return processed


class Asset:
    """A file a SavedModel carries; asset_path is its path, a string constant."""

    def __init__(self, path):
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        graph = get_default_graph()
        with init_scope(), graph.device("CPU"):
            self._path = convert_to_tensor(path, dtype=dtypes.string, name="asset_path")

    @property
    def asset_path(self):
        return self._path
