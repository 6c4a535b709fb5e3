"""`graph-inspector info --ops [--json]`: every op the engine knows and what it has.

One row per op of engine.api.registry: its OpDef, CPU and GPU kernels, shape function, gradient
and families, and where those tables disagree (none, while tests/engine/test_op_registry.py
passes).
"""

from __future__ import annotations

import json
import sys


def run(args):
    if not args.ops:
        sys.stderr.write("error: info: give a PATH, or --ops for the engine's ops\n")
        return 2
    # The engine's kernels and gradients load only here, not for `info PATH`.
    from engine.api import registry
    from views import op_table
    rows = registry.all_ops()
    if args.json:
        text = json.dumps([op_table.row_json(row) for row in rows], indent=1) + "\n"
    else:
        text = "\n".join(op_table.table_lines(rows)) + "\n"
    sys.stdout.write(text)
    return 0
