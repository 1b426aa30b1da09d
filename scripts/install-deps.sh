#!/usr/bin/env bash
# Installs the Debian packages nnref needs. Idempotent: when all are present it does nothing.
#   install-deps.sh nnref     building and running the nnref binary alone (scripts/demo.sh)
#   install-deps.sh package   that, and building its Debian package (scripts/package.sh)
#   install-deps.sh [all]     that, and the tests, the benchmarks and the fuzz harnesses (scripts/test.sh)
set -euo pipefail

# The nnref binary: the compiler and build tools, and the libraries it links (the -dev packages
# bring the runtime libraries the binary needs, which the Debian package depends on).
nnref_packages=(
  cmake ninja-build g++ pkg-config
  libz3-dev libboost-dev libmpfr-dev libmpfi-dev libgmp-dev libhwy-dev
  libzip-dev zlib1g-dev nlohmann-json3-dev libcli11-dev
  libonnx-dev libprotobuf-dev   # the ONNX front-end (formats/onnx)
  pybind11-dev python3-dev python3-numpy   # the Python module nnref (python/, docs/python.md)
)
# The Debian package (CPack's DEB generator with CPACK_DEBIAN_PACKAGE_SHLIBDEPS).
package_packages=(
  dpkg-dev file   # dpkg-shlibdeps; file, with which CPack finds the ELF files to give it
)
# The tests (ctest), the benchmarks (bench/) and the libFuzzer harnesses (fuzz/).
test_packages=(
  librapidcheck-dev catch2
  libonnx-testdata python3-onnx   # the ONNX backend node tests (scripts/onnx_node_tests.py)
  python3-numpy python3-jsonschema
  python3-pytest   # the Python module's tests (tests/python/test_nnref.py)
  python3-torch   # the float32 peers of the conform tests (scripts/float32_peers.py)
  python3-torchvision   # torchvision's models exported as users do (scripts/torch_exports_check.py)
  libdnnl-dev     # oneDNN 2.6, a peer of bench/fastpath_bench (bench/README.md)
  clang libclang-rt-dev   # the libFuzzer harnesses (fuzz/, scripts/fuzz_smoke.sh): libFuzzer, ASan, UBSan
)

case "${1:-all}" in
  nnref) packages=("${nnref_packages[@]}") ;;
  package) packages=("${nnref_packages[@]}" "${package_packages[@]}") ;;
  all) packages=("${nnref_packages[@]}" "${package_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: $0 [nnref|package|all]" >&2; exit 2 ;;
esac

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
