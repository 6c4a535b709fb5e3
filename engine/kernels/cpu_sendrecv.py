"""CPU kernels of _Send and _Recv: tensors crossing partitions through the step's rendezvous.

The rendezvous of the running step is the session's RendezvousMgr (kept in session_state
under rendezvous.RENDEZVOUS_KEY) looked up by the step the session's partition thread runs
(rendezvous.running_step; the context's step_id where none was set).
_Recv blocks until the matching _Send has run in the other partition's executor thread.
"""

from engine.kernels import register
from engine.rendezvous import RENDEZVOUS_KEY, create_key, running_step


def _key(ctx):
    attrs = ctx.attrs
    return create_key(_text(attrs["send_device"]), attrs.get("send_device_incarnation", 1),
                      _text(attrs["recv_device"]), _text(attrs["tensor_name"]))


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _rendezvous(ctx):
    return ctx.session_state[RENDEZVOUS_KEY].find(running_step(ctx.step_id))


@register("_Send")
@register("_HostSend")
def send(ctx, value):
    _rendezvous(ctx).send(_key(ctx), value)


@register("_Recv")
@register("_HostRecv")
def recv(ctx):
    value, _ = _rendezvous(ctx).recv(_key(ctx))
    return value
