"""tf.train.NewCheckpointReader, load_checkpoint, list_variables, load_variable.

TF 1.x scripts inspect checkpoints through these: the names, shapes and dtypes a checkpoint
holds and any tensor's value, with TensorFlow's errors (NotFoundError for a prefix with no
files or a missing key, DataLossError for a damaged file). A directory stands for its latest
checkpoint, as in TensorFlow.
"""

import os

from engine.framework import dtypes
from engine.checkpoint.bundle import BundleError, BundleReader
from engine.checkpoint.state import latest_checkpoint
from engine.framework.errors import NotFoundError, OutOfRangeError
from engine.proto import types_pb2


class CheckpointReader:
    """The tensors of one checkpoint prefix (TensorFlow's py_checkpoint_reader)."""

    def __init__(self, prefix):
        try:
            self._bundle = BundleReader(prefix)
        except BundleError as error:
            if error.what.startswith("no such file"):
                raise NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: "
                                    f"Failed to find any matching files for {prefix}") from None
            raise error.error_class(None, None, str(error)) from None

    def has_tensor(self, name):
        return name in self._bundle.names

    def _known(self, name):
        if name not in self._bundle.names:
            raise NotFoundError(None, None, f"Key {name} not found in checkpoint")
        return name

    def get_variable_to_shape_map(self):
        return {name: self._bundle.shape_of(name) for name in self._bundle.names}

    def get_variable_to_dtype_map(self):
        return {name: dtypes.as_dtype(self._bundle.dtype(name)) for name in self._bundle.names}

    def get_tensor(self, name):
        """The stored value: an ndarray, or a NumPy scalar for a 0-d tensor (as TensorFlow)."""
        try:
            value = self._bundle.read(self._known(name))
        except BundleError as error:
            if error.error_class is OutOfRangeError:
                # TensorFlow's binding raises an out-of-range read as Python's IndexError.
                raise IndexError(error.tf_words or str(error)) from None
            raise error.error_class(None, None, str(error)) from None
        return value[()] if value.ndim == 0 else value

    def debug_string(self):
        """One line per tensor, `name (DT_FLOAT) [2,3]`, as bytes."""
        lines = [f"{name} ({types_pb2.DataType.Name(self._bundle.dtype(name))}) "
                 f"[{','.join(str(d) for d in self._bundle.shape_of(name))}]\n"
                 for name in self._bundle.names]
        return "".join(lines).encode()


def NewCheckpointReader(filepattern):  # noqa: N802  (TensorFlow's name)
    return CheckpointReader(filepattern)


def load_checkpoint(ckpt_dir_or_file):
    """A reader of the checkpoint itself or of a directory's latest checkpoint."""
    path = ckpt_dir_or_file
    if os.path.isdir(path):
        path = latest_checkpoint(path)
        if path is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {ckpt_dir_or_file}")
    return CheckpointReader(path)


def list_variables(ckpt_dir_or_file):
    """Sorted (name, shape) pairs of a checkpoint."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return sorted(shapes.items())


def load_variable(ckpt_dir_or_file, name):
    """One tensor's value; a trailing ':0' of a tensor name is dropped, as TensorFlow."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
