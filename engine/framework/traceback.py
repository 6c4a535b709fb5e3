"""Creation stack traces of operations: captured cheaply, shown as TensorFlow 2.x shows them.

Capture keeps (code, lineno) pairs only; the frames (file, line, function, source line) are
built when someone reads Operation.traceback. GraphDebugInfo export and import use the
form TensorFlow 2.21 writes (files, frames_by_id, traces_by_id, name_to_trace_id "node@").

>>> trace = StackTrace([StackFrame("a.py", 3, "<module>", "x = 1")])
>>> print(trace)
File "a.py", line 3, in <module>
>>> tuple(trace[0])
('a.py', 3, '<module>', 'x = 1')
"""

import linecache
import sys
from typing import NamedTuple

from engine.framework import errors
from engine.proto import graph_debug_info_pb2

class StackFrame(NamedTuple):
    """One frame: TensorFlow's StackFrame (filename, lineno, name, line)."""

    filename: str
    lineno: int
    name: str
    line: str

    def __repr__(self):
        return f'File "{self.filename}", line {self.lineno}, in {self.name}'

    __str__ = __repr__


class StackTrace(list):
    """Frames, outermost first; printed one `File "...", line N, in f` per line as TF 2.x."""

    def __str__(self):
        return "\n".join(repr(frame) for frame in self)

    __repr__ = __str__


def capture(skip=1):
    """The caller's stack as raw (code, lineno) pairs, innermost first; cheap."""
    frame = sys._getframe(skip)
    frames = []
    append = frames.append
    while frame is not None:
        append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    return frames


def materialize(raw):
    """A StackTrace from capture()'s pairs."""
    frames = []
    for code, lineno in reversed(raw):
        filename = code.co_filename
        line = linecache.getline(filename, lineno).strip() if lineno else ""
        frames.append(StackFrame(filename, lineno, code.co_name, line))
    return StackTrace(frames)


def is_engine_file(filename):
    return filename.startswith(errors.ENGINE_DIR)


def defining_frame_index(trace):
    """Index of the innermost frame outside the engine: the line that built the op."""
    for index in range(len(trace) - 1, -1, -1):
        if not is_engine_file(trace[index].filename):
            return index
    return len(trace) - 1


def useful_frames(trace, num=10):
    """TensorFlow's _compute_useful_frames: up to `num` frames ending 2 past the user's."""
    innermost_excluded = min(defining_frame_index(trace) + 2 + 1, len(trace))
    outermost_included = max(innermost_excluded - num, 0)
    return trace[outermost_included:innermost_excluded]


def build_debug_info(named_traces):
    """GraphDebugInfo from (key, StackTrace) pairs; keys are "node@function" ("node@")."""
    info = graph_debug_info_pb2.GraphDebugInfo()
    file_ids, frame_ids, trace_ids = {}, {}, {}
    for key, trace in named_traces:
        ids = []
        for frame in useful_frames(trace):
            file_index = file_ids.get(frame.filename)
            if file_index is None:
                file_index = file_ids[frame.filename] = len(file_ids)
                info.files.append(frame.filename)
            frame_key = (file_index, frame.lineno, frame.name)
            frame_id = frame_ids.get(frame_key)
            if frame_id is None:
                frame_id = frame_ids[frame_key] = len(frame_ids)
                entry = info.frames_by_id[frame_id]
                entry.file_index, entry.line, entry.func = frame_key
                if frame.line:
                    entry.code = frame.line
            ids.append(frame_id)
        ids = tuple(ids)
        trace_id = trace_ids.get(ids)
        if trace_id is None:
            trace_id = trace_ids[ids] = len(trace_ids)
            info.traces_by_id[trace_id].frame_id.extend(ids)
        info.name_to_trace_id[key] = trace_id
    return info


def traces_from_debug_info(info):
    """{key: StackTrace} from a GraphDebugInfo in either form (traces_by_id or traces)."""
    files = list(info.files)

    def frame_of(entry):
        filename = files[entry.file_index] if entry.file_index < len(files) else ""
        return StackFrame(filename, entry.line, entry.func, entry.code)

    result = {}
    for key, stack in info.traces.items():
        result[key] = StackTrace(frame_of(f) for f in stack.file_line_cols)
    for key, trace_id in info.name_to_trace_id.items():
        stack = info.traces_by_id.get(trace_id)
        if stack is None:
            continue
        frames = [frame_of(info.frames_by_id[i]) for i in stack.frame_id
                  if i in info.frames_by_id]
        frames.extend(frame_of(f) for f in stack.file_line_cols)
        result[key] = StackTrace(frames)
    return result
