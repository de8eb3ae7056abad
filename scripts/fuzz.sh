#!/usr/bin/env bash
# Fuzz the render graph's declaration, compile and offline placement
# (tests/fuzz/fuzz_graph.c), or the frame-file reader (tests/fuzz/fuzz_frame.c:
# load, compile, place, save and reload), for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [graph|frame]     default 60 graph
#
# Configures a build-fuzz tree with clang (VKG_FUZZ=ON), builds the
# harness, replays the seed corpus (tests/fuzz/corpus; the frame harness's:
# tests/fuzz/frame_corpus) and fuzzes a copy of
# it, so the repository's corpus never grows. Exits non-zero on any crash,
# leak, sanitizer report or harness check; prints executions and coverage
# at the end. Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS
# (parallel build jobs, default nproc), FUZZ_WORK (where the corpus copy and
# crash files go; default a temporary folder, kept when something is found),
# FUZZ_FLAGS (more libFuzzer flags).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
seconds=${1:-60}
harness=${2:-graph}
case "$harness" in
graph) corpus=tests/fuzz/corpus max_len=4096 ;;
# The frame seeds are 1-4 KiB of JSON; 16 KiB leaves room to grow them.
frame) corpus=tests/fuzz/frame_corpus max_len=16384 ;;
*) echo "fuzz.sh: harness '$harness': graph or frame" >&2; exit 2 ;;
esac
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

command -v clang >/dev/null || { echo "fuzz.sh: clang not found (./scripts/run.sh deps installs it)" >&2; exit 1; }

say "configure ($build_dir, clang)"
CC=clang cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKG_FUZZ=ON -DVKG_BUILD_DEMOS=OFF >/dev/null
say "build"
cmake --build "$build_dir" -j "$jobs" --target "fuzz_$harness" "fuzz_${harness}_standalone"

work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/vkg-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$work/artifacts"
cp "$corpus"/* "$work/corpus/"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

say "replay the seed corpus"
"$build_dir/tests/fuzz/fuzz_${harness}_standalone" "$corpus"/*

say "fuzz for ${seconds}s (corpus copy and crashes in $work)"
log="$work/fuzz.log"
set +e
# -max_len: the graph seeds are under 1 KiB; 4 KiB holds frames of ~100 commands.
# -timeout: one input of the harness runs in milliseconds; 10 s is a hang.
# shellcheck disable=SC2086
"$build_dir/tests/fuzz/fuzz_$harness" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" ${FUZZ_FLAGS:-} "$work/corpus" >"$log" 2>&1
rc=$?
set -e

status=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
say "result"
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
echo "last status: ${status:-none}"
echo "executions: ${execs:-?}  exec/s: ${rate:-?}  cov: ${cov:-?}  ft: ${ft:-?}  corpus: $(find "$work/corpus" -type f | wc -l) files"
if [ $rc -ne 0 ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|check failed|deadly signal' "$log"; then
  echo "fuzz.sh: the fuzzer found a problem (exit $rc); log and reproducer in $work:" >&2
  grep -E -A30 'ERROR:|runtime error:|check failed|deadly signal' "$log" | head -60 >&2
  ls "$work/artifacts" >&2
  exit 1
fi
[ -n "${FUZZ_WORK:-}" ] || rm -rf "$work"
