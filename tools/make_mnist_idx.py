"""Write tests/fixtures/mnist/: a tiny fake MNIST in the real files' format (gzipped IDX).

Runs with any Python that has NumPy (no TensorFlow needed): `python tools/make_mnist_idx.py`.
The four files are named as Yann LeCun's (train-images-idx3-ubyte.gz, ...), with the IDX
headers the real ones have (magic 2051 for images, 2049 for labels, big-endian sizes), so a
TF1 program's own MNIST reader reads them unchanged. The digits are not handwriting: each
class is a blurred stroke pattern plus noise, seeded, so a softmax regression learns them in a
few steps and the files stay small.
"""

import gzip
import struct
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "mnist"
TRAIN, TEST = 200, 50


def fake_digits(count, rng):
    """(images [count, 28, 28] uint8, labels [count] uint8): one stroke pattern per class."""
    labels = rng.randint(0, 10, count).astype(np.uint8)
    yy, xx = np.mgrid[0:28, 0:28]
    images = np.zeros((count, 28, 28))
    for i, label in enumerate(labels):
        angle = label * np.pi / 10 + rng.normal(0, 0.08)
        cx, cy = 14 + rng.normal(0, 1.5), 14 + rng.normal(0, 1.5)
        # A bar through the centre at the class's angle, and a ring whose radius grows with it.
        distance = np.abs((xx - cx) * np.sin(angle) - (yy - cy) * np.cos(angle))
        radius = 3 + label * 0.8
        ring = np.abs(np.hypot(xx - cx, yy - cy) - radius)
        images[i] = np.exp(-distance ** 2 / 2.0) + 0.7 * np.exp(-ring ** 2 / 1.5)
    images += rng.uniform(0, 0.5, images.shape) * (rng.uniform(size=images.shape) < 0.05)
    # Ink below 1/16 is paper, as in the real scans (and the files then compress as theirs do).
    images[images < 1 / 16] = 0
    return (np.clip(images, 0, 1) * 255).astype(np.uint8), labels


def write_idx(path, array, magic):
    header = struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape)
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same bytes every run
        f.write(header + array.tobytes())


def main():
    rng = np.random.RandomState(2016)
    OUT.mkdir(parents=True, exist_ok=True)
    for prefix, count in (("train", TRAIN), ("t10k", TEST)):
        images, labels = fake_digits(count, rng)
        write_idx(OUT / f"{prefix}-images-idx3-ubyte.gz", images, 2051)
        write_idx(OUT / f"{prefix}-labels-idx1-ubyte.gz", labels, 2049)
    for path in sorted(OUT.glob("*.gz")):
        print(f"{path.relative_to(OUT.parent.parent.parent)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
