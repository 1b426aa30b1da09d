#!/usr/bin/env bash
# Installs, builds, and runs the demo: the bundled MNIST-style classifier on its bundled input,
# evaluated by the reference oracle (class scores, shapes, time). It installs only the packages
# the nnref binary and the Python module need and builds only the nnref target and the module
# (_nnref, docs/python.md; the tests and benchmarks are
# scripts/test.sh's), at -O2 without debug information as scripts/test.sh builds, so that a later
# test.sh reuses every object.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh nnref
bash scripts/build.sh --target nnref --target _nnref -DNNREF_BUILD_TESTS=OFF -DNNREF_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
build/nnref run examples/mnist_classifier/model.nnl --input examples/mnist_classifier/input.npy
# The Python module alone, where Debian's /usr/bin/python3 finds it (/usr/local/lib/python3.X/dist-packages).
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo cmake --install build --component python
/usr/bin/python3 -c "
import numpy as np, nnref
m = nnref.load('examples/mnist_classifier/model.nnl')
scores = m.run({'input': np.load('examples/mnist_classifier/input.npy')})['output']
print('from Python (nnref module): class', int(scores.argmax()))"
