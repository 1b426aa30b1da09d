#!/usr/bin/env bash
# Configures and builds nnref into build/. Leading `--target T` arguments (repeatable) build only
# those targets (default: all); the other arguments go to CMake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
while [ $# -ge 2 ] && [ "$1" = --target ]; do
  targets+=(--target "$2")
  shift 2
done
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build --parallel "$(nproc)" "${targets[@]}"
