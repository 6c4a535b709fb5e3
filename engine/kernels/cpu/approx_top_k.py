"""ApproxTopK on the CPU as TensorFlow 2.21 registers it (core/kernels/topk_op.cc): its exact
TopK kernel, for reduction_dimension=-1 and is_max_k=True only; other attrs find no kernel,
TensorFlow's error when the node runs."""

from engine.kernels import register
from engine.kernels.common import invalid
from engine.kernels.cpu.nn import top_k

_CPU_TYPES = ("DT_DOUBLE", "DT_FLOAT", "DT_BFLOAT16", "DT_HALF", "DT_INT32", "DT_INT8",
              "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_UINT32", "DT_INT64", "DT_UINT64")
_GPU_TYPES = ("DT_DOUBLE", "DT_FLOAT", "DT_BFLOAT16", "DT_HALF")
_TYPE_NAMES = {"float16": "DT_HALF", "bfloat16": "DT_BFLOAT16", "float32": "DT_FLOAT"}


def _no_kernel(ctx, x):
    attrs = ctx.attrs
    name = ctx.node_def.name if getattr(ctx, "node_def", None) is not None else "ApproxTopK"
    # The attrs in the order TensorFlow's message lists them (its NodeDef's map order).
    listed = ", ".join((
        f"aggregate_to_topk={str(attrs['aggregate_to_topk']).lower()}",
        f"reduction_dimension={attrs['reduction_dimension']}",
        f"reduction_input_size_override={attrs['reduction_input_size_override']}",
        f"is_max_k={str(attrs['is_max_k']).lower()}", f"k={attrs['k']}",
        f"T={_TYPE_NAMES.get(x.dtype.name, x.dtype.name)}",
        f"recall_target={attrs['recall_target']:g}"))
    kernels = "".join(
        f"\n  device='{device}'; T in [{t}]; reduction_dimension in [-1]; is_max_k in [true]"
        for device, types in (("CPU", _CPU_TYPES), ("GPU", _GPU_TYPES)) for t in types)
    return invalid(ctx, f"No OpKernel was registered to support Op 'ApproxTopK' used by "
                        f"{{{{node {name}}}}} with these attrs: [{listed}]\n"
                        f"Registered devices: [CPU]\nRegistered kernels:{kernels}")


@register("ApproxTopK")
def approx_top_k(ctx, x):
    if ctx.attrs["reduction_dimension"] != -1 or not ctx.attrs["is_max_k"]:
        raise _no_kernel(ctx, x)
    return top_k(ctx, x, ctx.attrs["k"])
