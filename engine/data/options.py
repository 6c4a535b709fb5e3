"""tf.data.Options and its groups (threading, experimental_optimization, autotune,
experimental_distribute, experimental_service), as TensorFlow's data/ops/options.py declares
them: type-checked properties with TensorFlow's defaults, merged as options_lib.merge_options
merges them, and serialized as the dataset_options.proto Options that an OptionsDataset op
carries in its serialized_options attr (written here field by field; each option group is
a table of (name, proto field number, type, default)).

>>> options = Options()
>>> options.threading.private_threadpool_size = 4
>>> options.serialize()
b'\\x12\\x00\\x1a\\x00*\\x02\\x10\\x04:\\x00b\\x00'
"""

import enum

from engine.framework import varint
from engine.platform import tf_logging as logging


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class AutoShardPolicy(enum.IntEnum):
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


_varint = varint.encode  # (negative int32/int64 values take ten bytes, as protobuf writes them)


def _field(number, value):
    """One field of a proto message: varint for bools, ints and enums, length-delimited for
    strings and messages."""
    if isinstance(value, OptionsBase):
        body = value.serialize()
        return _varint(number << 3 | 2) + _varint(len(body)) + body
    if isinstance(value, str):
        body = value.encode()
        return _varint(number << 3 | 2) + _varint(len(body)) + body
    if isinstance(value, enum.Enum):
        value = value.value
    return _varint(number << 3) + _varint(int(value))


class OptionsBase:
    """Options of one group: _OPTIONS is [(name, proto field, type, default factory)];
    a message field is always written, a scalar one only once set to something but None."""

    _OPTIONS = ()

    def __init__(self):
        object.__setattr__(self, "_options", {})
        object.__setattr__(self, "_mutable", True)

    def __getattr__(self, name):
        for option, _, _, default in type(self)._OPTIONS:
            if option == name:
                if name not in self._options:
                    self._options[name] = default()
                return self._options[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if not self._mutable:
            raise ValueError("Mutating `tf.data.Options()` returned by "
                             "`tf.data.Dataset.options()` has no effect. Use "
                             "`tf.data.Dataset.with_options(options)` to set or "
                             "update dataset options.")
        for option, _, kind, _ in type(self)._OPTIONS:
            if option == name:
                if not isinstance(value, kind):
                    raise TypeError(f'Property "{name}" must be of type {kind}, got: {value} '
                                    f"(type: {type(value)})")
                self._options[name] = value
                return
        raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")

    def __eq__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name)
                   for name in set(self._options) | set(other._options))

    def __ne__(self, other):
        if isinstance(other, self.__class__):
            return not self.__eq__(other)
        return NotImplemented

    __hash__ = None   # unhashable, as TensorFlow's (it defines __eq__ only)

    def _set_mutable(self, mutable):
        object.__setattr__(self, "_mutable", mutable)
        for name, _, kind, _ in type(self)._OPTIONS:
            if isinstance(kind, type) and issubclass(kind, OptionsBase):
                getattr(self, name)._set_mutable(mutable)

    def serialize(self):
        """The group as its dataset_options.proto message, fields in number order."""
        fields = []
        for name, number, kind, _ in type(self)._OPTIONS:
            value = getattr(self, name)
            if number is None or value is None:
                continue
            if isinstance(value, list):
                fields.extend((number, item) for item in value)
            elif not (name == "auto_shard_policy" and value == AutoShardPolicy.AUTO):
                fields.append((number, value))   # proto3 leaves a non-optional enum's 0 out
        return b"".join(_field(number, value) for number, value in sorted(
            fields, key=lambda field: field[0]))


def merge_options(*options_list):
    """options_lib.merge_options: each set option of a later object wins (with a warning
    where two set it differently); groups merge recursively."""
    if len(options_list) < 1:
        raise ValueError("At least one options should be provided")
    result_type = type(options_list[0])
    for options in options_list:
        if not isinstance(options, result_type):
            raise TypeError(f"Could not merge incompatible options of type {type(options)} "
                            f"and {result_type}.")
    if not isinstance(options_list[0], OptionsBase):
        raise TypeError(f"All options to be merged should inherit from `OptionsBase` but "
                        f"found option of type {type(options_list[0])} which does not.")
    default_options, result = result_type(), result_type()
    for options in options_list:
        for name in options._options:
            this, that = getattr(result, name), getattr(options, name)
            default = getattr(default_options, name)
            if that == default:
                continue
            if this == default:
                setattr(result, name, that)
            elif isinstance(this, OptionsBase):
                setattr(result, name, merge_options(this, that))
            elif name == "framework_type":
                setattr(result, name, this + that)
            elif this != that:
                logging.warning("Changing the value of option %s from %r to %r.", name, this,
                                that)
                setattr(result, name, that)
    return result


def _none():
    return None


class AutotuneOptions(OptionsBase):
    _OPTIONS = (("enabled", 1, bool, _none), ("cpu_budget", 2, int, _none),
                ("ram_budget", 3, int, _none), ("autotune_algorithm", 4, AutotuneAlgorithm, _none),
                ("initial_parallelism", 5, int, _none), ("min_parallelism", 6, int, _none))


class DistributeOptions(OptionsBase):
    _OPTIONS = (("auto_shard_policy", 1, AutoShardPolicy, lambda: AutoShardPolicy.AUTO),
                ("num_devices", 2, int, _none))


class OptimizationOptions(OptionsBase):
    _OPTIONS = tuple((name, number, bool, _none) for name, number in (
        ("apply_default_optimizations", 1), ("filter_fusion", 6), ("map_and_batch_fusion", 9),
        ("map_and_filter_fusion", 10), ("map_fusion", 11), ("map_parallelization", 12),
        ("noop_elimination", 14), ("parallel_batch", 15), ("shuffle_and_repeat_fusion", 17),
        ("filter_parallelization", 18), ("inject_prefetch", 19),
        ("seq_interleave_prefetch", 21)))


class ServiceOptions(OptionsBase):
    _OPTIONS = (("pinned", 1, bool, _none),)


class ThreadingOptions(OptionsBase):
    """tf.data.ThreadingOptions: max_intra_op_parallelism, private_threadpool_size."""

    _OPTIONS = (("max_intra_op_parallelism", 1, int, _none),
                ("private_threadpool_size", 2, int, _none))


class Options(OptionsBase):
    """tf.data.Options. experimental_deterministic and experimental_threading are TensorFlow's
    old names of deterministic and threading."""

    _OPTIONS = (("deterministic", 1, bool, _none),
                ("experimental_distribute", 2, DistributeOptions, DistributeOptions),
                ("experimental_optimization", 3, OptimizationOptions, OptimizationOptions),
                ("experimental_slack", 4, bool, _none),
                ("threading", 5, ThreadingOptions, ThreadingOptions),
                ("experimental_external_state_policy", 6, ExternalStatePolicy, _none),
                ("autotune", 7, AutotuneOptions, AutotuneOptions),
                ("experimental_symbolic_checkpoint", 8, bool, _none),
                ("experimental_warm_start", 9, bool, _none),
                ("dataset_name", 10, str, _none), ("framework_type", 11, list, _none),
                ("experimental_service", 12, ServiceOptions, ServiceOptions))
    _OLD_NAMES = {"experimental_deterministic": "deterministic",
                  "experimental_threading": "threading"}

    def __getattr__(self, name):
        if name == "experimental_threading":
            logging.warning("options.experimental_threading is deprecated. "
                            "Use options.threading instead.")
        return super().__getattr__(self._OLD_NAMES.get(name, name))

    def __setattr__(self, name, value):
        if name == "experimental_threading":
            logging.warning("options.experimental_threading is deprecated. "
                            "Use options.threading instead.")
        super().__setattr__(self._OLD_NAMES.get(name, name), value)

    def merge(self, options):
        return merge_options(self, options)
