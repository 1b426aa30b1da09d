#!/usr/bin/env bash
# Installs, builds, runs the libFuzzer smoke run (docs/testing.md), and runs every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh all
# -O2 without debug information (CMake's Release is -O3, slower to compile): CI's 30 minutes on
# 2 cores (docs/testing.md, "Why 40 seconds"). The tests and benchmarks are turned on explicitly: a
# build/ configured by scripts/demo.sh or scripts/package.sh has them off.
bash scripts/build.sh -DNNREF_BUILD_TESTS=ON -DNNREF_BUILD_BENCH=ON \
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
# Where the compile time went, and the slowest units (docs/building.md, "Compile time").
/usr/bin/python3 scripts/compile_report.py build
bash scripts/fuzz_smoke.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
