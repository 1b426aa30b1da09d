#!/usr/bin/env bash
# The libFuzzer smoke run of CI (docs/testing.md, "Hardened readers"): builds every harness of fuzz/
# with clang into build-fuzz/, then runs each on its seed corpus for SECONDS (default 40), as many
# at once as there are cores. A crash, a sanitizer report, a leak, an input slower than 10 s
# (-timeout) or a process above 2 GiB (-rss_limit_mb) fails the run; the input that did it is kept
# as build-fuzz/artifacts/<target>-crash-*, and the harness's log is printed.
#
#   scripts/fuzz_smoke.sh [SECONDS]        (NNREF_FUZZ_BUILD=DIR builds into DIR instead)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-40}"
build="${NNREF_FUZZ_BUILD:-build-fuzz}"
start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DNNREF_FUZZ=ON >/dev/null
cmake --build "$build" --target fuzz_harnesses --parallel "$(nproc)"
built=$(date +%s)

# New inputs a run finds go to a scratch copy, never into fuzz/corpus/.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$build/artifacts"
mkdir -p "$build/artifacts"
run_one() {
  local target=$1 seconds=$2 build=$3 work=$4
  mkdir -p "$work/$target"
  if "$build/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$target-" "$work/$target" "fuzz/corpus/$target" > "$work/$target.log" 2>&1; then
    echo "fuzz smoke: $target ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$') inputs)"
  else
    echo "fuzz smoke: $target FAILED"
    tail -n 60 "$work/$target.log"
    return 1
  fi
}
export -f run_one
targets=$(ls fuzz/corpus)
status=0
printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -c 'run_one "$@"' _ {} "$seconds" "$build" "$work" || status=1
echo "fuzz smoke: $(echo $targets | wc -w) harnesses, ${seconds} s each; build $((built - start)) s, runs $(($(date +%s) - built)) s"
exit $status
