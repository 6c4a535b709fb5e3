"""`graph-inspector run GRAPH --fetch T ...`: run a graph file in the engine, print what it computes.

The graph is imported into a fresh engine Graph (names as written), the --before ops run one
per Session.run, in order (an initializer, say; fed the --feed values it needs, such as a
saver's filename), then --restore assigns a checkpoint's values to the variables
(inspector.restore), then the fetches and targets in one run, traced with FULL_TRACE when
--trace asks for the RunMetadata. A SavedModel given without --fetch or --target, or with
--signature, runs one of its signatures (inspector.run_signature). Bad input is an
InputError (exit 2); a graph that fails while running prints one line naming the node, its
op and where it was created, and exits 1.
"""

import json
import os
import sys

import numpy as np

import engine as tf
import parsers
from engine.framework import errors
from inspector.debug.launch import debug_graph_run
from inspector.npy_files import read_npy
from inspector import function_calls, run_cluster, run_setup, run_signature
from inspector.run_report import (  # noqa: F401  (format_value: part of this command's API)
    format_value, run_error_line, write_run_metadata)
from parsers.errors import InputError
from parsers.printable import printable
from views import outputs


def add_arguments(parser):
    parser.add_argument("graph", metavar="GRAPH", help="a GraphDef (.pb or .pbtxt), a "
                        "MetaGraphDef or a SavedModel directory")
    parser.add_argument("--fetch", action="append", default=[], metavar="T",
                        help="a tensor (op:0) to fetch; an op name means its first output (an op without outputs is run); repeatable")
    parser.add_argument("--feed", action="append", default=[], metavar="NAME=VALUE",
                        help="feed a tensor (a signature's input key) from FILE.npy, FILE.json, a JSON "
                             "value, or @FILE (its bytes as one string; @A,@B,...: a vector); "
                             "repeatable")
    parser.add_argument("--before", action="append", default=[], metavar="OP",
                        help="an op to run first, in its own step (e.g. init); repeatable")
    parser.add_argument("--target", action="append", default=[], metavar="OP",
                        help="an op to run with the fetches, without fetching it; repeatable")
    parser.add_argument("--trace", metavar="OUT", help="write the run's RunMetadata "
                        "(FULL_TRACE, partition graphs) to OUT.pb or OUT.pbtxt")
    parser.add_argument("--save", metavar="OUT.npz", help="save the fetched values")
    parser.add_argument("--restore", metavar="CKPT", help="give the graph's variables a checkpoint's "
                        "values first (a prefix, .index, checkpoint directory or SavedModel)")
    parser.add_argument("--debug", action="store_true", help="step through the run in the "
                        "debugger (TUI in a terminal, else a prompt); see graph-inspector debug")
    parser.add_argument("--cli", action="store_true", help="with --debug: the line prompt")
    run_signature.add_arguments(parser)
    run_setup.add_arguments(parser)
    run_cluster.add_arguments(parser)


def run(args):
    path = args.graph
    if run_signature.is_signature_run(args):
        check_outputs(args)
        run_cluster.check(args)
        args.config = run_setup.session_config(args)
        return run_signature.run(args, parse_feed, run_error_line)
    if not args.fetch and not args.target:
        raise InputError(path, "nothing to run: give --fetch or --target")
    check_outputs(args)
    run_cluster.check(args)
    config = run_setup.session_config(args)
    graph_def, saver_def = load_graph(path)
    feeds = {name: value for name, value in (parse_feed(path, text) for text in args.feed)}
    run_setup.check_feeds(path, graph_def, feeds)
    restore_op = [saver_def.restore_op_name] if args.restore and saver_def is not None else []
    function_calls.check_calls(path, graph_def, args.fetch + args.target + args.before + restore_op)
    run_setup.progress(graph_def, "importing the graph")
    graph = tf.Graph()
    with graph.as_default():
        try:
            tf.import_graph_def(graph_def, name="")
        except (ValueError, TypeError, KeyError, errors.OpError) as error:
            raise InputError(path, f"cannot import the graph: {_first_line(error)}") from None
    args.config = config
    for name in feeds:
        _check_element(graph, path, name, tensor=True)
    for name in args.fetch:
        _check_element(graph, path, name, tensor=":" in name)
    args.fetch = [_fetched_tensor(graph, name) for name in args.fetch]
    for name in args.before + args.target:
        _check_element(graph, path, name, tensor=False)

    restore = None
    if args.restore:
        from inspector.restore import build_restore
        restore = build_restore(graph, args.restore, saver_def)
    options = metadata = None
    if args.trace:
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                output_partition_graphs=True)
        metadata = tf.RunMetadata()
    if args.debug:  # the same runs, each Session.run through the debugger (inspector.debug)
        return debug_graph_run(
            lambda: _run_and_print(args, graph, graph_def, feeds, options, metadata, restore),
            path, args.fetch + args.target, args.cli)
    return _run_and_print(args, graph, graph_def, feeds, options, metadata, restore)


def _run_and_print(args, graph, graph_def, feeds, options, metadata, restore=None):
    path = args.graph
    run_setup.progress(graph_def, "running")
    try:
        with run_cluster.session_target(args) as target, \
                tf.Session(target, graph=graph, config=getattr(args, "config", None)) as sess:
            for name in args.before:  # fed too: a restore op needs its saver's filename
                sess.run(name, feed_dict=feeds or None)
            if restore is not None:  # after --before: an initializer must not undo it
                sess.run(*restore)
            values = sess.run(args.fetch + args.target, feed_dict=feeds or None,
                              options=options, run_metadata=metadata)
    except errors.OpError as error:
        line = run_cluster.error_line(error) or run_error_line(error, graph_def)
        print(f"error: {printable(line)}", file=sys.stderr)
        return 1
    except (TypeError, ValueError) as error:
        raise InputError(path, _first_line(error)) from None

    fetched = dict(zip(args.fetch, values))
    for name, value in fetched.items():
        name = printable(name)
        print(f"{name}: ran" if ":" not in name else f"{name} = {format_value(name, value)}")
    if args.trace:
        write_run_metadata(args.trace, metadata)
    if args.save:
        with outputs.replacing(args.save) as out:  # a file object: savez adds no ".npz"
            np.savez(out, **{name: np.asarray(value) for name, value in fetched.items()})
    return 0


def check_outputs(args):
    """--trace and --save, checked before the graph is read or run: not an input (the graph,
    a fed .npy), not each other, in a directory that exists; not stdout (the values go there)."""
    note = "stdout carries the fetched values"
    sources = [args.graph] + [text.partition("=")[2] for text in args.feed
                              if os.path.isfile(text.partition("=")[2])]
    if args.trace:
        outputs.check_output(args.trace, inputs=sources, stdout_note=note)
    if args.save:
        outputs.check_output(args.save, inputs=sources, stdout_note=note)
        if args.trace and os.path.abspath(args.save) == os.path.abspath(args.trace):
            raise InputError(args.save, "--save and --trace name the same file")


def load_graph_def(path):
    """The first GraphDef in `path`, through parsers.load."""
    return load_graph(path)[0]


def load_graph(path):
    """(the first GraphDef in `path`, the SaverDef of its meta graph or None)."""
    loaded = parsers.load(path)
    graphs = getattr(loaded, "graphs", None) or []
    if not graphs:
        raise InputError(path, f"holds no graph to run ({getattr(loaded, 'kind', 'unknown')})")
    metas = getattr(loaded, "meta_graphs", None) or []
    meta = metas[0].meta_graph_def if metas else None
    saver_def = meta.saver_def if meta is not None and meta.HasField("saver_def") else None
    return graphs[0].graph_def, saver_def


def parse_feed(path, text, raw_name=False):
    """(tensor name, value) from NAME=FILE.npy or NAME=<JSON>; NAME "op" means "op:0" (a
    signature's input key, `raw_name`, stays as it is)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise InputError(path, f"--feed {text!r}: expected NAME=FILE.npy or NAME=JSON")
    if ":" not in name and not raw_name:
        name += ":0"
    if value.startswith("@"):
        return name, _raw_bytes(value, name)
    if value.endswith((".npy", ".json")) or os.path.isfile(value):
        return name, _feed_file(value, name)
    try:
        return name, _json_value(value)
    except ValueError as error:
        raise InputError(path, f"--feed {name}: not a .npy file or JSON value ({error})") \
            from None


def _json_value(text):
    """json.loads(text), a value nested deeper than Python's decoder recurses a ValueError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _raw_bytes(value, name):
    """`@FILE`: the file's bytes as a string scalar; `@A,@B,...` (a trailing comma for one):
    a vector of them. Binary strings (a serialized tf.Example, a WAV or JPEG file) keep every
    byte, which a bytes .npy would not (NumPy drops trailing NULs)."""
    files = [part[1:] for part in value.split(",") if part]
    if any(not part.startswith("@") for part in value.split(",") if part):
        raise InputError(value, f"--feed {name}: expected @FILE or @FILE,@FILE,...")
    contents = []
    for path in files:
        if os.path.exists(path) and not os.path.isfile(path):
            raise InputError(path, f"cannot read the feed for {name}: not a regular file")
        try:
            with open(path, "rb") as file:
                contents.append(file.read())
        except OSError as error:
            raise InputError(path, f"cannot read the feed for {name}: "
                                   f"{error.strerror or error}") from None
    array = np.empty(len(contents), dtype=object)
    array[:] = contents
    return array if "," in value else array.reshape(())


def _feed_file(path, name):
    """A feed's value from a file: a .npy array (NumPy's header), else JSON text."""
    if os.path.exists(path) and not os.path.isfile(path):  # a pipe would block the read
        raise InputError(path, f"cannot read the feed for {name}: not a regular file")
    try:
        with open(path, "rb") as file:
            if file.read(6) == b"\x93NUMPY":
                file.seek(0)
                return _npy_value(file, path, name)
            file.seek(0)
            text = file.read().decode("utf-8")
        return _json_value(text)
    except OSError as error:
        raise InputError(path, f"cannot read the feed for {name}: "
                               f"{error.strerror or error}") from None
    except ValueError as error:  # a bad .npy header, UnicodeDecodeError, JSONDecodeError
        raise InputError(path, f"cannot read the feed for {name}: neither a .npy array nor "
                               f"JSON ({error})") from None


def _npy_value(file, path, name):
    try:
        return read_npy(file)
    except ValueError as error:
        raise InputError(path, f"cannot read the feed for {name}: {error}") from None


def _fetched_tensor(graph, name):
    """What `--fetch NAME` means: an op's first output (`NAME:0`) when it has outputs, as a
    user asking for `y` wants y's value (Session.run('y') would run y and give None); an op
    without outputs (a train op, an initializer) is run."""
    if ":" in name or not graph.get_operation_by_name(name).outputs:
        return name
    return f"{name}:0"


def _check_element(graph, path, name, tensor):
    try:
        graph.as_graph_element(name, allow_tensor=True, allow_operation=not tensor)
    except (KeyError, ValueError, TypeError) as error:
        raise InputError(path, _first_line(error).strip("\"'")) from None


def _first_line(error):
    text = str(error.args[0]) if getattr(error, "args", None) else str(error)
    return text.splitlines()[0] if text else type(error).__name__
