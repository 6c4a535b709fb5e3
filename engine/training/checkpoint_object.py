"""tf.train.Checkpoint (TensorFlow's CheckpointV1 in graph mode), CheckpointOptions and
CheckpointManager.

A Checkpoint tracks the objects given as keyword arguments (sorted by name) and a
`save_counter` variable made when first needed; save() numbers checkpoints with it and writes
the `checkpoint` state file with relative paths, write() only writes. CheckpointManager numbers,
keeps max_to_keep checkpoints (and one every keep_checkpoint_every_n_hours) and records them,
with their timestamps, in the state file tf.train.latest_checkpoint reads.
"""

import collections
import copy
import os
import time

from engine.checkpoint import management
from engine.checkpoint.state import get_checkpoint_state
from engine.framework import dtypes
from engine.framework.default_graph import get_default_session
from engine.framework.graph import get_default_graph
from engine.ops.variables import ResourceVariable
from engine.platform import tf_logging
from engine.training import object_saver, trackable_graph


class CheckpointOptions:
    """Options for Checkpoint.save/write/restore (tf.train.CheckpointOptions)."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint",
                 "experimental_write_callbacks", "enable_async",
                 "experimental_skip_slot_variables", "experimental_sharding_callback")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.enable_async = experimental_enable_async_checkpoint or enable_async
        self.experimental_enable_async_checkpoint = self.enable_async
        if experimental_write_callbacks is not None:
            for callback in experimental_write_callbacks:
                if not callable(callback):
                    raise TypeError(f"Callbacks must be callable, got {callback!r}")
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback

    def __copy__(self):
        result = CheckpointOptions()
        for name in self.__slots__:
            setattr(result, name, getattr(self, name))
        if self.experimental_write_callbacks is not None:
            result.experimental_write_callbacks = list(self.experimental_write_callbacks)
        return result


class Checkpoint:
    """Groups trackable objects, saving and restoring them (tf.compat.v1.train.Checkpoint)."""

    def __init__(self, **kwargs):
        self._children = []
        for name, value in sorted(kwargs.items(), key=lambda item: item[0]):
            if not trackable_graph.is_trackable(value):
                raise ValueError("`Checkpoint` was expecting a trackable object (an object "
                                 f"derived from `Trackable`), got {value}. If you believe this "
                                 "object should be trackable (i.e. it is part of the "
                                 "TensorFlow Python API and manages state), please open an "
                                 "issue.")
            object.__setattr__(self, name, value)
            self._children.append((name, value))
        self._save_counter = None
        self._save_assign_op = None
        self._saver = object_saver.TrackableSaver(self)

    def __setattr__(self, name, value):
        # An attribute holding a trackable is a dependency, as AutoTrackable tracks it.
        object.__setattr__(self, name, value)
        if not name.startswith("_") and trackable_graph.is_trackable(value):
            self._children = [(n, v) for n, v in self._children if n != name] + [(name, value)]

    def _trackable_children(self):
        return list(self._children)

    def _maybe_create_save_counter(self):
        if self._save_counter is None:
            graph = get_default_graph()
            with graph.name_scope(None), graph.device("/cpu:0"):
                self._save_counter = ResourceVariable(0, name="save_counter", dtype=dtypes.int64,
                                                      trainable=False)
            self._children.append(("save_counter", self._save_counter))
            return True
        return False

    @property
    def save_counter(self):
        """An int64 variable incremented by save(), numbering checkpoints."""
        self._maybe_create_save_counter()
        return self._save_counter

    def write(self, file_prefix, session=None, options=None):
        """Writes a checkpoint at file_prefix (no numbering, no state file); returns it."""
        return self._write(file_prefix, session, options)

    def _write(self, file_prefix, session=None, options=None):
        output = self._saver.save(os.fspath(file_prefix), session=session)
        if options is not None and options.experimental_write_callbacks is not None:
            for callback in options.experimental_write_callbacks:
                callback(output)
        return output

    def save(self, file_prefix, session=None, options=None):
        """Writes `<file_prefix>-<save_counter + 1>` and names it in the state file."""
        session = session or object_saver.get_session()
        if self._save_counter is None:
            self._maybe_create_save_counter()
            session.run(self._save_counter.initializer)
        if self._save_assign_op is None:
            graph = get_default_graph()
            with graph.colocate_with(self._save_counter.op):
                self._save_assign_op = self._save_counter.assign_add(1, read_value=True)
        checkpoint_number = session.run(self._save_assign_op)
        file_path = self.write("%s-%d" % (file_prefix, checkpoint_number), session=session,
                               options=options)
        management.update_checkpoint_state_internal(
            save_dir=os.path.dirname(file_prefix), model_checkpoint_path=file_path,
            all_model_checkpoint_paths=[file_path], save_relative_paths=True)
        return file_path

    def restore(self, save_path):
        """A load status for save_path: restore ops to run, assertions on what matched."""
        status = self._saver.restore(save_path)
        if self._maybe_create_save_counter() and isinstance(
                status, object_saver.CheckpointLoadStatus):
            status._checkpoint.match()  # restored when made, as TensorFlow's deferred restore
        if isinstance(status, object_saver.NameBasedSaverStatus):
            status.add_to_optionally_restored(self.save_counter)
        return status


class CheckpointManager:
    """Keeps the last max_to_keep checkpoints of a Checkpoint in a directory."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None, last_checkpoint_step=None):
        self._checkpoint = checkpoint
        self._save_counter_assign = None
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(("Expected a positive integer or `None` for `max_to_keep`, "
                              "got %d.") % (max_to_keep,))
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        directory = os.fspath(directory)
        self._directory = directory
        self._checkpoint_prefix = os.path.join(directory, checkpoint_name)
        self._init_fn = init_fn
        if checkpoint_interval is not None:
            if step_counter is None:
                raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                                 "not None.")
            self._last_checkpoint_step = last_checkpoint_step
            self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        recovered_state = get_checkpoint_state(directory)
        current_clock = time.time()
        self._maybe_delete = collections.OrderedDict()
        if recovered_state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = current_clock - 1.
        else:
            self._latest_checkpoint = recovered_state.model_checkpoint_path
            self._last_preserved_timestamp = recovered_state.last_preserved_timestamp
            if current_clock < self._last_preserved_timestamp:
                tf_logging.warning("time.time() returned a value %f seconds behind the last "
                                   "preserved checkpoint timestamp."
                                   % (self._last_preserved_timestamp - current_clock,))
                self._last_preserved_timestamp = current_clock
            all_timestamps = recovered_state.all_model_checkpoint_timestamps
            all_paths = recovered_state.all_model_checkpoint_paths
            if not all_timestamps:
                all_timestamps = [self._last_preserved_timestamp] * len(all_paths)
            for filename, timestamp in zip(all_paths, all_timestamps):
                timestamp = min(timestamp, current_clock)
                if timestamp > self._last_preserved_timestamp:
                    self._maybe_delete[filename] = timestamp

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's prefix, or None."""
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The managed checkpoints, oldest first (not those kept by the hours rule)."""
        return list(self._maybe_delete.keys())

    @property
    def checkpoint(self):
        return self._checkpoint

    def _sweep(self):
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            filename, timestamp = self._maybe_delete.popitem(last=False)
            if (self._keep_checkpoint_every_n_hours
                    and (timestamp - self._keep_checkpoint_every_n_hours * 3600.
                         >= self._last_preserved_timestamp)):
                self._last_preserved_timestamp = timestamp
                continue
            management._delete_file_if_exists(filename + ".index")
            management._delete_file_if_exists(filename + ".data-?????-of-?????")

    def _record_state(self):
        filenames, timestamps = zip(*self._maybe_delete.items())
        management.update_checkpoint_state_internal(
            self._directory, model_checkpoint_path=self.latest_checkpoint,
            all_model_checkpoint_paths=filenames, all_model_checkpoint_timestamps=timestamps,
            last_preserved_timestamp=self._last_preserved_timestamp, save_relative_paths=True)

    def _evaluate(self, tensor, session):
        return int(session.run(tensor))

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes `<directory>/<checkpoint_name>-<number>`, records it and deletes old ones;
        returns its path (None when the interval has not passed)."""
        session = get_default_session()
        if self._checkpoint_interval is not None:
            current_step = self._evaluate(self._step_counter, session)
            if self._last_checkpoint_step is not None:
                if current_step == self._last_checkpoint_step:
                    return None
                if check_interval and current_step < (self._last_checkpoint_step
                                                      + self._checkpoint_interval):
                    return None
            self._last_checkpoint_step = current_step
        if self._checkpoint._maybe_create_save_counter():
            session.run(self._checkpoint.save_counter.initializer)
        save_counter = self._checkpoint.save_counter
        if self._save_counter_assign is None:
            self._save_counter_assign = save_counter.assign_add(1, read_value=False)
        session.run(self._save_counter_assign)
        if checkpoint_number is None:
            checkpoint_number = save_counter
        if not isinstance(checkpoint_number, int):
            checkpoint_number = self._evaluate(checkpoint_number, session)
        prefix = "%s-%d" % (self._checkpoint_prefix, checkpoint_number)

        def _record_and_sweep_state(save_path):
            timestamp = time.time()
            self._maybe_delete.pop(save_path, None)
            self._maybe_delete[save_path] = timestamp
            self._latest_checkpoint = save_path
            self._record_state()
            self._sweep()
            self._record_state()

        if options is None:
            options = CheckpointOptions(experimental_write_callbacks=[_record_and_sweep_state])
        else:
            options = copy.copy(options)
            options.experimental_write_callbacks = (
                list(options.experimental_write_callbacks or []) + [_record_and_sweep_state])
        return self._checkpoint._write(prefix, session=session, options=options)

    def restore_or_initialize(self):
        """Restores the latest checkpoint (returning its path) or calls init_fn (None)."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = self._evaluate(self._step_counter,
                                                            get_default_session())
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
            tf_logging.info("Customized initialization is done through the passed `init_fn`.")
        return None

    def sync(self):
        """Waits for outstanding saves (the engine's are synchronous)."""
