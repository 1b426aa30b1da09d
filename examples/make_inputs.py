#!/usr/bin/python3
"""Writes the examples' inputs (run with Debian's /usr/bin/python3, which has numpy).

mnist_classifier/input.npy is a hand-drawn 28x28 uint8 digit "7" (batch 1, HWC); the others are
seeded normal samples. Weights come from `build/nnref init-weights MODEL --seed 1 --out DIR`, and
expected.npz from scripts/nnl_reference.py (see scripts/make_examples.sh).
"""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261121)

digit = np.zeros((28, 28), dtype=np.uint8)
digit[5:8, 6:22] = 255            # the bar of the 7
for r in range(8, 24):            # the stroke, leaning left as it descends
    c = 21 - (r - 8) * 10 // 16
    digit[r, c - 1:c + 2] = 255
digit[4, 6:22] = 96                # anti-aliased edges
digit[8, 6:20] = 96
np.save(os.path.join(here, "mnist_classifier", "input.npy"), digit.reshape(1, 28, 28, 1))

np.save(os.path.join(here, "mlp", "input.npy"), rng.normal(0, 1, (1, 4)))
np.save(os.path.join(here, "resnet_block", "input.npy"), rng.normal(0, 1, (1, 32, 32, 64)).astype(np.float32))
np.save(os.path.join(here, "downsample_block", "input.npy"), rng.normal(0, 1, (1, 32, 32, 8)).astype(np.float32))
