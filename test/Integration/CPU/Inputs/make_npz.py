"""Writes the .npz files that train-npz.test feeds amp-train (numpy only).

  make_npz.py fashion OUT --limit N [--images NAME] [--labels NAME]
      the first N Fashion-MNIST training examples as amp-train's built-in
      data reads them: images f32 [N, 784] in [0, 1], one-hot labels f32
      [N, 10]
  make_npz.py variant OUT KIND
      the same with one thing wrong (KIND: float64, wrong-shape,
      fewer-labels, fortran, big-endian, truncated, not-zip, extra)
"""
import gzip
import sys

import numpy as np


def fashion(limit):
    base = "/usr/share/datasets/fashion-mnist"
    with gzip.open(f"{base}/train-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)[:limit]
    with gzip.open(f"{base}/train-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)[:limit]
    images = images.astype(np.float32) / np.float32(255)
    one_hot = np.zeros((len(labels), 10), np.float32)
    one_hot[np.arange(len(labels)), labels] = 1
    return images, one_hot


def main(argv):
    kind, out = argv[1], argv[2]
    if kind == "fashion":
        limit = int(argv[argv.index("--limit") + 1])
        names = {"--images": "arg0", "--labels": "arg1"}
        for flag in names:
            if flag in argv:
                names[flag] = argv[argv.index(flag) + 1]
        images, labels = fashion(limit)
        np.savez(out, **{names["--images"]: images, names["--labels"]: labels})
        return
    images, labels = fashion(128)
    variant = argv[3]
    if variant == "float64":
        np.savez(out, arg0=images.astype(np.float64), arg1=labels)
    elif variant == "wrong-shape":
        np.savez(out, arg0=images.reshape(128, 28, 28), arg1=labels)
    elif variant == "fewer-labels":
        np.savez(out, arg0=images, arg1=labels[:100])
    elif variant == "fortran":
        np.savez(out, arg0=np.asfortranarray(images), arg1=labels)
    elif variant == "big-endian":
        np.savez(out, arg0=images.astype(">f4"), arg1=labels)
    elif variant == "extra":
        np.savez_compressed(out, arg0=images, arg1=labels, notes=np.zeros(3, np.float32))
    elif variant == "truncated":
        np.savez(out, arg0=images, arg1=labels)
        data = open(out, "rb").read()
        open(out, "wb").write(data[:len(data) // 2])
    elif variant == "not-zip":
        open(out, "wb").write(b"images,labels\n0.5,1\n")
    else:
        sys.exit(f"unknown variant {variant}")


if __name__ == "__main__":
    main(sys.argv)
