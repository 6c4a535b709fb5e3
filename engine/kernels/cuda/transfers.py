"""GPU kernels of _Send and _Recv: a GPU _Recv copies a host value to the device.

The copies happen on the receiving side (engine/kernels/cpu/sendrecv.py), but for a GPU
_Send to a host device: it copies its device array to the host as it sends, as TensorFlow's
device-to-host copy is queued on the GPU's stream behind the kernel that made the value and
ahead of the kernels after it. Copied later, by the receiver, a value aliasing a variable's
buffer (an Identity of it) would show an update the GPU made since. A GPU _Recv copies a host
value (a feed, a CPU result) to the device. A value the device cannot hold (strings, resource
handles: NumPy object arrays) stays on the host, as TensorFlow keeps such tensors in host
memory. _HostSend/_HostRecv move host memory on a GPU device: their value is not copied.
"""

from engine.kernels import register_table
from engine.kernels.cpu.sendrecv import received, send, sendrecv_kernels
from engine.kernels.cuda.backend import to_device, to_host


def _send_to(ctx, value):
    recv_device = ctx.attrs["recv_device"]
    recv_device = recv_device.decode() if isinstance(recv_device, bytes) else recv_device
    send(ctx, value if "/device:GPU:" in recv_device else to_host(value))


def register_all(xp):
    kernels = sendrecv_kernels(lambda value: to_device(xp, value))
    kernels.update({"_Send": _send_to, "_HostSend": send, "_HostRecv": received})
    register_table(kernels, "GPU")
