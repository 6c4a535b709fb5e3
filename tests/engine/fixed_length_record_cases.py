"""tf.data.FixedLengthRecordDataset replayed on TensorFlow (through tools/tf_shim, by
tools/make_fixed_length_record_fixtures.py) and on the engine
(tests/engine/test_fixed_length_records.py): records of files with headers and footers,
plain, GZIP and ZLIB, a body that is no multiple of the record length, the graph's op
types and node names, static shapes and the kernel's argument errors."""

import gzip
import os
import zlib

from tests.engine.padding_queue_cases import _error


def write_files(directory):
    """Two plain files (header 2, footer 1, records of 3 bytes), their GZIP and ZLIB forms,
    and a file whose body is 7 bytes (two records and a leftover byte)."""
    paths = {}
    bodies = [b"HHabcdefghiF", b"HHxyz012F"]
    for i, data in enumerate(bodies):
        for kind, encoded in (("plain", data), ("gzip", gzip.compress(data, mtime=0)),
                              ("zlib", zlib.compress(data))):
            path = os.path.join(directory, f"{kind}{i}.bin")
            with open(path, "wb") as f:
                f.write(encoded)
            paths.setdefault(kind, []).append(path)
    path = os.path.join(directory, "ragged.bin")
    with open(path, "wb") as f:
        f.write(b"HHabcdefgF")
    paths["ragged"] = [path]
    return paths


def _all(tf, sess, element):
    out = []
    while True:
        try:
            out.append(sess.run(element).decode())
        except tf.errors.OutOfRangeError:
            return out
        except Exception as ex:  # noqa: BLE001
            return out + [_error(ex)]


def _function_error(sess, element):
    """The error class and the kernel's words of an error raised inside flat_map's function
    (after the iterator's path, which names TensorFlow's own prefetch and counters)."""
    try:
        sess.run(element)
        return None
    except Exception as ex:  # noqa: BLE001
        lines = (getattr(ex, "message", None) or str(ex)).splitlines()
        line = next((l for l in lines if "user-defined function" in l), lines[0])
        return {"error": type(ex).__name__, "message": line.rsplit(": ", 1)[-1]}


def replay(tf, directory):
    paths = write_files(directory)
    out = {}
    graph = tf.Graph()
    with graph.as_default():
        ds = tf.data.FixedLengthRecordDataset(paths["plain"], 3, header_bytes=2, footer_bytes=1)
        element = tf.data.make_one_shot_iterator(ds).get_next()
        out["graph"] = [[op.name, op.type] for op in graph.get_operations()
                        if op.type not in ("Const",)]
        out["shape"] = [str(element.shape), element.dtype.name]
        readers = {}
        for kind in ("gzip", "zlib"):
            rd = tf.data.FixedLengthRecordDataset(paths[kind], 3, header_bytes=2,
                                                  footer_bytes=1, compression_type=kind.upper())
            readers[kind] = tf.data.make_one_shot_iterator(rd).get_next()
        ragged = tf.data.make_one_shot_iterator(tf.data.FixedLengthRecordDataset(
            paths["ragged"], 3, header_bytes=2, footer_bytes=1)).get_next()
        big = tf.data.make_one_shot_iterator(tf.data.FixedLengthRecordDataset(
            paths["plain"], 4, buffer_size=1)).get_next()
        record = tf.placeholder(tf.int64, [])
        header = tf.placeholder(tf.int64, [])
        bad = tf.data.FixedLengthRecordDataset(paths["plain"], record, header_bytes=header)
        bad_iterator = tf.data.make_initializable_iterator(bad)
        with tf.Session() as sess:
            out["plain"] = _all(tf, sess, element)
            for kind in ("gzip", "zlib"):
                out[kind] = _all(tf, sess, readers[kind])
            out["ragged"] = _all(tf, sess, ragged)
            out["no_header"] = _all(tf, sess, big)
            bad_element = bad_iterator.get_next()
            for key, feed in (("zero_record", {record: 0, header: 0}),
                              ("negative_header", {record: 3, header: -1})):
                sess.run(bad_iterator.initializer, feed)
                out[key] = _function_error(sess, bad_element)
    return _relative(out, directory)


def _relative(value, directory):
    """The results with the files' directory written <dir>."""
    if isinstance(value, dict):
        return {k: _relative(v, directory) for k, v in value.items()}
    if isinstance(value, list):
        return [_relative(v, directory) for v in value]
    if isinstance(value, str):
        return value.replace(directory, "<dir>")
    return value
