"""Shape functions of the FFT ops and the WAV ops, as TensorFlow's (core/ops/spectral_ops.cc,
audio_ops.cc) give them. (The complex parts are elementwise: engine/framework/op_families.py.)"""

from engine.shape_inference.dims import ShapeError, _dims, with_rank
from engine.shape_inference.partial_values import _ints


def _at_least(dims, rank):
    if dims is not None and len(dims) < rank:
        raise ShapeError(f"Shape must be at least rank {rank} but is rank {len(dims)}")
    return dims


def complex_fft(rank):
    def shape(attrs, inputs):
        return _at_least(_dims(inputs[0]), rank)
    return shape


def real_fft(rank, forward):
    """RFFTShape: the inner `rank` dimensions are fft_length's (the last one
    fft_length // 2 + 1 forward), unknown while fft_length is."""
    def shape(attrs, inputs):
        dims = _at_least(_dims(inputs[0]), rank)
        length = with_rank(inputs[1], 1)
        if length is not None and length[0] is not None and length[0] != rank:
            raise ShapeError(f"Dimension must be {rank} but is {length[0]}")
        if dims is None:
            return None
        lengths = _ints(inputs[1])
        if lengths is None or None in lengths:
            return dims[:-rank] + [None] * rank
        if forward and lengths[-1] != 0:
            lengths = lengths[:-1] + [lengths[-1] // 2 + 1]
        return dims[:-rank] + list(lengths)
    return shape


def decode_wav(attrs, inputs):
    with_rank(inputs[0], 0)
    samples = attrs.get("desired_samples", -1)
    channels = attrs.get("desired_channels", -1)
    return [None if samples == -1 else samples, None if channels == -1 else channels], []


def encode_wav(attrs, inputs):
    with_rank(inputs[0], 2)
    with_rank(inputs[1], 0)
    return []


SHAPE_FUNCTIONS = {
    **{op: complex_fft(rank) for op, rank in (("FFT", 1), ("IFFT", 1), ("FFT2D", 2),
                                              ("IFFT2D", 2), ("FFT3D", 3), ("IFFT3D", 3))},
    **{op: real_fft(rank, forward) for op, rank, forward in (
        ("RFFT", 1, True), ("IRFFT", 1, False), ("RFFT2D", 2, True), ("IRFFT2D", 2, False),
        ("RFFT3D", 3, True), ("IRFFT3D", 3, False))},
    # FFTND's family: TensorFlow's shape function gives the input's shape, whatever the axes.
    **{op: complex_fft(0) for op in ("FFTND", "IFFTND", "RFFTND", "IRFFTND")},
    "DecodeWav": decode_wav, "EncodeWav": encode_wav,
}
