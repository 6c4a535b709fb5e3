"""tf.image.generate_bounding_box_proposals: TensorFlow's one GenerateBoundingBoxProposals
node (a GPU kernel alone in TensorFlow: on the CPU it fails when it runs, as there)."""

from collections import namedtuple

from engine.ops.op_def_library import apply_op

GenerateBoundingBoxProposals = namedtuple("GenerateBoundingBoxProposals",
                                          ["rois", "roi_probabilities"])


def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors,
                                    nms_threshold=0.7, pre_nms_topn=6000, min_size=16,
                                    post_nms_topn=300, name=None):
    return GenerateBoundingBoxProposals(*apply_op(
        "GenerateBoundingBoxProposals", scores=scores, bbox_deltas=bbox_deltas,
        image_info=image_info, anchors=anchors, nms_threshold=nms_threshold,
        pre_nms_topn=pre_nms_topn, min_size=min_size, post_nms_topn=post_nms_topn,
        name=name))
