"""tf.image (TF 1.x's names), tf.random_crop, and the spatial ops tf.nn and tf.* gain with them
(depth_to_space, space_to_depth, separable_conv2d, atrous_conv2d, conv3d, max_pool3d,
avg_pool3d)."""

from engine.framework.api_namespace import Namespace as _Namespace

from engine.ops import image_color_ops as _color, image_ops as _geometry, nn as _nn
from engine.ops import image_box_ops as _boxes, image_codec_ops as _codecs
from engine.ops import image_measure_ops as _measure
from engine.ops import spatial_ops as _spatial, volumetric_ops as _volumetric
from engine.ops import space_batch_ops as _space_batch
from engine.ops import patch_ops as _patches

random_crop = _geometry.random_crop
depth_to_space = _spatial.depth_to_space
space_to_depth = _spatial.space_to_depth
space_to_batch = _space_batch.space_to_batch
batch_to_space = _space_batch.batch_to_space
required_space_to_batch_paddings = _space_batch.required_space_to_batch_paddings
extract_image_patches = _patches.extract_image_patches
extract_volume_patches = _patches.extract_volume_patches

_GEOMETRY = ("ResizeMethod", "resize_images", "resize_bilinear", "resize_nearest_neighbor",
             "resize_bicubic", "resize_area", "flip_left_right", "flip_up_down",
             "random_flip_left_right", "random_flip_up_down", "transpose_image", "rot90",
             "crop_to_bounding_box", "pad_to_bounding_box", "resize_image_with_crop_or_pad",
             "central_crop", "random_crop", "crop_and_resize", "resize_image_with_pad",
             "extract_glimpse")
_COLOR = ("per_image_standardization", "convert_image_dtype", "rgb_to_grayscale",
          "grayscale_to_rgb", "rgb_to_hsv", "hsv_to_rgb", "adjust_gamma", "adjust_brightness",
          "adjust_contrast", "adjust_saturation", "adjust_hue", "random_brightness",
          "random_contrast", "random_saturation", "random_hue", "rgb_to_yiq", "yiq_to_rgb",
          "rgb_to_yuv", "yuv_to_rgb")
_CODECS = ("decode_jpeg", "encode_jpeg", "decode_png", "encode_png", "decode_bmp", "decode_gif",
           "decode_image", "decode_and_crop_jpeg", "extract_jpeg_shape", "is_jpeg",
           "adjust_jpeg_quality", "random_jpeg_quality")
image = _Namespace(
    "tf.image", resize=_geometry.resize_images, transpose=_geometry.transpose_image,
    resize_with_crop_or_pad=_geometry.resize_image_with_crop_or_pad,
    extract_patches=_patches.extract_patches,
    extract_image_patches=_patches.extract_image_patches,
    **{name: getattr(_geometry, name) for name in _GEOMETRY},
    **{name: getattr(_color, name) for name in _COLOR},
    **{name: getattr(_measure, name) for name in (
        "total_variation", "psnr", "ssim", "ssim_multiscale", "image_gradients",
        "sobel_edges")},
    **{name: getattr(_boxes, name) for name in (
        "non_max_suppression", "non_max_suppression_with_scores", "draw_bounding_boxes",
        "sample_distorted_bounding_box", "combined_non_max_suppression")},
    non_max_suppression_overlaps=_boxes.non_max_suppression_with_overlaps,
    **{name: getattr(_codecs, name) for name in _CODECS})

for _name in ("depth_to_space", "space_to_depth", "separable_conv2d", "atrous_conv2d"):
    setattr(_nn, _name, getattr(_spatial, _name))
for _name in ("space_to_batch", "with_space_to_batch"):
    setattr(_nn, _name, getattr(_space_batch, _name))
for _name in ("conv3d", "max_pool3d", "avg_pool3d"):
    setattr(_nn, _name, getattr(_volumetric, _name))
