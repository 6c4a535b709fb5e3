"""File formats TensorFlow's Python API reads and writes itself (tensorflow/python/lib/io)."""
