"""What a compiled while loop is: its steps over loop variables and invariants, as data.

engine/runtime/loop_compiler.py describes a loop frame as a LoopBody; the numba kernel
(engine/kernels/compiled/loop_numba.py) compiles one. Kept apart from the kernel so that
describing a loop imports no numba (as engine/kernels/fused_chain.py is kept from fused_numba).

>>> body = LoopBody(steps=(("Less", (("s", 0), ("c", 0)), "bool", "int32"),
...                        ("AddV2", (("s", 0), ("c", 1)), "int32", "int32")),
...                 condition_steps=1, condition=("t", 0), nexts=(("t", 1),),
...                 dtypes=("int32", "int32", "int32"))
>>> body.state, step_is_array(body, (False, False, False))
(1, [False, False])
"""

from dataclasses import dataclass

from engine.kernels.fused_chain import FLOATS, FUSABLE

# The fusable ops whose compiled form gives the NumPy kernel's value exactly, at their input
# dtypes: NumPy's vectorised exp, log and tanh round apart from libm's, and Rsqrt and Sigmoid
# go through them or round twice. Cast from a float to an integer is left out too (casts_exactly):
# out of range, NumPy's and LLVM's conversions need not agree.
LOOP_OPS = {op: dtypes for op, dtypes in FUSABLE.items()
            if op not in ("Exp", "Log", "Tanh", "Sigmoid", "Rsqrt")}


@dataclass(frozen=True)
class LoopBody:
    """A loop as a list of elementwise steps over its variables and invariants.

    A value is ("s", i) loop variable i, ("c", i) invariant i, ("t", k) step k's result.
    steps: (op, operands, dtype, input dtype), each after the steps it reads; the first
    `condition_steps` compute what `condition` reads (and read no value of the body), the rest
    the body; nexts[i]: loop variable i's value for the next iteration; dtypes: the
    variables' then the invariants' dtypes."""

    steps: tuple
    condition_steps: int
    condition: tuple
    nexts: tuple
    dtypes: tuple

    @property
    def state(self):
        return len(self.nexts)


def casts_exactly(source_dtype, dtype):
    """Whether Cast from `source_dtype` to `dtype` compiles to the NumPy kernel's values."""
    return not (source_dtype in FLOATS and dtype not in FLOATS | {"bool"})


def step_is_array(body, arrays):
    """Per step, whether its result is an array (some operand is), given which variables and
    invariants (`arrays`, in body.dtypes' order) are arrays."""
    result = []
    for _, operands, _, _ in body.steps:
        result.append(any(is_array(ref, body, arrays, result) for ref in operands))
    return result


def is_array(ref, body, arrays, step_arrays):
    kind, index = ref
    if kind == "s":
        return arrays[index]
    if kind == "c":
        return arrays[body.state + index]
    return step_arrays[index]
