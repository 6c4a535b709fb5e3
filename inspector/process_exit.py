"""Ending the process at once, for a command done with a large model: freeing it costs more.

A command that built hundreds of thousands of objects (`vlog` on a 32 MB log) asks for it;
the process's entry (cli.entry) then flushes stdout and stderr and leaves with os._exit,
skipping the interpreter's teardown, which frees every object one by one and collects over
them once more: about 24 ms of a 180 ms `vlog --json` on a 32 MB log (BENCHMARKS.md). mypy
ends the same way (mypy.util.hard_exit). atexit handlers do not run, so a command that
registers one (inspector/inputs.py's temporary folders) must not ask. In-process callers of
cli.main (the tests) are never ended: only a main() run by run_as_process is.
"""

from __future__ import annotations

import os
import sys

_as_process = False
_asked = False
_kept = []


def ask(built) -> bool:
    """`built` (what the running command made) need not be freed: it is kept until the
    process ends. True where that is at once (main() runs as the process), so nothing need
    be collected either."""
    global _asked
    _asked = True
    if _as_process:
        _kept.append(built)  # else freed when the command returns, one object at a time
    return _as_process


def run_as_process(main) -> int:
    """main()'s exit status; the process ends at once after it where the command asked."""
    global _as_process
    _as_process = True
    code = main()
    if not _asked:
        return code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can reach it
            pass
    os._exit(code)
