"""Keras weights in HDF5, listed as a checkpoint's variables are: name, dtype, shape, size, and
each value read when asked (`info` and the TUI's checkpoint views take either).

Two layouts: a .keras zip's model.weights.h5 (Keras 3's saving_lib: `layers/<attr>/vars/<i>`,
each `vars` group naming its layer, the optimizer's under `optimizer/vars`) and a legacy
.h5's `model_weights` (per layer its `weight_names`; `optimizer_weights` beside it). A weight
is called by the layer node it belongs to in the Keras graph (parsers/keras_config.py:
`model/layer/kernel`; a .keras file stores no weight names, so `model/layer/vars/0`), and
keeps its HDF5 path as its key.

h5py reads the HDF5 (the `keras` extra): it is imported only for these files (about 0.1 s).
libhdf5 crashes on some damaged files, so every read of a file's content runs in a forked
child (parsers/isolated_call.py): a crash is an error naming the file. Only hard links are followed (an external link would open another file), external and
virtual datasets are refused, and a dataset that would inflate past what its file holds
(a compression bomb, a huge shape with no data) is refused when its value is asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from parsers import isolated_call
from parsers.errors import InputError

EXTRA = "pip install 'graph-inspector[keras]'"
MAX_DEPTH = 32
MAX_OBJECTS = 200_000
# A dataset may hold this much more than its file stores (compression) before it is refused.
MAX_INFLATION = 1024
SMALL_BYTES = 64 << 20  # below this no dataset is too inflated to read
PREFETCH_BYTES = 32 << 20  # read with the weight asked for: the ones after it, up to this


def import_h5py(path):
    """h5py, or InputError naming the extra that brings it."""
    try:
        import h5py
    except ImportError:
        raise InputError(path, f"an HDF5 file (Keras .h5 weights): reading it needs h5py, the "
                               f"`keras` extra: {EXTRA}") from None
    return h5py


@dataclass(frozen=True)
class WeightInfo:
    """One weight, as its HDF5 dataset describes it (no data read); key: the dataset's path."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    nbytes: int
    key: str
    partitioned: bool = False

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=object)) if self.shape else 1


class KerasWeights:
    """A Keras model's weights, read like a parsers.checkpoint.Checkpoint: `variables` at once,
    each value on demand. `open_file()` gives the h5py.File anew for each read (a context
    manager), so nothing stays open between reads."""

    def __init__(self, path, prefix, open_file, variables):
        self.path, self.prefix = str(path), prefix
        self._open_file = open_file
        self.variables = variables
        self._by_name = {}
        for info in variables:
            self._by_name.setdefault(info.key, info)
            self._by_name.setdefault(info.name, info)
        self._cache = {}

    num_shards = 1

    def files(self):
        return []  # the model file itself, already listed

    def __contains__(self, name):
        return name in self._by_name

    def info(self, name):
        if name not in self._by_name:
            raise InputError(self.path, f"{name}: no such weight in this model")
        return self._by_name[name]

    def value(self, name, progress=None):
        """The weight's value as a NumPy array, read from the file now (and kept). The weights
        after it are read too, up to PREFETCH_BYTES, in the same child process (a reader of
        every value, as `info`, then forks once per batch, not per weight)."""
        info = self.info(name)
        if info.key not in self._cache:
            batch = self._batch_from(info)
            self._cache.update(isolated_call.call(self.path, lambda: self._read_values(batch)))
        if progress is not None:
            progress(info.nbytes, info.nbytes)
        return self._cache[info.key]

    def _batch_from(self, first):
        batch, total = [first], first.nbytes
        for info in self.variables[self.variables.index(first) + 1:]:
            if info.key in self._cache or any(info.key == b.key for b in batch):
                continue
            if total + info.nbytes > PREFETCH_BYTES:
                break
            batch.append(info)
            total += info.nbytes
        return batch

    def _read_values(self, batch):
        """{key: value} of the batch (run in the child): the first weight or its error; a later
        one that fails is left out, to be read (and fail) alone when asked for."""
        values = {}
        with self._open_file() as h5file:
            for number, info in enumerate(batch):
                try:
                    values[info.key] = self._read(h5file, info)
                except InputError:
                    if not number:
                        raise
        return values

    def _read(self, h5file, info):
        dataset = _member(self.path, h5file, info.key)
        if dataset is None or not hasattr(dataset, "shape"):
            raise InputError(self.path, f"{info.key}: gone from the file")
        stored = dataset.id.get_storage_size()
        if info.nbytes > SMALL_BYTES and info.nbytes > stored * MAX_INFLATION:
            raise InputError(self.path, f"{info.key}: {info.nbytes} bytes from {stored} stored: "
                                        "inflates more than any weight file does; not read")
        try:
            value = np.asarray(dataset[()])
        except (OSError, ValueError, TypeError) as error:
            raise InputError(self.path, f"{info.key}: {_reason(error)}") from None
        return value.astype(object) if value.dtype.kind in "SU" else value

    def slices(self, name):
        self.info(name)
        return []

    def forget(self, name):
        info = self._by_name.get(name)
        self._cache.pop(info.key if info is not None else name, None)


def _reason(error):
    """h5py's words for what failed, without its `Unable to ...` frame and errno noise."""
    text = str(error)
    match = re.search(r"\(([^()]*)\)\s*$", text)
    return match.group(1) if match else text


def hdf5_error(path, error):
    """The InputError for an h5py failure to open or walk a file."""
    return InputError(path, f"not a readable HDF5 file: {_reason(error)}")


# ---- the two layouts --------------------------------------------------------------------------


def legacy_weights(path, h5file, model_name):
    """The weights of a legacy .h5 (`model_weights`, `optimizer_weights`), in file order."""
    weights = []
    root = _group(path, h5file, "model_weights")
    if root is not None:
        for layer in _names(path, root, "layer_names"):
            group = _group(path, root, layer)
            if group is None:
                continue
            names = {}
            for weight in _names(path, group, "weight_names"):
                name = _legacy_name(model_name, layer, weight)
                name = name if name not in names else f"{layer}/{weight}"
                names[name] = weight
                weights.append(_info(path, group, weight, name))
    optimizer = _group(path, h5file, "optimizer_weights")
    if optimizer is not None:
        for weight in _names(path, optimizer, "weight_names"):
            weights.append(_info(path, optimizer, weight, f"optimizer/{_tensor_free(weight)}"))
    return weights


def _legacy_name(model_name, layer, weight):
    """A legacy weight's name under its layer's node: `model/layer/kernel` for `layer/kernel:0`,
    `model/sequential/conv/kernel` or `inner/kernel` under `block` as `model/block/inner/kernel`.

    >>> _legacy_name("m", "conv", "m/conv/kernel"), _legacy_name("m", "inner", "pre/kernel:0")
    ('m/conv/kernel', 'm/inner/pre/kernel')
    """
    parts = _tensor_free(weight).split("/")
    tail = parts[parts.index(layer):] if layer in parts else [layer] + parts
    return "/".join([model_name] + tail) if model_name else "/".join(tail)


def _tensor_free(name):
    """A weight name without TensorFlow's output suffix: `kernel:0` -> `kernel`."""
    return re.sub(r":\d+$", "", name)


def saved_weights(path, h5file, model_name, layer_names):
    """The weights of a Keras 3 model.weights.h5, in file order (vars numerically).

    layer_names: for each container path (`layers`, `layers/functional/layers`), the layer
    name each of its keys means, from the config; a `vars` group's own `name` attr wins."""
    weights, count = [], [0]
    for key in _hard_links(path, h5file, count):
        member = h5file[key]
        if not _is_group(member):
            continue
        # The model's own layers and variables are named under it, as its graph's nodes are;
        # the optimizer's and the rest under their attribute.
        scope = [model_name] if key in ("layers", "vars") and model_name else []
        _walk_saved(path, member, key, scope + ([] if key in ("layers", "vars") else [key]),
                    layer_names, weights, count, 1)
    return weights


def _walk_saved(path, group, where, scope, layer_names, weights, count, depth):
    if depth > MAX_DEPTH:
        raise InputError(path, f"{where}: groups nested more than {MAX_DEPTH} deep")
    if where == "vars" or where.endswith("/vars"):
        for index in sorted(_hard_links(path, group, count), key=_number_first):
            weights.append(_info(path, group, index, "/".join(scope + ["vars", index]), f"{where}/{index}"))
        return
    container = where == "layers" or where.endswith("/layers")
    for key in _hard_links(path, group, count):
        member = group[key]
        if not _is_group(member):
            continue
        if container:  # a layer: called by its name
            name = [_vars_name(path, member) or layer_names.get(where, {}).get(key, key)]
        else:  # its variables, its layers, or an attribute holding more
            name = [] if key in ("vars", "layers") else [key]
        _walk_saved(path, member, f"{where}/{key}", scope + name, layer_names, weights, count, depth + 1)


def _vars_name(path, group):
    vars_group = _member(path, group, "vars")
    name = vars_group.attrs.get("name") if vars_group is not None and _is_group(vars_group) else None
    name = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
    return name if isinstance(name, str) and name else None


def _number_first(key):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def _is_group(member):
    return hasattr(member, "keys") and not hasattr(member, "shape")


def _hard_links(path, group, count):
    """The names of a group's members that are hard links (no soft or external link is
    followed: one could loop, the other opens another file)."""
    names = []
    for key in group.keys():
        count[0] += 1
        if count[0] > MAX_OBJECTS:
            raise InputError(path, f"more than {MAX_OBJECTS} HDF5 objects: not a Keras weights file")
        if _is_hard_link(group, key):
            names.append(key)
    return names


def _is_hard_link(group, key):
    import h5py
    return isinstance(group.get(key, getlink=True), h5py.HardLink)


def _member(path, group, relative):
    """The object at `relative` (`a/b/kernel:0`) under `group` through hard links only, or None."""
    for part in relative.split("/"):
        if not _is_group(group) or part in ("", ".") or part not in group \
                or not _is_hard_link(group, part):
            return None
        group = group[part]
    return group


def _group(path, parent, key):
    member = _member(path, parent, key)
    if member is not None and not _is_group(member):
        raise InputError(path, f"{key}: a dataset where Keras writes a group")
    return member


def _names(path, group, attr):
    """A string-list attr (`layer_names`, `weight_names`): h5py gives bytes or str."""
    values = group.attrs.get(attr)
    if values is None:
        return []
    values = np.asarray(values).ravel().tolist()
    names = [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in values]
    if not all(isinstance(v, str) for v in names):
        if all(isinstance(v, float) for v in names):  # h5py reads an empty list as float64
            return []
        raise InputError(path, f"{group.name}: {attr} is not a list of names")
    return names


def _info(path, group, key, name, where=None):
    where = where or f"{group.name.lstrip('/')}/{key}"
    dataset = _member(path, group, key)
    if dataset is None or not hasattr(dataset, "shape"):
        raise InputError(path, f"{where}: named as a weight but no dataset")
    if dataset.is_virtual or dataset.external:
        raise InputError(path, f"{where}: its data lies in other files; not read")
    dtype = dataset.dtype
    if dtype.kind not in "biufcSUO" or (dtype.kind == "O" and not _holds_strings(path, dtype)):
        raise InputError(path, f"{where}: a {_described(path, dtype)} dataset, not a tensor")
    if dataset.shape is None:  # HDF5's null dataspace (h5py.Empty): no shape, no elements
        raise InputError(path, f"{where}: an empty dataset (null dataspace), not a tensor")
    shape = tuple(int(d) for d in dataset.shape)
    size = int(np.prod(shape, dtype=object)) if shape else 1
    kind = "string" if dtype.kind in "SUO" else dtype.name
    return WeightInfo(name, kind, shape, size * dtype.itemsize, dataset.name.lstrip("/"))


def _holds_strings(path, dtype):
    # h5py gives every variable-length type NumPy's object kind: strings are tensors, a
    # variable-length sequence of numbers (a ragged dataset) is not.
    return import_h5py(path).check_string_dtype(dtype) is not None


def _described(path, dtype):
    element = import_h5py(path).check_vlen_dtype(dtype)
    return f"variable-length {element}" if element is not None and dtype.kind == "O" else str(dtype)


# ---- layer names from a config, for files whose vars groups do not name their layer ---------


def snake_case(name):
    """Keras's attribute name for a layer class (saving_lib: naming.to_snake_case).

    >>> snake_case("MaxPooling2D"), snake_case("BatchNormalization"), snake_case("Conv2D")
    ('max_pooling2d', 'batch_normalization', 'conv2d')
    """
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def config_layer_names(config, where="layers", found=None, depth=0):
    """{container path: {key: layer name}} as Keras 3 saves a model's layers: each under the
    snake case of its class, `_1`, `_2` after the first of a name (a Sequential's InputLayer
    is not among its layers)."""
    found = {} if found is None else found
    inner = config.get("config") if isinstance(config, dict) else None
    layers = inner.get("layers") if isinstance(inner, dict) else None
    if not isinstance(layers, list) or depth > MAX_DEPTH:
        return found
    used, names = {}, {}
    for layer in layers:
        if not isinstance(layer, dict) or not isinstance(layer.get("class_name"), str):
            continue
        if config.get("class_name") == "Sequential" and layer["class_name"] == "InputLayer":
            continue
        key = snake_case(layer["class_name"])
        used[key] = used.get(key, -1) + 1
        key = f"{key}_{used[key]}" if used[key] else key
        layer_config = layer.get("config")
        if isinstance(layer_config, dict) and isinstance(layer_config.get("name"), str):
            names[key] = layer_config["name"]
        config_layer_names(layer, f"{where}/{key}/layers", found, depth + 1)
    found[where] = names
    return found
