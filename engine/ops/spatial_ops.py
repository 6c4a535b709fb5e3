"""tf.nn.depth_to_space and space_to_depth (DepthToSpace, SpaceToDepth)."""

from engine.ops.op_def_library import apply_op


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("DepthToSpace", input=input, block_size=block_size,
                    data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return apply_op("SpaceToDepth", input=input, block_size=block_size,
                    data_format=data_format, name=name)
