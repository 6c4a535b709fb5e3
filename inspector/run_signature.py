"""`graph-inspector run SAVED_MODEL --signature NAME --feed KEY=VALUE ...`: one signature of a
SavedModel run in the engine, as `saved_model_cli run` runs it (TensorFlow's TF1 loader:
import the meta graph, restore the variables, run the init op, then the signature).

The meta graph is the one tagged --tag (default `serve`); without --signature, a SavedModel
with one signature besides `__saved_model_init_op` runs that one. Before anything runs, the
feeds are checked against the signature's TensorSpecs (inspector.signature_feeds), the
tensors the signature names against the graph, and the functions the run would call against
the library (inspector.function_calls). The variables come back through the SavedModel's own
saver (a TF2 model's restore function, which reads its object-path keys; a TF1 model's
save/restore_all), from its variables/ or --restore CKPT, and the variables the functions
read that the restore function does not restore by their objects' paths, as
tf.saved_model.load binds them (inspector/bound_variables.py); the init op is fed the model's
asset files (assets/, a vocabulary a table reads). Each output is printed, and saved
with --save, under its signature key. A node failing is one line naming it, its op and the
function it ran in (exit 1).
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass, field

import numpy as np

import engine as tf
import parsers
from engine.framework import errors
from engine.savedmodel import constants
from engine.savedmodel.loader import asset_files
from inspector import function_calls, run_cluster, run_setup
from inspector import bound_variables
from inspector.restore import assign_variables, build_restore
from inspector.run_report import format_value, write_run_metadata
from inspector.signature_feeds import signature_feeds
from parsers.checkpoint import Checkpoint
from parsers.errors import InputError
from parsers.printable import printable
from parsers.saved_objects import holds_variables
from views import outputs

INIT_KEY = constants.INIT_OP_SIGNATURE_KEY
DEFAULT_KEY = constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY


def add_arguments(parser):
    parser.add_argument("--signature", metavar="NAME",
                        help="with a SavedModel: the signature to run (feeds by its input keys,"
                             " outputs by its output keys)")
    parser.add_argument("--tag", default="serve", metavar="TAGS",
                        help="with a SavedModel: the meta graph's tag-set, comma-separated "
                             "(default: serve)")


def is_signature_run(args):
    """A SavedModel with nothing named to fetch, or --signature: run a signature."""
    if args.signature is not None:
        return True
    return not args.fetch and not args.target and os.path.isdir(args.graph) and any(
        os.path.isfile(os.path.join(args.graph, name))
        for name in (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


@dataclass
class SignaturePlan:
    """What one signature run needs, all checked: the graph, feeds and fetches by key, and
    the runs that come first (restoring the variables, the init op)."""

    path: str
    key: str
    meta_graph_def: object
    feeds: dict                      # input key -> value
    outputs: dict                    # output key -> tensor name
    inputs: dict                     # input key -> tensor name
    init_op: str | None = None
    assets: dict = field(default_factory=dict)  # asset tensor name -> its file
    graph: object = None
    restore: tuple | None = None     # (ops, {tensor: value}) or None
    fetch_names: list = field(default_factory=list)

    @property
    def graph_def(self):
        return self.meta_graph_def.graph_def


def plan(args, parse_feed):
    """The SignaturePlan of `args`, or InputError for anything wrong with the input."""
    path = args.graph
    if args.signature is None and args.before:
        raise InputError(path, "--before runs a graph's ops: give --fetch or --target to run "
                               "the SavedModel's graph, or no --before to run a signature")
    if args.fetch or args.target or args.before:
        raise InputError(path, "--signature runs what the signature names: give it without "
                               "--fetch, --target or --before")
    loaded = parsers.load(path)
    if loaded.kind != "saved_model":
        raise InputError(path, f"--signature needs a SavedModel directory, not a "
                               f"{loaded.kind}")
    meta_graph_def = _meta_graph(path, loaded, args.tag)
    key, signature_def = _signature(path, meta_graph_def, args.signature)
    feeds = signature_feeds(path, key, signature_def,
                            [parse_feed(path, text, raw_name=True) for text in args.feed])
    result = SignaturePlan(
        path, key, meta_graph_def, feeds,
        outputs={k: info.name for k, info in sorted(signature_def.outputs.items())},
        inputs={k: info.name for k, info in signature_def.inputs.items()},
        init_op=_init_op_name(meta_graph_def), assets=_assets(path, meta_graph_def))
    for what, tensors in (("output", result.outputs), ("input", result.inputs)):
        for name, tensor in tensors.items():
            if not tensor:
                raise InputError(path, f"signature {key!r} {what} {name!r} names no tensor "
                                       f"(only dense tensors are run)")
    result.fetch_names = list(result.outputs.values())
    saver_def = meta_graph_def.saver_def if meta_graph_def.HasField("saver_def") else None
    first = [saver_def.restore_op_name] if saver_def is not None else []
    first += [result.init_op] if result.init_op else []
    function_calls.check_calls(path, result.graph_def, result.fetch_names + first)
    result.graph = _import(path, result)
    result.restore = _restore(path, args.restore, result.graph, saver_def, meta_graph_def)
    return result


def _meta_graph(path, loaded, tag_text):
    wanted = {tag.strip() for tag in tag_text.split(",") if tag.strip()}
    for meta in loaded.meta_graphs:
        if set(meta.tags) == wanted:
            return meta.meta_graph_def
    available = ", ".join(repr(",".join(meta.tags)) for meta in loaded.meta_graphs)
    raise InputError(path, f"no meta graph with tag-set {tag_text!r} (tag-sets: "
                           f"{available or 'none'}): pick one with --tag")


def _signature(path, meta_graph_def, name):
    signatures = meta_graph_def.signature_def
    runnable = sorted(key for key in signatures if key != INIT_KEY)
    if name is not None:
        if name not in signatures or name == INIT_KEY:
            raise InputError(path, f"no signature {name!r} (signatures: "
                                   f"{', '.join(runnable) or 'none'})")
        return name, signatures[name]
    if len(runnable) == 1:
        return runnable[0], signatures[runnable[0]]
    if not runnable:
        raise InputError(path, "holds no signature to run")
    if DEFAULT_KEY in runnable:
        # what TensorFlow Serving runs for a request naming no signature; every Keras
        # model.export() writes it beside `serve`, the same function
        others = ", ".join(key for key in runnable if key != DEFAULT_KEY)
        print(f"graph-inspector: running signature {DEFAULT_KEY!r} (also: {others}; pick one "
              f"with --signature)", file=sys.stderr)
        return DEFAULT_KEY, signatures[DEFAULT_KEY]
    raise InputError(path, f"holds {len(runnable)} signatures ({', '.join(runnable)}): pick "
                           f"one with --signature")


def _init_op_name(meta_graph_def):
    """The op TensorFlow's loader runs after restoring: the __saved_model_init_op
    signature's, else the main op or legacy init op collection's."""
    signature = meta_graph_def.signature_def.get(INIT_KEY)
    if signature is not None and INIT_KEY in signature.outputs:
        return signature.outputs[INIT_KEY].name.split(":")[0]
    for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
        names = meta_graph_def.collection_def[key].node_list.value \
            if key in meta_graph_def.collection_def else []
        if names:
            return names[0].split(":")[0]
    return None


def _assets(path, meta_graph_def):
    """{asset tensor: its file under assets/}: what TensorFlow's loader feeds the init op (a
    vocabulary file a table is initialized from). A file name leaving assets/ is bad input."""
    assets = asset_files(meta_graph_def, path)
    directory = os.path.join(path, constants.ASSETS_DIRECTORY)
    for tensor, file in assets.items():
        name = os.path.relpath(file, directory)
        if os.path.isabs(name) or name.startswith(os.pardir) or file.endswith(os.sep) \
                or os.path.normpath(file) == os.path.normpath(directory):
            raise InputError(path, f"asset file name {name!r} leaves the assets directory")
    return assets


def _import(path, result):
    run_setup.progress(result.graph_def, "importing the graph")
    graph = tf.Graph()
    with graph.as_default():
        try:
            tf.import_graph_def(result.graph_def, name="")
        except (ValueError, TypeError, KeyError, errors.OpError) as error:
            raise InputError(path, f"cannot import the graph: {first_line(error)}") from None
    for what, tensors in (("output", result.outputs), ("input", result.inputs)):
        for name, tensor in tensors.items():
            try:
                graph.get_tensor_by_name(tensor)
            except (KeyError, ValueError, TypeError):
                raise InputError(path, f"signature {result.key!r} {what} {name!r} names "
                                       f"{tensor!r}, which the graph does not hold") from None
    if result.init_op:
        try:
            graph.get_operation_by_name(result.init_op)
        except (KeyError, ValueError):
            raise InputError(path, f"the init op {result.init_op!r} is not in the "
                                   f"graph") from None
    for tensor in result.assets:
        try:
            graph.get_tensor_by_name(tensor)
        except (KeyError, ValueError, TypeError):
            raise InputError(path, f"asset tensor {tensor!r} is not in the graph") from None
    return graph


def _restore(path, restore_path, graph, saver_def, meta_graph_def):
    """What restores the variables: --restore CKPT, else the SavedModel's variables/ when
    it has any (a SavedModel without variables restores nothing, as TensorFlow's loader).
    A model that holds variables but lost its variables.index is refused here: TensorFlow's
    loader restores nothing then, and the first variable read fails mid-run."""
    if restore_path is None:
        variables = os.path.join(path, constants.VARIABLES_DIRECTORY,
                                 constants.VARIABLES_FILENAME)
        if not os.path.isfile(variables + ".index"):
            if holds_variables(meta_graph_def):
                raise InputError(variables + ".index",
                                 "missing: the index of the model's variables")
            return None
        restore_path = variables
    if os.path.isfile(str(restore_path) + ".index"):
        names = _check_bundle(str(restore_path))
        wanted = _restored_keys(meta_graph_def.graph_def, saver_def)
        missing = [key for key in wanted if key not in names]
        if missing:
            roots = sorted({name.split("/")[0] for name in names
                            if not name.startswith("_CHECKPOINTABLE")})
            raise InputError(str(restore_path) + ".index",
                             f"holds no {missing[0]!r}, which the model restores ({len(missing)} "
                             f"of its {len(wanted)} keys missing; the checkpoint's objects: "
                             f"{', '.join(roots[:5]) or 'none'})")
    restore = build_restore(graph, restore_path, saver_def, through_saver=True)
    if saver_def is not None and restore[0] and restore[0][0].name == \
            saver_def.restore_op_name.split(":")[0]:
        restore = _with_bound_variables(path, graph, meta_graph_def, saver_def, restore_path,
                                        restore)
    return restore


def _with_bound_variables(path, graph, meta_graph_def, saver_def, restore_path, restore):
    """`restore` and the assigns of the variables the functions read that the restore
    function does not restore (inspector.bound_variables), said on stderr."""
    captures = bound_variables.unrestored_captures(meta_graph_def, saver_def.restore_op_name)
    if not captures:
        return restore
    checkpoint = Checkpoint(restore_path)
    keys = bound_variables.checkpoint_keys(meta_graph_def.object_graph_def, checkpoint)
    found = {}
    for name, node_id in captures.items():
        key = keys.get(node_id)
        if key is not None and key in checkpoint:
            found[graph.get_operation_by_name(name)] = key, functools.partial(
                checkpoint.value, key)
    if not found:
        return restore
    assigns, feeds = assign_variables(graph, checkpoint, found, "restore_bound_variables")
    names = sorted(op.name for op in found)
    print(f"note: {path}: {len(names)} variables the signatures read ({', '.join(names[:3])}"
          f"{', ...' if len(names) > 3 else ''}) are not the ones its restore function "
          f"restores: restored by their objects' paths, as tf.saved_model.load binds them "
          f"(saved_model_cli and TensorFlow Serving fail on them)", file=sys.stderr)
    return list(restore[0]) + assigns, {**restore[1], **feeds}


def _restored_keys(graph_def, saver_def):
    """The checkpoint keys a TF2 model's restore function reads (its RestoreV2 nodes' constant
    tensor_names); none known for a TF1 saver's or one computed at run time."""
    if saver_def is None:
        return []
    restore = next((n for n in graph_def.node
                    if n.name == saver_def.restore_op_name.split(":")[0]), None)
    if restore is None or "f" not in restore.attr:
        return []
    library = {f.signature.name: f for f in graph_def.library.function}
    function = library.get(restore.attr["f"].func.name)
    if function is None:
        return []
    by_name = {n.name: n for n in function.node_def}
    keys = []
    for node in function.node_def:
        if node.op != "RestoreV2" or len(node.input) < 2:
            continue
        source = by_name.get(node.input[1].split(":")[0])
        if source is None or source.op != "Const":
            return []
        keys += [v.decode("utf-8", "replace") for v in source.attr["value"].tensor.string_val]
    return keys


def _check_bundle(prefix):
    """InputError (exit 2, before anything runs) for variables that cannot be restored: an
    unreadable index, a missing data shard, or a tensor's bytes past its shard's end (a
    truncated copy), instead of the restore op failing mid-run (exit 1). The keys it holds."""
    from engine.checkpoint.bundle import BundleError, BundleReader, data_path
    try:
        reader = BundleReader(prefix)
    except BundleError as error:
        raise InputError(error.file, error.what if error.entry is None
                         else f"{error.entry}: {error.what}") from None
    shards = reader.header.num_shards
    sizes = {}
    for name in reader.names:
        entry = reader.entry(name)
        if entry.slices:
            continue
        shard = data_path(prefix, entry.shard_id, shards)
        if shard not in sizes:
            if not os.path.isfile(shard):
                raise InputError(shard, f"missing: the data shard holding {name}")
            sizes[shard] = os.path.getsize(shard)
        if entry.offset + entry.size > sizes[shard]:
            raise InputError(shard, f"{name}: bytes {entry.offset}..{entry.offset + entry.size} "
                                    f"run past the end of the shard ({sizes[shard]} bytes; "
                                    f"truncated?)")
    return set(reader.names)


def run(args, parse_feed, error_line):
    """Plan, then run (under the debugger with --debug) and print; the exit code."""
    signature_plan = plan(args, parse_feed)
    options = metadata = None
    if args.trace:
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE,
                                output_partition_graphs=True)
        metadata = tf.RunMetadata()

    def run_and_print():
        return _run_and_print(args, signature_plan, options, metadata, error_line)
    if args.debug:
        from inspector.debug.launch import debug_graph_run
        return debug_graph_run(run_and_print, args.graph, signature_plan.fetch_names, args.cli)
    return run_and_print()


def _run_and_print(args, signature_plan, options, metadata, error_line):
    graph = signature_plan.graph
    run_setup.progress(signature_plan.graph_def, "running")
    feed_dict = {graph.get_tensor_by_name(signature_plan.inputs[key]): value
                 for key, value in signature_plan.feeds.items()}
    try:
        with run_cluster.session_target(args) as target, \
                tf.Session(target, graph=graph, config=getattr(args, "config", None)) as sess:
            if signature_plan.restore is not None:
                sess.run(*signature_plan.restore)
            if signature_plan.init_op:
                sess.run(signature_plan.init_op, feed_dict=signature_plan.assets or None)
            values = sess.run(signature_plan.fetch_names, feed_dict=feed_dict,
                              options=options, run_metadata=metadata)
    except errors.OpError as error:
        line = run_cluster.error_line(error) or error_line(error, signature_plan.graph_def)
        print(f"error: {printable(line)}", file=sys.stderr)
        return 1
    except (TypeError, ValueError) as error:
        raise InputError(signature_plan.path, first_line(error)) from None
    fetched = dict(zip(signature_plan.outputs, values))
    for key, value in fetched.items():
        print(f"{printable(key)} = {format_value(printable(key), value)}")
    if args.trace:
        write_run_metadata(args.trace, metadata)
    if args.save:
        with outputs.replacing(args.save) as out:
            np.savez(out, **{key: np.asarray(value) for key, value in fetched.items()})
    return 0


def first_line(error):
    text = str(error.args[0]) if getattr(error, "args", None) else str(error)
    return text.splitlines()[0] if text else type(error).__name__
