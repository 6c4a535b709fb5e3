"""The graph-writing parts of tf.train (write_graph, export helpers)."""

import os

from google.protobuf import text_format


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a Graph's GraphDef (or a GraphDef) to logdir/name, text or binary; returns the path."""
    graph_def = graph_or_graph_def
    if hasattr(graph_or_graph_def, "as_graph_def"):
        graph_def = graph_or_graph_def.as_graph_def()
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text_format.MessageToString(graph_def))
    else:
        with open(path, "wb") as f:
            f.write(graph_def.SerializeToString(deterministic=True))
    return path
