#!/usr/bin/env bash
# Builds the Debian package build/nnref_<version>_amd64.deb (docs/building.md): the nnref target
# alone, in build/ with scripts/test.sh's flags (so the objects are shared with it and with
# scripts/demo.sh), then CPack's DEB generator, whose dependencies dpkg-shlibdeps finds.
# Install it with `sudo apt install ./build/nnref_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh package
bash scripts/build.sh --target nnref --target _nnref -DNNREF_BUILD_TESTS=OFF -DNNREF_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
(cd build && cpack -G DEB)
ls build/nnref_*.deb
dpkg-deb --field build/nnref_*.deb Package Version Architecture Depends
