"""tf.einsum as TensorFlow 2.21 builds it (special_math_ops._einsum_v2): one Einsum op for one
or two operands; for more, the pairwise contractions of opt_einsum's path, each an Einsum
op, in the order TensorFlow's `optimize` ('greedy') puts them."""

import collections
import re

import numpy as np

from engine.framework.default_graph import name_scope
from engine.ops.convert import convert_to_tensor
from engine.ops.op_def_library import apply_op

_ELLIPSIS = "0"  # stands for "..." while parsing, as in TensorFlow


def _parse(equation, input_shapes):
    """TensorFlow's _einsum_v2_parse_and_resolve_equation: (the equation with its output
    written out and "..." as "0", the inputs' shapes resolved for opt_einsum (for three or
    more inputs), the ellipsis label or None)."""
    resolved = equation.replace(" ", "")
    ellipsis = None
    if "..." in equation:
        ellipsis = _ELLIPSIS
        if ellipsis in resolved:
            raise ValueError(f'Invalid character "{ellipsis}" in equation: {equation}.')
        resolved = resolved.replace("...", ellipsis)
    allowed = "a-zA-Z" + (ellipsis or "")
    match = re.match("^([{0},]*)(->[{0}]*)?$".format(allowed), resolved)
    if not match:
        raise ValueError("Subscripts have incorrect format: {}".format(resolved))
    input_labels = match.group(1).split(",")
    output_labels = match.group(2)[2:] if match.group(2) else None
    if len(input_shapes) != len(input_labels):
        raise ValueError('Got {} inputs for equation "{}", expecting {}'.format(
            len(input_shapes), equation, len(input_labels)))
    if "->" not in resolved:
        counts = collections.Counter(match.group(1))
        output_labels = "".join(x for x in sorted(counts) if x != "," and counts[x] == 1)
        resolved += "->" + output_labels
    if output_labels and len(set(output_labels)) != len(output_labels):
        raise ValueError("Output subscripts contain a label appearing more than once: "
                         "{}".format(equation))
    for label in output_labels:
        if label != ellipsis and label not in set(match.group(1)):
            raise ValueError("Output subscripts contain the label {} not present in the "
                             "input subscripts.".format(label))
    if ellipsis and output_labels and output_labels.count(ellipsis) > 1:
        raise ValueError(f"Output subscripts contain multiple ellipsis: {equation}")
    if len(input_shapes) <= 2:
        return resolved, None, ellipsis
    return resolved, _resolved_shapes(equation, input_labels, input_shapes, ellipsis), ellipsis


def _resolved_shapes(equation, input_labels, input_shapes, ellipsis):
    """Each input's dims by label, an unknown one taken from another input with the label
    (else 1), the ellipsis dims multiplied into one: what opt_einsum plans with."""
    label_to_dim = collections.defaultdict(lambda: 1)
    for i, (labels, shape) in enumerate(zip(input_labels, input_shapes)):
        if shape is None:
            continue
        start = labels.find(ellipsis) if ellipsis else -1
        if start != -1:
            if start != labels.rfind(ellipsis):
                raise ValueError(f"Too many ellipses in input label "
                                 f"{labels.replace(ellipsis, '...')}.")
            if len(labels) > len(shape) + 1:
                raise ValueError("Too many named labels in {}th subscript string of equation "
                                 "{} for input shape {} ".format(i, equation, shape))
            end = start + len(shape) + 1 - len(labels)
            shape[start:end] = [np.prod(list(filter(None, shape[start:end])), dtype=np.int64)]
        elif len(labels) != len(shape):
            raise ValueError("Number of named labels in input #{} of equation {} must be "
                             "equal to the number of dimensions in shape {}".format(
                                 i, equation, shape))
        for dim, label in zip(shape, labels):
            if dim is not None:
                label_to_dim[label] = max(label_to_dim[label], dim)
    return [[label_to_dim[label] for label in labels] for labels in input_labels]


def _contraction_path(equation, shapes, optimize):
    """opt_einsum's pairwise contractions: [(operand positions, binary equation)]."""
    import opt_einsum  # only here: a graph of one- and two-operand einsums never needs it
    shaped = collections.namedtuple("shaped", ["shape"])
    _, contractions = opt_einsum.contract_path(
        equation, *[shaped(tuple(shape)) for shape in shapes], optimize=optimize,
        einsum_call=True, use_blas=True)
    return [(contraction[0], contraction[2]) for contraction in contractions]


def einsum(equation, *inputs, **kwargs):
    """tf.einsum: the Einsum ops TensorFlow 2.21 makes."""
    name = kwargs.pop("name", None)
    optimize = kwargs.pop("optimize", "greedy")
    if kwargs:
        raise TypeError(f'Invalid keyword arguments for einsum: {", ".join(kwargs)}. '
                        f'Valid arguments: name, optimize, greedy.')
    with name_scope(name, "einsum", [equation, inputs]):
        inputs = [convert_to_tensor(x) for x in inputs]
        shapes = [x.shape.as_list() if x.shape.ndims is not None else None for x in inputs]
        resolved, resolved_shapes, ellipsis = _parse(equation, shapes)
        if len(inputs) <= 2:
            if ellipsis:
                resolved = resolved.replace(ellipsis, "...")
            return apply_op("Einsum", inputs=inputs, equation=resolved)
        for positions, binary in _contraction_path(resolved, resolved_shapes, optimize):
            if ellipsis:
                binary = binary.replace(ellipsis, "...")
            operands = [inputs.pop(position) for position in positions]
            inputs.append(apply_op("Einsum", inputs=operands, equation=binary))
        return inputs[0]
