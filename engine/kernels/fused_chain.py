"""_FusedElementwise: what a fused chain of elementwise ops is, and which ops may join one.

The remapping pass (engine/optimizer/remapping.py) replaces a chain of elementwise nodes by
one `_FusedElementwise` node (named as TensorFlow names its internal fused ops: _FusedMatMul,
_FusedConv2D). Its attrs describe the chain step by step:
- fused_ops: each step's op type, in order (the last step's value is the node's output);
- fused_args: each step's operands, comma-separated: `i<k>` the node's k-th input, `t<k>` the
  value of step k;
- fused_types: each step's output dtype (Cast's DstT, bool for comparisons, else T);
- Tin: the inputs' dtypes; T: the output's.
- fused_random: for each RandomUniform step, in step order, the name of the node it stands for
  (its Philox stream is that node's, kept per session by name: a run of the fused graph draws
  what the unfused graph draws); fused_seeds: those nodes' seed and seed2, two per step.
A chain may end in a reduction (REDUCTIONS: an integer Sum, keep_dims false): its operands are
the step it sums and the node's axes input (not an elementwise operand); the node's output is
then the sum, and a compiled loop never writes the summed values out.
A RandomUniform step's operand is the node's shape input (a vector, not an elementwise
operand); the values it draws are the chain's inputs as the other inputs are, but are never
materialised when the chain runs compiled.
The CPU kernel (engine/kernels/cpu/fused.py) runs the chain compiled (compiled/fused_numba.py)
or, as the reference, step by step through each op's own kernel.

>>> chain = Chain(["Mul", "AddV2"], ["i0,i0", "t0,i1"], ["float32", "float32"])
>>> chain.steps
[('Mul', (('i', 0), ('i', 0)), 'float32'), ('AddV2', (('t', 0), ('i', 1)), 'float32')]
"""

FUSED_OP = "_FusedElementwise"

# Ops a chain may hold, and the dtypes they may hold them at: each has a compiled form that
# gives the op's own kernel's values (exactly for integers, comparisons and float32, whose
# exp/log/tanh/sigmoid/rsqrt/erf/erfc both compute as TensorFlow's Eigen does; float64 within
# rounding, where NumPy's vectorised exp/log/tanh round differently from libm's).
FLOATS = frozenset({"float32", "float64"})
INTS = frozenset({"int32", "int64"})
NUMBERS = FLOATS | INTS
FUSABLE = {
    "Add": NUMBERS, "AddV2": NUMBERS, "Sub": NUMBERS, "Mul": NUMBERS, "RealDiv": FLOATS,
    "Maximum": NUMBERS, "Minimum": NUMBERS, "SquaredDifference": NUMBERS,
    "Neg": NUMBERS, "Abs": NUMBERS, "Square": NUMBERS, "Sqrt": FLOATS, "Rsqrt": FLOATS,
    "Exp": FLOATS, "Log": FLOATS, "Tanh": FLOATS, "Sigmoid": FLOATS, "Relu": NUMBERS,
    "Floor": FLOATS, "Ceil": FLOATS, "Erf": frozenset({"float32"}), "Erfc": frozenset({"float32"}),
    "Less": NUMBERS, "LessEqual": NUMBERS, "Greater": NUMBERS, "GreaterEqual": NUMBERS,
    "Equal": NUMBERS, "NotEqual": NUMBERS,
    "LogicalAnd": frozenset({"bool"}), "LogicalOr": frozenset({"bool"}),
    "LogicalNot": frozenset({"bool"}),
    "Cast": NUMBERS | {"bool"},
}
# Random sources a chain may start from (on the CPU: the compiled loop draws TensorFlow's Philox
# words in registers, four values per block, where the unfused graph writes and reads arrays).
RANDOM_OPS = {"RandomUniform": frozenset({"float32"})}
# A Fill step (operands: its dims input, its scalar value input) is a value broadcast to the
# chain's shape; the remapper makes one of a large constant whose elements are all one value
# (a folded tf.ones([n])), so the loop reads a scalar where it would read n copies of it.
FILL = "Fill"
# Steps whose first operand is a shape (a dims input, not an elementwise operand).
SOURCES = frozenset(RANDOM_OPS) | {FILL}
# Reductions a chain may end in: integer sums only, whose order of addition cannot change them
# (a float sum would round apart from the unfused Sum's pairwise order).
REDUCTIONS = {"Sum": INTS}
COMPARISONS = frozenset({"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"})
# A longer chain compiles slowly (numba's time grows with the body); it is cut there.
MAX_STEPS = 64


def parse_operand(text):
    kind, index = text[0], int(text[1:])
    if kind not in "it":
        raise ValueError(f"bad operand {text!r}")
    return kind, index


class Chain:
    """A fused chain decoded from the node's attrs (dtype names as NumPy spells them)."""

    __slots__ = ("steps", "random_steps", "shape_inputs", "axes_input")

    def __init__(self, ops, args, types):
        if not (len(ops) == len(args) == len(types)) or not ops:
            raise ValueError("fused_ops, fused_args and fused_types must be of one length")
        self.steps = [(op, tuple(parse_operand(a) for a in operands.split(",")), str(dtype))
                      for op, operands, dtype in zip(ops, args, types)]
        # the random steps; the inputs that are sources' shapes (not elementwise operands)
        self.random_steps = [k for k, step in enumerate(self.steps) if step[0] in RANDOM_OPS]
        sources = [k for k, step in enumerate(self.steps) if step[0] in SOURCES]
        self.shape_inputs = frozenset(self.steps[k][1][0][1] for k in sources)
        for k in sources:
            op, operands, _ = self.steps[k]
            wanted = "its dims and its value" if op == FILL else "one input, its shape"
            if [kind for kind, _ in operands] != ["i"] * (2 if op == FILL else 1):
                raise ValueError(f"a {op} step reads {wanted}")
        # the input holding the reduction's axes, when the chain ends in one
        self.axes_input = None
        last_op, last_operands, _ = self.steps[-1]
        if last_op in REDUCTIONS:
            if [kind for kind, _ in last_operands] != ["t", "i"]:
                raise ValueError(f"a {last_op} step reads a step's values and an axes input")
            self.axes_input = last_operands[1][1]
        if any(op in REDUCTIONS for op, _, _ in self.steps[:-1]):
            raise ValueError("a reduction can only end a chain")
        side_inputs = self.side_inputs
        for index, (op, operands, _) in enumerate(self.steps):
            values = operands[:1] if index == len(self.steps) - 1 and self.reduces else operands
            values = values[1:] if op in SOURCES else values
            if any(kind == "i" and n in side_inputs for kind, n in values):
                raise ValueError("a shape or axes input is read as a value")

    @property
    def reduces(self):
        return self.axes_input is not None

    @property
    def side_inputs(self):
        """The inputs that are not elementwise operands: sources' shapes, reduction axes."""
        if self.axes_input is None:
            return self.shape_inputs
        return self.shape_inputs | {self.axes_input}

    @classmethod
    def of_attrs(cls, attrs):
        def text(value):
            return value.decode() if isinstance(value, bytes) else value
        return cls([text(op) for op in attrs["fused_ops"]],
                   [text(a) for a in attrs["fused_args"]],
                   [t.as_numpy_dtype.__name__ for t in attrs["fused_types"]])

    def key(self, input_dtypes, scalar_inputs):
        """What a compiled form depends on: the steps, the inputs' dtypes, which are scalars."""
        return (tuple(self.steps), tuple(input_dtypes), tuple(scalar_inputs))
