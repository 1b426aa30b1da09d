#!/usr/bin/env bash
# Installs, builds, and runs the demo: the bundled MNIST-style classifier on its bundled input,
# evaluated by the reference oracle (class scores, shapes, time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build/nnref run examples/mnist_classifier/model.nnl --input examples/mnist_classifier/input.npy
