"""A fused elementwise chain is as pure as its steps: constant folding (a second optimizer
iteration sees the remapper's chains) must not fold one that draws random numbers, or every
run would give the first run's values."""

from engine.kernels.fused_chain import FUSED_OP
from engine.optimizer import rules
from engine.proto import node_def_pb2


def _fused(*ops):
    node = node_def_pb2.NodeDef(name="chain", op=FUSED_OP)
    node.attr["fused_ops"].list.s.extend(op.encode() for op in ops)
    return node


def test_a_chain_of_arithmetic_is_pure():
    assert rules.is_pure(_fused("Mul", "AddV2", "Sqrt"))


def test_a_chain_drawing_random_numbers_is_not():
    assert not rules.is_pure(_fused("RandomUniform", "Mul", "LessEqual"))
    assert not rules.is_pure(_fused("Mul", "RandomStandardNormal"))
