"""TensorFlow 1.x names that later releases renamed: one table, old name -> current name.

Each old name is the current object itself (tf.mul is tf.multiply), installed into the
namespace the old name lived in when engine/api/ loads. Functions whose behaviour changed
with the rename (tf.scalar_summary's verbatim tags) are not here: engine/summary/legacy.py.
"""

RENAMED = {
    # TensorFlow 1.0 renamed these math and array functions.
    "mul": "multiply",
    "sub": "subtract",
    "neg": "negative",
    "inv": "reciprocal",
    "complex_abs": "abs",
    "select": "where",
    "pack": "stack",
    "unpack": "unstack",
    "arg_max": "argmax",
    "arg_min": "argmin",
    # Variables and their initializers (TensorFlow 0.12).
    "all_variables": "global_variables",
    "initialize_all_variables": "global_variables_initializer",
    "initialize_local_variables": "local_variables_initializer",
    "initialize_variables": "variables_initializer",
    # Summaries before tf.summary (TensorFlow 0.12).
    "train.SummaryWriter": "summary.FileWriter",
    "merge_summary": "summary.merge",
    "merge_all_summaries": "summary.merge_all",
}


def _resolve(root, dotted):
    value = root
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def install(api_module):
    """Binds every old name in api_module (and its namespaces) to the object it was renamed to."""
    for old, new in RENAMED.items():
        *parents, leaf = old.split(".")
        owner = _resolve(api_module, ".".join(parents)) if parents else api_module
        setattr(owner, leaf, _resolve(api_module, new))
