"""CPU kernel of SampleDistortedBoundingBoxV2 (sample_distorted_bounding_box_op.cc): its
attempts drawn from the node's Philox stream through SimplePhilox (RandFloat and
ExactUniformInt), GenerateRandomCrop's float arithmetic as the kernel's, so the crops are
TensorFlow's run after run."""

import numpy as np

from engine.kernels import register
from engine.kernels.common import invalid, shape_str

F32 = np.float32


class _SimplePhilox:
    """random::SimplePhilox over a PhiloxRandom: 32-bit words four a block, RandFloat and
    ExactUniformInt's Uniform(n) (rejecting the words below 2^32 mod n)."""

    def __init__(self, generator):
        self.generator, self.words = generator, []

    def rand32(self):
        if not self.words:
            self.words = [int(w) for w in self.generator.next_blocks(1)[0]]
        return self.words.pop(0)

    def rand_float(self):
        return _uint32_to_float(self.rand32())

    def uniform(self, n):
        if n & (n - 1) == 0:
            return self.rand32() & (n - 1)
        rem = (0xFFFFFFFF % n + 1) % n
        while True:
            bits = self.rand32()
            if bits >= rem:
                return bits % n


def _uint32_to_float(word):
    return np.array([(word & 0x7FFFFF) | 0x3F800000], np.uint32).view(F32)[0] - F32(1)


def _lrintf(x):
    return int(np.rint(F32(x)))


def _area(rect):
    min_x, min_y, max_x, max_y = rect
    return F32((max_x - min_x) * (max_y - min_y))


def _intersect(a, b):
    min_x, min_y = max(a[0], b[0]), max(a[1], b[1])
    max_x, max_y = min(a[2], b[2]), min(a[3], b[3])
    return (0, 0, 0, 0) if min_x > max_x or min_y > max_y else (min_x, min_y, max_x, max_y)


def _covers(crop, minimum_covered, boxes):
    if _area(crop) < F32(1):
        return False
    for box in boxes:
        object_area = _area(box)
        if object_area < F32(1):
            continue
        if F32(_area(_intersect(crop, box)) / object_area) >= minimum_covered:
            return True
    return False


def _random_crop(width, height, min_relative, max_relative, aspect, random):
    """GenerateRandomCrop in float as the kernel computes it, or None."""
    if max_relative <= 0 or aspect <= 0 or width <= 0 or height <= 0 \
            or min_relative > max_relative:
        return None
    min_area = F32(F32(min_relative * F32(width)) * F32(height))
    max_area = F32(F32(max_relative * F32(width)) * F32(height))
    crop_h = _lrintf(np.sqrt(F32(min_area / aspect)))
    max_h = _lrintf(np.sqrt(F32(max_area / aspect)))
    if _lrintf(F32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - float(F32(1e-7))) / float(aspect))
        if _lrintf(F32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    if crop_h >= max_h:
        crop_h = max_h
    if crop_h < max_h:
        crop_h += random.uniform(max_h - crop_h + 1)
    crop_w = _lrintf(F32(crop_h) * aspect)
    area = F32(crop_w * crop_h)
    if area < min_area:
        crop_h += 1
        crop_w = _lrintf(F32(crop_h) * aspect)
        area = F32(crop_w * crop_h)
    if area > max_area:
        crop_h -= 1
        crop_w = _lrintf(F32(crop_h) * aspect)
        area = F32(crop_w * crop_h)
    if area < min_area or area > max_area or crop_w > width or crop_h > height \
            or crop_w <= 0 or crop_h <= 0:
        return None
    y = random.uniform(height - crop_h) if crop_h < height else 0
    x = random.uniform(width - crop_w) if crop_w < width else 0
    return x, y, x + crop_w, y + crop_h


@register("SampleDistortedBoundingBoxV2")
def sample_distorted_bounding_box_v2(ctx, image_size, bounding_boxes, min_object_covered):
    attrs = ctx.attrs
    aspect_range = [F32(v) for v in attrs.get("aspect_ratio_range", [0.75, 1.33])]
    area_range = [F32(v) for v in attrs.get("area_range", [0.05, 1.0])]
    max_attempts = int(attrs.get("max_attempts", 100))
    if len(aspect_range) != 2:
        raise invalid(ctx, "Aspect ratio range field must specify 2 dimensions")
    if not (aspect_range[0] > 0 and aspect_range[1] > 0):
        raise invalid(ctx, f"Aspect ratio range must be non-negative: [{aspect_range[0]:g}, "
                           f"{aspect_range[1]:g}]")
    if len(area_range) != 2:
        raise invalid(ctx, "Area range field must specify 2 dimensions")
    if not (area_range[0] > 0 and area_range[1] > 0):
        raise invalid(ctx, f"Area range must be non-negative: [{area_range[0]:g}, "
                           f"{area_range[1]:g}]")
    if not (area_range[0] <= 1 and area_range[1] <= 1):
        raise invalid(ctx, f"Area range must be less then or equal to 1.0: "
                           f"[{area_range[0]:g}, {area_range[1]:g}]")
    if max_attempts <= 0:
        raise invalid(ctx, f"Max attempts must be non-negative: {max_attempts}")
    image_size = np.asarray(image_size)
    if image_size.ndim != 1:
        raise invalid(ctx, f"image_size must be 1-dimensional{shape_str(image_size.shape)}")
    if image_size.shape[0] != 3:
        raise invalid(ctx, f"image_size must contain 3 elements{shape_str(image_size.shape)}")
    height, width = int(image_size[0]), int(image_size[1])
    boxes = np.asarray(bounding_boxes)
    if boxes.ndim != 3:
        raise invalid(ctx, f"input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                           f"{shape_str(boxes.shape)}")
    if boxes.shape[-1] != 4:
        raise invalid(ctx, f"bounding boxes must have shape [4] or [*, 4], got "
                           f"{shape_str(boxes.shape)}")
    covered = np.asarray(min_object_covered)
    if covered.ndim != 0:
        raise invalid(ctx, f"min_object_covered must be 0-D, got shape "
                           f"{shape_str(covered.shape)}")
    covered = F32(covered)
    if covered < 0:
        raise invalid(ctx, f"Min object covered must be non-negative: {covered:g}")
    rects = []
    for box in boxes.reshape(-1, 4).astype(F32):
        for value in box:
            if not 0 <= value <= 1:
                raise invalid(ctx, f"All bounding box coordinates must be in [0.0, 1.0]: "
                                   f"{value:g}")
        rects.append((int(box[1] * F32(width)), int(box[0] * F32(height)),
                      int(box[3] * F32(width)), int(box[2] * F32(height))))
    image_rect = (0, 0, width, height)
    if not rects:
        if not attrs.get("use_image_if_no_bounding_boxes", False):
            raise invalid(ctx, "No bounding boxes provided as input. One must enable "
                               "use_image_if_no_bounding_boxes if you wish to not provide "
                               "any bounding boxes.")
        rects.append(image_rect)
    random = _SimplePhilox(ctx.rng().reserve_random_outputs((4 * max_attempts + 3) // 4, 1))
    crop = None
    for _ in range(max_attempts):
        aspect = F32(F32(random.rand_float() * F32(aspect_range[1] - aspect_range[0]))
                     + aspect_range[0])
        candidate = _random_crop(width, height, area_range[0], area_range[1], aspect, random)
        if candidate is not None and _covers(candidate, covered, rects):
            crop = candidate
            break
    min_x, min_y, max_x, max_y = crop or image_rect
    dtype = image_size.dtype
    begin = np.array([min_y, min_x, 0], dtype)
    size = np.array([max_y - min_y, max_x - min_x, -1], dtype)
    bboxes = np.array([[[F32(min_y) / F32(height), F32(min_x) / F32(width),
                         F32(max_y) / F32(height), F32(max_x) / F32(width)]]], F32)
    return begin, size, bboxes
