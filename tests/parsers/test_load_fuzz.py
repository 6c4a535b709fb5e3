"""Fuzz `info` with mutated real fixtures: every case exits 0 or 2 with one `error:` line.

A seeded mutator (so failures reproduce by case number): bit flips, truncations, insertions,
splices, absurd varints, random bytes, deep nesting, events framing and text corruption.
"""

import random
import struct
import time

import pytest

from parsers import tfrecord
from parsers_testing import FIXTURES

SEED = 20240601
CASES = 400
SECONDS_PER_CASE = 5

SOURCES = [
    FIXTURES / "parsers" / "functions.pb",
    FIXTURES / "parsers" / "run_metadata.pb",
    FIXTURES / "parsers" / "run_metadata.pbtxt",
    FIXTURES / "parsers" / "debug_info.pbtxt",
    FIXTURES / "parsers" / "saved_model_two" / "saved_model.pb",
    *sorted((FIXTURES / "parsers" / "events_dir").iterdir()),
    FIXTURES / "graphs" / "cond.pb",
    FIXTURES / "graphs" / "cond.pbtxt",
    FIXTURES / "containers" / "mlp.meta",
]
SOURCES = [path for path in SOURCES if path.exists()]
DATA = {path: path.read_bytes() for path in SOURCES}


def _varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def flip_bits(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        position = rng.randrange(len(data))
        data[position] ^= 1 << rng.randrange(8)
    return bytes(data)


def truncate(rng, data):
    return data[: rng.randrange(len(data))]


def insert(rng, data):
    position = rng.randrange(len(data) + 1)
    return data[:position] + rng.randbytes(rng.randint(1, 16)) + data[position:]


def splice(rng, data):
    other = DATA[rng.choice(SOURCES)]
    return data[: rng.randrange(len(data) + 1)] + other[rng.randrange(len(other)) :]


def absurd_varint(rng, data):
    position = rng.randrange(len(data) + 1)
    huge = rng.choice([b"\xff" * 9 + b"\x01", b"\xff" * 11, b"\x80" * 8 + b"\x7f", _varint(2**63 - 1)])
    tag = rng.choice([b"\x0a", b"\x12", b"\x1a", b"\x2a"])
    return data[:position] + tag + huge + data[position:]


def random_bytes(rng, data):
    return rng.randbytes(rng.randint(0, 2000))


def deep_nesting(rng, data):
    depth = rng.randint(90, 400)
    if rng.random() < 0.5:
        value = b""
        for _ in range(depth):
            value = _field(10, _field(1, b"f") + _field(2, _field(1, b"a") + _field(2, value)))
        node = _field(1, b"n") + _field(2, b"NoOp") + _field(5, _field(1, b"a") + _field(2, value))
        return _field(1, node)
    opening = 'func { name: "f" attr { key: "a" value { '
    return ('node { name: "n" op: "NoOp" attr { key: "a" value { ' + opening * depth + "} } }" * depth).encode()


def events_framing(rng, data):
    """Rewrite one record's length, with a valid header CRC so only the length is wrong."""
    data = bytearray(data)
    offset = 0
    while offset + 12 <= len(data) and rng.random() < 0.6:
        length = struct.unpack_from("<Q", data, offset)[0]
        if offset + 16 + length > len(data):
            break
        offset += 16 + length
    if offset + 12 > len(data):
        return bytes(data)
    absurd = struct.pack("<Q", rng.choice([2**63 - 1, 2**40, len(data) * 3, rng.randrange(1 << 16)]))
    data[offset : offset + 8] = absurd
    data[offset + 8 : offset + 12] = struct.pack("<I", tfrecord.masked_crc(absurd))
    return bytes(data)


TEXT_DAMAGE = ["{", "}", ":", '"', "<", ">", "[", "]", "\\", "node", "1e999", "-", "\n", "#", "'", "\x00"]


def corrupt_text(rng, data):
    text = data.decode("utf-8", "replace")
    for _ in range(rng.randint(1, 4)):
        position = rng.randrange(len(text) + 1)
        action = rng.random()
        if action < 0.4:
            text = text[:position] + rng.choice(TEXT_DAMAGE) + text[position:]
        elif action < 0.8:
            text = text[:position] + text[position + rng.randint(1, 20) :]
        else:
            text = text[:position]
    return text.encode("utf-8", "surrogatepass")


MUTATORS = [flip_bits, truncate, insert, splice, absurd_varint, random_bytes, deep_nesting, events_framing, corrupt_text]


def make_case(case):
    rng = random.Random(SEED * 1000 + case)
    source = SOURCES[case % len(SOURCES)]
    data = DATA[source]
    mutator = MUTATORS[(case // len(SOURCES)) % len(MUTATORS)]
    if mutator is corrupt_text and not source.name.endswith(".pbtxt"):
        mutator = rng.choice([flip_bits, truncate, insert, splice])
    for _ in range(1 + (rng.random() < 0.25)):
        data = mutator(rng, data) if data else data
    return source, mutator.__name__, data


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", range(CASES))
def test_mutated_input_exits_0_or_one_error_line(case, tmp_path, run_info):
    source, mutation, data = make_case(case)
    path = tmp_path / f"case{case}{source.suffix}"
    path.write_bytes(data)
    args = [path, "--json"] if case % 3 == 0 else [path]
    started = time.monotonic()
    code, out, err = run_info(*args)
    elapsed = time.monotonic() - started
    assert elapsed < SECONDS_PER_CASE, f"{mutation} of {source.name} took {elapsed:.1f}s"
    if code == 0:
        assert err == "" and out
    else:
        assert code == 2, (mutation, source.name, err)
        assert err.startswith(f"error: {path}: "), (mutation, err)
        assert err.endswith("\n") and err.count("\n") == 1, (mutation, err)
