"""FarmHash's Fingerprint128 (farmhashcc: CityHash128 v1.1, CityMurmur below 128 bytes), the
hash TensorFlow's SdcaFprint gives each example id. Pure Python on 64-bit integers, with the
pieces Fingerprint64 shares (engine/kernels/cpu/string_hash.py)."""

from engine.kernels.cpu.string_hash import M, f64, k0, k1, len0to16, rot, smix, weak32s

_KMUL = 0x9ddfea08eb382d69


def hash_len16(u, v):
    """Hash128to64 of (u, v)."""
    a = ((u ^ v) * _KMUL) & M
    a ^= a >> 47
    b = ((v ^ a) * _KMUL) & M
    b ^= b >> 47
    return (b * _KMUL) & M


def _city_murmur(s, seed_lo, seed_hi):
    a, b, c, d = seed_lo, seed_hi, 0, 0
    n = len(s)
    remaining = n - 16
    if remaining <= 0:
        a = (smix((a * k1) & M) * k1) & M
        c = (b * k1 + len0to16(s)) & M
        d = smix((a + (f64(s, 0) if n >= 8 else c)) & M)
    else:
        c = hash_len16((f64(s, n - 8) + k1) & M, a)
        d = hash_len16((b + n) & M, (c + f64(s, n - 16)) & M)
        a = (a + d) & M
        i = 0
        while True:
            a ^= (smix((f64(s, i) * k1) & M) * k1) & M
            a = (a * k1) & M
            b ^= a
            c ^= (smix((f64(s, i + 8) * k1) & M) * k1) & M
            c = (c * k1) & M
            d ^= c
            i += 16
            remaining -= 16
            if remaining <= 0:
                break
    a = hash_len16(a, c)
    b = hash_len16(d, b)
    return a ^ b, hash_len16(b, a)


def _city_hash128_with_seed(s, seed_lo, seed_hi):
    n = len(s)
    if n < 128:
        return _city_murmur(s, seed_lo, seed_hi)
    x, y, z = seed_lo, seed_hi, (n * k1) & M
    v0 = (rot(y ^ k1, 49) * k1 + f64(s, 0)) & M
    v1 = (rot(v0, 42) * k1 + f64(s, 8)) & M
    w0 = (rot((y + z) & M, 35) * k1 + x) & M
    w1 = (rot((x + f64(s, 88)) & M, 53) * k1) & M
    i = 0
    while True:
        for _ in range(2):
            x = (rot((x + y + v0 + f64(s, i + 8)) & M, 37) * k1) & M
            y = (rot((y + v1 + f64(s, i + 48)) & M, 42) * k1) & M
            x ^= w1
            y = (y + v0 + f64(s, i + 40)) & M
            z = (rot((z + w0) & M, 33) * k1) & M
            v0, v1 = weak32s(s, i, (v1 * k1) & M, (x + w0) & M)
            w0, w1 = weak32s(s, i + 32, (z + w1) & M, (y + f64(s, i + 16)) & M)
            z, x = x, z
            i += 64
        n -= 128
        if n < 128:
            break
    x = (x + rot((v0 + z) & M, 49) * k0) & M
    y = (y * k0 + rot(w1, 37)) & M
    z = (z * k0 + rot(w0, 27)) & M
    w0 = (w0 * 9) & M
    v0 = (v0 * k0) & M
    tail_done = 0
    while tail_done < n:
        tail_done += 32
        y = (rot((x + y) & M, 42) * k0 + v1) & M
        w0 = (w0 + f64(s, i + n - tail_done + 16)) & M
        x = (x * k0 + w0) & M
        z = (z + w1 + f64(s, i + n - tail_done)) & M
        w1 = (w1 + v0) & M
        v0, v1 = weak32s(s, i + n - tail_done, (v0 + z) & M, v1)
        v0 = (v0 * k0) & M
    x = hash_len16(x, v0)
    y = hash_len16((y + z) & M, w0)
    return ((hash_len16((x + v1) & M, w1) + y) & M, hash_len16((x + w1) & M, (y + v1) & M))


def fingerprint128(s):
    """(low64, high64) of farmhash::Fingerprint128(s) for bytes `s`."""
    if len(s) >= 16:
        return _city_hash128_with_seed(s[16:], f64(s, 0), (f64(s, 8) + k0) & M)
    return _city_hash128_with_seed(s, k0, k1)
