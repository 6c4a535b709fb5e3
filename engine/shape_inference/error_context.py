"""Which inputs TensorFlow's shape functions read as values before they can fail: a refused
node's error then ends "and with computed input tensors: input[1] = <5>" (InferenceContext::
AttachContext), naming the constant the function saw."""

# Op -> the inputs its shape function asks for as tensors (c->input_tensor) ahead of its checks;
# -1 is the last input (ConcatV2's axis).
REQUESTED_INPUT_TENSORS = {
    "ExpandDims": (1,), "Split": (0,), "Transpose": (1,), "GatherV2": (2,), "ConcatV2": (-1,),
    "ArgMax": (1,), "ArgMin": (1,), "StridedSlice": (3,),
    "EditDistance": (2, 5),  # hypothesis_shape and truth_shape
    **{op: (1,) for op in ("Sum", "Mean", "Prod", "Max", "Min", "All", "Any",
                           "EuclideanNorm")},
}


def computed_inputs(op_type, inputs, value_of):
    """[(index, value text)] of the requested inputs whose values are known constants."""
    found = []
    for index in REQUESTED_INPUT_TENSORS.get(op_type, ()):
        index = index % len(inputs) if inputs else index
        value = value_of(inputs[index]) if 0 <= index < len(inputs) else None
        if value is not None:
            found.append((index, _summarize_value(value)))
    return found


def _summarize_value(value):
    """Tensor::SummarizeValue: the elements flat, space-separated, at most 256 then '...'."""
    flat = list(value.reshape(-1)) if hasattr(value, "reshape") else [value]
    text = " ".join(str(v.decode() if isinstance(v, bytes) else v) for v in flat[:256])
    return text + ("..." if len(flat) > 256 else "")
