"""The `checkpoint` state file (CheckpointState as text) and finding checkpoints: latest_checkpoint, checkpoint_exists.

TensorFlow's checkpoint_management: the file names the latest prefix and those kept; a
relative path is relative to the file's directory. An absolute path that is gone is looked
for beside the file too, as after a training directory was copied elsewhere.
"""

import glob
import os

from google.protobuf import text_format

from engine.checkpoint.bundle import index_path
from engine.framework import errors
from engine.lib_io import file_io
from engine.platform import tf_logging
from engine.proto import checkpoint_state_pb2

STATE_FILE = "checkpoint"
# A state file names a few prefixes; one of megabytes is not a CheckpointState.
MAX_STATE_BYTES = 16 << 20


def checkpoint_exists(prefix):
    """Whether a V2 checkpoint (its .index) is at `prefix`."""
    return os.path.isfile(index_path(prefix))


def checkpoint_files(prefix):
    """The files of a checkpoint: its .index and every .data shard."""
    return [index_path(prefix)] + sorted(glob.glob(glob.escape(prefix) + ".data-?????-of-?????"))


class NotACheckpointState(ValueError):
    """A state file whose text does not parse as a CheckpointState (parse_error: why)."""

    def __init__(self, path, parse_error):
        super().__init__(f"{path}: not a CheckpointState: {parse_error}")
        self.parse_error = parse_error


def read_state(directory, latest_filename=None):
    """The CheckpointState in `directory`, or None when there is no state file.

    Raises NotACheckpointState when the text does not parse, ValueError when it names no
    model_checkpoint_path, UnicodeDecodeError when it is no UTF-8 (as TensorFlow's read),
    and TensorFlow's OpError when it cannot be read (not a regular file, too big)."""
    path = os.path.join(directory, latest_filename or STATE_FILE)
    if not os.path.lexists(path):
        return None
    text = file_io.read_file(path, MAX_STATE_BYTES).decode("utf-8")
    try:
        state = text_format.Parse(text, checkpoint_state_pb2.CheckpointState())
    except text_format.ParseError as error:
        raise NotACheckpointState(path, error) from None
    if not state.model_checkpoint_path:
        raise ValueError(f"{path}: names no model_checkpoint_path")
    return state


def resolve(directory, path):
    """A path from a state file as it can be opened: joined to the directory when relative;
    when absolute and gone, the same name in the directory if a checkpoint is there."""
    if not os.path.isabs(path):
        return os.path.join(directory, path)
    if not checkpoint_exists(path):
        moved = os.path.join(directory, os.path.basename(path))
        if checkpoint_exists(moved):
            return moved
    return path


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """tf.train.get_checkpoint_state: the state with its paths made openable, or None (as
    TensorFlow, also when the file cannot be read or does not parse, with a warning; one that
    names no checkpoint is TensorFlow's ValueError)."""
    try:
        state = read_state(checkpoint_dir, latest_filename)
    except (errors.OpError, NotACheckpointState) as error:
        if isinstance(error, NotACheckpointState):
            tf_logging.warning("ParseError: %s", error.parse_error)
        else:
            tf_logging.warning("%s: %s", type(error).__name__, error.message)
        tf_logging.warning("%s: Checkpoint ignored",
                           os.path.join(checkpoint_dir, latest_filename or STATE_FILE))
        return None
    except UnicodeDecodeError:
        raise  # as TensorFlow's read_file_to_string raises it
    except ValueError:
        raise ValueError(f"Invalid checkpoint state loaded from {checkpoint_dir}") from None
    if state is None:
        return None
    state.model_checkpoint_path = resolve(checkpoint_dir, state.model_checkpoint_path)
    paths = [resolve(checkpoint_dir, p) for p in state.all_model_checkpoint_paths]
    del state.all_model_checkpoint_paths[:]
    state.all_model_checkpoint_paths.extend(paths)
    return state


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """tf.train.latest_checkpoint: the newest checkpoint's prefix, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is not None and checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, save_relative_paths=False):
    """Write the state file as Saver.save does (the latest last among all paths)."""
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    if save_relative_paths:
        def relative(path):
            return os.path.relpath(path, save_dir or ".") if os.path.isabs(path) else path
        model_checkpoint_path, paths = relative(model_checkpoint_path), [relative(p) for p in paths]
    elif not os.path.isabs(save_dir):
        # generate_checkpoint_state_proto: with a relative save_dir, relative paths are
        # written relative to it, so a reader joining them to the directory finds them.
        def under_save_dir(path):
            return path if os.path.isabs(path) else os.path.relpath(path, save_dir or ".")
        model_checkpoint_path = under_save_dir(model_checkpoint_path)
        paths = [under_save_dir(p) for p in paths]
    state = checkpoint_state_pb2.CheckpointState(model_checkpoint_path=model_checkpoint_path,
                                                 all_model_checkpoint_paths=paths)
    path = os.path.join(save_dir, latest_filename or STATE_FILE)
    file_io.write_atomically(path, text_format.MessageToString(state))
