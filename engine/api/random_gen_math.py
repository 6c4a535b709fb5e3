"""tf.random's Generator and index shuffle, tf.math.sobol_sample, approximate top-k (tf.approx_top_k,
tf.math/tf.nn.approx_max_k and approx_min_k), the N-d FFTs (tf.fftnd ... and tf.signal.fftnd
...), tf.lookup.StaticVocabularyTable and the SDCA ops of tf.train, added to the namespaces
the other API modules make."""

from engine.api import core as _core
from engine.api import math_and_nn as _math_and_nn
from engine.api import signal_and_audio as _signal_and_audio
from engine.api import training as _training
from engine.ops import approx_top_k_ops as _approx
from engine.ops import approx_top_k_grad as _approx_grad  # noqa: F401  (registers gradients)
from engine.framework import quantize_training as _quantize_training
from engine.ops import fft_ops as _fft
from engine.ops import sdca_ops as _sdca
from engine.ops import sobol_ops as _sobol
from engine.ops import stateful_random_ops as _stateful
from engine.ops import stateless_random_ops as _stateless
from engine.ops import vocabulary_table as _vocabulary_table

approx_top_k = _approx.approx_top_k
for _namespace in (_math_and_nn.math, _math_and_nn.nn):
    _namespace.approx_max_k = _approx.approx_max_k
    _namespace.approx_min_k = _approx.approx_min_k

fftnd, ifftnd = _fft.fftnd_raw, _fft.ifftnd_raw
rfftnd, irfftnd = _fft.rfftnd_raw, _fft.irfftnd_raw
for _name in ("fftnd", "ifftnd", "rfftnd", "irfftnd"):
    setattr(_signal_and_audio.signal, _name, getattr(_fft, _name))

_core.lookup.StaticVocabularyTable = _vocabulary_table.StaticVocabularyTable
random_index_shuffle = _stateless.random_index_shuffle

for _namespace in (_core.random, _core.random.experimental):
    _namespace.Generator = _stateful.Generator
    _namespace.get_global_generator = _stateful.get_global_generator
    _namespace.set_global_generator = _stateful.set_global_generator

_training.train.sdca_fprint = _sdca.sdca_fprint
_training.train.sdca_shrink_l1 = _sdca.sdca_shrink_l1
_training.train.sdca_optimizer = _sdca.sdca_optimizer
_math_and_nn.math.sobol_sample = _sobol.sobol_sample
_training.train.do_quantize_training_on_graphdef = (
    _quantize_training.do_quantize_training_on_graphdef)
