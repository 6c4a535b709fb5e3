"""Shape functions of the stateless random ops (TensorFlow's StatelessShape, StatelessShapeV2
and the samplers' MakeShapeFromShapeTensor: the output is the shape asked for; seeds checked
to be [2]), and of the bitwise ops alg="philox" scrambles a seed with."""

from engine.shape_inference.array import random
from engine.shape_inference.dims import ShapeError, _dims
from engine.shape_inference.elementwise import unchanged
from engine.shape_inference.special_math import multinomial

_SHAPED = ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt",
           "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
           "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
           "StatelessRandomBinomial", "StatelessRandomGammaV2", "StatelessRandomGammaV3",
           "StatelessRandomPoisson", "StatelessParameterizedTruncatedNormal")

def random_index_shuffle(attrs, inputs):
    """A scalar for a scalar index, [3] seed and scalar max_index; else a vector of the
    batch any of them gives."""
    index, seed, max_index = (_dims(info) for info in inputs)
    if seed is not None and (len(seed) not in (1, 2) or seed[-1] not in (3, None)):
        shown = ", ".join("?" if d is None else str(d) for d in seed)
        raise ShapeError(f"Seed must have shape [3] or [n, 3] but got [{shown}].")
    if index is None or seed is None or max_index is None:
        return None
    if len(index) == 0 and len(seed) == 1 and len(max_index) == 0:
        return []
    batch = [d[0] for d in (index, max_index, seed[:-1] if len(seed) == 2 else [])
             if len(d) == 1 and d[0] is not None]
    return [batch[0] if batch else None]


def _check_seed(info):
    """A seed input's static shape as TensorFlow's shape functions hold it: a vector of 2."""
    dims = _dims(info)
    if dims is None:
        return
    if len(dims) != 1:
        raise ShapeError(f"Shape must be rank 1 but is rank {len(dims)}")
    if dims[0] is not None and dims[0] != 2:
        raise ShapeError(f"Dimension must be 2 but is {dims[0]}")


def _seeded(shape_function, seed_input):
    def checked(attrs, inputs):
        _check_seed(inputs[seed_input])
        return shape_function(attrs, inputs)
    return checked


_SEEDED = ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt",
           "StatelessRandomBinomial", "StatelessRandomGammaV2", "StatelessRandomPoisson",
           "StatelessParameterizedTruncatedNormal")

SHAPE_FUNCTIONS = {
    **{op: random for op in _SHAPED},
    **{op: _seeded(random, 1) for op in _SEEDED},
    "StatelessRandomGetKeyCounter": _seeded(lambda attrs, inputs: ([1], [2]), 0),
    "StatelessRandomGetKeyCounterAlg": _seeded(lambda attrs, inputs: ([1], [2], []), 0),
    "StatelessRandomGetAlg": lambda attrs, inputs: [],
    "StatelessMultinomial": _seeded(multinomial, 2),
    "StatelessShuffle": unchanged,
    "RandomIndexShuffle": random_index_shuffle,
}
