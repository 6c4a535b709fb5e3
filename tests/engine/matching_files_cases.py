"""tf.io.matching_files / tf.matching_files (MatchingFiles) and tf.train.match_filenames_once,
run the same way by real TensorFlow and by the engine over one small directory tree: each
case returns what it saw as JSON, the tree's path written "<dir>"
(fixtures in tests/fixtures/matching_files/, written by tools/make_matching_files_fixtures.py)."""

import contextlib
import os
import tempfile

import numpy as np

TREE = ["a.txt", "b.txt", "c.log", "ab.txt", ".hidden.txt", "sub1/a.txt", "sub1/b.txt",
        "sub1/deep/a.txt", "sub2/x.txt", "sub2/b.txt", "subfile"]
PATTERNS = ["*.txt", "?.txt", "[ab].txt", "[!a]*.txt", "[^a]*.txt", "*", "sub*/*",
            "*/b.txt", "sub1/*/*.txt", "a.txt", "missing.txt", "nodir/*", "sub1/", "",
            "*.TXT"]


@contextlib.contextmanager
def _tree():
    with tempfile.TemporaryDirectory() as directory:
        for name in TREE:
            path = os.path.join(directory, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(name)
        yield directory


def _shown(directory, names):
    return [n.decode().replace(directory, "<dir>") for n in np.asarray(names).reshape(-1)]


def _error(fn, phrase=None):
    """[class, first line] of what fn raised (the first line holding `phrase`, where the
    kernel's words sit below the session's own)."""
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the class and a line are the result
        lines = str(error).splitlines()
        return [type(error).__name__, next(line for line in lines if phrase in line)
                if phrase else lines[0]]
    return None


@contextlib.contextmanager
def _cwd(directory):
    previous = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(previous)


def patterns(tf):
    """Each pattern alone (absolute), a vector of overlapping ones, relative patterns."""
    with _tree() as directory:
        with tf.Graph().as_default():
            pattern = tf.placeholder(tf.string, None, name="pattern")
            found = tf.io.matching_files(pattern)
            top = tf.matching_files(os.path.join(directory, "*.log"))
            with tf.Session() as sess:
                alone = {p: _shown(directory, sess.run(
                    found, {pattern: os.path.join(directory, p) if p else p}))
                    for p in PATTERNS}
                vector = _shown(directory, sess.run(found, {pattern: [
                    os.path.join(directory, "sub1/*.txt"), os.path.join(directory, "a.txt"),
                    os.path.join(directory, "*.txt")]}))
                with _cwd(directory):
                    relative = {p: _shown(directory, sess.run(found, {pattern: p}))
                                for p in ("*.txt", "sub1/*", "./b.txt", "a.txt")}
                matrix = _error(lambda: sess.run(found, {pattern: [["a"]]}), "must be")
                logs = _shown(directory, sess.run(top))
            return {"alone": alone, "vector": vector, "relative": relative,
                    "matrix": matrix, "logs": logs, "shape": found.shape.as_list(),
                    "ops": [found.op.type, top.op.name]}


def static_rank_error(tf):
    """A matrix of patterns known when the graph is built fails there: a ValueError (the
    engine's shape errors are a subclass of it), its words up to TensorFlow's suffix naming
    the node and the input shapes, which the engine's shape errors do not carry."""
    with tf.Graph().as_default():
        try:
            tf.io.matching_files([["a", "b"]])
        except ValueError as error:
            return ["ValueError", str(error).split(" for '{{node")[0]]
    return None


def filenames_once(tf):
    """match_filenames_once: a local variable of unknown shape holding the matches once its
    initializer ran; the graph node for node."""
    with _tree() as directory:
        with tf.Graph().as_default() as graph:
            names = tf.train.match_filenames_once(os.path.join(directory, "sub1/*.txt"))
            other = tf.io.match_filenames_once(os.path.join(directory, "*.log"), name="logs")
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                values = [_shown(directory, sess.run(names)), _shown(directory, sess.run(other))]
            return {"values": values, "names": [names.name, other.name],
                    "shape": names.shape.ndims,
                    "local": [v.name for v in tf.local_variables()],
                    "global": [v.name for v in tf.global_variables()],
                    "nodes": [[n.name, n.op] for n in graph.as_graph_def().node]}


CASES = {"patterns": patterns, "static_rank_error": static_rank_error,
         "filenames_once": filenames_once}
