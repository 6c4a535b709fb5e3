"""CPU kernels of _Send and _Recv: tensors crossing partitions through the step's rendezvous.

The rendezvous of the running step is the session's RendezvousMgr (kept in session_state
under rendezvous.RENDEZVOUS_KEY) looked up by the step the session's partition thread runs
(rendezvous.running_step; the context's step_id where none was set).
_Recv blocks until the matching _Send has run in the other partition's executor thread.
A device's _Send hands over the value as it is; the receiving side copies it into its own
memory: a CPU _Recv copies a GPU array to the host (the GPU's _Recv, which copies host
values to the device, is in engine/kernels/cuda/transfers.py).
"""

from engine.kernels import register_table
from engine.kernels.cuda.backend import to_host
from engine.runtime.resources import ReceivedRef, Ref
from engine.runtime.rendezvous import RENDEZVOUS_KEY, create_key, running_step


def rendezvous_key(ctx):
    """The rendezvous key of a _Send or _Recv node's tensor (its context's attrs)."""
    attrs = ctx.attrs
    return create_key(_text(attrs["send_device"]), attrs.get("send_device_incarnation", 1),
                      _text(attrs["recv_device"]), _text(attrs["tensor_name"]))


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _rendezvous(ctx):
    return ctx.session_state[RENDEZVOUS_KEY].find(running_step(ctx.step_id))


def send(ctx, value):
    _rendezvous(ctx).send(rendezvous_key(ctx), value)


def received(ctx):
    """The value sent to this _Recv, as the sender left it (waiting for it)."""
    value, _ = _rendezvous(ctx).recv(rendezvous_key(ctx))
    return value


def sendrecv_kernels(copy_in):
    """_Send/_Recv (and the _Host forms) for a device whose _Recv stores what arrives with
    `copy_in(value)`."""
    def recv(ctx):
        value = received(ctx)
        if isinstance(value, Ref):
            return ReceivedRef(value, copy_in)
        return None if value is None else copy_in(value)
    return {"_Send": send, "_HostSend": send, "_Recv": recv, "_HostRecv": recv}


register_table(sendrecv_kernels(to_host))
