"""What a file holds, by content: events framing, a VLOG log, text proto, binary proto, or a
model file of another kind (parsers/model_files.py: Keras zip or HDF5, TFLite)."""

from __future__ import annotations

import os
import re
from pathlib import Path


from parsers import containers, events, protobuf_files, tfrecord
from parsers.errors import InputError
from parsers.regular_files import check_regular_file, open_file  # noqa: F401  (readers' names)
from parsers.loaded import LabeledGraph, Loaded, TaggedRun

# Lines a TensorFlow (absl/glog) log is made of: `I0123 12:00:00.123456  4242 file.cc:12] ...`,
# or the older `2024-01-23 12:00:00.123456: I tensorflow/core/...cc:12] ...`.
_LOG_LINE = re.compile(
    rb"^(?:[IWEF]\d{4} [\d:.]+\s+\d+ [\w./-]+:\d+\]"
    rb"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWEF] [\w./-]+:\d+\])",
    re.MULTILINE,
)
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")
SNIFF_BYTES = 4096
_GZIP_MAGIC = b"\x1f\x8b"
# A protobuf message cannot exceed 2 GiB; a bigger file is not one of ours (a log goes to vlog).
MAX_FILE_BYTES = 2**31 - 1


def sniff(head):
    """The family of a file from its first bytes: "events", "vlog", "text" or "binary".

    >>> sniff(b'node {\\n  name: "x"\\n}\\n')
    'text'
    >>> sniff(b"I0101 12:00:00.000001   7 direct_session.cc:12] Created\\n")
    'vlog'
    >>> sniff(b"\\n\\x0b\\n\\x01x\\x12\\x06NoOp")
    'binary'
    """
    if tfrecord.looks_like_tfrecord(head):
        return "events"
    if _LOG_LINE.search(head):
        return "vlog"
    return "binary" if _BINARY_CONTROL.search(head) else "text"


def read_bytes(path, limit=None):
    """A file's bytes (at most `limit`), or InputError saying why it cannot be read."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        with open_file(path) as stream:
            # What the file holds, not the limit: read(n) allocates n bytes before reading.
            size = os.fstat(stream.fileno()).st_size
            data = stream.read(min(size, limit) + 1)
    except OSError as error:
        raise InputError(path, describe_os_error(error)) from None
    if len(data) > limit:  # grew while read, or not what stat said
        raise InputError(path, f"more than {limit} bytes: too large to read")
    return data


def read_head(path):
    """The first bytes of a file, enough to tell what it is."""
    try:
        with open_file(path) as stream:
            return stream.read(SNIFF_BYTES)
    except OSError as error:
        raise InputError(path, describe_os_error(error)) from None


def load_vlog(path):
    """A Loaded for a VLOG log: every graph it dumped, and a run per executed step."""
    from parsers.vlog import read_vlog  # only logs need the VLOG reader

    log = read_vlog(path, events=False)
    graphs = [LabeledGraph(dump.label or f"dump at line {dump.first_line}", dump.graph_def(),
                           f"{path}:{dump.first_line}") for dump in log.graphs]
    runs = [TaggedRun(f"step {step}", log.run_metadata(step), path) for step in log.steps()]
    return Loaded(path, "vlog", graphs=graphs, run_metadata=runs, files=[path])


def describe_os_error(error):
    if isinstance(error, FileNotFoundError):
        return "no such file or directory"
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, IsADirectoryError):
        return "is a directory"
    return error.strerror or str(error)


def load_file(path, progress=None):
    """A Loaded for one file, whatever it holds.

    progress(done, total) is called now and then while a big text file is parsed.
    """
    head = read_head(path)
    if not head:
        raise InputError(path, "empty file (0 bytes)")
    if head.startswith(_GZIP_MAGIC):  # never a protobuf (wire type 7), nor text
        raise InputError(path, "gzip-compressed (a GZIP TFRecord or a .gz file?): "
                               "graph-inspector reads uncompressed files; gunzip it first")
    from parsers.model_files import load_model_file  # what it needs loads only for those

    model = load_model_file(path, head)
    if model is not None:
        return model
    family = sniff(head)
    if family == "vlog":
        return load_vlog(path)  # streamed: a log can be gigabytes
    if family == "events":  # streamed, record by record
        return events.load_events(path, [(path, Path(path).name)])
    if os.path.getsize(path) > MAX_FILE_BYTES:
        raise InputError(path, f"{os.path.getsize(path)} bytes: larger than the 2 GiB a protobuf"
                               " message can hold")
    data = read_bytes(path)
    if family == "text":
        kinds = protobuf_files.text_kinds(data[:SNIFF_BYTES].decode("utf-8", "replace"))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            if kinds:  # it opens like a text proto of ours
                raise InputError(path, f"not valid UTF-8 text at byte {error.start}") from None
        else:
            # A comment longer than the head hides the first field name: look past it.
            kinds = kinds or protobuf_files.text_kinds(text)
            if kinds or protobuf_files.binary_message(data) is None:
                kind, message = protobuf_files.parse_text(path, text, kinds or None, progress)
                return containers.from_message(path, kind, message)
    kind, message = protobuf_files.parse_binary(path, data)
    return containers.from_message(path, kind, message)
