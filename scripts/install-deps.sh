#!/usr/bin/env bash
# Installs every Debian package nnref needs. Idempotent: when all are present it does nothing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libz3-dev libboost-dev libmpfr-dev libmpfi-dev libgmp-dev
  librapidcheck-dev catch2 libhwy-dev
  libzip-dev zlib1g-dev nlohmann-json3-dev libcli11-dev
  libonnx-dev libprotobuf-dev protobuf-compiler   # the ONNX front-end (formats/onnx)
  libonnx-testdata python3-onnx   # the ONNX backend node tests (scripts/onnx_node_tests.py)
  python3-numpy python3-jsonschema
  python3-torch   # the float32 peers of the conform tests (scripts/float32_peers.py)
  libdnnl-dev     # oneDNN 2.6, a peer of bench/fastpath_bench (bench/README.md)
  clang libclang-rt-dev   # the libFuzzer harnesses (fuzz/, scripts/fuzz_smoke.sh): libFuzzer, ASan, UBSan
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
