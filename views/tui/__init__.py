"""The Textual terminal UI: browse graphs, node details, runs, partitions and logs.

>>> from views.tui import InspectorApp
>>> InspectorApp(["g.pb"]).paths
['g.pb']
"""

from views.tui.app import InspectorApp
from views.tui.workspace import GraphView, RunView, Workspace

__all__ = ["InspectorApp", "Workspace", "GraphView", "RunView"]
