"""A speech front end of the TF 1.x era: a tone written to a WAV file and read back
(tf.audio.encode_wav / decode_wav), its STFT, a log-mel spectrogram and its MFCCs, and the
signal rebuilt by the inverse STFT; prints shapes, the sample rate and rounded features."""

import os
import tempfile

import numpy as np

import engine as tf


def build(wav_path):
    """Builds the front end in the default graph; returns its pieces by role."""
    rate = 8000
    t = np.arange(2048, dtype=np.float32) / rate
    tone = 0.5 * np.sin(2 * np.pi * 440.0 * t) + 0.25 * np.sin(2 * np.pi * 1250.0 * t)
    write = tf.write_file(wav_path, tf.audio.encode_wav(tone[:, None].astype(np.float32), rate))
    audio, sample_rate = tf.audio.decode_wav(tf.read_file(wav_path), desired_channels=1)
    signal = tf.transpose(audio)  # [1, samples]
    stfts = tf.signal.stft(signal, frame_length=256, frame_step=128, fft_length=256)
    power = tf.square(tf.cast(stfts, tf.float32)) + tf.square(
        tf.cast(stfts * tf.constant(-1j, tf.complex64), tf.float32))
    mel_matrix = tf.signal.linear_to_mel_weight_matrix(
        num_mel_bins=20, num_spectrogram_bins=129, sample_rate=rate, lower_edge_hertz=80.0,
        upper_edge_hertz=3800.0)
    mel = tf.tensordot(power, mel_matrix, 1)
    log_mel = tf.log(mel + 1e-6)
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
    rebuilt = tf.signal.inverse_stft(
        stfts, 256, 128, fft_length=256,
        window_fn=tf.signal.inverse_stft_window_fn(128))
    return {"write": write, "audio": audio, "rate": sample_rate, "stfts": stfts,
            "log_mel": log_mel, "mfccs": mfccs, "rebuilt": rebuilt, "signal": signal}


def main():
    wav_path = os.path.join(tempfile.mkdtemp(), "tone.wav")
    g = build(wav_path)
    with tf.Session() as sess:
        sess.run(g["write"])
        print("wav bytes:", os.path.getsize(wav_path))
        audio, rate, stfts, log_mel, mfccs = sess.run(
            [g["audio"], g["rate"], g["stfts"], g["log_mel"], g["mfccs"]])
        print("audio", audio.shape, audio.dtype, "rate", rate)
        print("stft", stfts.shape, stfts.dtype, "log-mel", log_mel.shape, "mfcc", mfccs.shape)
        print("loudest bins per frame:", np.argmax(np.abs(stfts[0]), axis=-1).tolist())
        print("mfcc[0, 2, :6]:", [round(float(v), 2) for v in mfccs[0, 2, :6]])
        signal, rebuilt = sess.run([g["signal"], g["rebuilt"]])
        inner = slice(256, 2048 - 256)
        print("rebuilt within 1e-4:",
              bool(np.max(np.abs(signal[:, inner] - rebuilt[:, inner])) < 1e-4))


if __name__ == "__main__":
    main()
