"""GPU kernels of _Send and _Recv: a GPU _Recv copies a host value to the device.

The copies happen on the receiving side (engine/kernels/cpu/sendrecv.py): a GPU _Send hands
its device array to the rendezvous as it is, a CPU _Recv copies it to the host and a GPU
_Recv copies a host value (a feed, a CPU result) to the device. A value the device cannot
hold (strings, resource handles: NumPy object arrays) stays on the host, as TensorFlow keeps
such tensors in host memory. _HostSend/_HostRecv move host memory on a GPU device: their
value is not copied.
"""

from engine.kernels import register_table
from engine.kernels.cpu.sendrecv import received, send, sendrecv_kernels
from engine.kernels.cuda.backend import to_device


def register_all(xp):
    kernels = sendrecv_kernels(lambda value: to_device(xp, value))
    kernels.update({"_HostSend": send, "_HostRecv": received})
    register_table(kernels, "GPU")
