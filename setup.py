"""The optional C part: parsers.vlog._scanner (the VLOG reader's fast path). pyproject.toml has the rest.

optional=True: where it cannot be compiled (no compiler, no Python headers), pip installs the
package without it and the VLOG reader runs its pure-Python reference path.
"""

from setuptools import Extension, setup

SCANNER = "parsers/vlog/scanner/"

setup(ext_modules=[Extension(
    "parsers.vlog._scanner",
    sources=[SCANNER + name for name in (
        "module.c", "lines.c", "executor.c", "prefix.c", "memo.c", "json_out.c")],
    depends=[SCANNER + "scanner.h"],
    optional=True,
)])
