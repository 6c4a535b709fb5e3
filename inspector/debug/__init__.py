"""The stepping debugger: pause a Session.run between nodes, look, change, go on.

    import inspector.debug
    dbg = inspector.debug(sess)            # or inspector.debug.DebugWrapperSession(sess)
    run = dbg.start_run(fetches, feed_dict)
    run.step(); run.current; run.value("x:0"); run.add_breakpoint(op="Log"); run.cont()
    run.inject("x:0", value); run.result()
"""

import sys
import types

from inspector.debug.breakpoints import Breakpoint
from inspector.debug.dump import DumpTooLarge
from inspector.debug.observer import DebugAborted, NodeEvent
from inspector.debug.run import DebugRun, DebugStateError
from inspector.debug.tensors import has_inf_or_nan
from inspector.debug.wrapper import DebugWrapperSession

DebugSession = DebugWrapperSession

__all__ = ["Breakpoint", "DebugAborted", "DebugRun", "DebugSession", "DebugStateError",
           "DebugWrapperSession", "DumpTooLarge", "NodeEvent", "has_inf_or_nan"]


class _CallableModule(types.ModuleType):
    """Lets `inspector.debug(session)` be the short way to DebugWrapperSession(session)."""

    def __call__(self, session, **kwargs):
        return DebugWrapperSession(session, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
