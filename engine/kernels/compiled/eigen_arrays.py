"""The unfused float kernels' compiled loops: TensorFlow's exp, log, log1p, expm1, tanh,
sigmoid, softplus, rsqrt, reciprocal, sin, cos (float32), Erf and Erfc (float32, float64) over
a flat tensor's packets.

Each function has two loops over lane functions of engine/kernels/compiled/eigen_numba.py,
eigen_erf_numba.py or eigen_trig_numba.py: the packet path's over a tensor's whole packets, split over the intra-op
threads, and the scalar path's over the last n % lanes elements. The packet lanes are
branch-free float arithmetic, so LLVM vectorises their loops: the values are the packet
path's bit for bit (numba without fastmath fuses no multiply-add), at about NumPy's own speed
for exp and log (BENCHMARKS.md, bench.eigen_float32).

The loops and the lanes' source are written into one generated file named by its hash
(engine/kernels/compiled/numba_source.py), compiled for their one signature when it is
imported (or loaded from numba's on-disk cache of that file: `graph-inspector warm` does it
once per machine).
"""

import numpy as np
import numba  # noqa: F401 (imported here, in the loader's thread)

from engine.kernels.compiled import eigen_erf_numba, eigen_numba, eigen_trig_numba, numba_source
from engine.runtime import threads

# Loop name (packets_and_tail's `compiled`) -> (packet lane, scalar lane, dtype).
LOOPS = {"exp": ("packet_exp", "scalar_exp", "float32"),
         "log": ("packet_log", "scalar_log", "float32"),
         "log1p": ("packet_log1p", "scalar_log1p", "float32"),
         "expm1": ("packet_expm1", "scalar_expm1", "float32"),
         "tanh": ("tanh_float", "tanh_float", "float32"),
         "sigmoid": ("packet_sigmoid", "scalar_sigmoid", "float32"),
         "softplus": ("packet_softplus", "scalar_softplus", "float32"),
         "rsqrt": ("packet_rsqrt", "scalar_rsqrt", "float32"),
         "reciprocal": ("packet_reciprocal", "scalar_reciprocal", "float32"),
         "sin": ("packet_sin", "scalar_sin", "float32"),
         "cos": ("packet_cos", "scalar_cos", "float32"),
         "erf_float32": ("erf_float32", "erf_float32", "float32"),
         "erfc_float32": ("packet_erfc_float32", "scalar_erfc_float32", "float32"),
         "erf_float64": ("packet_erf_float64", "scalar_erf_float64", "float64"),
         "erfc_float64": ("packet_erfc_float64", "scalar_erfc_float64", "float64")}
# A tensor is split over the intra-op threads in pieces of at least this many elements: as
# for fused chains (fused_numba), a second thread pays from about a quarter million.
_MIN_ITEMS_PER_PIECE = 1 << 18

_HEADER = ('"""TensorFlow\'s float functions over arrays; written by '
           'engine/kernels/compiled/eigen_arrays.py."""\nimport math\n\nimport numpy as np\n'
           'import numba\nfrom numba import types\n\n')
_LOOP = '''@numba.njit(types.void(types.Array(types.{t}, 1, "C", readonly=True), types.{t}[::1],
                      types.int64, types.int64),
           cache=True, nogil=True, error_model="numpy", boundscheck=False)
def {name}(x, out, start, end):
    x, out = x[start:end], out[start:end]  # indices from 0: loads LLVM sees as consecutive
    for j in range(x.shape[0]):
        out[j] = {lane}(x[j])
'''


# Loops that also come as one writing over its input, for a kernel given its input's buffer
# (engine/runtime/executor.py, forwarding): with the input and output one array, LLVM's
# runtime check of the two-array loop finds them overlapping and runs its scalar loop, 7x
# slower (Erfc of 3M float32: 42 ms against 6.4 ms); a loop of one array vectorises.
IN_PLACE = ("erf_float32", "erfc_float32", "erf_float64", "erfc_float64", "rsqrt",
            "reciprocal")
_LOOP_IN_PLACE = '''@numba.njit(types.void(types.{t}[::1], types.int64, types.int64),
           cache=True, nogil=True, error_model="numpy", boundscheck=False)
def {name}(x, start, end):
    x = x[start:end]
    for j in range(x.shape[0]):
        x[j] = {lane}(x[j])
'''


# Erfc's packet loops go over a block in three passes (eigen_erf_numba.ERFC_PASSES says why).
_ERFC_BLOCK = 2048
_ERFC_PASSES = eigen_erf_numba.ERFC_PASSES

# Erf (float64) and Erfc take their large-|x| branch only for the values that need it, as
# Eigen's packets do (eigen_erf_numba, erfc_small_float32): per block, a pass flags those
# values; the small branch's pass writes every value; the flagged ones are gathered, go
# through the packet lane (for float32 Erfc its three passes), and are written back over their
# small values. Where more than half of a block's words of eight flags have one set, the block
# goes through the packet lane whole, as before (gathering would cost more than it saves), and
# so do the next _DENSE_RUN blocks without being flagged (a tensor's values are seldom mixed
# block by block; flagging a block costs about an eighth of computing it whole).
# Measured (3M float32 Erfc on one thread, 2026-11-28): 5.8 ms whole; 2.7 ms with 1.4% of the
# values past |x| = 1 (a GELU of small activations), 5.4 with 15%.
_DENSE_RUN = 7
_EARLY_OUT = {"erfc_float32": ("erfc_small_float32", "erfc_large_float32", None),
              "erf_float64": ("erf_small_float64", "erf_large_float64", "packet_erf_float64"),
              "erfc_float64": ("erfc_small_float64", "erfc_large_float64",
                               "packet_erfc_float64")}
_EARLY_OUT_LOOP = """@numba.njit({signature},
           cache=True, nogil=True, error_model="numpy", boundscheck=False)
def {name}({args}, start, end):
    flags = np.zeros({block}, np.uint8)
    words = flags.view(np.uint64)
    at = np.empty({block}, np.int64)
    gathered = np.empty({block}, np.{t})
    large = np.empty({block}, np.{t})
    e = np.empty({block}, np.{t})
    q = np.empty({block}, np.{t})
    dense_for = 0
    for first in range(start, end, {block}):
        last = min(first + {block}, end)
        xs = x[first:last]
        outs = {outs}
        m = xs.shape[0]
        if dense_for == 0:
            for j in range(m):
                flags[j] = {flag}(xs[j])
            for j in range(m, -(-m // 8) * 8):
                flags[j] = 0  # a part block's last word
            busy = 0
            for w in range(-(-m // 8)):
                if words[w]:
                    busy += 1
            if busy * 2 > -(-m // 8):
                dense_for = {dense_run} + 1
        if dense_for > 0:
            dense_for -= 1
{whole}            continue
        n = 0
        for w in range(-(-m // 8)):  # eight flags a word: most words are all clear
            if words[w]:
                for j in range(8 * w, 8 * w + 8):
                    at[n] = j
                    n += flags[j]
        cs, rs = gathered[:n], large[:n]
        for i in range(n):
            cs[i] = xs[at[i]]
        for j in range(m):
            outs[j] = {small}(xs[j])
{gathered_code}        for i in range(n):
            outs[at[i]] = rs[i]
"""
_READ_ONLY = 'types.Array(types.{t}, 1, "C", readonly=True), types.{t}[::1]'

# Sin's and Cos's packets loop runs the branch-free lane of values below Payne-Hanek's
# threshold over every value (it vectorises), counting those at or above it, and the whole
# packet lane (the reduction's 64-bit products in a branch) over those only, if any.
_FIX_UP = {"sin": ("sin_small", "sin_huge"), "cos": ("cos_small", "cos_huge")}
_FIX_UP_LOOP = """@numba.njit(types.void({signature}, types.int64, types.int64),
           cache=True, nogil=True, error_model="numpy", boundscheck=False)
def {name}_packets(x, out, start, end):
    x, out = x[start:end], out[start:end]
    huge = 0
    for j in range(x.shape[0]):
        out[j] = {small}(x[j])
        huge += {flag}(x[j])
    if huge:
        for j in range(x.shape[0]):
            if {flag}(x[j]):
                out[j] = {lane}(x[j])
"""


def _early_out_loop(name, suffix):
    """The packets loop of `name` (an _EARLY_OUT entry): suffix "_packets" (x -> out) or
    "_in_place" (x written over)."""
    small, flag, lane = _EARLY_OUT[name]
    t = LOOPS[name][2]
    in_place = suffix == "_in_place"
    outs = "xs" if in_place else "out[first:last]"  # (one view of one array: see IN_PLACE)
    if lane is None:  # float32 Erfc: its three passes
        whole = _ERFC_PASSES.format(pad=" " * 12, n="m", xs="xs", outs="outs")
        gathered_code = _ERFC_PASSES.format(pad=" " * 8, n="n", xs="cs", outs="rs")
    else:
        whole = f"            for j in range(m):\n                outs[j] = {lane}(xs[j])\n"
        gathered_code = f"        for i in range(n):\n            rs[i] = {lane}(cs[i])\n"
    signature = (f"types.void(types.{t}[::1], types.int64, types.int64)" if in_place else
                 f"types.void({_READ_ONLY.format(t=t)}, types.int64, types.int64)")
    return _EARLY_OUT_LOOP.format(
        signature=signature, name=f"{name}{suffix}", args="x" if in_place else "x, out",
        block=_ERFC_BLOCK, t=t, outs=outs, flag=flag, dense_run=_DENSE_RUN, whole=whole,
        small=small, gathered_code=gathered_code)


_LANE_MODULES = (eigen_numba, eigen_erf_numba, eigen_trig_numba)


def _packets_loop(name, lane, dtype):
    if name in _EARLY_OUT:
        return _early_out_loop(name, "_packets")
    if name in _FIX_UP:
        small, flag = _FIX_UP[name]
        return _FIX_UP_LOOP.format(signature=_READ_ONLY.format(t=dtype), name=name,
                                   small=small, flag=flag, lane=lane)
    return _LOOP.format(name=f"{name}_packets", lane=lane, t=dtype)


def _constants():
    """Both lane modules' constants, each name once (a name both define has one value)."""
    merged = {}
    for module in _LANE_MODULES:
        for line in numba_source.constants_source(vars(module)):
            name = line.split(" = ", 1)[0]
            if merged.setdefault(name, line) != line:
                raise ValueError(f"{name} differs between the lane modules")
    return list(merged.values())


def source():
    """The generated file's text: constants, lane functions, one loop per LOOPS entry."""
    functions = [numba_source.functions_source(vars(module), module.FUNCTIONS)
                 for module in _LANE_MODULES]
    # one signature, compiled when the file is imported; a read-only input converts to it
    loops = [_packets_loop(name, lane, dtype) if suffix == "_packets" else
             _LOOP.format(name=f"{name}{suffix}", lane=lane, t=dtype)
             for name, (packet, scalar, dtype) in LOOPS.items()
             for suffix, lane in (("_packets", packet), ("_tail", scalar))]
    loops += [_early_out_loop(name, "_in_place") if name in _EARLY_OUT else
              _LOOP_IN_PLACE.format(name=f"{name}_in_place", lane=LOOPS[name][0],
                                    t=LOOPS[name][2])
              for name in IN_PLACE]
    return (_HEADER + "\n".join(_constants()) + "\n\n\n" + "\n\n".join(functions) + "\n\n\n"
            + "\n\n".join(loops))


_functions = {}  # loop name -> (packets loop, tail loop)
_in_place = {}  # loop name -> the packets loop over one array


def run(name, out, inputs, end, in_place=False):
    """out = function `name` of inputs[0] (flat arrays): the packet path on [:end], the
    scalar path on the rest. `in_place`: out is inputs[0]'s memory (a loop of IN_PLACE);
    the values are the same."""
    packets, tail = _functions[name]
    x = inputs[0]
    if in_place:
        packets = _in_place[name]
        if end >= 2 * _MIN_ITEMS_PER_PIECE:
            threads.parallel_for(lambda start, stop: packets(out, start, stop), end,
                                 _MIN_ITEMS_PER_PIECE)
        elif end:
            packets(out, 0, end)
        if end < out.shape[0]:
            tail(out, out, end, out.shape[0])
        return out
    if not (x.flags.c_contiguous and x.flags.aligned):
        x = x.copy()  # the signature's contiguous, aligned array
    # (a small tensor skips parallel_for's few microseconds: it would be one piece anyway)
    if end >= 2 * _MIN_ITEMS_PER_PIECE:
        threads.parallel_for(lambda start, stop: packets(x, out, start, stop), end,
                             _MIN_ITEMS_PER_PIECE)
    elif end:
        packets(x, out, 0, end)
    if end < x.shape[0]:
        tail(x, out, end, x.shape[0])
    return out


def warm():
    """Import the generated file: numba compiles every loop (or loads it from its cache)."""
    module = numba_source.import_text(source(), "eigen-kernels", "eigen")
    _functions.update({name: (getattr(module, f"{name}_packets"), getattr(module, f"{name}_tail"))
                       for name in LOOPS})
    _in_place.update({name: getattr(module, f"{name}_in_place") for name in IN_PLACE})
