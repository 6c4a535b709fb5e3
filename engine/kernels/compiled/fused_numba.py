"""Fused elementwise chains compiled with numba: one loop over the elements, no temporaries.

A chain (engine.kernels.fused_chain.Chain) becomes the source of one nogil numba function
`kernel(out, i0, i1, ..., start, end)`, written to a file in the cache directory named by
the hash of that source, so numba's on-disk cache (cache=True) works for it: a second
process imports the file and loads the machine code without compiling. Compiling happens on
one background thread; until a chain's kernel is ready its node runs the NumPy reference.
The cache directory: $GRAPH_INSPECTOR_CACHE_DIR, else $XDG_CACHE_HOME/graph-inspector, else
~/.cache/graph-inspector (a subfolder fused-kernels).
"""

import inspect
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numba  # noqa: F401  (imported here, in the loader's thread, not by the generated files)

from engine.runtime import threads
from engine.kernels import compiled
from engine.kernels.compiled import eigen_erf_numba, eigen_numba
from engine.kernels.compiled import philox_numba as philox
from engine.kernels.compiled import numba_source
from engine.kernels.fused_chain import FILL, SOURCES, Chain

# A chain is split over the intra-op threads in pieces of at least this many elements. Handing
# a piece to a second thread costs tens of microseconds on a shared 2-core machine: measured
# (2026-11-26), a sqrt chain of 65k and of 131k elements ran 1.1-2.2x slower on two threads
# than on one, and 2M ran 1.9x faster.
_MIN_ITEMS_PER_PIECE = 1 << 18
_ready = {}        # chain key -> compiled function, or None when it failed
_pending = set()
_lock = threading.Lock()
_compiler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fuse-compile")
_FOLDER = "fused-kernels"  # under the cache root

_HEADER = ('"""A fused elementwise chain; written by engine/kernels/compiled/fused_numba.py."""\n'
           "import numpy as np\nimport numba\n\n\n"
           '@numba.njit(cache=True, nogil=True, error_model="numpy", boundscheck=False)\n')

_TYPES = {"float32": "np.float32", "float64": "np.float64", "int32": "np.int32",
          "int64": "np.int64", "bool": "np.bool_"}


# float32 ops computed as TensorFlow's CPU computes them (engine/kernels/cpu/eigen_float32.py):
# Eigen's packet path on all but a tensor's last n % 8 elements, its scalar path on those and
# on a step whose operands are all single values (unfused, a tensor of one element).
_EIGEN_FLOAT32 = {"Exp": ("packet_exp", "scalar_exp"), "Log": ("packet_log", "scalar_log"),
                  "Tanh": ("tanh_float", "tanh_float"),
                  "Sigmoid": ("packet_sigmoid", "scalar_sigmoid"),
                  "Rsqrt": ("packet_rsqrt", "scalar_rsqrt"),
                  "Erf": ("erf_float32", "erf_float32"),
                  "Erfc": ("packet_erfc_float32", "scalar_erfc_float32")}
_ERF_OPS = frozenset({"Erf", "Erfc"})
# A chain's Erfc runs block by block (engine/kernels/compiled/eigen_arrays.py's reason: Eigen's
# packets take erfc's large-|x| branch only where a lane needs it, and a loop computing both
# branches for every value costs three times as much): one loop runs a block's whole chain
# with erfc's small branch, keeping the operand and the inputs; the values past |x| = 1 are
# then gathered, redone through the packet lane's three passes (eigen_erf_numba.ERFC_PASSES)
# and their outputs computed again (_erfc_source).
_ERFC_BLOCK = 4096


def _uses_eigen(chain):
    return any(op in _EIGEN_FLOAT32 and dtype == "float32" for op, _, dtype in chain.steps)


def _uses_erf(chain):
    return any(op in _ERF_OPS and dtype == "float32" for op, _, dtype in chain.steps)


def _singles(chain, scalar_inputs):
    """Whether each step's value is one value (all its operands are)."""
    singles = []
    for op, operands, _ in chain.steps:
        singles.append(op not in SOURCES and all(
            scalar_inputs[n] if kind == "i" else singles[n] for kind, n in operands))
    return singles


def _blocked_erfc(chain, scalar_inputs):
    """The step index of the chain's float32 Erfc of many values, run by blocks; None where
    there is none. A chain with two of them, or one with random steps or a sum, has no
    compiled form (its node's own kernels serve)."""
    singles = _singles(chain, scalar_inputs)
    found = [k for k, (op, _, dtype) in enumerate(chain.steps)
             if op == "Erfc" and dtype == "float32" and not singles[k]]
    if len(found) > 1 or (found and (chain.random_steps or chain.reduces)):
        raise ValueError("a chain's compiled loop takes one Erfc of many values, no more")
    return found[0] if found else None


def _eigen_expr(op, a, single, path):
    packet, scalar = _EIGEN_FLOAT32[op]
    if single or packet == scalar or path == "scalar":
        return f"{scalar}({a})"
    if path == "packet":
        return f"{packet}({a})"
    return f"({packet}({a}) if j < tail else {scalar}({a}))"


# The smallest normal float of each float dtype: a product or quotient below it is flushed to
# a signed zero, as TensorFlow's CPU kernels (under FTZ) and the unfused ones write it
# (engine/kernels/cpu/math.py `_flushing`).
_SMALLEST_NORMAL = {"float32": repr(float(np.finfo(np.float32).tiny)),
                    "float64": repr(float(np.finfo(np.float64).tiny))}


def _flushed(expr, dtype):
    """`expr` flushed to zero where denormal (LLVM computes the repeated expression once)."""
    if dtype not in _SMALLEST_NORMAL:
        return expr
    t = _TYPES[dtype]
    return f"({expr} if not (abs({expr}) < {t}({_SMALLEST_NORMAL[dtype]})) else {expr} * {t}(0))"


def scalar_expression(op, a, b, dtype, in_dtype, single=False, path=None):
    """The scalar expression of one step (a, b: operand names; dtype: its output; single:
    whether its operands are all single values; path: "packet" or "scalar" where the loop
    runs over one of Eigen's paths only, None where the element index j decides): also the
    body of a compiled while loop's steps (compiled/loop_numba.py)."""
    t = _TYPES[dtype]
    if op in _EIGEN_FLOAT32 and dtype == "float32":
        return _eigen_expr(op, a, single, path)
    if op in ("Add", "AddV2"):
        return f"{t}({a} + {b})"
    if op == "Sub":
        return f"{t}({a} - {b})"
    if op == "Mul":
        return _flushed(f"{t}({a} * {b})", dtype)
    if op == "RealDiv":
        return _flushed(f"{t}({a} / {b})", dtype)
    if op == "SquaredDifference":
        return _flushed(f"{t}(({a} - {b}) * ({a} - {b}))", dtype)
    if op in ("Maximum", "Minimum"):
        # np.maximum/np.minimum: NaN wins, and of two equal values (0.0 and -0.0) the second
        pick = ">" if op == "Maximum" else "<"
        if in_dtype in ("float32", "float64"):
            return f"({a} if ({a} != {a} or {a} {pick} {b}) else {b})"
        return f"({a} if {a} {pick} {b} else {b})"
    if op == "Neg":
        return f"{t}(-{a})"
    if op == "Abs":
        return f"{t}(abs({a}))"
    if op == "Square":
        return _flushed(f"{t}({a} * {a})", dtype)
    if op in ("Sqrt", "Exp", "Log", "Tanh", "Floor", "Ceil"):
        return f"{t}(np.{op.lower()}({a}))"
    if op == "Rsqrt":
        return f"{t}({t}(1) / np.sqrt({a}))"
    if op == "Sigmoid":
        return f"{t}({t}(1) / ({t}(1) + np.exp(-{a})))"
    if op == "Relu":  # np.maximum(x, 0): NaN stays, -0.0 becomes 0.0
        return f"({a} if ({a} != {a} or {a} > {t}(0)) else {t}(0))"
    comparisons = {"Less": "<", "LessEqual": "<=", "Greater": ">", "GreaterEqual": ">=",
                   "Equal": "==", "NotEqual": "!="}
    if op in comparisons:
        return f"({a} {comparisons[op]} {b})"
    if op == "LogicalAnd":
        return f"({a} and {b})"
    if op == "LogicalOr":
        return f"({a} or {b})"
    if op == "LogicalNot":
        return f"(not {a})"
    if op == "Cast":
        if dtype == "bool":
            return f"({a} != 0)"
        return f"{t}({a})"  # float to int: fptosi, truncation toward zero as C++
    raise KeyError(op)


def source(chain, input_dtypes, scalar_inputs, in_place=None):
    """The Python source of a chain's numba kernel: `kernel(out, inputs..., start, end)` fills
    out[start:end]; a reducing chain's `kernel(size, inputs..., start, end)` returns the sum
    of its values over [start, end) instead of writing them."""
    if chain.random_steps:
        _blocked_erfc(chain, scalar_inputs)  # (none may be)
        return _random_source(chain, input_dtypes, scalar_inputs)
    erfc = _blocked_erfc(chain, scalar_inputs)
    if erfc is not None:
        return _erfc_source(chain, input_dtypes, scalar_inputs, erfc, in_place)
    values = [k for k in range(len(input_dtypes)) if k not in chain.side_inputs]
    arrays = [k for k in values if not scalar_inputs[k]]
    lines = [f"def kernel({_signature(chain, values)}, start, end):"]
    lines += _prologue(chain, values, scalar_inputs)
    # The loop runs over views of [start, end) indexed from 0: indexed from `start`, LLVM
    # did not vectorise it (measured: the pi chain over 10^6 values took 1.9 ms so, 0.15 ms
    # over views). A chain of Eigen's functions runs two loops, the packet path up to the
    # tensor's tail and the scalar path from there: with a branch per element between them
    # it did not vectorise either (sigmoid(exp(x*x)) of 10^6 float32: 9.0 ms, 1.45 ms so).
    lines += [f"    {name} = {name}[start:end]"
              for name in [f"i{k}" for k in arrays] + ([] if chain.reduces else ["out"])]
    lines += _in_place_line(chain, in_place, scalar_inputs, "    out = i{k}")
    loops = [("range(end - start)", None)]
    if _uses_eigen(chain):
        lines.append("    split = min(max(tail - start, 0), end - start)")
        loops = [("range(split)", "packet"), ("range(split, end - start)", "scalar")]
    for bounds, path in loops:
        lines.append(f"    for j in {bounds}:")
        lines += [f"        v{k} = i{k}[j]" for k in arrays]
        lines += _steps(chain, input_dtypes, "        ", {}, scalar_inputs, path)
    lines += _epilogue(chain)
    return _header(chain) + "\n".join(lines) + "\n"


def _in_place_line(chain, in_place, scalar_inputs, line):
    """The line making the output input `in_place`'s own view (written over in place), or no
    line. Why: out and an input are two arrays to LLVM, so where they are one memory its
    runtime check of their overlap sends the loop to its scalar version; one view of one
    array, read and written at the same index, vectorises."""
    if in_place is None:
        return []
    if chain.reduces or in_place in chain.side_inputs or scalar_inputs[in_place]:
        raise ValueError(f"input {in_place} cannot hold the output")
    return [line.format(k=in_place)]


def _erfc_source(chain, input_dtypes, scalar_inputs, erfc, in_place=None):
    """A chain holding one Erfc of many values (step `erfc`), block by block (_ERFC_BLOCK)."""
    values = [k for k in range(len(input_dtypes)) if k not in chain.side_inputs]
    arrays = [k for k in values if not scalar_inputs[k]]
    kind, n = chain.steps[erfc][1][0]
    lines = [f"def kernel({_signature(chain, values)}, start, end):"]
    lines += _prologue(chain, values, scalar_inputs)
    block = _ERFC_BLOCK
    lines += [f"    {name} = np.empty({block}, np.float32)"
              for name in ("ea", "eb", "gathered", "large", "e", "q")]
    lines += [f"    xs{k} = np.empty({block}, np.{np.dtype(input_dtypes[k]).name})" for k in arrays]
    lines += [f"    flags = np.zeros({block}, np.uint8)", "    words = flags.view(np.uint64)",
              f"    at = np.empty({block}, np.int64)",
              f"    for first in range(start, end, {block}):",
              f"        last = min(first + {block}, end)",
              "        m = last - first",
              "        p = min(max(tail - first, 0), m)",  # values before p: the packet path
              "        ob = out[first:last]"]
    lines += [f"        x{k} = i{k}[first:last]" for k in arrays]
    lines += _in_place_line(chain, in_place, scalar_inputs, "        ob = x{k}")
    operand = f"{'t' if kind == 't' else 'v'}{n}"
    # The packet path, in one loop: each value's operand kept (ea), its inputs kept (xs<k>:
    # the output may be written over one), and the whole chain with the small branch's erfc
    # written to the output. Then the values past |x| = 1 are gathered, redone through the
    # packet lane's three passes, and their outputs computed again from the kept inputs. 3M
    # GELU values on one thread: 2.6 ms against 3.0 when a last loop read the block's erfcs
    # back to finish the chain (2026-11-28).
    lines.append("        for j in range(p):")
    for k in arrays:
        lines += [f"            v{k} = x{k}[j]", f"            xs{k}[j] = v{k}"]
    body = _steps(chain, input_dtypes, "            ", {erfc: f"erfc_small_float32({operand})"},
                  scalar_inputs, "packet")
    body[-1] = body[-1].replace("out[j] =", "ob[j] =")
    lines += body + [f"            ea[j] = {operand}"]
    # (flags in a loop of their own, as eigen_arrays': one loop storing both did not vectorise)
    lines += ["        for j in range(p):",
              "            flags[j] = erfc_large_float32(ea[j])",
              "        for j in range(p, -(-p // 8) * 8):",
              "            flags[j] = 0",
              "        count = 0",
              "        for w in range(-(-p // 8)):  # eight flags a word: most are all clear",
              "            if words[w]:",
              "                for j in range(8 * w, 8 * w + 8):",
              "                    at[count] = j",
              "                    count += flags[j]",
              "        cs, rs = gathered[:count], large[:count]",
              "        for i in range(count):",
              "            cs[i] = ea[at[i]]",
              eigen_erf_numba.ERFC_PASSES.format(pad=" " * 8, n="count", xs="cs", outs="rs"),
              "        for i in range(count):",
              "            j = at[i]"]
    lines += [f"            v{k} = xs{k}[j]" for k in arrays]
    body = _steps(chain, input_dtypes, "            ", {erfc: "rs[i]"}, scalar_inputs, "packet")
    body[-1] = body[-1].replace("out[j] =", "ob[j] =")
    lines += body
    # the scalar path of the tensor's last values, as before: operand, erfc, the rest
    before = None
    if kind == "t":  # the steps up to the operand (those after it do not feed it)
        steps = chain.steps[:n + 1]
        before = Chain([op for op, _, _ in steps],
                       [",".join(f"{c}{m}" for c, m in operands) for _, operands, _ in steps],
                       [dtype for _, _, dtype in steps])
    lines.append("        for j in range(p, m):")
    lines += [f"            v{k} = x{k}[j]" for k in arrays]
    if before is not None:
        lines += _steps(before, input_dtypes, "            ", {}, scalar_inputs, "scalar")[:-1]
    lines += [f"            ea[j] = {operand}",
              "        for j in range(p, m):",
              "            eb[j] = scalar_erfc_float32(ea[j])",
              "        for j in range(p, m):"]
    lines += [f"            v{k} = x{k}[j]" for k in arrays]
    body = _steps(chain, input_dtypes, "            ", {erfc: "eb[j]"}, scalar_inputs, "scalar")
    body[-1] = body[-1].replace("out[j] =", "ob[j] =")
    lines += body
    return _header(chain) + "\n".join(lines) + "\n"


def row_source(chain, input_dtypes, layouts, in_place=None):
    """The source of a chain's kernel over rows, for inputs that broadcast along some of the
    output's dimensions: `kernel(out, inputs..., strides, rows2, inner, row_start, row_end)`
    fills out's rows [row_start, row_end), each `inner` elements long (engine/kernels/cpu/
    fused.py collapses the output's shape to rows1 x rows2 x inner). Input k's layout is "v"
    (varies along the row: element j of its row is i<k>[offset + j]), "u" (one value per row:
    i<k>[offset]) or "s" (one value); its row's offset is r1 * strides[k, 0] + r2 * strides[k,
    1] for row r = r1 * rows2 + r2. Each row runs as the flat kernel's loops do: Eigen's
    packet path up to the tensor's tail, its scalar path from there."""
    if chain.random_steps or chain.reduces or chain.shape_inputs:
        raise ValueError("a row kernel takes plain elementwise chains only")
    if _blocked_erfc(chain, [layout == "s" for layout in layouts]) is not None:
        raise ValueError("a row kernel takes no Erfc of many values")
    count = len(input_dtypes)
    rows = [k for k in range(count) if layouts[k] != "s"]
    lines = [f"def kernel(out, {', '.join(f'i{k}' for k in range(count))}, strides, rows2, "
             "inner, row_start, row_end):"]
    lines += [f"    v{k} = i{k}[0]" for k in range(count) if layouts[k] == "s"]
    eigen = _uses_eigen(chain)
    if eigen:
        lines.append(f"    tail = out.shape[0] - out.shape[0] % {eigen_numba.PACKET}")
    lines += ["    for r in range(row_start, row_end):",
              "        r1 = r // rows2",
              "        r2 = r - r1 * rows2",
              "        base = r * inner",
              "        o = out[base:base + inner]"]
    for k in rows:
        offset = f"r1 * strides[{k}, 0] + r2 * strides[{k}, 1]"
        lines.append(f"        x{k} = i{k}[{offset}:{offset} + inner]" if layouts[k] == "v"
                     else f"        v{k} = i{k}[{offset}]")
    if in_place is not None and layouts[in_place] != "v":
        raise ValueError(f"input {in_place} cannot hold the output")
    lines += _in_place_line(chain, in_place, [layout == "s" for layout in layouts],
                            "        o = x{k}")
    loops = [("range(inner)", None)]
    if eigen:
        lines.append("        split = min(max(tail - base, 0), inner)")
        loops = [("range(split)", "packet"), ("range(split, inner)", "scalar")]
    scalars = [layouts[k] == "s" for k in range(count)]
    for bounds, path in loops:
        lines.append(f"        for j in {bounds}:")
        lines += [f"            v{k} = x{k}[j]" for k in rows if layouts[k] == "v"]
        body = _steps(chain, input_dtypes, "            ", {}, scalars, path)
        body[-1] = body[-1].replace("out[j] =", "o[j] =")
        lines += body
    return _header(chain) + "\n".join(lines) + "\n"


def _header(chain, functions=""):
    """The file's imports, the helper functions it calls, and the kernel's decorator."""
    if _uses_erf(chain):
        functions = "import math\n\n" + _erf_source() + functions
    elif _uses_eigen(chain):
        functions = "import math\n\n" + eigen_numba.source_of() + functions
    return _HEADER.replace("@numba.njit", functions + "@numba.njit", 1)


def _erf_source():
    """eigen_numba's and eigen_erf_numba's constants (each name once) and functions."""
    constants = {}
    for module in (eigen_numba, eigen_erf_numba):
        for line in numba_source.constants_source(vars(module)):
            constants.setdefault(line.split(" = ", 1)[0], line)
    return ("\n".join(constants.values()) + "\n\n\n"
            + numba_source.functions_source(vars(eigen_numba), eigen_numba.FUNCTIONS) + "\n\n"
            + numba_source.functions_source(vars(eigen_erf_numba), eigen_erf_numba.FUNCTIONS)
            + "\n\n")


def _signature(chain, values, streams=()):
    first = "size" if chain.reduces else "out"
    return ", ".join([first] + [f"i{k}" for k in values] + list(streams))


def _prologue(chain, values, scalar_inputs):
    lines = [f"    v{k} = i{k}[0]" for k in values if scalar_inputs[k]]
    if chain.reduces:
        lines.append(f"    acc = {_TYPES[chain.steps[-1][2]]}(0)")
    if _uses_eigen(chain):
        size = "size" if chain.reduces else "out.shape[0]"
        lines.append(f"    tail = {size} - {size} % {eigen_numba.PACKET}")
    return lines


def _steps(chain, input_dtypes, pad, random_values, scalar_inputs, path=None):
    """The loop body's lines: each step's value t<k> of element j (a random step's from
    `random_values`: step -> expression; path: as _expr's); a reduction accumulates instead
    of storing."""
    lines, types, singles = [], [], []
    last = len(chain.steps) - 1
    for index, (op, operands, dtype) in enumerate(chain.steps):
        single = False  # a random or Fill step's value is a whole tensor, unfused
        if index in random_values:
            expr = random_values[index]
        elif op == FILL:  # the scalar value, everywhere
            expr = f"{_TYPES[dtype]}(v{operands[1][1]})"
        elif index == last and chain.reduces:
            lines.append(f"{pad}acc = {_TYPES[dtype]}(acc + t{operands[0][1]})")
            return lines
        else:
            refs = [f"v{n}" if kind == "i" else f"t{n}" for kind, n in operands]
            in_dtypes = [input_dtypes[n] if kind == "i" else types[n] for kind, n in operands]
            single = all(scalar_inputs[n] if kind == "i" else singles[n]
                         for kind, n in operands)
            expr = scalar_expression(op, refs[0], refs[1] if len(refs) > 1 else None, dtype,
                                     in_dtypes[0], single, path)
        lines.append(f"{pad}t{index} = {expr}")
        types.append(dtype)
        singles.append(single)
    lines.append(f"{pad}out[j] = t{last}")
    return lines


def _epilogue(chain):
    return ["    return acc"] if chain.reduces else []


def _philox_source():
    """philox_numba's block function and constants as source text, written into each random
    chain's file: that file alone is what numba's on-disk cache depends on, and an edit of the
    Philox code changes the file's hash (so no stale cached kernel survives it)."""
    constants = [f"{name} = np.{type(getattr(philox, name)).__name__}({int(getattr(philox, name))})"
                 for name in ("_M0", "_M1", "_W0", "_W1", "_MASK", "_SHIFT")]
    functions = [inspect.getsource(getattr(philox, name).py_func)
                 for name in ("_round", "_round_keys", "_chunk")]
    return "\n".join(constants) + "\n\n\n" + "\n\n".join(functions) + "\n\n"


_WORDS_PER_BLOCK = 4  # float32 values per Philox block
_CHUNK_BLOCKS = 512   # blocks drawn at once: their words stay in L1 between the two loops


def _random_source(chain, input_dtypes, scalar_inputs):
    """A chain drawing random values. Per chunk of Philox blocks, each random step's words are
    drawn into four arrays, one per word of a block (vectorised over blocks, the rounds in
    registers: philox_numba._chunk); then the chain's loop runs over the chunk's blocks, four
    elements each, reading word k of block b where element 4b + k reads its random value, and
    the last, partial block element by element. Nothing of size `size` is written but the
    output (and not that when the chain sums). start/end count blocks."""
    values = [k for k in range(len(input_dtypes)) if k not in chain.side_inputs]
    count = len(chain.random_steps)
    streams = [f"r{s}k0, r{s}k1, r{s}c0, r{s}c1, r{s}c2, r{s}c3" for s in range(count)]
    chunk, per_block = _CHUNK_BLOCKS, _WORDS_PER_BLOCK
    lines = [f"def kernel({_signature(chain, values, streams)}, start, end):"]
    if not chain.reduces:
        lines.append("    size = out.shape[0]")
    for s in range(count):
        lines += [f"    x{s}w{k} = np.empty({chunk}, np.uint32)" for k in range(per_block)]
    lines += _prologue(chain, values, scalar_inputs)
    lines += [f"    for first in range(start, end, {chunk}):",
              f"        n = min({chunk}, end - first)"]
    lines += [f"        _chunk({stream}, first, n, x{s}w0, x{s}w1, x{s}w2, x{s}w3)"
              for s, stream in enumerate(streams)]
    lines += [f"        base = {per_block} * first",
              f"        full = min(n, (size - base) // {per_block})",
              "        for b in range(full):"]
    # RandomUniform float32: the low 23 bits as the mantissa, exactly m * 2^-23
    uniform = ("np.float32(np.int32({} & np.uint32(0x7FFFFF))) * np.float32("
               + repr(2.0 ** -23) + ")")
    for k in range(per_block):
        lines.append(f"            j = base + {per_block} * b + {k}")
        lines += [f"            v{i} = i{i}[j]" for i in values if not scalar_inputs[i]]
        lines += _steps(chain, input_dtypes, "            ",
                        {step: uniform.format(f"x{s}w{k}[b]")
                         for s, step in enumerate(chain.random_steps)}, scalar_inputs)
    lines += [f"        for e in range({per_block} * full, min({per_block} * n, size - base)):",
              "            j = base + e",
              f"            b, k = e // {per_block}, e % {per_block}"]
    lines += [f"            v{i} = i{i}[j]" for i in values if not scalar_inputs[i]]
    lines += _steps(chain, input_dtypes, "            ",
                    {step: uniform.format(f"_word(x{s}w0, x{s}w1, x{s}w2, x{s}w3, b, k)")
                     for s, step in enumerate(chain.random_steps)}, scalar_inputs)
    lines += _epilogue(chain)
    return _header(chain, _philox_source() + _WORD) + "\n".join(lines) + "\n"


_WORD = '''@numba.njit(inline="always", nogil=True)
def _word(w0, w1, w2, w3, b, k):
    """Word k of block b, from the four word arrays."""
    if k == 0:
        return w0[b]
    if k == 1:
        return w1[b]
    return w2[b] if k == 2 else w3[b]


'''


def cache_dir():
    return numba_source.cache_dir(_FOLDER)


def chain_of(key):
    """The Chain a kernel key was made from."""
    steps = key[0]
    return Chain([op for op, _, _ in steps],
                 [",".join(f"{kind}{n}" for kind, n in operands) for _, operands, _ in steps],
                 [dtype for _, _, dtype in steps])


def _compile(key, text):
    """Write the source where numba can cache it, import it, compile for the key's types."""
    module = numba_source.import_text(text, _FOLDER, "fused")
    module.kernel(*_sample_arguments(key))  # compile, or load from the cache
    numba_source.mark_compiled(text, _FOLDER, "fused")
    return module.kernel


def _sample_arguments(key):
    """Arguments of one element of the key's types: a flat kernel's (out or size, inputs,
    random streams, start, end) or, for a row kernel (key ("rows", chain key)), (out,
    inputs, strides, rows2, inner, row_start, row_end)."""
    if key[0] == "rows":
        chain, input_dtypes = chain_of(key[1]), key[1][1]
        return (np.zeros(1, chain.steps[-1][2]), *[np.zeros(1, d) for d in input_dtypes],
                np.zeros((len(input_dtypes), 2), np.int64), 1, 1, 0, 1)
    chain, input_dtypes = chain_of(key), key[1]
    sample = [np.zeros(1, dtype) for k, dtype in enumerate(input_dtypes)
              if k not in chain.side_inputs]
    sample += [np.uint64(0)] * (6 * len(chain.random_steps))  # each stream's key and counter
    first = 1 if chain.reduces else np.zeros(1, chain.steps[-1][2])  # size, or out
    return (first, *sample, 0, 1)


def _compile_into(key, text):
    try:
        function = _compile(key, text)
    except Exception:  # a chain numba cannot compile stays on the NumPy reference
        function = None
    with _lock:
        _ready[key] = function
        _pending.discard(key)


def kernel(chain, input_dtypes, scalar_inputs, wait=False, in_place=None):
    """The compiled kernel of a chain at these input dtypes, else None (compiling, or it
    could not be compiled). The first request compiles it in the background, or loads it in
    the caller's thread where numba has cached it (engine/kernels/compiled/__init__.py).
    in_place: the input the caller passes as `out` too (written over: see _in_place_line)."""
    key = chain.key(input_dtypes, scalar_inputs)
    return _kernel(key if in_place is None else key + (("in_place", in_place),),
                   lambda: source(chain, input_dtypes, scalar_inputs, in_place), wait)


def row_kernel(chain, input_dtypes, layouts, wait=False, in_place=None):
    """As `kernel`, for the chain's kernel over rows (row_source; layouts: "v", "u" or "s"
    an input)."""
    key = ("rows", chain.key(input_dtypes, layouts))
    return _kernel(key if in_place is None else key + (("in_place", in_place),),
                   lambda: row_source(chain, input_dtypes, layouts, in_place), wait)


def _kernel(key, make_source, wait):
    """The kernel of `key` (its source from make_source), as `kernel` says. A ValueError from
    make_source says the chain has no compiled form: the caller's reference serves it."""
    function = _ready.get(key)
    if function is not None or key in _ready:
        return function
    text = make_source()
    with _lock:
        start = key not in _pending and key not in _ready
        if start:
            _pending.add(key)
    if start:
        if compiled.loads_in_caller() and numba_source.is_compiled(text, _FOLDER, "fused"):
            _compile_into(key, text)
            return _ready.get(key)
        future = _compiler.submit(_compile_into, key, text)
        if wait:
            future.result()
    elif wait:
        wait_idle()  # the single compiler thread: wait our turn
    return _ready.get(key)


def _forget_compiler_after_fork():
    """A forked child has no compiler thread: a pool made in the parent would take its jobs
    and never run them (wait=True would hang). It gets a pool of its own, and what the parent
    had not finished compiling is asked for anew."""
    global _compiler, _lock
    _compiler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fuse-compile")
    _lock = threading.Lock()
    _pending.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_compiler_after_fork)


def wait_idle():
    """Returns once every chain requested so far is compiled (or has failed to)."""
    _compiler.submit(lambda: None).result()


def run(function, out, inputs, streams=()):
    """Fill `out` (flat) from the flat inputs over the intra-op threads; `streams`: each random
    step's PhiloxRandom, positioned where this run's values start."""
    if not streams:
        threads.parallel_for(lambda start, end: function(out, *inputs, start, end),
                             out.shape[0], _MIN_ITEMS_PER_PIECE)
        return out
    words = _stream_words(streams)
    threads.parallel_for(lambda start, end: function(out, *inputs, *words, start, end),
                         -(-out.shape[0] // _WORDS_PER_BLOCK),
                         _MIN_ITEMS_PER_PIECE // _WORDS_PER_BLOCK)
    return out


def run_rows(function, out, inputs, strides, rows2, inner):
    """Fill `out` (flat) with a row kernel's rows (row_kernel), over the intra-op threads in
    pieces of whole rows."""
    rows = out.shape[0] // inner if inner else 0
    threads.parallel_for(
        lambda start, end: function(out, *inputs, strides, rows2, inner, start, end),
        rows, max(1, _MIN_ITEMS_PER_PIECE // max(1, inner)))
    return out


def reduce(function, size, dtype, inputs, streams=()):
    """A reducing chain's sum over `size` elements, its pieces summed over the intra-op threads
    and then together, in `dtype` (integers: the order cannot change the sum)."""
    words = _stream_words(streams)
    total = size if not streams else -(-size // _WORDS_PER_BLOCK)
    minimum = _MIN_ITEMS_PER_PIECE // (_WORDS_PER_BLOCK if streams else 1)
    partial, lock = [], threading.Lock()

    def piece(start, end):
        value = function(size, *inputs, *words, start, end)
        with lock:
            partial.append(value)

    threads.parallel_for(piece, total, minimum)
    with np.errstate(over="ignore"):
        return np.sum(np.array(partial, dtype), dtype=dtype)


def _stream_words(streams):
    """Each PhiloxRandom's key and counter as the six uint64 arguments a kernel takes."""
    return [word for stream in streams for word in philox.stream_args(stream.key, stream.counter)]


def warm():
    """Nothing to load ahead: each chain compiles (or loads its cache) when first seen."""
