"""A cluster step's messages packed into one msgpack body (engine/cluster/wire.py): what is
copied into the body, what is left to Dask's serializers (and so crosses without a copy)."""

import numpy as np
import pytest

pytest.importorskip("distributed")

from engine.cluster import wire  # noqa: E402


@pytest.mark.parametrize("value", [
    np.array([True, False]), np.array([[1, -2]], np.int8), np.uint8(7), np.float16(0.5),
    np.array([1 + 2j], np.complex128), np.zeros((3, 0, 2), np.float32),
    np.arange(6, dtype=">i4").reshape(2, 3), np.arange(8, dtype=np.int64)[::2],
])
def test_small_numeric_values_go_inline_and_come_back_equal(value):
    body, extra = wire.pack([value])
    assert extra == []
    (back,) = wire.unpack(body, extra)
    assert type(back) is type(value) and back.dtype == value.dtype
    np.testing.assert_array_equal(back, value)
    if isinstance(back, np.ndarray):
        assert back.flags.writeable


def test_large_arrays_and_non_numeric_values_are_left_to_dask_as_they_are():
    large = np.zeros(wire.INLINE_MAX_BYTES // 4 + 1, np.float32)
    strings = np.array([b"a", b"bc"], object)
    handle = object()
    body, extra = wire.pack({"v": (large, strings, handle)})
    assert len(extra) == 3 and all(a is b for a, b in zip(extra, (large, strings, handle)))
    assert len(body) < 64  # the body names them, it holds none of their bytes
    assert wire.unpack(body, extra)["v"][0] is large


def test_a_message_hands_its_extras_to_dask_serialized_without_a_copy():
    large = np.ones(wire.INLINE_MAX_BYTES, np.uint8)  # one byte over the limit: as a frame
    large = np.append(large, np.uint8(1))
    message = wire.message(("step", [large]))
    assert message["extra"][0].data is large
    assert wire.message(("step", [np.ones(3)])).keys() == {"body"}
    assert wire.opened(message["body"], [large]) == ("step", (large,))


def test_an_int_beyond_64_bits_goes_to_dask():
    body, extra = wire.pack([2 ** 70, 3])
    assert extra == [2 ** 70] and wire.unpack(body, extra) == (2 ** 70, 3)


def test_more_extras_than_a_short_index_counts():
    strings = [np.array([b"s"], object) for _ in range(70000)]
    body, extra = wire.pack(strings)
    back = wire.unpack(body, extra)
    assert len(back) == 70000 and back[-1] is strings[-1]
