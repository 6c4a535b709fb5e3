"""Write engine/kernels/cpu/sobol_directions.npz: the Joe-Kuo direction numbers TensorFlow 2.21's
SobolSample uses (new-joe-kuo-6.21201, as the header sobol_data.h that TensorFlow ships holds
them: kDirectionNumbers[21200][31], m_j of each dimension), stored as each dimension's
recurrence, its degree s, its coefficients a and its first s numbers, from which
engine/kernels/cpu/sobol.py regenerates the 31. The script checks that the regenerated table
equals the header's.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/extract_sobol_directions.py`.
"""

import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "kernels" / "cpu" / "sobol_directions.npz"
DIGITS = 31
sys.path.insert(0, str(ROOT))


def header_table():
    import tensorflow
    header = (Path(tensorflow.__file__).parent / "include" / "external" / "sobol_data" /
              "sobol_data.h").read_text()
    start = header.index("kDirectionNumbers[kMaxSobolDim][kMaxSobolDigits] = {")
    body = header[header.index("{", start) + 1:]
    body = body[:body.index("};")]
    return np.array(re.findall(r"\d+", body), np.int64).reshape(-1, DIGITS)


def solve_gf2(equations, unknowns):
    """A solution (bitmask) of XOR equations given as (coefficient mask, rhs bit), or None."""
    pivots = {}
    for mask, rhs in equations:
        for bit, (pmask, prhs) in pivots.items():
            if mask >> bit & 1:
                mask ^= pmask
                rhs ^= prhs
        if mask == 0:
            if rhs:
                return None
            continue
        bit = mask.bit_length() - 1
        for other, (omask, orhs) in list(pivots.items()):
            if omask >> bit & 1:
                pivots[other] = (omask ^ mask, orhs ^ rhs)
        pivots[bit] = (mask, rhs)
    solution = 0
    for bit, (mask, rhs) in pivots.items():
        if rhs:
            solution |= 1 << bit
    return solution


def recurrence(row):
    """The smallest (s, a) whose recurrence m_i = 2^s m_{i-s} ^ m_{i-s} ^ sum 2^k c_k m_{i-k}
    (c_k = a >> (s-1-k) & 1) gives the row."""
    m = [int(v) for v in row]
    for s in range(1, DIGITS):
        equations = []
        for i in range(s, DIGITS):
            target = m[i] ^ (m[i - s] << s) ^ m[i - s]
            for b in range(i + 2):
                mask = 0
                for k in range(1, s):
                    if ((m[i - k] << k) >> b) & 1:
                        mask |= 1 << (k - 1)
                equations.append((mask, (target >> b) & 1))
        c = solve_gf2(equations, s - 1)
        if c is not None:
            a = sum(((c >> (k - 1)) & 1) << (s - 1 - k) for k in range(1, s))
            return s, a
    raise ValueError("no recurrence")


def main():
    table = header_table()
    degrees, coefficients, initial = [], [], []
    for row in table[1:]:
        s, a = recurrence(row)
        degrees.append(s)
        coefficients.append(a)
        initial.extend(int(v) for v in row[:s])
    write(np.array(degrees, np.uint8), np.array(coefficients, np.uint32),
          np.array(initial, np.uint32), table)


def write(degrees, coefficients, initial, table):
    """The recurrences, each dimension's first numbers packed (m_i is odd and below 2^(i+1):
    its i bits above the lowest), checked to give the header's table back."""
    from engine.kernels.cpu.sobol import regenerate, unpack_initial
    widths = np.concatenate([np.arange(s) for s in degrees])
    bits = [(int(m) >> 1) >> b & 1 for m, width in zip(initial, widths) for b in range(width)]
    packed = np.packbits(np.array(bits, np.uint8), bitorder="little")
    assert np.array_equal(unpack_initial(degrees, packed), initial)
    assert np.array_equal(regenerate(degrees, coefficients, initial, len(table)), table)
    np.savez_compressed(OUT, degrees=degrees, coefficients=coefficients, initial_bits=packed)
    print(f"{OUT}: {len(table)} dimensions, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
