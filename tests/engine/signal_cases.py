"""tf.fft & co., tf.spectral, tf.signal and tf.audio built the same way by TensorFlow and the
engine: each case's values and tf.gradients, static shapes of partly known inputs, the nodes
each API function builds, and error texts (kernels, Python checks, bad WAV files).
tools/make_signal_fixtures.py writes TensorFlow's to tests/fixtures/signal/;
tests/engine/test_signal.py compares the engine's."""

import struct

import numpy as np

_R = np.random.RandomState(11)
X = _R.uniform(-1.0, 1.0, (2, 3, 8)).astype(np.float32)
Z = (_R.uniform(-1, 1, (2, 4, 6)) + 1j * _R.uniform(-1, 1, (2, 4, 6))).astype(np.complex64)
SIG = _R.uniform(-1.0, 1.0, (2, 50)).astype(np.float32)
W = (_R.uniform(-1, 1, 64) + 1j * _R.uniform(-1, 1, 64)).astype(np.complex64)


def _loss(tf, y):
    """A real loss of y: its sum, or for complex y the real part of sum(y * w), w fixed."""
    if y.dtype.is_complex:
        n = 1
        for d in y.shape.as_list():
            n *= d
        w = tf.reshape(tf.constant(np.resize(W, n).astype(y.dtype.as_numpy_dtype)),
                       tf.shape(y))
        return tf.reduce_sum(tf.cast(y * w, y.dtype.real_dtype))
    return tf.reduce_sum(y * y)


def _with_grad(tf, x, y, key="y"):
    return {key: y, "grad": tf.gradients(_loss(tf, y), x)[0]}


def _complex_op(op, data, dtype, grad=True):
    def build(tf):
        x = tf.constant(data.astype(dtype), name="x")
        return _with_grad(tf, x, op(tf, x)) if grad else {"y": op(tf, x)}
    return build


def _real_op(op, data, dtype=np.float32, grad=True):
    def build(tf):
        x = tf.constant(data.astype(dtype), name="x")
        return _with_grad(tf, x, op(tf, x)) if grad else {"y": op(tf, x)}
    return build


def _wav(channels=2, rate=8000, bits=16, samples=None, fmt_size=16, audio_format=1,
         extra_chunks=b"", data=None, bytes_per_second=None, block_align=None):
    """A WAV file's bytes, each field settable to something bad."""
    if data is None:
        values = np.arange(6 * channels, dtype=np.int16) * 3001 - 9000
        data = values.astype("<i2").tobytes()
    block = block_align if block_align is not None else (bits * channels + 7) // 8
    per_second = bytes_per_second if bytes_per_second is not None else block * rate
    fmt = struct.pack("<HHIIHH", audio_format, channels, rate, per_second, block, bits)
    fmt += b"\0\0" if fmt_size == 18 else b""
    chunks = (b"fmt " + struct.pack("<I", fmt_size) + fmt + extra_chunks + b"data"
              + struct.pack("<I", len(data) if samples is None else samples) + data)
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks


def _decode(tf, contents, **kwargs):
    audio, rate = tf.audio.decode_wav(tf.constant(contents), **kwargs)
    return {"audio": audio, "rate": rate}


def _encode(tf):
    audio = tf.constant(np.array([[0.5, -0.25], [1.5, -1.5], [0.1, 0.00001526],
                                  [-0.00001526, 0.99999], [2.0 ** -16, -2.0 ** -16],
                                  [3 * 2.0 ** -16, -3 * 2.0 ** -16]], np.float32))
    wav = tf.audio.encode_wav(audio, 22050)
    back = tf.audio.decode_wav(wav)
    return {"wav": wav, "audio": back.audio, "rate": back.sample_rate}


def _stft_round_trip(tf, dtype=np.float32):
    x = tf.constant(SIG.astype(dtype), name="x")
    s = tf.signal.stft(x, 16, 4, fft_length=16)
    y = tf.signal.inverse_stft(s, 16, 4, fft_length=16,
                               window_fn=tf.signal.inverse_stft_window_fn(4))
    return {"stft": s, "y": y, "grad": tf.gradients(_loss(tf, s), x)[0]}


def _mel(tf):
    spec = tf.signal.stft(tf.constant(SIG), 16, 8, pad_end=True)  # [2, 7, 9]
    m = tf.signal.linear_to_mel_weight_matrix(6, 9, 8000.0, 80.0, 3900.0)
    power = tf.reshape(tf.square(tf.cast(spec, tf.float32)), [-1, 9])
    log_mel = tf.log(tf.matmul(power, m) + 1e-3)
    mfcc = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)
    return {"matrix": m, "mfcc": mfcc,
            "matrix64": tf.signal.linear_to_mel_weight_matrix(5, 17, 16000, 0.0, 8000.0,
                                                              dtype=tf.float64)}


def _windows(tf):
    out = {}
    for name in ("hann_window", "hamming_window"):
        fn = getattr(tf.signal, name)
        out[name] = fn(10)
        out[name + "_sym"] = fn(9, periodic=False)
        out[name + "_64"] = fn(7, dtype=tf.float64)
        out[name + "_1"] = fn(1)
    out["kaiser"] = tf.signal.kaiser_window(9, beta=4.0)
    out["kaiser_64"] = tf.signal.kaiser_window(8, dtype=tf.float64)
    out["kaiser_1"] = tf.signal.kaiser_window(1)
    out["kbd"] = tf.signal.kaiser_bessel_derived_window(10, beta=6.0)
    out["vorbis"] = tf.signal.vorbis_window(12)
    out["vorbis_64"] = tf.signal.vorbis_window(5, dtype=tf.float64)
    return out


def _frames(tf):
    x = tf.constant(SIG, name="x")
    framed = tf.signal.frame(x, 7, 3)
    padded = tf.signal.frame(x, 8, 5, pad_end=True, pad_value=2.0)
    axis0 = tf.signal.frame(tf.transpose(x), 6, 4, axis=0)
    ola = tf.signal.overlap_and_add(framed, 3)
    fast = tf.signal.overlap_and_add(tf.reshape(x, [2, 5, 10]), 10)
    return {"framed": framed, "padded": padded, "axis0": axis0, "ola": ola, "fast": fast,
            "grad": tf.gradients(_loss(tf, ola) + _loss(tf, padded), x)[0]}


def _dct(tf, dtype=np.float32):
    x = tf.constant(X.astype(dtype), name="x")
    out = {}
    for t in (1, 2, 3, 4):
        out[f"dct{t}"] = tf.signal.dct(x, type=t)
        out[f"idct{t}"] = tf.spectral.idct(x, type=t)
        if t != 1:
            out[f"dct{t}_ortho"] = tf.signal.dct(x, type=t, norm="ortho")
    out["dct2_n5"] = tf.signal.dct(x, n=5)
    out["dct2_n11"] = tf.signal.dct(x, n=11)
    out["grad"] = tf.gradients(tf.add_n([_loss(tf, v) for v in out.values()]), x)[0]
    return out


def _mdct(tf):
    x = tf.constant(SIG[:, :48], name="x")
    m = tf.signal.mdct(x, 8)
    out = {"mdct": m, "inverse": tf.signal.inverse_mdct(m),
           "ortho": tf.signal.mdct(x, 12, norm="ortho", pad_end=True,
                                   window_fn=tf.signal.kaiser_bessel_derived_window),
           "plain": tf.signal.mdct(x, 8, window_fn=None),
           "inverse_plain": tf.signal.inverse_mdct(m, window_fn=None, norm="ortho")}
    out["grad"] = tf.gradients(_loss(tf, out["mdct"]) + _loss(tf, out["ortho"]), x)[0]
    return out


def _shifts(tf):
    x = tf.constant(X, name="x")
    return {"all": tf.signal.fftshift(x), "inv": tf.signal.ifftshift(x),
            "one": tf.signal.fftshift(x, axes=1), "some": tf.signal.ifftshift(x, axes=[0, -1]),
            "grad": tf.gradients(_loss(tf, tf.signal.fftshift(x, axes=[-1])), x)[0]}


def _dynamic(tf):
    """The paths taken when shapes or lengths are known only when the graph runs: frame's
    split of the shape, gcd's while loop, the windows' cond, rfft's computed padding."""
    x = tf.placeholder_with_default(SIG, [None, None])
    n = tf.placeholder_with_default(np.int32(9), [])
    step = tf.placeholder_with_default(np.int32(6), [])
    length = tf.placeholder_with_default(np.array([12], np.int32), [1])
    return {"frame": tf.signal.frame(x, n, step), "frame_pad": tf.signal.frame(x, 8, step, True),
            "hann": tf.signal.hann_window(n), "hann_1": tf.signal.hann_window(n - 8),
            "hamming": tf.signal.hamming_window(n, periodic=False),
            "vorbis": tf.signal.vorbis_window(n), "kaiser": tf.signal.kaiser_window(n),
            "rfft": tf.signal.rfft(x, length), "irfft": tf.signal.irfft(
                tf.cast(x, tf.complex64), length),
            "rfft_inferred": tf.signal.irfft(tf.signal.rfft(x)),
            "stft": tf.signal.stft(x, n, step, fft_length=16),
            "istft": tf.signal.inverse_stft(tf.signal.stft(x, 8, 4), n, 4),
            "dct": tf.signal.dct(x, n=6), "dct3": tf.signal.idct(x, norm="ortho"),
            "ola": tf.signal.overlap_and_add(tf.reshape(x, [2, 5, 10]), step),
            "mfcc": tf.signal.mfccs_from_log_mel_spectrograms(x)}


def _empty(tf):
    """Zero-length transforms and inputs (not RFFT or IRFFT of fft_length [0]: DUCC's
    sanity check aborts TensorFlow's process; the engine gives an empty result)."""
    e = tf.placeholder_with_default(np.zeros((2, 0), np.float32), None)
    x = tf.placeholder_with_default(X[0], None)
    return {"fft": tf.fft(tf.cast(e, tf.complex64)),
            "irfft1": tf.raw_ops.IRFFT(input=tf.cast(x, tf.complex64), fft_length=[1]),
            "rfft2d0": tf.raw_ops.RFFT2D(input=x, fft_length=[0, 4]),
            "frame": tf.signal.frame(e, 3, 1), "frame_short": tf.signal.frame(x[:, :2], 3, 1)}


CASES = {
    "dynamic": _dynamic,
    "empty": _empty,
    "fft_c64": _complex_op(lambda tf, x: tf.fft(x), Z, np.complex64),
    "fft_c128": _complex_op(lambda tf, x: tf.signal.fft(x), Z, np.complex128),
    "ifft_c64": _complex_op(lambda tf, x: tf.ifft(x), Z, np.complex64),
    "fft2d_c64": _complex_op(lambda tf, x: tf.fft2d(x), Z, np.complex64),
    "ifft2d_c128": _complex_op(lambda tf, x: tf.spectral.ifft2d(x), Z, np.complex128),
    "fft3d_c64": _complex_op(lambda tf, x: tf.fft3d(x), Z, np.complex64),
    "ifft3d_c64": _complex_op(lambda tf, x: tf.ifft3d(x), Z, np.complex64),
    "rfft": _real_op(lambda tf, x: tf.signal.rfft(x), X),
    "rfft_f64": _real_op(lambda tf, x: tf.spectral.rfft(x), X, np.float64),
    # TensorFlow's RFFT and IRFFT gradients take fft_length for the input's length: a
    # cut input's gradient does not build there (shapes [2,3,5] and [2,3,8]).
    "rfft_len": _real_op(lambda tf, x: tf.signal.rfft(x, [5]), X, grad=False),
    "rfft_pad": _real_op(lambda tf, x: tf.signal.rfft(x, [11]), X),
    "irfft": _real_op(lambda tf, x: tf.signal.irfft(tf.signal.rfft(x) * (1 + 0.5j)), X),
    "irfft_odd": _complex_op(lambda tf, x: tf.signal.irfft(x, [9]), Z, np.complex64, False),
    "irfft_odd_grad": _complex_op(lambda tf, x: tf.signal.irfft(x[..., :5], [9]), Z,
                                  np.complex64),
    "irfft_c128": _complex_op(lambda tf, x: tf.signal.irfft(x), Z, np.complex128),
    "rfft2d": _real_op(lambda tf, x: tf.signal.rfft2d(x), X),
    "rfft2d_odd": _real_op(lambda tf, x: tf.signal.rfft2d(x[..., :7]), X, np.float64),
    "irfft2d": _complex_op(lambda tf, x: tf.signal.irfft2d(x), Z, np.complex64),
    "irfft2d_len": _complex_op(lambda tf, x: tf.spectral.irfft2d(x, [4, 7]), Z, np.complex64,
                               False),
    "rfft3d": _real_op(lambda tf, x: tf.signal.rfft3d(x, [2, 4, 6]), X, grad=False),
    "irfft3d": _real_op(lambda tf, x: tf.spectral.irfft3d(tf.cast(x, tf.complex64)), X,
                        grad=False),
    "shifts": _shifts,
    "dct_f32": _dct,
    "dct_f64": lambda tf: _dct(tf, np.float64),
    "frames": _frames,
    "windows": _windows,
    "stft": _stft_round_trip,
    "stft_f64": lambda tf: _stft_round_trip(tf, np.float64),
    "mel": _mel,
    "mdct": _mdct,
    "wav_decode": lambda tf: _decode(tf, _wav()),
    "wav_decode_desired": lambda tf: _decode(tf, _wav(channels=1, fmt_size=18,
                                                      extra_chunks=b"LIST\x02\0\0\0ab"),
                                             desired_channels=3, desired_samples=9),
    "wav_decode_fewer": lambda tf: _decode(tf, _wav(channels=3), desired_channels=2,
                                           desired_samples=2),
    "wav_encode": _encode,
}


def run_case(tf, name):
    """{key: value} of case `name`, run in a fresh graph and session; bytes as uint8."""
    with tf.Graph().as_default():
        fetches = CASES[name](tf)
        with tf.Session() as sess:
            values = sess.run(fetches)
    return {key: np.frombuffer(value, np.uint8) if isinstance(value, bytes) else
            np.asarray(value) for key, value in values.items()}


def _fed(tf, value, dtype=None):
    return tf.placeholder_with_default(np.asarray(value, dtype), None)


ERRORS = {
    "fft_rank0": lambda tf: tf.fft(_fed(tf, 1 + 1j, np.complex64)),
    "fft2d_rank1": lambda tf: tf.fft2d(_fed(tf, Z[0, 0])),
    "rfft_length_shape": lambda tf: tf.raw_ops.RFFT(input=_fed(tf, X),
                                                    fft_length=_fed(tf, [4, 4], np.int32)),
    "rfft_negative": lambda tf: tf.raw_ops.RFFT(input=_fed(tf, X),
                                                fft_length=_fed(tf, [-2], np.int32)),
    "rfft_short_input": lambda tf: tf.raw_ops.RFFT(input=_fed(tf, X),
                                                   fft_length=_fed(tf, [10], np.int32)),
    "irfft_short_input": lambda tf: tf.raw_ops.IRFFT2D(input=_fed(tf, Z),
                                                       fft_length=_fed(tf, [4, 12], np.int32)),
    "rfft3d_rank": lambda tf: tf.raw_ops.RFFT3D(input=_fed(tf, X[0]),
                                                fft_length=_fed(tf, [1, 2, 3], np.int32)),
    "rfft_static_rank": lambda tf: tf.signal.rfft2d(tf.constant([1.0, 2.0])),
    "rfft_int": lambda tf: tf.signal.rfft(tf.constant([1, 2])),
    "irfft_float": lambda tf: tf.signal.irfft(tf.constant([1.0, 2.0])),
    "rfft_static_length": lambda tf: tf.raw_ops.RFFT(input=X, fft_length=[2, 2]),
    "dct_type": lambda tf: tf.signal.dct(tf.constant(X), type=5),
    "dct_axis": lambda tf: tf.signal.dct(tf.constant(X), axis=0),
    "dct_n": lambda tf: tf.signal.dct(tf.constant(X), n=0),
    "dct_norm": lambda tf: tf.signal.dct(tf.constant(X), norm="forward"),
    "dct1_ortho": lambda tf: tf.signal.dct(tf.constant(X), type=1, norm="ortho"),
    "dct1_short": lambda tf: tf.signal.dct(tf.constant([[1.0]]), type=1),
    "window_dtype": lambda tf: tf.signal.hann_window(5, dtype=tf.int32),
    "kaiser_dtype": lambda tf: tf.signal.kaiser_window(5, dtype=tf.int32),
    "frame_step_float": lambda tf: tf.signal.overlap_and_add(tf.zeros([2, 3]), 1.5),
    "mdct_length": lambda tf: tf.signal.mdct(tf.zeros([20]), 10),
    "mel_bins": lambda tf: tf.signal.linear_to_mel_weight_matrix(0),
    "mel_edges": lambda tf: tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=500.0,
                                                                  upper_edge_hertz=400.0),
    "mel_lower": lambda tf: tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=-1.0),
    "mel_nyquist": lambda tf: tf.signal.linear_to_mel_weight_matrix(sample_rate=6000),
    "mel_rate": lambda tf: tf.signal.linear_to_mel_weight_matrix(sample_rate=-1),
    "mel_dtype": lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=tf.int32),
    "wav_empty": lambda tf: tf.audio.decode_wav(_fed(tf, b"", object)).audio,
    "wav_riff": lambda tf: tf.audio.decode_wav(_fed(tf, b"RIFX" + _wav()[4:], object)).audio,
    "wav_wave": lambda tf: tf.audio.decode_wav(_fed(tf, _wav()[:8] + b"AVI " + _wav()[12:],
                                                    object)).audio,
    "wav_truncated_header": lambda tf: tf.audio.decode_wav(_fed(tf, _wav()[:30],
                                                                object)).audio,
    "wav_fmt_size": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(fmt_size=20), object)).audio,
    "wav_format": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(audio_format=3),
                                                      object)).audio,
    "wav_channels": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(channels=0), object)).audio,
    "wav_bits": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(bits=8), object)).audio,
    "wav_block_align": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(block_align=3),
                                                           object)).audio,
    "wav_bytes_per_second": lambda tf: tf.audio.decode_wav(
        _fed(tf, _wav(bytes_per_second=7), object)).audio,
    "wav_no_data": lambda tf: tf.audio.decode_wav(_fed(tf, _wav()[:36], object)).audio,
    "wav_short_data": lambda tf: tf.audio.decode_wav(_fed(tf, _wav(samples=400),
                                                          object)).audio,
    "wav_two_data": lambda tf: tf.audio.decode_wav(_fed(tf, _wav() + b"data\x02\0\0\0ab",
                                                        object)).audio,
    "wav_huge_chunk": lambda tf: tf.audio.decode_wav(
        _fed(tf, _wav(extra_chunks=b"JUNK\xff\xff\xff\xff"), object)).audio,
    "wav_not_scalar": lambda tf: tf.audio.decode_wav(_fed(tf, [_wav()], object)).audio,
    "encode_rank": lambda tf: tf.audio.encode_wav(_fed(tf, [0.5, 0.1], np.float32), 8000),
    "encode_rate_shape": lambda tf: tf.audio.encode_wav(
        _fed(tf, [[0.5]], np.float32), _fed(tf, [8000], np.int32)),
    "encode_null": lambda tf: tf.audio.encode_wav(_fed(tf, np.zeros((3, 0)), np.float32),
                                                  8000),
    "encode_no_channels": lambda tf: tf.audio.encode_wav(_fed(tf, np.zeros((0, 0)),
                                                              np.float32), 8000),
    "encode_rate": lambda tf: tf.audio.encode_wav(_fed(tf, [[0.5]], np.float32),
                                                  _fed(tf, -5, np.int32)),
}


def run_error(tf, name):
    """(error class name, the message's first line) of building or running the case."""
    with tf.Graph().as_default():
        try:
            fetch = ERRORS[name](tf)
        except (ValueError, TypeError, NotImplementedError) as error:
            # The engine's shape errors (a ValueError) leave out TensorFlow's node and input
            # shapes after the message: " for '{{node RFFT}} = RFFT[...]' with ...".
            kind = "ValueError" if isinstance(error, ValueError) else type(error).__name__
            return ["build: " + kind, str(error).split("\n")[0].split(" for '{{node ")[0]]
        with tf.Session() as sess:
            try:
                sess.run(fetch)
            except tf.errors.OpError as error:
                lines = error.message.split("\n")
                at = next((i for i, line in enumerate(lines) if "[[{{node" in line), 1)
                return [type(error).__name__, lines[at - 1] if at else lines[0]]
    return ["no error", ""]


def static_shapes(tf):
    """{name: [static shape as text, dtype name]} of partly known inputs."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3, 16])
        c = tf.placeholder(tf.complex64, [2, None, 9])
        n = tf.placeholder(tf.int32, [])
        s = tf.placeholder(tf.float32, [4, None])
        out = {
            "fft": tf.fft(c), "ifft2d": tf.ifft2d(c), "fft3d": tf.fft3d(c),
            "rfft": tf.signal.rfft(x), "rfft_len": tf.signal.rfft(x, [10]),
            "rfft_len0": tf.raw_ops.RFFT(input=x, fft_length=[0]),
            "rfft_unknown_len": tf.signal.rfft(x, tf.reshape(n, [1])),
            "irfft": tf.signal.irfft(c), "irfft_len": tf.signal.irfft(c, [7]),
            "rfft2d": tf.signal.rfft2d(x), "irfft2d": tf.signal.irfft2d(c),
            "irfft2d_len": tf.signal.irfft2d(c, [5, 6]), "rfft3d": tf.signal.rfft3d(x),
            "irfft3d_len": tf.signal.irfft3d(c, [3, 3, 3]),
            "dct": tf.signal.dct(x), "dct1": tf.signal.dct(x, type=1),
            "dct_n": tf.signal.dct(x, n=4), "idct4": tf.signal.idct(x, type=4),
            "frame": tf.signal.frame(s, 5, 2), "frame_pad": tf.signal.frame(s, 5, 2, True),
            "frame_known": tf.signal.frame(tf.zeros([4, 21]), 5, 3),
            "frame_axis0": tf.signal.frame(tf.zeros([21, 2]), 4, 4, axis=0),
            "frame_n": tf.signal.frame(tf.zeros([4, 21]), n, 3),
            "ola": tf.signal.overlap_and_add(tf.zeros([3, 5, 8]), 3),
            "ola_unknown": tf.signal.overlap_and_add(s[None], 2),
            "hann": tf.signal.hann_window(7), "hann_n": tf.signal.hann_window(n),
            "kaiser": tf.signal.kaiser_window(7), "kbd": tf.signal.kaiser_bessel_derived_window(8),
            "vorbis": tf.signal.vorbis_window(n),
            "stft": tf.signal.stft(s, 8, 4), "stft_known": tf.signal.stft(tf.zeros([2, 40]), 10, 5),
            "istft": tf.signal.inverse_stft(tf.zeros([2, 7, 5], tf.complex64), 8, 4),
            "istft_len": tf.signal.inverse_stft(c, 12, 4, fft_length=16),
            "mel": tf.signal.linear_to_mel_weight_matrix(),
            "mfcc": tf.signal.mfccs_from_log_mel_spectrograms(x),
            "mdct": tf.signal.mdct(tf.zeros([2, 40]), 8),
            "imdct": tf.signal.inverse_mdct(tf.zeros([2, 5, 4])),
            "shift": tf.signal.fftshift(x),
            "decode": tf.audio.decode_wav(b"").audio,
            "decode_desired": tf.audio.decode_wav(b"", 2, 100).audio,
            "decode_rate": tf.audio.decode_wav(b"").sample_rate,
            "encode": tf.audio.encode_wav(tf.zeros([5, 2]), 8000),
        }
        return {key: [str(value.shape), value.dtype.name] for key, value in out.items()}


NODE_CASES = {
    "fft": lambda tf, x, c: tf.fft(c, name="f"),
    "ifft3d": lambda tf, x, c: tf.spectral.ifft3d(c),
    "rfft": lambda tf, x, c: tf.signal.rfft(x, [10]),
    "irfft": lambda tf, x, c: tf.spectral.irfft(c),
    "rfft2d": lambda tf, x, c: tf.signal.rfft2d(x),
    "irfft2d": lambda tf, x, c: tf.signal.irfft2d(c, [4, 16]),
    "rfft3d": lambda tf, x, c: tf.signal.rfft3d(x),
    "irfft3d": lambda tf, x, c: tf.signal.irfft3d(c),
    "fftshift": lambda tf, x, c: tf.signal.fftshift(x, axes=[0, -1]),
    "ifftshift": lambda tf, x, c: tf.signal.ifftshift(x),
    "dct": lambda tf, x, c: tf.signal.dct(x, norm="ortho"),
    "idct": lambda tf, x, c: tf.spectral.idct(x, type=3, n=6),
    "dct4": lambda tf, x, c: tf.signal.dct(x, type=4),
    "frame": lambda tf, x, c: tf.signal.frame(x, 6, 4, pad_end=True),
    "overlap_and_add": lambda tf, x, c: tf.signal.overlap_and_add(x, 5),
    "hann_window": lambda tf, x, c: tf.signal.hann_window(8),
    "hamming_window": lambda tf, x, c: tf.signal.hamming_window(
        tf.placeholder(tf.int32, [])),
    "kaiser_window": lambda tf, x, c: tf.signal.kaiser_window(8),
    "kaiser_bessel_derived_window": lambda tf, x, c: tf.signal.kaiser_bessel_derived_window(8),
    "vorbis_window": lambda tf, x, c: tf.signal.vorbis_window(8),
    "stft": lambda tf, x, c: tf.signal.stft(x, 8, 4),
    "inverse_stft": lambda tf, x, c: tf.signal.inverse_stft(
        c, 12, 4, window_fn=tf.signal.inverse_stft_window_fn(4)),
    "linear_to_mel_weight_matrix": lambda tf, x, c: tf.signal.linear_to_mel_weight_matrix(),
    "mfccs": lambda tf, x, c: tf.signal.mfccs_from_log_mel_spectrograms(x),
    "mdct": lambda tf, x, c: tf.signal.mdct(x, 8),
    "inverse_mdct": lambda tf, x, c: tf.signal.inverse_mdct(x),
    "decode_wav": lambda tf, x, c: tf.audio.decode_wav(b"", desired_channels=1),
    "encode_wav": lambda tf, x, c: tf.audio.encode_wav(x[0], 8000),
    "fft_gradients": lambda tf, x, c: tf.gradients(
        tf.reduce_sum(tf.cast(tf.fft2d(c) + tf.ifft(c), tf.float32)), c),
    "rfft_gradients": lambda tf, x, c: tf.gradients(
        tf.reduce_sum(tf.cast(tf.signal.rfft2d(x), tf.float32))
        + tf.reduce_sum(tf.signal.irfft(tf.signal.rfft(x))), x),
}


def graph_nodes(tf, name):
    """[name, op] of each node case `name` builds on a [2, 3, 16] float input x and a
    [2, 3, 9] complex64 input c."""
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2, 3, 16], name="x")
        c = tf.placeholder(tf.complex64, [2, 3, 9], name="c")
        NODE_CASES[name](tf, x, c)
    return [[node.name, node.op] for node in graph.as_graph_def().node]


API_NAMES = (
    ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d"]
    + [f"spectral.{n}" for n in ("fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft",
                                 "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d", "dct",
                                 "idct")]
    + [f"signal.{n}" for n in (
        "fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d",
        "irfft2d", "rfft3d", "irfft3d", "dct", "idct", "fftshift", "ifftshift", "frame",
        "overlap_and_add", "hann_window", "hamming_window", "kaiser_window",
        "kaiser_bessel_derived_window", "vorbis_window", "stft", "inverse_stft",
        "inverse_stft_window_fn", "linear_to_mel_weight_matrix",
        "mfccs_from_log_mel_spectrograms", "mdct", "inverse_mdct")]
    + ["audio.decode_wav", "audio.encode_wav"])


def signatures(tf):
    """{api name: its parameters as "name=default" text} (defaults that are functions or
    dtypes by their names)."""
    import inspect

    def text(value):
        if value is inspect.Parameter.empty:
            return ""
        name = getattr(value, "__name__", None) or getattr(value, "name", None)
        return "=" + (name if isinstance(name, str) else repr(value))

    out = {}
    for api in API_NAMES:
        fn = tf
        for part in api.split("."):
            fn = getattr(fn, part)
        params = inspect.signature(fn).parameters.values()
        out[api] = [p.name + text(p.default) for p in params]
    return out
