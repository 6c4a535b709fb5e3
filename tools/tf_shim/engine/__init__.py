"""`import engine as tf` backed by real TensorFlow 1.x semantics (tensorflow.compat.v1).

Put tools/tf_shim on PYTHONPATH to run a program from tests/programs/ on real TensorFlow; the
same file later runs on our own engine. GI_TF_MODE=v2 keeps graph mode but turns on resource
variables and control flow v2 (what a TF2 program under tf.compat.v1.Session sees).
"""

import os as _os

# oneDNN reorders float sums; off, TensorFlow's CPU numbers are the plain Eigen ones.
_os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
# tf.compat.v1.layers (and rnn_cell) exist under Keras 3 only through tf-keras's legacy layers.
_os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import tensorflow as _tf  # noqa: E402
import tensorflow.compat.v1 as _v1  # noqa: E402
from tensorflow.compat.v1 import *  # noqa: E402,F401,F403

MODE = _os.environ.get("GI_TF_MODE", "v1")
if MODE == "v2":
    _v1.disable_eager_execution()
    _v1.enable_resource_variables()
    _v1.enable_control_flow_v2()
elif MODE == "v1":
    _v1.disable_v2_behavior()
else:
    raise ValueError(f"unknown GI_TF_MODE: {MODE!r} (must be 'v1' or 'v2')")

# Submodules `import *` may skip; bound explicitly so tf.nn.relu etc. always resolve.
nn = _v1.nn
train = _v1.train
summary = _v1.summary
losses = _v1.losses
layers = _v1.layers
random = _v1.random
math = _v1.math
linalg = _v1.linalg
errors = _v1.errors
initializers = _v1.initializers
saved_model = _v1.saved_model
io = _v1.io
compat = _v1.compat

# tools/make_fixtures.py runs some programs at several intra-op thread counts, to see how far
# TensorFlow's own numbers spread; a Session made without a config takes the context's.
if _os.environ.get("GI_TF_INTRA_OP_THREADS"):
    _tf.config.threading.set_intra_op_parallelism_threads(
        int(_os.environ["GI_TF_INTRA_OP_THREADS"]))
    _tf.config.threading.set_inter_op_parallelism_threads(1)

# TF 0.x names the seed programs use.
train.SummaryWriter = summary.FileWriter

__version__ = _tf.__version__
