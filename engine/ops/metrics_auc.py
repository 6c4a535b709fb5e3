"""tf.metrics.auc as TF 1.x builds it (metrics_impl.py): true/false positives and negatives
at each threshold in local variables (METRIC_VARIABLES; metrics_thresholds.py counts them),
their update ops, and the area under the ROC or PR curve by the trapezoidal rule (or the
minoring and majoring Riemann sums)."""

from engine.framework.graph import get_default_graph
from engine.ops import math_ops
from engine.ops.metrics_thresholds import _confusion_matrix_at_thresholds
from engine.ops.variable_scope import variable_scope

_KEPSILON = 1e-7
_EPSILON = 1.0e-6


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """(auc, update_op) over `num_thresholds` thresholds in [0, 1], as TensorFlow 1.x."""
    graph = get_default_graph()
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if summation_method not in ("trapezoidal", "careful_interpolation", "minoring",
                                    "majoring"):
            raise ValueError(f"Invalid summation_method: {summation_method}")
        if curve == "PR" and summation_method == "careful_interpolation":
            raise NotImplementedError("tf.metrics.auc's careful_interpolation of PR curves is "
                                      "not supported by the engine yet")
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
            thresholds = [0.0 - _KEPSILON] + list(thresholds) + [1.0 + _KEPSILON]
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
            thresholds = [0.0 - _KEPSILON] + thresholds + [1.0 + _KEPSILON]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute_auc(tp, fn, tn, fp, name):
            rec = math_ops.divide(tp + _EPSILON, tp + fn + _EPSILON)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + _EPSILON), rec
            else:
                x, y = rec, math_ops.divide(tp + _EPSILON, tp + fp + _EPSILON)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                return math_ops.reduce_sum(
                    math_ops.multiply(x[:num_thresholds - 1] - x[1:],
                                      (y[:num_thresholds - 1] + y[1:]) / 2.), name=name)
            pick = math_ops.minimum if summation_method == "minoring" else math_ops.maximum
            return math_ops.reduce_sum(
                math_ops.multiply(x[:num_thresholds - 1] - x[1:],
                                  pick(y[:num_thresholds - 1], y[1:])), name=name)

        auc_value = compute_auc(values["tp"], values["fn"], values["tn"], values["fp"],
                                "value")
        if metrics_collections:
            graph.add_to_collections(metrics_collections, auc_value)
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                update_ops["fp"], "update_op")
        if updates_collections:
            graph.add_to_collections(updates_collections, update_op)
        return auc_value, update_op
