"""SignatureDefs and TensorInfos (tf.saved_model.signature_def_utils, tf.saved_model.utils), as TF 1.x builds them."""

from engine.framework import dtypes
from engine.framework.graph import get_default_graph
from engine.proto import meta_graph_pb2, types_pb2
from engine.savedmodel import constants
from engine.framework.sparse_tensor import SparseTensor


def build_tensor_info(tensor):
    """A TensorInfo naming `tensor` (or a SparseTensor's three tensors), with its dtype and shape."""
    info = meta_graph_pb2.TensorInfo(dtype=dtypes.as_dtype(tensor.dtype).as_datatype_enum)
    info.tensor_shape.CopyFrom(tensor.get_shape().as_proto())
    if isinstance(tensor, SparseTensor):
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    else:
        info.name = tensor.name
    return info


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The tensor (or SparseTensor) a TensorInfo names, in `graph` (the default graph)."""
    graph = graph or get_default_graph()
    scope = f"{import_scope}/" if import_scope else ""

    def tensor(name):
        return graph.get_tensor_by_name(scope + name)

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return tensor(tensor_info.name)
    if encoding == "coo_sparse":
        sparse = tensor_info.coo_sparse
        return SparseTensor(tensor(sparse.indices_tensor_name), tensor(sparse.values_tensor_name),
                            tensor(sparse.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}")


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    signature = meta_graph_pb2.SignatureDef()
    for key, info in (inputs or {}).items():
        signature.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        signature.outputs[key].CopyFrom(info)
    if method_name is not None:
        signature.method_name = method_name
    if defaults:
        raise NotImplementedError("build_signature_def(defaults=...) is not supported by the engine yet")
    return signature


def predict_signature_def(inputs, outputs):
    if inputs is None or not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({key: build_tensor_info(t) for key, t in inputs.items()},
                               {key: build_tensor_info(t) for key, t in outputs.items()},
                               constants.PREDICT_METHOD_NAME)


def regression_signature_def(examples, predictions):
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    examples_info, predictions_info = build_tensor_info(examples), build_tensor_info(predictions)
    if examples_info.dtype != types_pb2.DT_STRING:
        raise ValueError("Regression input tensors must be of type string. "
                         f"Found tensors with type {examples.dtype}.")
    if predictions_info.dtype != types_pb2.DT_FLOAT:
        raise ValueError("Regression output tensors must be of type float. "
                         f"Found tensors with type {predictions.dtype}.")
    return build_signature_def({constants.REGRESS_INPUTS: examples_info},
                               {constants.REGRESS_OUTPUTS: predictions_info},
                               constants.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    examples_info = build_tensor_info(examples)
    if examples_info.dtype != types_pb2.DT_STRING:
        raise ValueError("Classification input tensors must be of type string. "
                         f"Found tensors of type {examples.dtype}")
    outputs = {}
    if classes is not None:
        outputs[constants.CLASSIFY_OUTPUT_CLASSES] = info = build_tensor_info(classes)
        if info.dtype != types_pb2.DT_STRING:
            raise ValueError("Classification classes must be of type string Tensor. "
                             f"Found tensors of type {classes.dtype}.")
    if scores is not None:
        outputs[constants.CLASSIFY_OUTPUT_SCORES] = info = build_tensor_info(scores)
        if info.dtype != types_pb2.DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
    return build_signature_def({constants.CLASSIFY_INPUTS: examples_info}, outputs,
                               constants.CLASSIFY_METHOD_NAME)


def is_valid_signature(signature_def):
    """Whether a predict, classify or regress SignatureDef has the inputs and outputs its method needs."""
    if signature_def is None or not signature_def.method_name:
        return False
    method, inputs, outputs = signature_def.method_name, signature_def.inputs, signature_def.outputs
    if method == constants.PREDICT_METHOD_NAME:
        return bool(inputs) and bool(outputs)
    if method == constants.REGRESS_METHOD_NAME:
        return (set(inputs) == {constants.REGRESS_INPUTS} and set(outputs) == {constants.REGRESS_OUTPUTS}
                and inputs[constants.REGRESS_INPUTS].dtype == types_pb2.DT_STRING
                and outputs[constants.REGRESS_OUTPUTS].dtype == types_pb2.DT_FLOAT)
    if method == constants.CLASSIFY_METHOD_NAME:
        allowed = {constants.CLASSIFY_OUTPUT_CLASSES, constants.CLASSIFY_OUTPUT_SCORES}
        if set(inputs) != {constants.CLASSIFY_INPUTS} or not outputs or not set(outputs) <= allowed:
            return False
        classes = outputs.get(constants.CLASSIFY_OUTPUT_CLASSES)
        scores = outputs.get(constants.CLASSIFY_OUTPUT_SCORES)
        return (inputs[constants.CLASSIFY_INPUTS].dtype == types_pb2.DT_STRING
                and (classes is None or classes.dtype == types_pb2.DT_STRING)
                and (scores is None or scores.dtype == types_pb2.DT_FLOAT))
    return False
