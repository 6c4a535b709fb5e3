"""What a directory holds: a SavedModel, a log directory, a graph dump, or a mix, each file named.

A directory opens as everything in it that the tool reads: SavedModels (its own or in
subdirectories), events files anywhere below (a log directory's runs), and every other file
directly in it (graphs, meta graphs, run metadata, logs). Files that read as none of these are
listed in `skipped` with the reason, not fatal. Links that lead out of the directory are not
followed.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from parsers import detect, dump_dir, events, tfrecord
from parsers.errors import InputError
from parsers.regular_files import open_file
from parsers.loaded import LabeledGraph, Loaded, MetaGraph, TaggedRun

_SCAN_DEPTH = 4  # event files sit in run directories under a log directory, rarely deeper
_SAVED_MODEL_FILES = ("saved_model.pb", "saved_model.pbtxt")
# Beside saved_model.pb: not graphs, and not worth calling unreadable.
_SAVED_MODEL_COMPANIONS = frozenset({"fingerprint.pb", "keras_metadata.pb"})
# Checkpoints (tensor bundles and their index) are data, read by parsers.checkpoint.
_CHECKPOINT = re.compile(r"^checkpoint$|\.index$|\.data-\d+-of-\d+$")


def load_directory(path, checkpoint_dir=False):
    """A Loaded for everything in directory `path` (see the module docstring). In a checkpoint
    directory (`checkpoint_dir`), a Saver's .meta files go with its checkpoints, not here."""
    root = Path(path)
    top_files, event_files, model_dirs, skipped = _scan(root)
    own_model = next((root / name for name in _SAVED_MODEL_FILES if (root / name) in top_files), None)
    others = [f for f in top_files if f.name not in _SAVED_MODEL_FILES + tuple(_SAVED_MODEL_COMPANIONS)]
    if own_model is not None and not (others or event_files or model_dirs):
        return _saved_model(root, own_model, str(path))

    parts = []  # (display name, Loaded), in the order read
    for model in ([own_model] if own_model else []) + model_dirs:
        _try(parts, skipped, root, model, lambda m=model: _saved_model(root, m, str(m.parent)))
    if event_files:
        named = [(p, _relative(root, p)) for p in event_files]
        loaded_events = _events(root, named, skipped)
        if loaded_events is not None:
            parts.append((_relative(root, root), loaded_events))
    readable = []
    for file_path in others:
        if file_path in event_files:
            continue
        if _CHECKPOINT.search(file_path.name) or (checkpoint_dir and file_path.suffix == ".meta"):
            continue  # the checkpoint reader's (parsers.checkpoint), not a graph
        readable.append(file_path)
    files = []
    for file_path in readable:
        _try(files, skipped, root, file_path, lambda f=file_path: detect.load_file(f))
    if files and not parts and all(loaded.kind == "graphdef" for _, loaded in files):
        return _dump_dir(path, root, files, skipped)
    return _combine(path, parts + files, skipped)


def _try(parts, skipped, root, where, read):
    try:
        loaded = read()
    except InputError as error:
        skipped.append((error.path, error.message))
        return
    parts.append((_relative(root, where), loaded))


def _relative(root, path):
    return str(path.relative_to(root)) if path != root else "."


def _saved_model(root, model_file, path):
    loaded = detect.load_file(model_file)
    if loaded.kind != "saved_model":
        raise InputError(model_file, f"holds a {loaded.kind}, not a SavedModel")
    loaded.path = path
    return loaded


def _events(root, named, skipped):
    """One events Loaded over every readable events file, or None; a bad one is skipped (in
    `skipped`), not fatal. None when none reads: the directory itself is no second failure
    (one bad events file was 'no file could be read (2 tried)')."""
    loaded = Loaded(path=str(root), kind="events")
    for file_path, display in named:
        try:
            events.read_events_file(loaded, file_path, display)
        except InputError as error:
            skipped.append((error.path, error.message))
    return loaded if loaded.files else None


def _dump_dir(path, root, files, skipped):
    """Graphs only: a TF_DUMP_GRAPH_PREFIX directory, one graph per pass, in pass order."""
    loaded = Loaded(path=str(path), kind="dump_dir", skipped=skipped)
    by_path = {root / name: one for name, one in files}
    for file_path in dump_dir.pass_order(list(by_path)):
        graph = by_path[file_path].graphs[0].graph_def
        loaded.graphs.append(LabeledGraph(dump_dir.pass_label(file_path.name), graph, str(file_path)))
        loaded.files.append(str(file_path))
    return loaded


def _combine(path, parts, skipped):
    """One Loaded from the parts: the part's own kind when there is one part, else "directory"
    with every graph, run and meta graph labelled by the file it came from."""
    if not parts:
        _raise_nothing_read(path, skipped)
    if len(parts) == 1:
        loaded = parts[0][1]
        loaded.path = str(path)
        loaded.skipped = skipped + loaded.skipped
        return loaded
    combined = Loaded(path=str(path), kind="directory", skipped=skipped)
    for name, part in parts:
        prefix = "" if part.kind == "events" else f"{name}: "
        combined.graphs += [LabeledGraph(_label(prefix, g.label, name), g.graph_def, g.source)
                            for g in part.graphs]
        combined.run_metadata += [TaggedRun(_label(prefix, r.tag, name) if prefix else r.tag,
                                            r.run_metadata, r.source) for r in part.run_metadata]
        combined.meta_graphs += [MetaGraph(_label(prefix, m.label, name), m.tags, m.meta_graph_def,
                                           m.source) for m in part.meta_graphs]
        for kind, count in part.event_counts.items():
            combined.event_counts[kind] = combined.event_counts.get(kind, 0) + count
        combined.files += part.files
        combined.notes += part.notes
        combined.skipped += part.skipped
    return combined


def _label(prefix, label, name):
    """`name: label`, or just the name when the label is the file's own name."""
    if not prefix or label == Path(name).name:
        return name if prefix else label
    return f"{prefix}{label}" if label else name


def _raise_nothing_read(path, skipped):
    if not skipped:
        raise InputError(path, "directory holds no graph, SavedModel, events or dump files")
    if len(skipped) == 1:
        raise InputError(*skipped[0])
    first_path, first_reason = skipped[0]
    raise InputError(path, f"no file could be read ({len(skipped)} tried); first,"
                           f" {Path(first_path).name}: {first_reason}")


def _scan(root):
    """(regular files directly in root, events files anywhere below it, subdirectories holding
    a SavedModel, [(path, why)] of entries not followed), names sorted."""
    top_files, event_files, model_dirs, skipped = [], [], [], []
    try:
        real_root = root.resolve()
        for directory, subdirectories, files in os.walk(root):
            here = Path(directory)
            depth = len(here.relative_to(root).parts)
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and depth < _SCAN_DEPTH)
            # A saved_model.pb that is a directory: say so, rather than "holds no graph".
            for name in [d for d in subdirectories if d in _SAVED_MODEL_FILES]:
                skipped.append((str(here / name), "a directory, not a SavedModel file"))
                subdirectories.remove(name)
            if depth and any((here / name).is_file() for name in _SAVED_MODEL_FILES):
                model_dirs.append(next(here / n for n in _SAVED_MODEL_FILES if (here / n).is_file()))
                subdirectories[:] = []  # its variables/ and assets/ are its own
                continue
            for name in sorted(files):
                file_path = here / name
                if name.startswith("."):
                    continue
                why = _link_not_followed(file_path, real_root) if file_path.is_symlink() else None
                if why:
                    skipped.append((str(file_path), why))
                    continue
                if not file_path.is_file():
                    continue
                if depth == 0:
                    top_files.append(file_path)
                if _is_events_file(file_path):
                    event_files.append(file_path)
    except OSError as error:
        raise InputError(root, detect.describe_os_error(error)) from None
    if not os.access(root, os.R_OK | os.X_OK):
        raise InputError(root, "permission denied")
    return top_files, event_files, model_dirs, skipped


def _inside(path, real_root):
    try:
        path.resolve().relative_to(real_root)
    except (ValueError, OSError, RuntimeError):  # outside, unresolvable, or a link loop
        return False
    return True


def _link_not_followed(path, real_root):
    """Why a symbolic link in the directory is not read (None: it stays inside): a loop of
    links (it was called 'a link out of the directory'), or a target outside."""
    try:
        path.resolve(strict=True)
    except RuntimeError:
        return "a link loop, not followed"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a link loop, not followed"
    return None if _inside(path, real_root) else "a link out of the directory, not followed"


def _is_events_file(path):
    try:
        with open_file(path) as stream:
            return tfrecord.looks_like_tfrecord(stream.read(tfrecord.HEADER))
    except (InputError, OSError):
        return False
