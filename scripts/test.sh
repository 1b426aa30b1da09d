#!/usr/bin/env bash
# Installs, builds, runs the libFuzzer smoke run (docs/testing.md), and runs every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/fuzz_smoke.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
