"""tf.RaggedTensor and tf.ragged as TensorFlow 2.21's tf.compat.v1 builds them in graph mode
(tensorflow/python/ops/ragged/): row partitions, the RaggedTensor class, its factories and
methods, tf.ragged's functions and the dispatch of elementwise ops and reductions."""
