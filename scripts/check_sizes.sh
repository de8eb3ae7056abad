#!/usr/bin/env bash
# Checks the size limits that keep the tree readable (docs/internals.md):
#   - a library's public header (include/<lib>/*.h): at most 1,500 lines;
#   - a library's internal header (src/*.h): at most 500 lines;
#   - any C source file: at most 600 lines;
#   - README.md: at most 350 lines.
# Usage: check_sizes.sh [ROOT] (default: this checkout). Exit 1 naming each
# file over its limit, its lines and the limit.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"
bad=0
# check LIMIT FILE...: each file's lines against LIMIT.
check() {
  local limit=$1 f n
  shift
  for f in "$@"; do
    n=$(wc -l < "$f")
    if [ "$n" -gt "$limit" ]; then
      echo "check_sizes: $f has $n lines, over the limit of $limit" >&2
      bad=1
    fi
  done
}
dirs=(engine rendergraph demos tests benchmarks)
mapfile -t public < <(find "${dirs[@]}" -path '*/include/*' -name '*.h' | sort)
mapfile -t internal < <(find engine rendergraph -path '*/src/*' -name '*.h' | sort)
mapfile -t sources < <(find "${dirs[@]}" -name '*.c' | sort)
[ "${#public[@]}" -gt 0 ] && [ "${#sources[@]}" -gt 0 ] ||
  { echo "check_sizes: no sources under $root" >&2; exit 1; }
check 1500 "${public[@]}"
check 500 "${internal[@]}"
check 600 "${sources[@]}"
check 350 README.md
[ "$bad" -eq 0 ] && echo "check_sizes: ${#public[@]} public headers, ${#internal[@]} internal headers, ${#sources[@]} sources and README.md within their limits"
exit "$bad"
