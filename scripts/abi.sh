#!/usr/bin/env bash
# The ABI check: librendergraph.so, librendergraph_frame.so and
# libengine.so, built shared with debug information, against the ABI of
# the last release kept in abi/ (libabigail's abidw dumps, limited to the
# types the public headers declare). An incompatible change (a function
# removed or changed, a public struct or enum changed: what abidiff
# reports, added functions and variables aside) fails unless the library's
# soname changed too, with abidiff's report; a compatible addition passes.
#
#   scripts/abi.sh check [BUILD]  the check (BUILD: a shared build to use;
#                                 default: builds the three libraries in
#                                 build-abi)
#   scripts/abi.sh dump [BUILD]   writes abi/ from the build: at a release,
#                                 after the version and soname were bumped
#   scripts/abi.sh planted        the check on a copy of the tree with a
#                                 field removed from a public struct (must
#                                 fail naming it) and with a function added
#                                 (must pass)
#
# Needs abigail-tools (installed here when missing, as scripts/run.sh
# installs the rest). Part of CI (.ci/run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
libs="rendergraph:rendergraph/include rendergraph_frame:rendergraph/frame/include engine:engine/include"

need_tools() {
  command -v abidiff >/dev/null && command -v abidw >/dev/null && return
  local sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y --no-install-recommends abigail-tools >/dev/null
}

# The three libraries of the tree at $1, built shared into $2.
build() {
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_SHARED_LIBS=ON -DVKG_BUILD_TESTS=OFF \
    -DVKG_BUILD_DEMOS=OFF -DVKG_BUILD_BENCHMARKS=OFF -DVKG_INSTALL=OFF >/dev/null
  cmake --build "$2" -j "$(nproc 2>/dev/null || echo 2)" --target rendergraph rendergraph_frame engine >/dev/null
}

# lib$1.so.X.Y.Z in build folder $2.
library() {
  find "$2" -name "lib$1.so.*.*.*" -type f | head -n 1
}

soname_of() {
  objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'
}

# Checks the build at $2 against abi/ of the tree at $1; 1 on a break.
check_build() {
  local src=$1 dir=$2 bad=0 entry name headers lib stored old new rc report
  for entry in $libs; do
    name=${entry%%:*}
    headers=$src/${entry#*:}
    lib=$(library "$name" "$dir")
    stored=$root/abi/lib$name.abi
    [ -n "$lib" ] || { echo "abi.sh: lib$name.so not built in $dir" >&2; return 2; }
    [ -f "$stored" ] || { echo "abi.sh: $stored missing (scripts/abi.sh dump)" >&2; return 2; }
    old=$(sed -n 's/.*<abi-corpus[^>]* soname=.\([^"'"'"']*\).*/\1/p' "$stored" | head -n 1)
    new=$(soname_of "$lib")
    rc=0
    report=$(abidiff --no-added-syms --headers-dir2 "$headers" "$stored" "$lib") || rc=$?
    if [ $((rc & 3)) -ne 0 ]; then
      echo "abi.sh: abidiff failed on lib$name ($rc):" >&2
      echo "$report" >&2
      return 2
    fi
    if [ "$rc" -eq 0 ]; then
      echo "abi: lib$name ($new): compatible with the last release"
    elif [ "$old" = "$new" ]; then
      echo "abi: lib$name ($new): the ABI changed and the soname did not (bump the version: CHANGELOG.md)"
      echo "$report"
      bad=1
    else
      echo "abi: lib$name: the ABI changed with the soname ($old -> $new); refresh abi/ with scripts/abi.sh dump"
    fi
  done
  return $bad
}

cmd=${1:-check}
need_tools
case "$cmd" in
check)
  dir=${2:-$root/build-abi}
  [ -n "${2:-}" ] || build "$root" "$dir"
  check_build "$root" "$dir"
  ;;
dump)
  dir=${2:-$root/build-abi}
  [ -n "${2:-}" ] || build "$root" "$dir"
  mkdir -p "$root/abi"
  for entry in $libs; do
    name=${entry%%:*}
    abidw --headers-dir "$root/${entry#*:}" --out-file "$root/abi/lib$name.abi" "$(library "$name" "$dir")"
    echo "abi/lib$name.abi: $(soname_of "$(library "$name" "$dir")")"
  done
  ;;
planted)
  work=$(mktemp -d "${TMPDIR:-/tmp}/vkg-abi.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  git -C "$root" archive HEAD | tar -x -C "$work" --one-top-level=tree
  header=$work/tree/rendergraph/include/rendergraph/rendergraph.h
  # A field removed from a public struct (rg_queue_note.eligible, which
  # one line of the library fills): must fail, naming it.
  queries=$work/tree/rendergraph/src/report/queries.c
  fill='g->decl.cmds[n->cmd].queue, '
  grep -q '^    rg_queue eligible;$' "$header" && grep -qF "$fill" "$queries" ||
    { echo "abi.sh planted: rg_queue_note.eligible or its one use moved; update the plant" >&2; exit 2; }
  sed -i '/^    rg_queue eligible;$/d' "$header"
  sed -i "s/$(printf '%s' "$fill" | sed 's/[][\/.*^$]/\\&/g')//" "$queries"
  build "$work/tree" "$work/removed"
  out=$(check_build "$work/tree" "$work/removed") && { echo "$out"; echo "abi.sh planted: a removed field passed" >&2; exit 1; }
  echo "$out" | grep -q "eligible" || { echo "$out"; echo "abi.sh planted: the report does not name the field" >&2; exit 1; }
  echo "planted: rg_queue_note.eligible removed: fails, naming it:"
  echo "$out" | grep "soname did not" | sed 's/^/  /'
  echo "$out" | grep -m 2 "eligible" | sed 's/^/  /'
  # A function added: must pass.
  git -C "$root" archive HEAD | tar -x -C "$work" --one-top-level=added
  echo 'int rg_abi_planted_addition(void);' >> "$work/added/rendergraph/include/rendergraph/rendergraph.h"
  echo 'int rg_abi_planted_addition(void) { return 1; }' >> "$work/added/rendergraph/src/base/version.c"
  build "$work/added" "$work/added-build"
  check_build "$work/added" "$work/added-build" >/dev/null || { echo "abi.sh planted: an added function failed" >&2; exit 1; }
  echo "planted: rg_abi_planted_addition added: passes"
  ;;
*)
  echo "usage: scripts/abi.sh check [BUILD] | dump [BUILD] | planted" >&2
  exit 2
  ;;
esac
