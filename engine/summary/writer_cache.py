"""tf.summary.FileWriterCache: one FileWriter per log directory, shared by the hooks."""

import os

from engine.framework.default_graph import get_default_graph
from engine.summary.writer import FileWriter


class FileWriterCache:
    """One FileWriter per log directory (tf.summary.FileWriterCache)."""

    _writers = {}

    @classmethod
    def get(cls, logdir):
        logdir = os.fspath(logdir)
        if logdir not in cls._writers:
            cls._writers[logdir] = FileWriter(logdir, graph=get_default_graph())
        return cls._writers[logdir]

    @classmethod
    def clear(cls):
        for writer in cls._writers.values():
            writer.close()
        cls._writers = {}
