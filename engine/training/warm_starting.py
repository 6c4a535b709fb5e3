"""tf.train.warm_start: variables whose initializers restore a TF 1.x checkpoint's tensors,
chosen by a regular expression over the trainable variables, by names or as variables, and
optionally read under other names (warm_starting_util.py, through init_from_checkpoint).
Vocabulary remapping (VocabInfo) is not supported by the engine yet."""

from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.framework.api_namespace import NotSupportedError
from engine.ops.variables import Variable
from engine.platform import tf_logging as logging
from engine.training.checkpoint_init import init_from_checkpoint


def _grouped_variables(vars_to_warm_start):
    """{variable name: [variable]} of what to warm-start, as TensorFlow selects it."""
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        logging.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        list_of_vars = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES,
                                            scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            list_of_vars = []
            for v in vars_to_warm_start:
                list_of_vars += graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=v)
        elif all(isinstance(v, Variable) for v in vars_to_warm_start):
            list_of_vars = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or "
                             "all `str`.  Given types are {}".format(
                                 [type(v) for v in vars_to_warm_start]))
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is "
                         "{}".format(type(vars_to_warm_start)))
    grouped = {}
    for variable in list_of_vars:
        grouped.setdefault(variable.op.name, []).append(variable)
    return grouped


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Gives the chosen variables initializers that restore them from the checkpoint."""
    logging.info("Warm-starting from: {}".format(ckpt_to_initialize_from))
    grouped_variables = _grouped_variables(vars_to_warm_start)
    if var_name_to_vocab_info:
        raise NotSupportedError("tf.train.warm_start with var_name_to_vocab_info (a vocabulary "
                                "remap) is not supported by the engine yet")
    var_name_to_prev_var_name = var_name_to_prev_var_name or {}
    warmstarted_count, prev_var_name_used, vocabless_vars = 0, set(), {}
    for var_name, variable in grouped_variables.items():
        prev_var_name = var_name_to_prev_var_name.get(var_name)
        if prev_var_name:
            prev_var_name_used.add(var_name)
        if not vars_to_warm_start:
            continue
        warmstarted_count += 1
        logging.debug("Warm-starting variable: {}; prev_var_name: {}".format(
            var_name, prev_var_name or "Unchanged"))
        var = variable[0] if len(variable) == 1 else variable
        prev_tensor_name = prev_var_name or var_name
        if prev_tensor_name in vocabless_vars:
            init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
            vocabless_vars.clear()
        vocabless_vars[prev_tensor_name] = var
    if vocabless_vars:
        init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
    prev_var_name_not_used = set(var_name_to_prev_var_name.keys()) - prev_var_name_used
    logging.info("Warm-started %d variables.", warmstarted_count)
    if prev_var_name_not_used:
        raise ValueError(
            "You provided the following variables in var_name_to_prev_var_name that were not "
            "used: {0}.  Perhaps you misspelled them?  Here is the list of viable variable "
            "names: {1}".format(prev_var_name_not_used, grouped_variables.keys()))
