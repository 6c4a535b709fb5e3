"""Checkpoints TensorFlow 2.21 wrote read back with TensorFlow's values; our writer rewrites them byte for byte."""

import filecmp
import shutil
import json

import numpy as np
import pytest

import parsers
from engine.checkpoint.bundle import BundleReader, BundleWriter
from engine.checkpoint.slice_key import slice_extents
from engine.lib_io import file_io
from parsers.checkpoint import Checkpoint, stats
from parsers_testing import FIXTURES

CHECKPOINTS = FIXTURES / "checkpoints"
TF_VALUES = json.loads((CHECKPOINTS / "values.json").read_text())


def as_tf_json(array):
    """Our array in values.json's spelling (make_checkpoint_fixtures.json_values)."""
    if array.dtype == object:
        return [item.decode("latin-1") for item in array.ravel()]
    if np.iscomplexobj(array):
        return [[float(item.real), float(item.imag)] for item in array.ravel()]
    return array.ravel().tolist()


@pytest.mark.parametrize("prefix", sorted(TF_VALUES))
def test_values_equal_tensorflows(prefix):
    checkpoint = Checkpoint(CHECKPOINTS / prefix)
    expected = TF_VALUES[prefix]
    assert [info.name for info in checkpoint.variables] == sorted(expected)
    for info in checkpoint.variables:
        tf_side = expected[info.name]
        assert (info.dtype, list(info.shape)) == (tf_side["dtype"], tf_side["shape"]), info.name
        value = checkpoint.value(info.name)
        assert list(value.shape) == tf_side["shape"]
        got = as_tf_json(value)
        if value.dtype.kind == "f":
            np.testing.assert_array_equal(np.array(got), np.array(tf_side["values"], dtype=float))
        else:
            assert got == tf_side["values"], info.name


def test_every_engine_dtype_and_strings_are_covered():
    names = {v["dtype"] for v in TF_VALUES["dtypes/model.ckpt-7"].values()}
    assert {"float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
            "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"} <= names


def test_partitioned_and_sharded_fixtures_are_what_they_claim():
    partitioned = BundleReader(CHECKPOINTS / "partitioned" / "model.ckpt")
    assert [len(partitioned.entry(n).slices) for n in ("embedding", "wide", "plain")] == [3, 2, 0]
    sharded = BundleReader(CHECKPOINTS / "sharded" / "model.ckpt-3")
    assert sharded.header.num_shards == 3
    assert len({sharded.entry(n).shard_id for n in sharded.names}) == 3


@pytest.mark.parametrize("path, prefix", [
    ("dtypes", "dtypes/model.ckpt-7"),                         # state file: the latest
    ("dtypes/model.ckpt-6", "dtypes/model.ckpt-6"),
    ("dtypes/model.ckpt-6.index", "dtypes/model.ckpt-6"),
    ("sharded/model.ckpt-3.data-00002-of-00003", "sharded/model.ckpt-3"),
    ("sharded", "sharded/model.ckpt-3"),                       # absolute path from elsewhere
    ("saved_model", "saved_model/variables/variables"),
])
def test_every_way_to_name_a_checkpoint(path, prefix):
    loaded = parsers.load(CHECKPOINTS / path)
    assert loaded.checkpoint.prefix == str(CHECKPOINTS / prefix)
    assert loaded.kind == ("saved_model" if path == "saved_model" else "checkpoint")


def test_a_meta_file_opens_with_its_checkpoint():
    loaded = parsers.load(CHECKPOINTS / "dtypes" / "model.ckpt-6.meta")
    assert loaded.kind == "metagraph" and loaded.graphs
    assert loaded.checkpoint.prefix == str(CHECKPOINTS / "dtypes" / "model.ckpt-6")


@pytest.mark.parametrize("prefix", ["dtypes/model.ckpt-7", "partitioned/model.ckpt",
                                    "saved_model/variables/variables"])
def test_writer_rewrites_tensorflows_bundle_byte_for_byte(tmp_path, prefix):
    reader = BundleReader(CHECKPOINTS / prefix)
    writer = BundleWriter(tmp_path / "copy")
    for name in reader.names:
        entry, value = reader.entry(name), reader.read(name)
        if not entry.slices:
            writer.add(name, value, entry.dtype)
            continue
        shape = reader.shape_of(name)
        for slice_proto in entry.slices:
            extents = slice_extents(slice_proto)
            box = tuple(slice(start, dim if length == -1 else start + length)
                        for (start, length), dim in zip(extents, shape))
            writer.add_slice(name, shape, extents, value[box], entry.dtype)
    writer.finish()
    for suffix in (".index", ".data-00000-of-00001"):
        assert filecmp.cmp(f"{CHECKPOINTS / prefix}{suffix}", f"{tmp_path / 'copy'}{suffix}",
                           shallow=False), suffix


def test_values_are_read_only_when_asked(monkeypatch):
    checkpoint = Checkpoint(CHECKPOINTS / "dtypes" / "model.ckpt-7")
    opened = []
    real_open = file_io.open_input
    monkeypatch.setattr(file_io, "open_input",
                        lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k))
    checkpoint.value("int8")
    assert opened == [str(CHECKPOINTS / "dtypes" / "model.ckpt-7.data-00000-of-00001")]


def test_stats_skip_nan_and_inf_as_the_tensor_tab_does():
    value = Checkpoint(CHECKPOINTS / "dtypes").value("dense/kernel")
    tf_values = np.array(TF_VALUES["dtypes/model.ckpt-7"]["dense/kernel"]["values"])
    finite = tf_values[np.isfinite(tf_values)]
    found = stats(value)
    assert (found.nan, found.inf) == (np.isnan(tf_values).sum(), np.isinf(tf_values).sum()) == (1, 1)
    assert (found.min, found.max) == (finite.min(), finite.max())
    assert found.mean == pytest.approx(finite.mean())


def test_a_training_directory_gives_its_events_and_its_latest_checkpoint(tmp_path):
    for path in (CHECKPOINTS / "dtypes").iterdir():
        shutil.copy(path, tmp_path / path.name)
    events = sorted((FIXTURES / "parsers" / "events_dir").iterdir())
    for path in events:
        shutil.copy(path, tmp_path / path.name)
    loaded = parsers.load(tmp_path)
    assert loaded.kind == "events" and loaded.graphs
    assert loaded.checkpoint.prefix == str(tmp_path / "model.ckpt-7")
