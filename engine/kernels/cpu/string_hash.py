"""The string hashes of TensorFlow's StringToHashBucket ops, bit for bit: FarmHash's
Fingerprint64 (farmhashna::Hash64, StringToHashBucketFast, what tf.feature_column's hash
buckets and Keras' Hashing use), SipHash-2-4 (highwayhash's, StringToHashBucketStrong's keyed
hash) and TensorFlow's own Hash64 (tensorflow/core/lib/hash/hash.cc, StringToHashBucket).
Pure Python on 64-bit integers masked to 64 bits; checked against TensorFlow 2.21 for every
length from 0 to 139 bytes and longer (tests/fixtures/mathops/strings.json)."""

M = (1 << 64) - 1  # the 64-bit wrap of C++'s uint64_t arithmetic
k0 = 0xc3a5c85c97cb3127
k1 = 0xb492b66fbe98f273
k2 = 0x9ae16a3b2f90404f


def f64(s, i):
    """Fetch64: 8 little-endian bytes."""
    return int.from_bytes(s[i:i + 8], "little")


def f32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def rot(v, sh):
    return v if sh == 0 else ((v >> sh) | (v << (64 - sh))) & M


def smix(v):
    return v ^ (v >> 47)


def h16(u, v, mul):
    a = ((u ^ v) * mul) & M
    a ^= a >> 47
    b = ((v ^ a) * mul) & M
    b ^= b >> 47
    return (b * mul) & M


def len0to16(s):
    n = len(s)
    if n >= 8:
        mul = k2 + n * 2
        a = (f64(s, 0) + k2) & M
        b = f64(s, n - 8)
        c = (rot(b, 37) * mul + a) & M
        d = ((rot(a, 25) + b) * mul) & M
        return h16(c, d, mul)
    if n >= 4:
        mul = k2 + n * 2
        a = f32(s, 0)
        return h16((n + (a << 3)) & M, f32(s, n - 4), mul)
    if n > 0:
        a, b, c = s[0], s[n >> 1], s[n - 1]
        y = (a + (b << 8)) & 0xffffffff
        z = (n + (c << 2)) & 0xffffffff
        return (smix(((y * k2) ^ (z * k0)) & M) * k2) & M
    return k2


def len17to32(s):
    n = len(s)
    mul = k2 + n * 2
    a = (f64(s, 0) * k1) & M
    b = f64(s, 8)
    c = (f64(s, n - 8) * mul) & M
    d = (f64(s, n - 16) * k2) & M
    return h16((rot((a + b) & M, 43) + rot(c, 30) + d) & M,
               (a + rot((b + k2) & M, 18) + c) & M, mul)


def len33to64(s):
    n = len(s)
    mul = k2 + n * 2
    a = (f64(s, 0) * k2) & M
    b = f64(s, 8)
    c = (f64(s, n - 8) * mul) & M
    d = (f64(s, n - 16) * k2) & M
    y = (rot((a + b) & M, 43) + rot(c, 30) + d) & M
    z = h16(y, (a + rot((b + k2) & M, 18) + c) & M, mul)
    e = (f64(s, 16) * mul) & M
    f = f64(s, 24)
    g = ((y + f64(s, n - 32)) * mul) & M
    h = ((z + f64(s, n - 24)) * mul) & M
    return h16((rot((e + f) & M, 43) + rot(g, 30) + h) & M, (e + rot((f + a) & M, 18) + g) & M,
               mul)


def weak32(w, x, y, z, a, b):
    a = (a + w) & M
    b = rot((b + a + z) & M, 21)
    c = a
    a = (a + x + y) & M
    b = (b + rot(a, 44)) & M
    return (a + z) & M, (b + c) & M


def weak32s(s, i, a, b):
    return weak32(f64(s, i), f64(s, i + 8), f64(s, i + 16), f64(s, i + 24), a, b)


def fingerprint64(s):
    """FarmHash Fingerprint64 of bytes `s` (farmhashna::Hash64)."""
    n = len(s)
    if n <= 16:
        return len0to16(s)
    if n <= 32:
        return len17to32(s)
    if n <= 64:
        return len33to64(s)
    seed = 81
    x = seed
    y = (seed * k1 + 113) & M
    z = (smix((y * k2 + 113) & M) * k2) & M
    v = (0, 0)
    w = (0, 0)
    x = (x * k2 + f64(s, 0)) & M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    p = 0
    while True:
        x = (rot((x + y + v[0] + f64(s, p + 8)) & M, 37) * k1) & M
        y = (rot((y + v[1] + f64(s, p + 48)) & M, 42) * k1) & M
        x ^= w[1]
        y = (y + v[0] + f64(s, p + 40)) & M
        z = (rot((z + w[0]) & M, 33) * k1) & M
        v = weak32s(s, p, (v[1] * k1) & M, (x + w[0]) & M)
        w = weak32s(s, p + 32, (z + w[1]) & M, (y + f64(s, p + 16)) & M)
        z, x = x, z
        p += 64
        if p == end:
            break
    mul = k1 + ((z & 0xff) << 1)
    p = last64
    w = ((w[0] + ((n - 1) & 63)) & M, w[1])
    v = ((v[0] + w[0]) & M, v[1])
    w = ((w[0] + v[0]) & M, w[1])
    x = (rot((x + y + v[0] + f64(s, p + 8)) & M, 37) * mul) & M
    y = (rot((y + v[1] + f64(s, p + 48)) & M, 42) * mul) & M
    x ^= (w[1] * 9) & M
    y = (y + v[0] * 9 + f64(s, p + 40)) & M
    z = (rot((z + w[0]) & M, 33) * mul) & M
    v = weak32s(s, p, (v[1] * mul) & M, (x + w[0]) & M)
    w = weak32s(s, p + 32, (z + w[1]) & M, (y + f64(s, p + 16)) & M)
    z, x = x, z
    return h16((h16(v[0], w[0], mul) + smix(y) * k0 + z) & M,
               (h16(v[1], w[1], mul) + x) & M, mul)


def _rotl(v, b):
    return ((v << b) | (v >> (64 - b))) & M


def siphash(key0, key1, s):
    """SipHash-2-4 (highwayhash's SipHash, TensorFlow's StrongKeyedHash)."""
    v0 = key0 ^ 0x736f6d6570736575
    v1 = key1 ^ 0x646f72616e646f6d
    v2 = key0 ^ 0x6c7967656e657261
    v3 = key1 ^ 0x7465646279746573

    def rounds(count, v0, v1, v2, v3):
        for _ in range(count):
            v0 = (v0 + v1) & M
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & M
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & M
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & M
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = f64(s, i)
        v3 ^= m
        v0, v1, v2, v3 = rounds(2, v0, v1, v2, v3)
        v0 ^= m
    b = ((n & 0xff) << 56) | int.from_bytes(s[full:], "little")
    v3 ^= b
    v0, v1, v2, v3 = rounds(2, v0, v1, v2, v3)
    v0 ^= b
    v2 ^= 0xff
    v0, v1, v2, v3 = rounds(4, v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def legacy_hash64(s, seed=0xDECAFCAFFE):
    """TensorFlow's own Hash64 (tensorflow/core/lib/hash/hash.cc), for StringToHashBucket."""
    m = 0xc6a4a7935bd1e995
    n = len(s)
    h = (seed ^ (n * m)) & M
    i = 0
    while n - i >= 8:
        k = (f64(s, i) * m) & M
        k ^= k >> 47
        k = (k * m) & M
        h ^= k
        h = (h * m) & M
        i += 8
    rest = n - i
    if rest:
        for j in range(rest - 1, -1, -1):
            h ^= s[i + j] << (8 * j)
        h = (h * m) & M
    h ^= h >> 47
    h = (h * m) & M
    h ^= h >> 47
    return h
