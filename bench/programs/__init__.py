"""TF1 programs the benchmarks run unchanged on the engine and on TensorFlow 2.21
(tools/tf_shim)."""
