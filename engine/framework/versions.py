"""The version strings TensorFlow 2.21's tf.compat.v1 shows (python/framework/versions.py).

The engine answers as the TensorFlow its numbers are checked against: a TF1 program printing
`tf.__version__`, or choosing a code path by it, sees what it saw under TensorFlow 2.21's
tf.compat.v1, which is what tests/programs' expected output was written with.

>>> VERSION, GRAPH_DEF_VERSION
('2.21.0', 2474)
"""

VERSION = "2.21.0"
GIT_VERSION = "v2.21.0-rc1-5-ga481b10260d"
COMPILER_VERSION = "Clang 18.1.8"
CXX11_ABI_FLAG = 1
MONOLITHIC_BUILD = 0

# The GraphDef versions TensorFlow 2.21 writes and accepts (core/public/version.h).
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
