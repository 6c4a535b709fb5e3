"""Write tests/fixtures/program_data/: small fake data in the formats TF 1.x programs read.

Run with any Python that has NumPy: `python tools/make_program_data.py`. The files are
deterministic (a seeded NumPy stream, gzip without a timestamp):
- mnist/train-{images-idx3,labels-idx1}-ubyte.gz: 128 28x28 "digits" in MNIST's IDX format,
  each class a stroke in its own place, with noise, so a small net learns them in few steps;
  mnist/t10k-*: 40 more, drawn the same way, for the programs that test what they learned;
- text8: a text8-format corpus (one line of lowercase words separated by spaces), drawn from a
  Zipf-like vocabulary with repeated phrases, so skip-gram pairs carry signal.
"""

import gzip
import io
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "program_data"
IMAGES, TEST_IMAGES, CLASSES, SIDE = 128, 40, 10, 28


def idx_bytes(array):
    """IDX: magic (0, 0, type 0x08 = ubyte, ndim), big-endian dims, then the bytes."""
    header = bytes([0, 0, 0x08, array.ndim])
    header += b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    return header + array.astype(np.uint8).tobytes()


def write_gzip(path, data):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as f:
        f.write(data)
    path.write_bytes(buffer.getvalue())


def fake_digits(rng, count=IMAGES):
    labels = rng.randint(0, CLASSES, size=count)
    images = np.zeros((count, SIDE, SIDE), np.float32)
    for image, label in zip(images, labels):
        row, col = 3 + 2 * label + rng.randint(0, 3), 4 + rng.randint(0, 6)
        image[row:row + 3, col:col + 14] = 1.0  # a horizontal stroke; its height is the class
        image[4:24, 2 + label * 2] = 0.6  # and a vertical one beside it
        noisy = rng.uniform(size=image.shape) < 0.03
        image[noisy] = rng.uniform(0.2, 1.0, size=noisy.sum())
    return np.round(images * 255), labels


def fake_text8(rng, words=6000):
    vocab = [f"w{i}" for i in range(60)] + ["the", "of", "and", "one", "in", "a", "to"]
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    tokens = list(rng.choice(vocab, size=words, p=weights / weights.sum()))
    for start in rng.randint(0, words - 4, size=words // 10):
        tokens[start:start + 3] = ["anarchism", "originated", "as"]
    return " " + " ".join(tokens)


def main():
    rng = np.random.RandomState(2024)
    (OUT / "mnist").mkdir(parents=True, exist_ok=True)
    images, labels = fake_digits(rng)
    write_gzip(OUT / "mnist" / "train-images-idx3-ubyte.gz", idx_bytes(images))
    write_gzip(OUT / "mnist" / "train-labels-idx1-ubyte.gz", idx_bytes(labels))
    (OUT / "text8").write_text(fake_text8(rng))
    images, labels = fake_digits(np.random.RandomState(2025), count=TEST_IMAGES)
    write_gzip(OUT / "mnist" / "t10k-images-idx3-ubyte.gz", idx_bytes(images))
    write_gzip(OUT / "mnist" / "t10k-labels-idx1-ubyte.gz", idx_bytes(labels))
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.relative_to(OUT.parent.parent.parent)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
