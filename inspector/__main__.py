"""`python -m inspector`: the same as the graph-inspector console script."""

from inspector.cli import main

raise SystemExit(main())
