"""Hostile checkpoints (truncated, bit-flipped, lying about offsets and sizes) give one-line errors only.

Seeded mutations of TensorFlow's own bundles: raw damage (caught by the checksums), damage
inside a block with its checksum recomputed (caught by the table's structure checks), and
well-formed tables whose entries lie (absurd sizes, offsets, shapes, shards). Each case must
read fully or raise InputError with one line; none may allocate more than a few MB.
"""

import random
import shutil
import struct
import tracemalloc

import pytest

from engine.checkpoint import table
from engine.proto import tensor_bundle_pb2
from parsers import InputError
from parsers.checkpoint import Checkpoint
from parsers_testing import FIXTURES

SEED = 20261123
CASES = 150
MAX_ALLOCATION = 8 << 20  # the fixtures are KBs: a few MB means nothing was sized from a lie
SOURCES = ["dtypes/model.ckpt-7", "partitioned/model.ckpt", "sharded/model.ckpt-3"]


def copy_checkpoint(prefix, destination):
    source = FIXTURES / "checkpoints" / prefix
    for path in source.parent.glob(source.name + ".*"):
        if not path.name.endswith(".meta"):
            shutil.copy(path, destination / path.name)
    return destination / source.name


def read_everything(prefix):
    checkpoint = Checkpoint(prefix)
    for info in checkpoint.variables:
        checkpoint.value(info.name)


def block_handles(data):
    """(offset, size) of every block of a well-formed table: data blocks, metaindex, index."""
    footer = len(data) - table.FOOTER_SIZE
    meta_offset, pos = table.decode_varint(data, footer)
    meta_size, pos = table.decode_varint(data, pos)
    index_offset, pos = table.decode_varint(data, pos)
    index_size, _ = table.decode_varint(data, pos)
    index = data[index_offset:index_offset + index_size]
    handles = []
    for _, handle in table._block_entries(index, "index"):
        offset, after = table.decode_varint(handle, 0)
        handles.append((offset, table.decode_varint(handle, after)[0]))
    return handles + [(meta_offset, meta_size), (index_offset, index_size)]


def damage_inside_a_block(rng, data):
    """Flip bytes inside one block, then recompute its checksum so the structure checks must catch it."""
    data = bytearray(data)
    offset, size = rng.choice(block_handles(bytes(data)))
    for _ in range(rng.randint(1, 4)):
        data[offset + rng.randrange(max(size, 1))] ^= 1 << rng.randrange(8)
    crc = table.masked_crc32c(bytes(data[offset:offset + size + 1]))
    data[offset + size + 1:offset + size + 5] = struct.pack("<I", crc)
    return bytes(data)


def lying_entries(rng, data):
    """A well-formed table whose header or entries lie about shards, offsets, sizes and shapes."""
    rows = table.read_table(data)
    index = rng.randrange(len(rows))
    key, value = rows[index]
    if index == 0:
        header = tensor_bundle_pb2.BundleHeaderProto.FromString(value)
        header.num_shards = rng.choice([0, -1, 2 ** 31 - 1, 7])
        header.endianness = rng.choice([0, 1])
        header.version.min_consumer = rng.choice([0, 1, 99])
        value = header.SerializeToString()
    else:
        entry = tensor_bundle_pb2.BundleEntryProto.FromString(value)
        lie = rng.randrange(6)
        if lie == 0:
            entry.size = rng.choice([2 ** 62, 2 ** 40, entry.size + 1, -5])
        elif lie == 1:
            entry.offset = rng.choice([2 ** 62, 10 ** 6, -1])
        elif lie == 2:
            for dim in entry.shape.dim:
                dim.size = rng.choice([2 ** 40, -1, 0, 3])
        elif lie == 3:
            entry.shard_id = rng.choice([5, -2, 2 ** 30])
        elif lie == 4:
            entry.dtype = rng.choice([0, 20, 21, 999, 7, 101])
        else:
            entry.shape.dim.add(size=2 ** 31)
        value = entry.SerializeToString()
    rows[index] = (key, value)
    return table.build_table(rows)


def truncate(rng, data):
    return data[:rng.randrange(len(data))]


def flip_bits(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


INDEX_MUTATIONS = [truncate, flip_bits, damage_inside_a_block, lying_entries]
SHARD_MUTATIONS = [truncate, flip_bits, lambda rng, data: b"", lambda rng, data: data + b"\0" * 9]


@pytest.mark.parametrize("case", range(CASES))
def test_hostile_checkpoint_gives_one_line_error(tmp_path, case):
    rng = random.Random(SEED * 1000 + case)
    prefix = copy_checkpoint(rng.choice(SOURCES), tmp_path)
    if case % 3:
        mutate = rng.choice(INDEX_MUTATIONS)
        target = prefix.with_name(prefix.name + ".index")
    else:
        mutate = rng.choice(SHARD_MUTATIONS)
        target = rng.choice(sorted(tmp_path.glob(prefix.name + ".data-*")))
    target.write_bytes(mutate(rng, target.read_bytes()))
    tracemalloc.start()
    try:
        read_everything(prefix)
    except InputError as error:
        assert "\n" not in str(error) and str(error).startswith(error.path)
        assert error.path.startswith(str(tmp_path)), error
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < MAX_ALLOCATION, (mutate, peak)


def test_missing_shard_names_the_file_and_the_tensor(tmp_path):
    prefix = copy_checkpoint("sharded/model.ckpt-3", tmp_path)
    (tmp_path / "model.ckpt-3.data-00001-of-00003").unlink()
    checkpoint = Checkpoint(prefix)
    reader = checkpoint._reader
    victim = next(n for n in reader.names if reader.entry(n).shard_id == 1)
    with pytest.raises(InputError, match=rf"data-00001-of-00003: {victim}: data shard missing"):
        checkpoint.value(victim)


def test_cli_prints_one_error_line(tmp_path, run_info):
    prefix = copy_checkpoint("dtypes/model.ckpt-7", tmp_path)
    shard = tmp_path / "model.ckpt-7.data-00000-of-00001"
    shard.write_bytes(flip_bits(random.Random(1), shard.read_bytes()))
    code, out, err = run_info(prefix)
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"error: {shard}: ")
    assert "crc32c mismatch" in err
