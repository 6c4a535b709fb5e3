"""Running Graphviz's dot: DOT source in, SVG/PNG bytes out, with a timeout and plain errors."""

from __future__ import annotations

import shutil
import subprocess

FORMATS = ("svg", "png", "pdf")
DEFAULT_TIMEOUT = 120


class RenderError(Exception):
    """dot is missing, failed, or ran past its time."""


def find_dot():
    """The path of the dot binary, or None."""
    return shutil.which("dot")


def render(source, fmt="svg", timeout=DEFAULT_TIMEOUT, dot=None):
    """DOT source rendered by `dot -T<fmt>`, as bytes; RenderError says why not."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown output format: {fmt!r} (must be one of {list(FORMATS)})")
    dot = dot or find_dot()
    if dot is None:
        raise RenderError("Graphviz's dot binary is not on PATH (install graphviz, or run"
                          " `make setup`); write a .dot file instead")
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=source.encode("utf-8"),
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RenderError(f"dot ran for more than {timeout} s; fold more"
                          " (--collapse, a smaller --budget) or write a .dot file") from None
    except OSError as error:
        raise RenderError(f"cannot run {dot}: {error.strerror or error}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RenderError(f"dot failed (exit {done.returncode}): "
                          + (message[-1] if message else "no message"))
    return done.stdout
