"""tf.summary.FileWriter (tf.train.SummaryWriter): TensorBoard event files from a graph and runs.

As TensorFlow 1.x's writer: the file is `events.out.tfevents.<seconds>.<hostname><suffix>` in
`logdir`, its first event carries file_version "brain.Event:2", a graph given to the
constructor is written as a graph_def event (and a meta_graph_def holding it, as TensorFlow
does), then every add_* call appends one event. Events are written as they come, through a
buffered file flushed every `max_queue` events, on flush() and on close().

A write that fails (a full disk, a read-only logdir) raises TensorFlow's error naming the
file or logdir (ResourceExhaustedError "PATH; No space left on device", PermissionDeniedError
"LOGDIR; Read-only file system", the words TensorFlow 2.21's writer raises for a read-only
logdir); TensorFlow 2.21 drops events on a full disk without a word, the engine says so.
"""

from __future__ import annotations

import os
import socket
import time

from engine.lib_io import file_io

from engine.proto import config_pb2, event_pb2, graph_pb2, meta_graph_pb2, summary_pb2
from engine.summary.record_writer import RecordWriter

FILE_VERSION = "brain.Event:2"


def event_file_name(now: float | None = None, suffix: str = "") -> str:
    """`events.out.tfevents.<10-digit seconds>.<hostname><suffix>`, TensorFlow's name."""
    seconds = int(time.time() if now is None else now)
    return f"events.out.tfevents.{seconds:010d}.{socket.gethostname()}{suffix or ''}"


class FileWriter:
    """Writes Event protocol buffers to an event file in `logdir` (created if missing)."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        self._logdir = os.fspath(logdir)
        file_io.recursively_create_dir(self._logdir)
        self._max_queue = max(int(max_queue), 1)
        self._flush_secs = flush_secs
        self._suffix = filename_suffix or ""
        self._tags_used = set()
        self._pending = 0
        self._closed = False
        self._open()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)
            self.add_meta_graph(_meta_graph_of(self._last_graph_def))

    def _open(self):
        path = os.path.join(self._logdir, event_file_name(suffix=self._suffix))
        # Two writers in one second on one host would share TensorFlow's name; keep both.
        base, number = path, 0
        while os.path.exists(path):
            number += 1
            path = f"{base}.{number}"
        self._path = path
        with file_io.tf_errors(path):
            self._records = RecordWriter(open(path, "wb"))  # noqa: SIM115 (closed by close())
        self._write(event_pb2.Event(wall_time=time.time(), file_version=FILE_VERSION))
        self.flush()

    # ---- what TensorFlow's writer offers -----------------------------------------------------

    def get_logdir(self):
        return self._logdir

    @property
    def path(self):
        """The event file being written."""
        return self._path

    def add_event(self, event):
        """Writes one Event as given (wall_time set where it is 0); a closed writer drops
        it, as TensorFlow's EventFileWriter does (a Supervisor stopped twice logs STOP to
        a closed writer)."""
        if self._closed:
            return
        if not event.wall_time:
            event.wall_time = time.time()
        self._write(event)
        self._pending += 1
        if self._pending >= self._max_queue:
            self.flush()

    def add_summary(self, summary, global_step=None):
        """A Summary (the proto, or its bytes as a summary op's fetch gives them)."""
        if isinstance(summary, bytes):
            summary = summary_pb2.Summary.FromString(summary)
        elif hasattr(summary, "item") and not isinstance(summary, summary_pb2.Summary):
            summary = summary_pb2.Summary.FromString(summary.item())  # a 0-d bytes array
        self._add(event_pb2.Event(summary=summary), global_step)

    def add_session_log(self, session_log, global_step=None):
        self._add(event_pb2.Event(session_log=session_log), global_step)

    def add_graph(self, graph=None, global_step=None, graph_def=None):
        """The graph (an engine Graph, or a GraphDef) as a graph_def event."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        source = graph if graph is not None else graph_def
        if hasattr(source, "as_graph_def"):
            graph_def = source.as_graph_def(add_shapes=True)
        elif isinstance(source, (bytes, bytearray)):
            graph_def = graph_pb2.GraphDef.FromString(bytes(source))
        elif hasattr(source, "SerializeToString") and hasattr(source, "node"):
            graph_def = source
        else:
            raise TypeError("add_graph() expects a Graph or a GraphDef, got "
                            f"{type(source).__name__}")
        self._last_graph_def = graph_def
        self._add(event_pb2.Event(graph_def=graph_def.SerializeToString(deterministic=True)),
                  global_step)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        if not isinstance(meta_graph_def, meta_graph_pb2.MetaGraphDef):
            raise TypeError("meta_graph_def must be type MetaGraphDef, saw type: "
                            f"{type(meta_graph_def)}")
        self._add(event_pb2.Event(
            meta_graph_def=meta_graph_def.SerializeToString(deterministic=True)), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """A RunMetadata as tagged_run_metadata; each tag once per writer, as TensorFlow."""
        if tag in self._tags_used:
            raise ValueError("The provided tag was already used for this event type")
        self._tags_used.add(tag)
        if not isinstance(run_metadata, config_pb2.RunMetadata) and hasattr(
                run_metadata, "SerializeToString"):
            run_metadata = config_pb2.RunMetadata.FromString(run_metadata.SerializeToString())
        tagged = event_pb2.TaggedRunMetadata(
            tag=tag, run_metadata=run_metadata.SerializeToString(deterministic=True))
        self._add(event_pb2.Event(tagged_run_metadata=tagged), global_step)

    def flush(self):
        if not self._closed:
            with file_io.tf_errors(self._path):
                self._records.flush()
            self._pending = 0

    def close(self):
        if not self._closed:
            self._closed = True  # closed even when the last flush fails: no handle left open
            with file_io.tf_errors(self._path):
                try:
                    self._records.flush()
                finally:
                    self._records.close()

    def reopen(self):
        """After close(): a new event file in the same logdir."""
        if self._closed:
            self._closed = False
            self._tags_used.clear()
            self._open()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False

    # ------------------------------------------------------------------------------------------

    def _add(self, event, global_step):
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def _write(self, event):
        with file_io.tf_errors(self._path):
            self._records.write(event.SerializeToString())


def _meta_graph_of(graph_def):
    meta = meta_graph_pb2.MetaGraphDef()
    meta.graph_def.CopyFrom(graph_def)
    meta.meta_info_def.SetInParent()
    return meta


SummaryWriter = FileWriter
