"""The engine's ops as rows to read: what each has (OpDef, kernels, shape function, gradient,
families), for `graph-inspector info --ops` and the TUI's OpDef tab (engine.api.registry rows).

>>> from engine.api.registry import OpRow
>>> row = OpRow("Foo", kernels={"CPU": len}, shape="inferred", families=("unary",))
>>> row_json(row)["kernels"], row_json(row)["problems"]
(['CPU'], ['kernel without OpDef'])
>>> table_lines([row])[1].split()
['Foo', '-', 'CPU', '-', 'inferred', 'missing', 'unary']
"""

from __future__ import annotations

from engine.api import registry

COLUMNS = ("OP", "OPDEF", "CPU", "GPU", "SHAPE", "GRADIENT", "FAMILIES")


def row_json(row):
    """One op as JSON: what it has, and where the tables disagree about it."""
    return {
        "op": row.name,
        "op_def": row.op_def is not None,
        "kernels": [device for device in registry.DEVICE_TYPES if device in row.kernels],
        "shape": row.shape,
        "gradient": row.gradient,
        "families": list(row.families),
        "problems": registry.problems(row),
    }


def _cells(row):
    return (row.name, "yes" if row.op_def is not None else "-",
            *("CPU" if "CPU" in row.kernels else "-", "GPU" if "GPU" in row.kernels else "-"),
            row.shape, row.gradient, ",".join(row.families) or "-")


def table_lines(rows):
    """A header and one aligned line per op; a status of several words is joined with "_"
    so that every cell is one word (for awk and cut)."""
    cells = [COLUMNS] + [tuple(c.replace(" ", "_") for c in _cells(row)) for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
            for line in cells]


def summary_lines(row):
    """What the engine has for one op, as comment lines above its OpDef in the TUI."""
    devices = ", ".join(device for device in registry.DEVICE_TYPES if device in row.kernels)
    lines = [f"# kernels: {devices or 'none'}",
             f"# shape function: {row.shape}",
             f"# gradient: {row.gradient}",
             f"# families: {', '.join(row.families) or 'none'}"]
    lines += [f"# drift: {problem}" for problem in registry.problems(row)]
    return lines
