"""`python -m inspector`: the same as the graph-inspector console script."""

from inspector.cli import entry

raise SystemExit(entry())
