#!/usr/bin/python3
"""Generates the NNL test weights (run with a python3 that has numpy: /usr/bin/python3).

weights/      one <id>.<param>.npy per parameter of mlp.nnl, plus two files the model does not use
mlp.npz       the same tensors as an archive (numpy.savez: stored members named <id>.<param>.npy)
not_weights.txt  a file that is neither a directory nor an .npz
Values are deterministic: element k of a tensor is (k % 7 - 3) / 8, exactly representable.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(*shape):
    n = int(np.prod(shape))
    return ((np.arange(n) % 7 - 3) / 8).astype(np.float32).reshape(shape)


def main():
    tensors = {
        "fc1.weight": tensor(4, 16),
        "fc1.bias": tensor(16),
        "fc2.weight": tensor(16, 8),
        "fc2.bias": tensor(8),
        "output.weight": tensor(8, 3),
        "output.bias": tensor(3),
        # Not parameters of mlp.nnl: kept in the payload for the binding check to report.
        "fc1.gamma": tensor(16),
        "notes.extra": np.arange(5, dtype=np.int32),
    }
    wdir = os.path.join(HERE, "weights")
    os.makedirs(wdir, exist_ok=True)
    for name, t in tensors.items():
        np.save(os.path.join(wdir, name + ".npy"), t)
    np.savez(os.path.join(HERE, "mlp.npz"), **tensors)
    with open(os.path.join(HERE, "not_weights.txt"), "w") as f:
        f.write("not weights\n")


if __name__ == "__main__":
    main()
