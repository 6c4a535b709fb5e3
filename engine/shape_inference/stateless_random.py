"""Shape functions of the stateless random ops (TensorFlow's StatelessShape, StatelessShapeV2
and the samplers' MakeShapeFromShapeTensor): the output is the shape asked for."""

from engine.shape_inference.array import random
from engine.shape_inference.elementwise import unchanged
from engine.shape_inference.special_math import multinomial

_SHAPED = ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt",
           "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
           "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
           "StatelessRandomBinomial", "StatelessRandomGammaV2", "StatelessRandomGammaV3",
           "StatelessRandomPoisson")

SHAPE_FUNCTIONS = {
    **{op: random for op in _SHAPED},
    "StatelessRandomGetKeyCounter": lambda attrs, inputs: ([1], [2]),
    "StatelessRandomGetKeyCounterAlg": lambda attrs, inputs: ([1], [2], []),
    "StatelessRandomGetAlg": lambda attrs, inputs: [],
    "StatelessMultinomial": multinomial,
    "StatelessShuffle": unchanged,
}
