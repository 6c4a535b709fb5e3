"""tf.feature_column (and tf.compat.v1.feature_column): the TF 1.x feature columns and
input_layer (engine/ops/feature_column.py)."""

from engine.framework.api_namespace import Namespace as _Namespace
from engine.ops import feature_column as _fc

feature_column = _Namespace("tf.feature_column", **{name: getattr(_fc, name) for name in (
    "numeric_column", "bucketized_column", "categorical_column_with_vocabulary_list",
    "categorical_column_with_identity", "categorical_column_with_hash_bucket",
    "indicator_column", "embedding_column", "input_layer")})

__all__ = ["feature_column"]
