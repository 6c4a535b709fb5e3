"""Finite-difference cases of the FFT ops' and the complex parts' gradients for
tests/engine/test_gradients.py (float64 in, float64 out): a complex input is made of two real
ones by Complex, a complex output read as its Real and Imag parts. Their values equal
TensorFlow's in tests/engine/test_signal.py."""

import numpy as np

import engine as tf
from engine.ops import complex_ops as complex_parts


def _rand(seed, *shape):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape)


def _parts(z):
    return tf.stack([complex_parts.real(z), complex_parts.imag(z)])


def _of_complex(fn):
    return lambda x, y: _parts(fn(complex_parts.complex(x, y)))


CASES = {
    "FFT": (_of_complex(tf.fft), [_rand(1, 2, 5), _rand(2, 2, 5)]),
    "IFFT": (_of_complex(tf.ifft), [_rand(3, 3, 4), _rand(4, 3, 4)]),
    "FFT2D": (_of_complex(tf.fft2d), [_rand(5, 3, 4), _rand(6, 3, 4)]),
    "IFFT2D": (_of_complex(tf.ifft2d), [_rand(7, 2, 3, 3), _rand(8, 2, 3, 3)]),
    "FFT3D": (_of_complex(tf.fft3d), [_rand(9, 2, 3, 2), _rand(10, 2, 3, 2)]),
    "IFFT3D": (_of_complex(tf.ifft3d), [_rand(11, 2, 2, 3), _rand(12, 2, 2, 3)]),
    "RFFT": (lambda x: _parts(tf.signal.rfft(x)), [_rand(13, 2, 6)]),
    "RFFT_odd": (lambda x: _parts(tf.signal.rfft(x)), [_rand(14, 7)]),
    "IRFFT": (_of_complex(lambda z: tf.signal.irfft(z, [8])), [_rand(15, 2, 5),
                                                              _rand(16, 2, 5)]),
    "IRFFT_odd": (_of_complex(lambda z: tf.signal.irfft(z, [7])), [_rand(17, 4),
                                                                   _rand(18, 4)]),
    "RFFT2D": (lambda x: _parts(tf.signal.rfft2d(x)), [_rand(19, 3, 4)]),
    "RFFT2D_odd": (lambda x: _parts(tf.signal.rfft2d(x)), [_rand(20, 2, 3, 5)]),
    "IRFFT2D": (_of_complex(lambda z: tf.signal.irfft2d(z, [3, 4])), [_rand(21, 3, 3),
                                                                      _rand(22, 3, 3)]),
    "Conj": (_of_complex(complex_parts.conj), [_rand(23, 3), _rand(24, 3)]),
    "Complex_broadcast": (lambda x, y: _parts(complex_parts.complex(x, y) * (0.5 - 2j)),
                          [_rand(25, 2, 3), _rand(26, 3)]),
}
