"""TensorFlow 1.x's remaining checkpoint_management and checkpoint_utils helpers:
generate_checkpoint_state_proto, get_checkpoint_mtimes, remove_checkpoint and
checkpoints_iterator (with wait_for_new_checkpoint), on the engine's state file."""

import glob
import os
import re
import time

from google.protobuf import text_format

from engine.checkpoint.bundle import index_path
from engine.checkpoint.state import STATE_FILE, latest_checkpoint
from engine.lib_io import file_io
from engine.platform import tf_logging
from engine.proto import checkpoint_state_pb2

# saver_pb2.SaverDef's checkpoint format versions
V1, V2 = 1, 2


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
    """The CheckpointState naming model_checkpoint_path last among all paths; with a relative
    save_dir, relative paths become relative to it."""
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if (not all_model_checkpoint_paths
            or all_model_checkpoint_paths[-1] != model_checkpoint_path):
        tf_logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.",
                        model_checkpoint_path)
        all_model_checkpoint_paths.append(model_checkpoint_path)
    if (all_model_checkpoint_timestamps
            and len(all_model_checkpoint_timestamps) != len(all_model_checkpoint_paths)):
        raise ValueError(("Checkpoint timestamps, if provided, must match checkpoint paths (got "
                          "paths %s and timestamps %s)")
                         % (all_model_checkpoint_paths, all_model_checkpoint_timestamps))
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        for i, p in enumerate(all_model_checkpoint_paths):
            if not os.path.isabs(p):
                all_model_checkpoint_paths[i] = os.path.relpath(p, save_dir)
    return checkpoint_state_pb2.CheckpointState(
        model_checkpoint_path=model_checkpoint_path,
        all_model_checkpoint_paths=all_model_checkpoint_paths,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification time (seconds) of each prefix's .index, else of the prefix itself;
    prefixes with neither are skipped."""
    mtimes = []

    def match_maybe_append(pathname):
        names = glob.glob(pathname)
        if names:
            mtimes.append(os.stat(names[0]).st_mtime_ns / 1e9)
            return True
        return False

    for prefix in checkpoint_prefixes:
        if not match_maybe_append(index_path(prefix)):
            match_maybe_append(prefix)
    return mtimes


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """The meta graph file beside a checkpoint: its name less any shard suffix, .meta."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


def _delete_file_if_exists(filespec):
    for pathname in glob.glob(filespec):
        try:
            os.remove(pathname)
        except FileNotFoundError:
            tf_logging.warning("Hit NotFoundError when deleting '%s', possibly because another "
                               "process/thread is also deleting/moving the same file",
                               pathname)


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=V2,
                      meta_graph_suffix="meta"):
    """Deletes a checkpoint's files (its .meta, .index and data shards, or a V1 file)."""
    _delete_file_if_exists(meta_graph_filename(checkpoint_prefix, meta_graph_suffix))
    if checkpoint_format_version == V2:
        _delete_file_if_exists(checkpoint_prefix + ".index")
        _delete_file_if_exists(checkpoint_prefix + ".data-?????-of-?????")
    else:
        _delete_file_if_exists(checkpoint_prefix)


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1,
                            timeout=None):
    """The newest checkpoint other than last_checkpoint, polling every seconds_to_sleep;
    None once timeout seconds have passed."""
    tf_logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        checkpoint_path = latest_checkpoint(checkpoint_dir)
        if checkpoint_path is None or checkpoint_path == last_checkpoint:
            if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
                return None
            time.sleep(seconds_to_sleep)
        else:
            tf_logging.info("Found new checkpoint at %s", checkpoint_path)
            return checkpoint_path


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new checkpoint of checkpoint_dir, at most one per min_interval_secs, until
    a wait of timeout seconds finds none (and timeout_fn, if given, says to stop)."""
    checkpoint_path = None
    while True:
        new_checkpoint_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path,
                                                      timeout=timeout)
        if new_checkpoint_path:
            start = time.time()
            checkpoint_path = new_checkpoint_path
            yield checkpoint_path
            time_to_next_eval = start + min_interval_secs - time.time()
            if time_to_next_eval > 0:
                time.sleep(time_to_next_eval)
        elif timeout_fn is None:
            tf_logging.info("Timed-out waiting for a checkpoint (without timeout_fn).")
            return
        if timeout_fn is not None and timeout_fn():
            tf_logging.info("Done. No new checkpoints will be generated.")
            return


def update_checkpoint_state_internal(save_dir, model_checkpoint_path,
                                     all_model_checkpoint_paths=None, latest_filename=None,
                                     save_relative_paths=False,
                                     all_model_checkpoint_timestamps=None,
                                     last_preserved_timestamp=None):
    """Writes the `checkpoint` state file as tf.train.Checkpoint and CheckpointManager do:
    with save_relative_paths, absolute paths relative to save_dir; timestamps as given."""
    def relative(path):
        return os.path.relpath(path, save_dir) if os.path.isabs(path) else path

    paths = list(all_model_checkpoint_paths or [])
    if save_relative_paths:
        model_checkpoint_path, paths = relative(model_checkpoint_path), [relative(p) for p in paths]
    state = generate_checkpoint_state_proto(
        save_dir, model_checkpoint_path, all_model_checkpoint_paths=paths,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)
    state_path = os.path.join(save_dir, latest_filename or STATE_FILE)
    if state_path == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           "checkpoint state.  Please use a different save path.")
    file_io.write_atomically(state_path, text_format.MessageToString(state))
