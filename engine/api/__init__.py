"""The TF1 API that `import engine as tf` gives (engine/__init__.py loads it on first use).

Each module here holds one part of the namespace; this one joins them, adds tf.compat and
binds the names TensorFlow 1.x renamed (engine/api/renames.py) and the other names TensorFlow
gives one function (engine/api/aliases.py: tf.math.sigmoid is tf.sigmoid):
- core.py: graphs, sessions, dtypes, the core ops, variables, gradients, debugging;
- math_and_nn.py: tf.nn, tf.losses, tf.linalg, tf.math, tf.metrics;
- training.py: tf.train;
- input_output.py: tf.io, tf.gfile, readers, queues, parsing, tf.data, tf.saved_model,
  tf.summary;
- platform.py: tf.app, tf.flags, tf.logging, the eager-execution switches;
- image_and_spatial.py: tf.image, tf.random_crop, and the spatial ops of tf.nn and tf.layers
  that came with them (depth_to_space, separable and transposed convolutions);
- feature_columns.py: tf.feature_column and the sparse ops under it (tf.sparse_segment_*,
  tf.sparse_reshape, tf.sparse.cross, ...);
- signal_and_audio.py: tf.signal, tf.spectral, tf.audio and tf.fft, tf.ifft, ... .
- sparse_and_metrics.py: tf.sparse's arithmetic (tf.sparse.add, tf.sparse_concat, ...),
  serialized SparseTensors, and the TF1 streaming metrics beyond the basic ones.
- fake_quant_and_quantize.py: tf.quantization, the tf.fake_quant_* functions, tf.quantize,
  tf.dequantize and tf.quantized_concat.
- image_io_and_quantized.py: tf.conv and the V2 conv backprops, tf.nn's quantized ops.
- specs_and_sessions.py: type specs, tf.data.Options, session handles, tf.CriticalSection,
  the sparse conditional accumulator, tf.IdentityReader and the TF1 toggles.
- functions_and_modules.py: tf.function, tf.Module, tf.GradientTape and the TF2 building
  blocks TF1-era programs use in a graph (tf.recompute_grad, tf.variable_creator_scope, ...).
engine/api/registry.py (what is op X) loads this whole API for its gradient registrations.
"""

import sys as _sys

from engine.framework.api_namespace import Namespace as _Namespace
from engine.api import aliases as _aliases
from engine.api import renames as _renames
from engine.api.core import *  # noqa: F401,F403
from engine.api.math_and_nn import *  # noqa: F401,F403
from engine.api.training import *  # noqa: F401,F403
from engine.api.input_output import *  # noqa: F401,F403
from engine.api.platform import *  # noqa: F401,F403
from engine.api.special_math import *  # noqa: F401,F403
from engine.api.elementary_math import *  # noqa: F401,F403
from engine.api.image_and_spatial import *  # noqa: F401,F403
from engine.api.feature_columns import *  # noqa: F401,F403
from engine.api.signal_and_audio import *  # noqa: F401,F403
from engine.api.sparse_and_metrics import *  # noqa: F401,F403
from engine.api.fake_quant_and_quantize import *  # noqa: F401,F403
from engine.api.image_io_and_quantized import *  # noqa: F401,F403
from engine.api.specs_and_sessions import *  # noqa: F401,F403
from engine.api.functions_and_modules import *  # noqa: F401,F403
from engine.api import linear_operators as _linear_operators  # noqa: F401  (tf.linalg.LinearOperator*)
from engine.api.random_gen_math import *  # noqa: F401,F403
from engine.api.ragged_tensors import *  # noqa: F401,F403
from engine.api import ragged_tensors as _ragged_tensors
from engine.framework.versions import VERSION as __version__  # noqa: F401 (tf.compat.v1's)



def _as_bytes(bytes_or_text, encoding="utf-8"):
    """tf.compat.as_bytes: text encoded, bytes (or a bytearray) as bytes."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def _as_text(bytes_or_text, encoding="utf-8"):
    """tf.compat.as_text (as_str): bytes decoded, text as it is."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def _as_str_any(value, encoding="utf-8"):
    return _as_text(value, encoding) if isinstance(value, bytes) else str(value)


compat = _Namespace("tf.compat", v1=_sys.modules[__name__], v2=_sys.modules[__name__],
                    as_bytes=_as_bytes, as_text=_as_text, as_str=_as_text,
                    as_str_any=_as_str_any)
_renames.install(_sys.modules[__name__])
# TensorFlow's other names for what the engine has (tf.math.sigmoid for tf.sigmoid, ...)
ALIAS_CONFLICTS = _aliases.install(_sys.modules[__name__])
# tf.add, tf.reduce_sum, ... under all their names take RaggedTensors too
_ragged_tensors.install(_sys.modules[__name__])
