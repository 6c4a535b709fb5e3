"""tf.train.warm_start and tf.train.VocabInfo: variables whose initializers restore a TF 1.x
checkpoint's tensors, chosen by a regular expression over the trainable variables, by names or
as variables, and optionally read under other names (warm_starting_util.py, through
init_from_checkpoint); a variable with a VocabInfo is read with its rows (axis 0) or columns
(axis 1) remapped from the old vocabulary to the new (LoadAndRemapMatrix)."""

import collections
import os

from engine.checkpoint.state import latest_checkpoint
from engine.framework.default_graph import get_default_graph
from engine.framework.graph_keys import GraphKeys
from engine.ops import checkpoint_ops, state_ops
from engine.ops.convert import convert_to_tensor
from engine.ops.partitioned_variables import PartitionedVariable, PartitionInfo
from engine.ops.variables import ResourceVariable, Variable
from engine.platform import tf_logging as logging
from engine.training.checkpoint_init import init_from_checkpoint


class VocabInfo(collections.namedtuple("VocabInfo", [
        "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size",
        "backup_initializer", "axis"])):
    """The vocabularies of a variable to warm-start: new and old files, sizes, OOV buckets,
    the initializer of rows or columns the old checkpoint lacks, and the axis they index."""

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis != 0 and axis != 1:
            raise ValueError("The only supported values for the axis argument are 0 and 1.  "
                             "Provided axis: {}".format(axis))
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                               old_vocab_size, backup_initializer, axis)


def _infer_var_name(var):
    """The checkpoint name of a variable or of the parts of one partitioned variable."""
    names = {(v._get_save_slice_info().full_name if v._get_save_slice_info() else v.op.name)
             for v in var}
    if len(names) > 1:
        raise TypeError("`var` = %s passed as arg violates the constraints.  name_to_var_dict "
                        "= %s" % (var, {name: var for name in names}))
    return names.pop()


def _checkpoint_filename(ckpt_dir_or_file):
    if os.path.isdir(ckpt_dir_or_file):
        return latest_checkpoint(ckpt_dir_or_file)
    return ckpt_dir_or_file


def _warm_start_var_with_vocab(var, current_vocab_path, current_vocab_size, prev_ckpt,
                               prev_vocab_path, previous_vocab_size=-1, current_oov_buckets=0,
                               prev_tensor_name=None, initializer=None, axis=0):
    """Gives `var` (a variable, parts of one, or a PartitionedVariable) an initializer that
    loads the checkpoint's tensor remapped to the current vocabulary."""
    if not (current_vocab_path and current_vocab_size and prev_ckpt and prev_vocab_path):
        raise ValueError("Invalid args: Must provide all of [current_vocab_path, "
                         "current_vocab_size, prev_ckpt, prev_vocab_path}.")
    if isinstance(var, Variable):
        var = [var]
    elif isinstance(var, PartitionedVariable):
        var = list(var)
    elif not (isinstance(var, list) and all(isinstance(v, Variable) for v in var)):
        raise TypeError("var MUST be one of the following: a Variable, list of Variable or "
                        "PartitionedVariable, but is {}".format(type(var)))
    if not prev_tensor_name:
        prev_tensor_name = _infer_var_name(var)
    total_v_first_axis = sum(v.get_shape().as_list()[0] for v in var)
    for v in var:
        v_shape = v.get_shape().as_list()
        slice_info = v._get_save_slice_info()
        partition_info = (PartitionInfo(slice_info.full_shape, slice_info.var_offset)
                          if slice_info else None)
        if axis == 0:
            rows = dict(new_row_vocab_size=current_vocab_size, new_col_vocab_size=v_shape[1],
                        old_row_vocab_size=previous_vocab_size,
                        old_row_vocab_file=prev_vocab_path,
                        new_row_vocab_file=current_vocab_path,
                        num_row_oov_buckets=current_oov_buckets, num_col_oov_buckets=0)
        else:
            rows = dict(new_row_vocab_size=total_v_first_axis,
                        new_col_vocab_size=current_vocab_size,
                        old_col_vocab_file=prev_vocab_path,
                        new_col_vocab_file=current_vocab_path,
                        num_row_oov_buckets=0, num_col_oov_buckets=current_oov_buckets)
        init = checkpoint_ops._load_and_remap_matrix_initializer(
            ckpt_path=_checkpoint_filename(prev_ckpt), old_tensor_name=prev_tensor_name,
            initializer=initializer, **rows)
        new_init_val = convert_to_tensor(init(shape=v_shape, partition_info=partition_info))
        if isinstance(v, ResourceVariable):
            v._initializer_op = v.assign(new_init_val, read_value=False)
        else:
            v._initializer_op = state_ops.assign(v._ref(), new_init_val)


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
        # The parts of a partitioned variable go under its full name (_infer_var_name).
        grouped.setdefault(_infer_var_name([variable]), []).append(variable)
    return grouped


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Gives the chosen variables initializers that restore them from the checkpoint."""
    logging.info("Warm-starting from: {}".format(ckpt_to_initialize_from))
    grouped_variables = _grouped_variables(vars_to_warm_start)
    var_name_to_vocab_info = var_name_to_vocab_info or {}
    var_name_to_prev_var_name = var_name_to_prev_var_name or {}
    warmstarted_count, prev_var_name_used, vocabless_vars = 0, set(), {}
    vocab_info_used = set()
    for var_name, variable in grouped_variables.items():
        prev_var_name = var_name_to_prev_var_name.get(var_name)
        if prev_var_name:
            prev_var_name_used.add(var_name)
        vocab_info = var_name_to_vocab_info.get(var_name)
        if vocab_info:
            vocab_info_used.add(var_name)
            warmstarted_count += 1
            logging.debug(
                "Warm-starting variable: {}; current_vocab: {} current_vocab_size: {} "
                "prev_vocab: {} prev_vocab_size: {} current_oov: {} prev_tensor: {} "
                "initializer: {}".format(
                    var_name, vocab_info.new_vocab, vocab_info.new_vocab_size,
                    vocab_info.old_vocab,
                    (vocab_info.old_vocab_size if vocab_info.old_vocab_size > 0 else "All"),
                    vocab_info.num_oov_buckets, prev_var_name or "Unchanged",
                    vocab_info.backup_initializer or "zero-initialized"))
            _warm_start_var_with_vocab(
                variable, current_vocab_path=vocab_info.new_vocab,
                current_vocab_size=vocab_info.new_vocab_size,
                prev_ckpt=ckpt_to_initialize_from, prev_vocab_path=vocab_info.old_vocab,
                previous_vocab_size=vocab_info.old_vocab_size,
                current_oov_buckets=vocab_info.num_oov_buckets, prev_tensor_name=prev_var_name,
                initializer=vocab_info.backup_initializer, axis=vocab_info.axis)
            continue
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
    vocab_info_not_used = set(var_name_to_vocab_info.keys()) - vocab_info_used
    logging.info("Warm-started %d variables.", warmstarted_count)
    if prev_var_name_not_used:
        raise ValueError(
            "You provided the following variables in var_name_to_prev_var_name that were not "
            "used: {0}.  Perhaps you misspelled them?  Here is the list of viable variable "
            "names: {1}".format(prev_var_name_not_used, grouped_variables.keys()))
    if vocab_info_not_used:
        raise ValueError(
            "You provided the following variables in var_name_to_vocab_info that were not "
            "used: {0}.  Perhaps you misspelled them?  Here is the list of viable variable "
            "names: {1}".format(vocab_info_not_used, grouped_variables.keys()))
