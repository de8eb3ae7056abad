#!/usr/bin/env bash
# ThreadSanitizer over parallel recording ("Parallel recording" in
# rendergraph.h) and the one-thread rule's check ("Threads"): the
# device_execute_parallel program (tests/device/test_execute_parallel.c,
# whose chunks record on rg_workers' threads and on a thread of the test's
# own per chunk at once), and the suites where a second thread calls into a
# graph another thread is in or destroys (unit.rg_threads, device.rg_mistakes,
# device.rg_teardown), built with
# -fsanitize=thread, with the libraries and the engine under it, into a
# build folder of its own (build-tsan; BUILD_DIR overrides it), and its
# suites run on the host's Vulkan device (lavapipe in CI) under validation
# and synchronization validation, as ctest runs them. Only those programs
# and what they link are built. With VKG_TSAN its tests run through
# tests/runner's stand-in for Criterion, one process for the suite
# (Criterion's runner cannot start under ThreadSanitizer). Every thread
# and lock is a POSIX one (the library's, rendergraph/src/thread.c, and the
# test's), which the sanitizer intercepts: no mapping is needed.
#
# A report fails the run: TSAN_OPTIONS stops the test's process at the
# first one (halt_on_error) with status 66, and any "ThreadSanitizer" line
# in the output fails it too. The Vulkan loader, the validation layer, the
# driver and LLVM are not instrumented; scripts/tsan.supp suppresses what
# is reported from inside them, by library name only (never the project's
# code).
#
#   ./scripts/tsan.sh        configure, build, run (CI=true: warnings are errors)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dir=${BUILD_DIR:-build-tsan}
jobs=$(nproc 2>/dev/null || echo 2)
opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
      "-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer"
      "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread"
      "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread"
      -DVKG_TSAN=ON -DVKG_BUILD_DEMOS=OFF -DVKG_BUILD_BENCHMARKS=OFF)
[ "${CI:-}" = "true" ] && opts+=(-DVKG_WERROR=ON)
printf '\033[1m==> configure (%s, -fsanitize=thread)\033[0m\n' "$dir" >&2
cmake -S . -B "$dir" "${opts[@]}" >/dev/null
printf '\033[1m==> build device_execute_parallel, unit_rendergraph, device_rendergraph\033[0m\n' >&2
cmake --build "$dir" -j "$jobs" --target device_execute_parallel unit_rendergraph device_rendergraph

export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp"
# gcc's ThreadSanitizer cannot map its shadow memory under the widest
# address-space randomization some kernels use: run without it there.
run=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  run=(setarch "$(uname -m)" -R)
fi
printf '\033[1m==> device.execute_parallel, unit.rg_threads, device.rg_mistakes, device.rg_teardown under ThreadSanitizer\033[0m\n' >&2
log=$dir/tsan.log
status=0
"${run[@]}" ctest --test-dir "$dir" -R '^(device\.execute_parallel|unit\.rg_threads|device\.rg_mistakes|device\.rg_teardown)$' \
  --output-on-failure -V >"$log" 2>&1 || status=$?
grep -E "Tested:|Passed|Failed|ThreadSanitizer|SUMMARY" "$log" >&2 || true
if [ "$status" -ne 0 ] || grep -q "ThreadSanitizer" "$log"; then
  echo "tsan.sh: ThreadSanitizer run failed (status $status); the whole output: $log" >&2
  exit 1
fi
echo "tsan.sh: no ThreadSanitizer report" >&2
