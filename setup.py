"""The optional C part, parsers.vlog._scanner (the VLOG reader's fast path); the rest is in
pyproject.toml.

optional=True: where it cannot be compiled (no compiler, no Python headers), pip installs the
package without it and the VLOG reader runs its pure-Python reference path.
"""

import os

from setuptools import Extension, setup

SCANNER = "parsers/vlog/scanner/"

setup(ext_modules=[Extension(
    "parsers.vlog._scanner",
    sources=[SCANNER + name for name in (
        "module.c", "model.c", "lines.c", "executor.c", "prefix.c", "memo.c", "json_out.c")],
    depends=[SCANNER + "scanner.h"],
    # Only PyInit__scanner is exported: the rest cannot be bound to a library's symbol of the
    # same name (libc's bind(), say) instead of ours.
    extra_compile_args=["-fvisibility=hidden"] if os.name == "posix" else [],
    optional=True,
)])
