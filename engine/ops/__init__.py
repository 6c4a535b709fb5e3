"""The TF 1.x API functions, one module per family (array_ops, math_ops, nn_ops, ...)."""
