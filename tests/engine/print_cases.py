"""tf.print and tf.strings.format programs built the same way by TensorFlow and the engine:
what each run writes to file descriptors 1 and 2 (and to a "file://" stream), byte for byte,
the nodes the API builds, the formatted strings, and the errors for bad input. Fixtures in
tests/fixtures/print/print.json (tools/make_print_fixtures.py)."""

import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def _ten(tf):
    return tf.range(10)


CASES = {
    "range_default": lambda tf, path: [tf.print(_ten(tf))],
    "docstring_stdout": lambda tf, path: [
        tf.print("tensors:", _ten(tf), {2: _ten(tf) * 2}, output_stream=sys.stdout)],
    "sep_end_kinds": lambda tf, path: [
        tf.print(tf.constant([[1.5, 2.], [3., 4.]]), tf.constant(True),
                 tf.constant(["a", "b\n\xff\"'\\"]), sep=",", end="!\n")],
    "rank3_elided": lambda tf, path: [tf.print(tf.reshape(tf.range(1000), [10, 10, 10]))],
    "rank4_summarize_1": lambda tf, path: [
        tf.print(tf.reshape(tf.range(81), [3, 3, 3, 3]), summarize=1)],
    "summarize_all_float64": lambda tf, path: [
        tf.print(tf.constant(3.0, tf.float64) / 7, tf.reshape(tf.range(12.0), [3, 4]),
                 summarize=-1)],
    "summarize_0": lambda tf, path: [tf.print(tf.range(5), tf.constant(7), summarize=0)],
    "complex_and_scalar": lambda tf, path: [
        tf.print(tf.constant([1 + 2j, 3j, 4, 5])), tf.print(tf.constant(2j, tf.complex128))],
    "scalar_string_alone": lambda tf, path: [
        tf.print(tf.constant("scalar \\n{}")), tf.print(tf.constant("in a list"), 1)],
    "nested_structures": lambda tf, path: [
        tf.print([_ten(tf), (1, "x")], {"b": tf.constant(2.5), "a": [None, 3]}, summarize=1)],
    "ordered_dict": lambda tf, path: [
        tf.print(collections.OrderedDict([("z", tf.constant(1)), ("a", tf.constant(2))]))],
    "sparse_tensor": lambda tf, path: [
        tf.print("sp:", tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3]))],
    "empty_shapes": lambda tf, path: [
        tf.print(tf.zeros([2, 0, 3])), tf.print(tf.zeros([0])), tf.print(tf.zeros([3, 0]))],
    "dtypes": lambda tf, path: [
        tf.print(tf.constant([True, False]), tf.constant(1.3, tf.float16),
                 tf.constant([1e-7, 1e20, float("nan"), -float("inf"), 0.1], tf.float32),
                 tf.constant([-128, 127], tf.int8), tf.constant([255], tf.uint8),
                 tf.constant([2 ** 62], tf.int64), tf.constant(0.1, tf.float64),
                 tf.constant([-7], tf.int16), tf.constant([65535], tf.uint16))],
    "placeholder_in_template": lambda tf, path: [
        tf.print("{} literal", _ten(tf), "{}", name="with_braces")],
    "python_values_only": lambda tf, path: [tf.print("a", 1, [2.5, "b"], {"k": None})],
    "named": lambda tf, path: [tf.print(_ten(tf), name="shown")],
    "end_empty_and_sep": lambda tf, path: [
        tf.print(tf.constant([1, 2]), tf.constant([3]), sep="--", end=""),
        tf.print(tf.constant([4]), end="\n\n")],
    "unicode_strings": lambda tf, path: [
        tf.print(tf.constant(["héllo", "日本", "\x00\x01\t"]), output_stream=sys.stdout)],
    "variable": lambda tf, path: _with_init(tf, tf.print(tf.Variable([1.0, 2.0], name="v"))),
    "control_dependency": lambda tf, path: _control_dependency(tf),
    "fed_placeholder": lambda tf, path: _fed(tf),
    "to_file": lambda tf, path: [tf.print("to file", _ten(tf), output_stream="file://" + path),
                                 tf.print(tf.constant([[1]]), output_stream="file://" + path,
                                          end=";")],
    # SummarizeArray<bool> of no data (empty, or summarize 0) is "", with or without print_v2.
    "bool_without_data": lambda tf, path: [
        tf.print(tf.zeros([0], tf.bool), tf.zeros([2, 0], tf.bool), tf.constant(True),
                 tf.constant([[True], [False]]), summarize=0),
        tf.print(tf.zeros([0, 3], tf.bool)),
        tf.Print(tf.constant(1), [tf.zeros([0], tf.bool), tf.constant([True, False])],
                 message="v1:", summarize=0),
        tf.Print(tf.constant(1), [tf.zeros([0], tf.bool), tf.constant([True, False])],
                 message="v1 all:", summarize=-1)],
    "long_rows": lambda tf, path: [
        tf.print(tf.reshape(tf.range(2 * 7 * 8, dtype=tf.int64), [2, 7, 8]), summarize=2)],
}


def _with_init(tf, print_op):
    return [tf.global_variables_initializer(), print_op]


def _control_dependency(tf):
    tensor = _ten(tf)
    print_op = tf.print("tensors:", tensor, {2: tensor * 2}, output_stream=sys.stdout)
    with tf.control_dependencies([print_op]):
        tripled = tensor * 3
    return [tripled]


def _fed(tf):
    x = tf.placeholder(tf.float32, [None, None], name="x")
    return [(tf.print("fed:", x, summarize=2), {x: np.arange(20, dtype=np.float32).reshape(4, 5)})]


FORMAT_CASES = {
    "default": lambda tf: tf.strings.format("x={} y={}", [tf.range(10), tf.constant("s")]),
    "one_tensor": lambda tf: tf.strings.format("only {}", tf.constant([[1, 2], [3, 4]])),
    "placeholder_summarize": lambda tf: tf.strings.format(
        "%% then %%", (tf.range(100), tf.constant([0.5])), placeholder="%%", summarize=5),
    "summarize_all": lambda tf: tf.strings.format("{}", [tf.reshape(tf.range(24), [2, 3, 4])],
                                                  summarize=-1, name="fmt"),
    "no_inputs": lambda tf: tf.strings.format("plain text", []),
}


def _capture(run):
    """What `run()` writes to file descriptors 1 and 2, as bytes (C++'s std::cout and
    std::cerr are those descriptors, below Python's sys.stdout and sys.stderr)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    # the interpreter's own streams, as in a plain run (pytest puts its capture in them, and
    # the engine then writes there: engine/kernels/common.py, write_standard_stream)
    streams = sys.stdout, sys.stderr
    try:
        os.dup2(files[0].fileno(), 1)
        os.dup2(files[1].fileno(), 2)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        run()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = streams
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
    out = []
    for stream in files:
        stream.seek(0)
        out.append(stream.read())
        stream.close()
    return out


def _text(data):
    return data.decode("latin-1")  # bytes as JSON text, one character a byte


def run_case(tf, name, directory):
    """{stdout, stderr, file, nodes} of print case `name`; `file` what its "file://" stream
    got (under `directory`)."""
    path = os.path.join(directory, f"{name}.txt")
    with tf.Graph().as_default() as graph:
        fetches = CASES[name](tf, path)
        nodes = [[node.name, node.op] for node in graph.as_graph_def().node]
        with tf.Session() as sess:
            def run():
                for fetch in fetches:
                    fetch, feed = fetch if isinstance(fetch, tuple) else (fetch, None)
                    sess.run(fetch, feed_dict=feed)
            stdout, stderr = _capture(run)
    written = open(path, "rb").read() if os.path.exists(path) else b""
    return {"stdout": _text(stdout), "stderr": _text(stderr), "file": _text(written),
            "nodes": nodes}


def run_format_case(tf, name):
    """{value, shape, nodes} of tf.strings.format case `name`."""
    with tf.Graph().as_default() as graph:
        formatted = FORMAT_CASES[name](tf)
        nodes = [[node.name, node.op] for node in graph.as_graph_def().node]
        with tf.Session() as sess:
            value = sess.run(formatted)
    return {"value": _text(value), "shape": formatted.shape.as_list(),
            "dtype": formatted.dtype.name, "nodes": nodes}


ERRORS = {
    "format_count": lambda tf: tf.strings.format("{} {}", [tf.constant(1)]),
    "print_keyword": lambda tf: tf.print(1, flush=True),
    "print_stream": lambda tf: tf.print(1, output_stream="stdout"),
    "raw_format_count": lambda tf: tf.raw_ops.StringFormat(inputs=[tf.constant(1)],
                                                           template="{} {}"),
    "raw_print_rank": lambda tf: tf.raw_ops.PrintV2(input=tf.constant(["a", "b"])),
    "raw_print_fed_rank": lambda tf: tf.raw_ops.PrintV2(
        input=tf.placeholder_with_default(["a", "b"], None)),
    "raw_print_stream": lambda tf: tf.raw_ops.PrintV2(input="a", output_stream="nowhere"),
    "file_in_missing_dir": lambda tf: tf.print(
        "x", output_stream="file:///nonexistent-dir-for-print/out.txt"),
}


def run_error(tf, name):
    """(error class name, the message: a build error's up to its node, a kernel's line
    above the `[[{{node` line) of building and running error case `name`, or ("no error", "")."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError) as error:
            kind = "ValueError" if isinstance(error, ValueError) else "TypeError"
            return ["build: " + kind,
                    str(error).split("\n")[0].split(" for '{{node ")[0]]
        with tf.Session() as sess:
            try:
                _capture(lambda: sess.run(fetch))
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1] if at else lines[0]]
    return ["no error", ""]


# tf.print to the logging levels: LOG(INFO/WARNING/ERROR) lines on stderr, shown as
# TF_CPP_MIN_LOG_LEVEL allows (read when TensorFlow starts, so each level runs in a process
# of its own). `{import_tf}` is the line that makes `tf`.
LOG_PROGRAM = """
import logging, sys
{import_tf}
ops = [tf.print("info", [1, 2], output_stream=tf.logging.info),
       tf.print("warn", output_stream=logging.WARNING),
       tf.print("err", tf.constant([[1.5]]), output_stream=tf.logging.error, end="!")]
with tf.Session() as sess:
    sys.stderr.write("=====\\n")
    sys.stderr.flush()
    for op in ops:
        sess.run(op)
"""
LOG_LEVELS = ("0", "1", "2", "3")
_LOG_PREFIX = re.compile(r"^([IWE])0000 00:00:\d+\.\d{6} +\d+ ", re.M)
_OTHER_SOURCE = re.compile(r"^[IWE] (?!logging_ops\.cc:)[^\n]*\n", re.M)


def run_log_program(python, import_tf, level, env):
    """What LOG_PROGRAM writes to stderr after its marker at TF_CPP_MIN_LOG_LEVEL `level`,
    each line's time and thread id left out, and other sources' log lines (TensorFlow's MLIR
    pass notice) dropped."""
    env = dict(env, TF_CPP_MIN_LOG_LEVEL=level)
    result = subprocess.run([python, "-c", LOG_PROGRAM.format(import_tf=import_tf)],
                            env=env, capture_output=True, text=True, timeout=240, check=True)
    after = result.stderr.split("=====\n", 1)[1]
    return _OTHER_SOURCE.sub("", _LOG_PREFIX.sub(r"\1 ", after))
