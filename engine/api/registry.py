"""What is op X: its OpDef, kernel per device, shape function, gradient and families, in one row.

`describe("Softplus")` answers from the tables that hold each part (engine/framework/op_defs.pbtxt
through op_registry, engine/kernels/cpu/ and cuda/, engine/shape_inference, the gradient
registry, engine/op_families); `all_ops()` gives a row for every op any of them knows.
The op_def tab of the TUI, `graph-inspector info --ops` and tests/engine/test_op_registry.py
(which fails when the tables disagree) all read these rows.

>>> row = describe("Softplus")
>>> row.op_def.name, sorted(row.kernels), row.shape, row.gradient, row.families
('Softplus', ['CPU', 'GPU'], 'inferred', 'registered', ('unary',))
"""

import functools
import threading
from dataclasses import dataclass, field

from engine import kernels, shape_inference
from engine.framework import op_families, op_registry
from engine.kernels.cuda import registry as cuda_registry
import engine.api  # noqa: F401  (the whole API: every module registering a gradient)
from engine.ops import gradient_registry

DEVICE_TYPES = ("CPU", "GPU")

# What shape inference knows of an op's outputs.
INFERRED = "inferred"          # a shape function computes them
UNKNOWN = "unknown"            # TensorFlow's own function leaves them unknown, as ours does
NO_OUTPUTS = "no outputs"      # nothing to infer
NO_FUNCTION = "none"           # drift: tests/engine/test_op_registry.py fails on it

_start_lock = threading.Lock()
# Ops that need no kernel: the executor runs the first, the second are known not to run.
_RUN_WITHOUT_KERNEL = op_families.EXECUTOR_BUILTIN | op_families.GRAPH_ONLY


@dataclass(frozen=True)
class OpRow:
    """One op as the engine knows it. kernels: device type -> kernel, for the devices that
    have one; shape: INFERRED, UNKNOWN, NO_OUTPUTS or NO_FUNCTION; gradient: the gradient
    registry's status (registered, not differentiable, missing)."""

    name: str
    op_def: object = None
    kernels: dict = field(default_factory=dict)
    shape_function: object = None
    shape: str = NO_FUNCTION
    gradient_function: object = None
    gradient: str = gradient_registry.MISSING
    families: tuple = ()

    @property
    def is_stateful(self):
        return bool(self.op_def is not None and self.op_def.is_stateful)


@functools.cache
def _gpu_kernels():
    return cuda_registry.kernel_table()


def _kernel_tables():
    """Device type -> {op type: kernel}: the CPU modules' registrations, and the kernels the
    CUDA modules provide (on any machine; GPU placement still needs a GPU)."""
    with _start_lock:
        return {"CPU": {op: kernels.lookup(op, "CPU") for op in kernels.registered_ops("CPU")},
                "GPU": _gpu_kernels()}


def _shape(op_def, function):
    if function is shape_inference.unknown:
        return UNKNOWN
    if function is not None:
        return INFERRED
    if op_def is not None and not op_def.output_arg:
        return NO_OUTPUTS
    return NO_FUNCTION


def _row(op_type, tables):
    op_def = op_registry.lookup(op_type)
    function = shape_inference.SHAPE_FUNCTIONS.get(op_type)
    families = op_families.families_of(op_type)
    if op_def is not None and op_def.is_stateful:
        families += ("stateful",)
    return OpRow(
        name=op_type, op_def=op_def,
        kernels={device: tables[device][op_type] for device in DEVICE_TYPES
                 if op_type in tables[device]},
        shape_function=function, shape=_shape(op_def, function),
        gradient_function=gradient_registry.gradient_function(op_type),
        gradient=gradient_registry.gradient_status(op_type),
        families=families)


def problems(row):
    """Where the tables disagree about `row`'s op, in words (empty when they agree): a
    kernel without an OpDef (a graph holding it fails to import), an OpDef without a kernel
    (it imports but cannot run), a kernel without a shape function."""
    found = []
    if row.kernels and row.op_def is None:
        found.append("kernel without OpDef")
    if row.op_def is not None and not row.kernels and row.name not in _RUN_WITHOUT_KERNEL:
        found.append("OpDef without kernel")
    if row.kernels and row.name in op_families.GRAPH_ONLY:
        found.append("kernel for an op listed as graph-only")
    if row.kernels and row.shape == NO_FUNCTION:
        found.append("no shape function")
    return found


def describe(op_type):
    """The OpRow of `op_type` (an empty row, every part missing, for an op nobody knows)."""
    return _row(op_type, _kernel_tables())


def all_ops():
    """A row for every op with an OpDef, a kernel or a shape function (gradient entries for
    ops the engine knows nothing else of, as TensorFlow keeps some, make no row)."""
    tables = _kernel_tables()
    names = (set(op_registry.registered_ops()) | set(tables["CPU"]) | set(tables["GPU"])
             | set(shape_inference.SHAPE_FUNCTIONS))
    return [_row(name, tables) for name in sorted(names)]
