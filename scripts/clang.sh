#!/usr/bin/env bash
# The clang step: everything (libraries, demos, benchmarks, tests) built
# with clang (Debian's clang, as macOS builds with clang) and -Wall -Wextra
# -Werror (VKG_WERROR) into build-clang (BUILD_DIR overrides it), then the
# device-free tests run (ctest -L unit). The device tests are gcc's step
# (scripts/run.sh test).
#
#   ./scripts/clang.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dir=${BUILD_DIR:-build-clang}
jobs=$(nproc 2>/dev/null || echo 2)
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
command -v clang >/dev/null || { echo "clang.sh: no clang (./scripts/run.sh deps installs it)" >&2; exit 1; }
say "configure ($dir, clang, warnings as errors)"
CC=clang cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKG_WERROR=ON >/dev/null
grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*clang' "$dir/CMakeCache.txt" ||
  { echo "clang.sh: $dir was configured with another compiler; remove it" >&2; exit 1; }
say "build"
cmake --build "$dir" -j "$jobs"
say "device-free tests (ctest -L unit)"
ctest --test-dir "$dir" -L unit --output-on-failure -j "$jobs"
