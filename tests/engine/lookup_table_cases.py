"""Lookup-table graphs built the same way by real TensorFlow and by the engine: tf.lookup's
tables (StaticHashTable from tensors and from files, experimental.MutableHashTable) in CASES,
programs that must fail in ERRORS (raw ops where the Python API would refuse first). The
vocabulary files are tests/fixtures/lookup/*.txt; fixtures in tests/fixtures/lookup/
(tools/make_lookup_fixtures.py)."""

from pathlib import Path

import numpy as np

FILES = Path(__file__).resolve().parents[1] / "fixtures" / "lookup"


def _file(name):
    return str(FILES / name)


def build_static_from_tensors(tf):
    keys = tf.constant(["emerson", "lake", "palmer"])
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(keys, tf.constant([7, 8, 9], tf.int64)), -1)
    numbers = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer([3, 1, 2], ["c", "a", "b"], key_dtype=tf.int64),
        "?", name="by_number")
    keys_out, values_out = table.export()
    return {"found": table.lookup(tf.constant([["lake", "nobody"], ["emerson", "palmer"]])),
            "size": table.size(), "export_keys": keys_out, "export_values": values_out,
            "strings": numbers.lookup(tf.constant([2, 5, 3], tf.int64)),
            "by_getitem": table[tf.constant(["palmer"])]}


def build_static_from_files(tf):
    index = tf.lookup.TextFileIndex
    whole = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        _file("vocab.txt"), tf.string, index.WHOLE_LINE, tf.int64, index.LINE_NUMBER), -1)
    columns = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        _file("columns.txt"), tf.string, 0, tf.int64, 1), -1)
    floats = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        _file("columns.txt"), tf.string, 0, tf.float32, 2), -2.0)
    first_two = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        _file("vocab.txt"), tf.string, index.WHOLE_LINE, tf.int64, index.LINE_NUMBER,
        vocab_size=2, value_index_offset=5), -1)
    words = tf.constant(["palmer", "emerson", "b", "c", "lake"])
    return {"whole": whole.lookup(words), "columns": columns.lookup(words),
            "floats": floats.lookup(words), "first_two": first_two.lookup(words),
            "first_two_size": first_two.size()}


def build_mutable(tf):
    table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, -1.0)
    insert = table.insert(tf.constant([1, 2, 3], tf.int64), tf.constant([0.5, 1.5, 2.5]))
    with tf.control_dependencies([insert]):
        update = table.insert(tf.constant([3, 4], tf.int64), tf.constant([30.0, 40.0]))
    with tf.control_dependencies([update]):
        removed = table.remove(tf.constant([1, 9], tf.int64))
    with tf.control_dependencies([removed]):
        found = table.lookup(tf.constant([1, 2, 3, 4, 5], tf.int64))
        dynamic = table.lookup(tf.constant([2, 7], tf.int64),
                               dynamic_default_values=tf.constant([-5.0, -7.0]))
        size = table.size()
        keys_out, values_out = table.export()
    return {"found": found, "dynamic": dynamic, "size": size, "export_keys": keys_out,
            "export_values": values_out}


CASES = {"static_from_tensors": build_static_from_tensors,
         "static_from_files": build_static_from_files, "mutable": build_mutable}


def sorted_export(values):
    """Export outputs in key order: a hash table gives its entries in no fixed order."""
    if "export_keys" in values:
        order = np.argsort(values["export_keys"], kind="stable")
        values["export_keys"] = values["export_keys"][order]
        values["export_values"] = values["export_values"][order]
    return values


def run_case(tf, name):
    """The fetched values (exports in key order, strings as bytes) and the graph's nodes;
    tables_initializer runs twice, as a second initialization with the same data is allowed."""
    graph = tf.Graph()
    with graph.as_default():
        fetches = CASES[name](tf)
        init = tf.tables_initializer()
        with tf.Session() as sess:
            sess.run(init)
            sess.run(init)
            values = sess.run(fetches)
        nodes = [[node.name, node.op] for node in graph.as_graph_def().node]
    values = {k: np.asarray(v) for k, v in values.items()}
    values = {k: v.astype(bytes) if v.dtype == object else v for k, v in values.items()}
    return sorted_export(values), nodes


def _table(tf, key_dtype=None, value_dtype=None, shared_name="t", name=None):
    return tf.raw_ops.HashTableV2(shared_name=shared_name, key_dtype=key_dtype or tf.string,
                                  value_dtype=value_dtype or tf.int64, name=name)


def _import(tf, table, keys, values):
    return tf.raw_ops.LookupTableImportV2(table_handle=table, keys=keys, values=values)


def _filled(tf, keys=("a", "b"), values=(1, 2)):
    table = _table(tf)
    init = _import(tf, table, tf.constant(list(keys)), tf.constant(list(values), tf.int64))
    return table, init


def _after(tf, first, then):
    with tf.control_dependencies([first]):
        return then()


def _find(tf, table, keys, default):
    return tf.raw_ops.LookupTableFindV2(table_handle=table, keys=keys, default_value=default)


def _from_file(tf, name, key_index, value_index, key_dtype=None, vocab_size=-1):
    table = _table(tf, key_dtype=key_dtype, shared_name=f"file_{name}")
    return tf.raw_ops.InitializeTableFromTextFileV2(
        table_handle=table, filename=_file(name), key_index=key_index,
        value_index=value_index, vocab_size=vocab_size)


ERRORS = {
    "find_before_init": lambda tf: _find(tf, _table(tf), tf.constant(["a"]),
                                         tf.constant(-1, tf.int64)),
    "duplicate_key": lambda tf: _filled(tf, ("a", "a"), (1, 2))[1],
    "initialized_with_other_data": lambda tf: _after(
        tf, _filled(tf)[1], lambda: _import(tf, _table(tf, name="again"), tf.constant(["c"]),
                                            tf.constant([3], tf.int64))),
    "insert_into_static": lambda tf: _after(
        tf, _filled(tf)[1], lambda: tf.raw_ops.LookupTableInsertV2(
            table_handle=_table(tf), keys=tf.constant(["z"]),
            values=tf.constant([9], tf.int64))),
    "remove_from_static": lambda tf: _after(
        tf, _filled(tf)[1], lambda: tf.raw_ops.LookupTableRemoveV2(
            table_handle=_table(tf), keys=tf.constant(["a"]))),
    "default_value_shape": lambda tf: _after(
        tf, _filled(tf)[1], lambda: _find(tf, _table(tf), tf.constant(["a", "b", "c"]),
                                          tf.placeholder_with_default(
                                              tf.constant([1, 2], tf.int64), None))),
    "import_value_shape": lambda tf: _import(
        tf, _table(tf), tf.constant(["a", "b", "c"]),
        tf.placeholder_with_default(tf.constant([1, 2], tf.int64), None)),
    "conflicting_dtypes": lambda tf: _after(
        tf, _table(tf), lambda: tf.raw_ops.LookupTableSizeV2(
            table_handle=_table(tf, value_dtype=tf.float32))),
    "initialize_mutable": lambda tf: tf.raw_ops.InitializeTableV2(
        table_handle=tf.raw_ops.MutableHashTableV2(
            key_dtype=tf.string, value_dtype=tf.int64, use_node_name_sharing=True,
            name="mutable"),
        keys=tf.constant(["a"]), values=tf.constant([1], tf.int64)),
    "initialize_keys_matrix": lambda tf: tf.raw_ops.InitializeTableV2(
        table_handle=_table(tf), keys=tf.placeholder_with_default(tf.constant([["a"]]), None),
        values=tf.constant([1], tf.int64)),
    "file_missing": lambda tf: _from_file(tf, "no_such_vocab.txt", -2, -1),
    "file_short_row": lambda tf: _from_file(tf, "short_row.txt", 0, 1),
    "file_bad_int": lambda tf: _from_file(tf, "bad_int.txt", 0, 1),
    "file_empty_line": lambda tf: _from_file(tf, "empty_line.txt", -2, -1),
    "file_vocab_size": lambda tf: _from_file(tf, "vocab.txt", -2, -1, vocab_size=5),
    "file_line_number_key": lambda tf: _from_file(tf, "vocab.txt", -1, -2),
}


def run_error(tf, name):
    """(error class name, the kernel's message line, the fixtures' folder as <files>)."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError) as error:  # refused while building the graph
            return [type(error).__name__, str(error).split(" for '")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1].replace(str(FILES), "<files>")]
    return ["no error", ""]
