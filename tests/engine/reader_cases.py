"""TF 1.x's file readers, tf.read_file/tf.write_file and tf.decode_csv, run the same way by
TensorFlow and the engine.

`write_inputs(directory)` makes the small input files (fixed-length records plain, GZIP and
ZLIB, an empty file, one shorter than a header, text); each READ_CASES entry reads some of
them through a queue of file names with one reader, CSV_CASES decode records, FILE_CASES
read and write whole files. tools/make_reader_fixtures.py runs them all on TensorFlow 2.21
into tests/fixtures/readers/*.json; tests/engine/test_readers.py runs them on the engine and
compares. Paths in the results are written with the directory as "<tmp>".
"""

import gzip
import re
import zlib
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers"

FIXED = bytes(range(30))  # 30 bytes: a few whole records and a tail for every layout below


def write_inputs(directory):
    directory = Path(directory)
    files = {
        "fixed.bin": FIXED,
        # mtime=0: the same bytes on every run (the reader does not care either way).
        "fixed.gz": gzip.compress(FIXED, mtime=0),
        "fixed.zlib": zlib.compress(FIXED),
        "empty.bin": b"",
        "short.bin": b"\x01\x02",
        "text.txt": b"first line\nsecond\r\nno end",
    }
    # TFRecord files TensorFlow wrote (tests/fixtures/tf_record/), whole and cut short.
    records = FIXTURES.parent / "tf_record"
    plain = (records / "records.plain.tfrecord").read_bytes()
    files.update({"records.tfrecord": plain, "truncated.tfrecord": plain[:120],
                  "records.gz.tfrecord": (records / "records.gzip.tfrecord").read_bytes()})
    for name, data in files.items():
        (directory / name).write_bytes(data)
    (directory / "subdir").mkdir(exist_ok=True)


def _fixed(**kwargs):
    return lambda tf: tf.FixedLengthRecordReader(**kwargs)


# name -> (reader(tf), file names in the queue, how: "read" or read_up_to's count, reads).
READ_CASES = {
    "fixed_plain": (_fixed(record_bytes=4), ["fixed.bin"], "read", 10),
    "fixed_header_footer": (_fixed(record_bytes=4, header_bytes=3, footer_bytes=2),
                            ["fixed.bin"], "read", 10),
    "fixed_hop": (_fixed(record_bytes=4, hop_bytes=3), ["fixed.bin"], "read", 12),
    "fixed_hop_footer": (_fixed(record_bytes=4, hop_bytes=3, footer_bytes=5), ["fixed.bin"],
                         "read", 12),
    "fixed_hop_longer_than_record": (_fixed(record_bytes=3, hop_bytes=7, header_bytes=1),
                                     ["fixed.bin"], "read", 8),
    "fixed_whole_file": (_fixed(record_bytes=30), ["fixed.bin", "fixed.bin"], "read", 4),
    "fixed_two_files": (_fixed(record_bytes=8), ["fixed.bin", "empty.bin", "fixed.bin"],
                        "read", 10),
    "fixed_zero_bytes": (_fixed(record_bytes=0), ["fixed.bin"], "read", 5),
    "fixed_huge_record": (_fixed(record_bytes=1 << 30), ["fixed.bin"], "read", 3),
    "fixed_header_past_end": (_fixed(record_bytes=4, header_bytes=40),
                              ["fixed.bin", "fixed.bin"], "read", 4),
    "fixed_short_file": (_fixed(record_bytes=4), ["short.bin", "fixed.bin"], "read", 3),
    "fixed_empty_file": (_fixed(record_bytes=4), ["empty.bin"], "read", 3),
    "fixed_directory": (_fixed(record_bytes=4), ["subdir", "fixed.bin"], "read", 3),
    "fixed_missing": (_fixed(record_bytes=4), ["missing.bin", "fixed.bin"], "read", 3),
    "fixed_gzip": (_fixed(record_bytes=8, encoding="GZIP"), ["fixed.gz"], "read", 5),
    "fixed_zlib": (_fixed(record_bytes=8, header_bytes=1, hop_bytes=5, encoding="ZLIB"),
                   ["fixed.zlib"], "read", 8),
    "fixed_gzip_as_zlib": (_fixed(record_bytes=8, encoding="ZLIB"), ["fixed.gz"], "read", 3),
    "fixed_plain_as_gzip": (_fixed(record_bytes=8, encoding="GZIP"), ["fixed.bin"], "read", 3),
    "fixed_unknown_encoding": (_fixed(record_bytes=8, encoding="BZ2"), ["fixed.bin"], "read",
                               5),
    "fixed_negative_record": (_fixed(record_bytes=-1), ["fixed.bin"], "read", 1),
    "fixed_negative_header": (_fixed(record_bytes=4, header_bytes=-2), ["fixed.bin"], "read",
                              1),
    "fixed_up_to": (_fixed(record_bytes=4), ["fixed.bin", "fixed.bin"], 5, 6),
    "fixed_up_to_more_than_file": (_fixed(record_bytes=4), ["fixed.bin", "fixed.bin"], 10, 4),
    "fixed_up_to_empty_between": (_fixed(record_bytes=8),
                                  ["fixed.bin", "empty.bin", "empty.bin", "fixed.bin"], 3, 6),
    "whole_file_up_to_none": (lambda tf: tf.WholeFileReader(), ["fixed.bin"], 0, 2),
    "whole_file": (lambda tf: tf.WholeFileReader(), ["fixed.bin", "empty.bin", "text.txt"],
                   "read", 4),
    "whole_file_up_to": (lambda tf: tf.WholeFileReader(), ["fixed.bin", "text.txt",
                                                           "fixed.bin"], 2, 4),
    "whole_file_directory": (lambda tf: tf.WholeFileReader(), ["text.txt", "subdir",
                                                               "text.txt"], "read", 4),
    "whole_file_missing": (lambda tf: tf.WholeFileReader(), ["missing.bin"], "read", 2),
    "text_line_up_to": (lambda tf: tf.TextLineReader(), ["text.txt", "text.txt"], 2, 5),
    "text_line_directory": (lambda tf: tf.TextLineReader(), ["subdir", "text.txt"], "read", 3),
    "text_line_missing": (lambda tf: tf.TextLineReader(), ["missing.txt", "text.txt"], "read",
                          3),
    "tfrecord_up_to": (lambda tf: tf.TFRecordReader(), ["records.tfrecord",
                                                        "records.tfrecord"], 3, 5),
    "tfrecord_truncated": (lambda tf: tf.TFRecordReader(), ["truncated.tfrecord",
                                                            "records.tfrecord"], "read", 4),
    "tfrecord_gzip": (lambda tf: tf.TFRecordReader(options=tf.python_io.TFRecordOptions(
        tf.python_io.TFRecordCompressionType.GZIP)), ["records.gz.tfrecord"], "read", 6),
    "tfrecord_directory": (lambda tf: tf.TFRecordReader(), ["subdir", "records.tfrecord"],
                           "read", 2),
}


def _kernel_error(tf, error, directory=None):
    """[class, message] of an OpError: the kernel's own line (after "Node: 'NAME'"), the
    directory as <tmp> and a queue's number, which counts the process's queues, as N."""
    lines = error.message.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("Node: ")), None)
    line = lines[at + 1] if at is not None else lines[0]
    if directory is not None:
        line = line.replace(str(directory), "<tmp>")
    return [type(error).__name__, re.sub(r"'_\d+_fifo_queue'", "'_N_fifo_queue'", line)]


def _text(value, directory):
    """A fetched string (or array of them) as latin-1 text, the directory as <tmp>."""
    import numpy as np
    array = np.asarray(value, dtype=object)
    texts = [_short(bytes(v)).decode("latin-1").replace(str(directory), "<tmp>")
             for v in array.ravel()]
    return texts if array.ndim else texts[0]


def _short(data):
    """`data`, or for a long value its length and digest (keeps the fixture small)."""
    if len(data) <= 256:
        return data
    import hashlib
    return f"<{len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}>".encode()


def run_read_case(tf, name, directory):
    """{"steps": [[key, value] or error per read], "counters": [produced, completed] after
    them, "after_reset": the counters after reset} for READ_CASES[name]."""
    make_reader, files, how, reads = READ_CASES[name]
    steps = []
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(10, tf.string)
        enqueue = queue.enqueue_many([[str(Path(directory) / f) for f in files]])
        close = queue.close()
        try:
            reader = make_reader(tf)
        except tf.errors.OpError as error:  # TensorFlow checks the attrs as it adds the node
            return {"build_error": _kernel_error(tf, error, directory)}
        key, value = reader.read(queue) if how == "read" else reader.read_up_to(queue, how)
        counters = [reader.num_records_produced(), reader.num_work_units_completed()]
        reset = reader.reset()
        with tf.Session() as sess:
            sess.run(enqueue)
            sess.run(close)
            for _ in range(reads):
                try:
                    got = sess.run([key, value])
                except tf.errors.OpError as error:
                    steps.append(_kernel_error(tf, error, directory))
                else:
                    steps.append([_text(got[0], directory), _text(got[1], directory)])
            result = {"steps": steps, "counters": _counters(tf, sess, counters, directory)}
            try:
                sess.run(reset)
            except tf.errors.OpError as error:
                result["reset"] = _kernel_error(tf, error, directory)
            result["after_reset"] = _counters(tf, sess, counters, directory)
    return result


def _counters(tf, sess, counters, directory):
    """[records produced, work units completed], or the error the reader's kernel gave."""
    try:
        return [int(c) for c in sess.run(counters)]
    except tf.errors.OpError as error:
        return _kernel_error(tf, error, directory)


# tf.decode_csv: name -> (records, record_defaults(tf), keyword arguments).
def _basic(tf):
    return [[0], [0.0], [""], tf.constant(0, tf.int64)]


CSV_CASES = {
    "basic": (["1,2.5,hello,7", "-3,-1e3,wor ld,-8"], _basic, {}),
    "defaults_fill_missing": (["1,,x,", ",2.0,,5"], _basic, {}),
    "scalar_record": ("4,0.25,s,9", _basic, {}),
    "matrix_records": ([["1,2,a,3"], ["4,5,b,6"]], _basic, {}),
    "required_missing": (["1,2", "3,"], lambda tf: [[0], tf.constant([], tf.float32)], {}),
    "required_string_missing": (["a,b", ",c"],
                                lambda tf: [tf.constant([], tf.string), [""]], {}),
    "too_few_fields": (["1,2,3", "4,5"], lambda tf: [[0], [0], [0]], {}),
    "too_many_fields": (["1,2,3"], lambda tf: [[0], [0]], {}),
    "empty_record": ([""], lambda tf: [[7]], {}),
    "trailing_delim": (["1,2,"], lambda tf: [[0], [0], [9]], {}),
    "bad_int32": (["12", "abc"], lambda tf: [[0]], {}),
    "int32_overflow": (["2147483647", "2147483648"], lambda tf: [[0]], {}),
    "int32_float_text": (["1.5"], lambda tf: [[0]], {}),
    "int64_range": (["9223372036854775807", "-9223372036854775808"],
                    lambda tf: [tf.constant(0, tf.int64)], {}),
    "int64_overflow": (["9223372036854775808"], lambda tf: [tf.constant(0, tf.int64)], {}),
    "int_spaces_and_signs": ([" 12 ", "+5", "-0", "007"], lambda tf: [[0]], {}),
    "int_hex": (["0x10"], lambda tf: [[0]], {}),
    "float_forms": ([" 1.5 ", "+3", ".5", "5.", "1e3", "-1E-2", "inf", "-inf", "nan",
                     "Infinity", "1e39", "1e-50", "-0"], lambda tf: [[0.0]], {}),
    "float_hex": (["0x1p3"], lambda tf: [[0.0]], {}),
    "float_words": (["INF", "infinity", "-Infinity", "+nan", "nan(1)", "0X1P-2", "-0x1.8p1",
                     "0x10", "1e5000", "\v2\f", "1.e2", "3.4028236e38", "0x1p-150", "16777217"],
                    lambda tf: [[0.0]], {}),
    "double_words": (["-inf", "NaN", "0x1p-150", "4e-46", "16777217"],
                     lambda tf: [tf.constant(0.0, tf.float64)], {}),
    # Decimals whose nearest double is halfway between two float32s: read as a double and
    # rounded again they would round the wrong way.
    "float_double_rounding": (["1.0000000596046448", "1.0000000596046447",
                               "1.00000005960464477539062500001", "-3.0000001788139343"],
                              lambda tf: [[0.0]], {}),
    "bad_float_word": (["infin"], lambda tf: [[0.0]], {}),
    "bad_float_bare_hex": (["0x"], lambda tf: [[0.0]], {}),
    "bad_float_dot": (["."], lambda tf: [[0.0]], {}),
    "bad_float_inner_space": (["1 5"], lambda tf: [[0.0]], {}),
    "bad_float_signs": (["--1"], lambda tf: [[0.0]], {}),
    "bad_int_sign_only": (["-"], lambda tf: [[0]], {}),
    "bad_int_exponent": (["1e2"], lambda tf: [tf.constant(0, tf.int64)], {}),
    "bad_int_digits": (["\u0663"], lambda tf: [[0]], {}),
    "string_na_and_empty": (['"",NA,x'], lambda tf: [["d0"], ["d1"], ["d2"]],
                            {"na_value": "NA"}),
    "many_records": ([f"{i},{i / 4}" for i in range(40)], lambda tf: [[0], [0.0]], {}),
    "bad_float": (["1.2.3"], lambda tf: [[0.0]], {}),
    "bad_float_suffix": (["1.5f"], lambda tf: [[0.0]], {}),
    "bad_float_comma": (["1e"], lambda tf: [[0.0]], {}),
    "double": (["0.1", "1e300", "-2.5e-310"], lambda tf: [tf.constant(0.0, tf.float64)], {}),
    "bad_double": (["x"], lambda tf: [tf.constant(0.0, tf.float64)], {}),
    "quoted": (['"a,b",2', '"he said ""hi""",3', '"",4'], lambda tf: [[""], [0]], {}),
    "quoted_number": (['"12","1.5"'], lambda tf: [[0], [0.0]], {}),
    "quote_left_open": (['"abc,1'], lambda tf: [[""], [0]], {}),
    "quote_not_followed_by_delim": (['"ab"c,1'], lambda tf: [[""], [0]], {}),
    "quote_inside_unquoted": (['ab"c,1'], lambda tf: [[""], [0]], {}),
    "lone_quote": (['"'], lambda tf: [[""]], {}),
    "no_quote_delim": (['"a",b"c'], lambda tf: [[""], [""]], {"use_quote_delim": False}),
    "crlf_inside": (["1,2\r"], lambda tf: [[0], [0]], {}),
    "leading_newline": (["\n1,2"], lambda tf: [[0], [0]], {}),
    "pipe_delim": (["1|a b|2.5"], lambda tf: [[0], [""], [0.0]], {"field_delim": "|"}),
    "tab_delim": (["1\t\"x\ty\"\t3"], lambda tf: [[0], [""], [0]], {"field_delim": "\t"}),
    "two_char_delim": (["1,2"], lambda tf: [[0], [0]], {"field_delim": ",,"}),
    "na_value": (["NA,1,NA", "2,NA,s"], lambda tf: [[-1], [-2.0], ["dflt"]],
                 {"na_value": "NA"}),
    "na_value_required": (["NA"], lambda tf: [tf.constant([], tf.int32)], {"na_value": "NA"}),
    "select_cols": (["1,skip,2.5,x,y", "3,skip,4.5,z,w"], lambda tf: [[0], [0.0], [""]],
                    {"select_cols": [0, 2, 4]}),
    "select_cols_past_end": (["1,2"], lambda tf: [[0], [0]], {"select_cols": [1, 3]}),
    "select_cols_quoted": (['"a,b",skip,"c""d",3', '"x",,"",4'],
                           lambda tf: [["-"], ["-"], [0]], {"select_cols": [0, 2, 3]}),
    "select_cols_quoted_past_end": (['"a",1'], lambda tf: [[""], [0]],
                                    {"select_cols": [0, 2]}),
    "select_cols_trailing_delim": (["1,2,", '"1",2,'], lambda tf: [[0], [7]],
                                   {"select_cols": [1, 2]}),
    "select_cols_unsorted": (["1,2"], lambda tf: [[0], [0]], {"select_cols": [1, 0]}),
    "select_cols_negative": (["1,2"], lambda tf: [[0], [0]], {"select_cols": [-1, 0]}),
    "select_cols_length": (["1,2"], lambda tf: [[0], [0]], {"select_cols": [0]}),
    "two_defaults": (["1"], lambda tf: [[1, 2]], {}),
    "no_defaults": (["1"], lambda tf: [], {}),
    "bool_default": (["1"], lambda tf: [[True]], {}),
    "matrix_default": (["1"], lambda tf: [[[1]]], {}),
}


def run_csv_case(tf, name):
    """{"nodes", "shapes", and "values" or "error"} of CSV_CASES[name], the records fed to a
    placeholder of their shape (unknown first dimension), or "build_error" (class, text)."""
    import numpy as np
    records, defaults, kwargs = CSV_CASES[name]
    with tf.Graph().as_default() as graph:
        shape = [None] + list(np.shape(records))[1:] if np.ndim(records) else []
        placeholder = tf.placeholder(tf.string, shape, name="records")
        try:
            out = tf.decode_csv(placeholder, defaults(tf), **kwargs)
        except (ValueError, TypeError) as error:
            # The class TensorFlow's users catch (the engine's ShapeError is a ValueError).
            kind = "ValueError" if isinstance(error, ValueError) else type(error).__name__
            return {"build_error": [kind, str(error)]}
        result = {"nodes": [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node],
                  "shapes": [t.shape.as_list() if t.shape.ndims is not None else None
                             for t in out]}
        with tf.Session() as sess:
            try:
                values = sess.run(out, {placeholder: records})
            except tf.errors.OpError as error:
                result["error"] = _kernel_error(tf, error)
            else:
                result["values"] = [_jsonable(v) for v in values]
    return result


def _jsonable(value):
    """dtype, shape and values; floats as repr text (inf and nan are no JSON numbers)."""
    import numpy as np
    array = np.asarray(value)
    values = array.ravel().tolist()
    if array.dtype.kind in "SO":
        values = [bytes(v).decode("latin-1") for v in values]
    elif array.dtype.kind == "f":
        values = [repr(v) for v in values]
    return {"dtype": "string" if array.dtype.kind in "SO" else str(array.dtype),
            "shape": list(array.shape), "values": values}


# tf.read_file / tf.write_file: name -> list of steps ("read", path) or ("write", path,
# contents), each run in its own session; paths are under the inputs' directory.
FILE_CASES = {
    "read": [("read", "fixed.bin")],
    "read_empty": [("read", "empty.bin")],
    "read_missing": [("read", "missing.bin")],
    "read_directory": [("read", "subdir")],
    "write_then_read": [("write", "written.txt", "some\x00bytes"), ("read", "written.txt")],
    "write_makes_directories": [("write", "new/deeper/out.bin", "x"),
                                ("read", "new/deeper/out.bin")],
    "write_replaces": [("write", "twice.txt", "long first text"), ("write", "twice.txt", "2nd"),
                       ("read", "twice.txt")],
    "write_under_a_file": [("write", "fixed.bin/inner.txt", "x")],
    "write_to_directory": [("write", "subdir", "x")],
}


def run_file_case(tf, name, directory):
    """Per step: the value read (latin-1 text), None for a write, or [class, message]."""
    results = []
    for step in FILE_CASES[name]:
        with tf.Graph().as_default():
            path = str(Path(directory) / step[1])
            if step[0] == "read":
                op = tf.read_file(path)
            else:
                op = tf.write_file(path, step[2])
            with tf.Session() as sess:
                try:
                    got = sess.run(op)
                except tf.errors.OpError as error:
                    results.append(_kernel_error(tf, error, directory))
                else:
                    results.append(None if got is None else _text(got, directory))
    return results


def api_names(tf):
    """Where the APIs are found: True for each name TensorFlow's tf.compat.v1 has."""
    names = ["FixedLengthRecordReader", "WholeFileReader", "read_file", "write_file",
             "decode_csv", "io.read_file", "io.write_file", "io.decode_csv"]
    found = {}
    for name in names:
        obj = tf
        for part in name.split("."):
            obj = getattr(obj, part, None)
        found[name] = obj is not None
    return found
