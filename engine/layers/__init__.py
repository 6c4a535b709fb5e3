"""tf.layers: TF 1.x's layers with TensorFlow's variable names, initializers and update ops,
so their checkpoints interchange with TensorFlow's."""

from engine.layers.base import Layer  # noqa: F401
from engine.layers.convolutional import (AveragePooling2D, AvgPool2D, Conv2D,  # noqa: F401
                                         Convolution2D, MaxPool2D, MaxPooling2D,
                                         average_pooling2d, conv2d, max_pooling2d,
                                         AveragePooling1D, AvgPool1D, Conv1D, Convolution1D,
                                         MaxPool1D, MaxPooling1D, average_pooling1d, conv1d,
                                         max_pooling1d, AveragePooling3D, AvgPool3D, Conv3D,
                                         Convolution3D, MaxPool3D, MaxPooling3D,
                                         average_pooling3d, conv3d, max_pooling3d)
from engine.layers.input_spec import InputSpec  # noqa: F401
from engine.layers.core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401
from engine.layers.normalization import BatchNormalization, batch_normalization  # noqa: F401
from engine.layers.separable_transposed import (  # noqa: F401
    Conv2DTranspose, Conv3DTranspose, Convolution2DTranspose, Deconv2D, Deconvolution2D,
    SeparableConv1D, SeparableConv2D, SeparableConvolution2D, conv2d_transpose,
    conv3d_transpose, separable_conv1d, separable_conv2d)

from engine.framework.api_namespace import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("tf.layers")
