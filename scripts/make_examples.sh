#!/usr/bin/env bash
# Regenerates examples/*: inputs (examples/make_inputs.py), weights from nnref's own
# init-weights (seed 1), and expected.npz from the independent NumPy reference. Needs build/nnref.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 examples/make_inputs.py
for m in examples/*/model.nnl; do
  dir=$(dirname "$m")
  rm -rf "$dir/weights"
  build/nnref init-weights "$m" --seed 1 --out "$dir/weights"
  /usr/bin/python3 scripts/nnl_reference.py "$m" --input "$dir/input.npy" --output "$dir/expected.npz"
done
