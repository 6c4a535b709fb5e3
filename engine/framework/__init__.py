"""What a graph is and how it is built: Graph, Operation, Tensor, dtypes, shapes, attrs,
TensorProto conversion, the default graph and its scopes, the OpDefs, errors, text formats and
creation tracebacks. Imports nothing of engine.runtime or engine.api."""
