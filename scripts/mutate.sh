#!/bin/sh
# Mutation check: for each line of scripts/mutations.txt, applies the one
# change it names to a copy of the committed tree (a git worktree of HEAD),
# builds the named test program and runs the named tests, which must fail.
# Prints "killed" or "SURVIVED" per mutation; exits 1 if any survived or
# could not be applied. Not part of CI (each mutation rebuilds): run it
# after changing a rule, and add the rule's mutation to the list.
#
#   scripts/mutate.sh [FILTER]    only mutations whose line contains FILTER
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/scripts/mutations.txt"
work=$(mktemp -d "${TMPDIR:-/tmp}/vkg-mutate.XXXXXX")
trap 'git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/tree" HEAD >/dev/null
cmake -S "$work/tree" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | grep -F -- "${1:-}" | while IFS= read -r line; do
  printf '%s\n' "$line" > "$work/line"
  if ! python3 - "$work/tree" "$work/line" "$work/target" <<'PY'
import sys
tree, line, target = sys.argv[1:]
f, old, new, prog, flt = [x.strip() for x in open(line).read().split(" | ")]
path = tree + "/" + f
s = open(path).read()
if s.count(old) != 1:
    sys.exit("%s: %r occurs %d times" % (f, old, s.count(old)))
open(path + ".orig", "w").write(s)
open(path, "w").write(s.replace(old, new))
open(target, "w").write("%s\n%s\n%s\n" % (f, prog, flt))
PY
  then echo "CANNOT APPLY: $line"; touch "$work/bad"; continue; fi
  f=$(sed -n 1p "$work/target"); prog=$(sed -n 2p "$work/target"); flt=$(sed -n 3p "$work/target")
  if ! cmake --build "$work/build" --target "$prog" -j2 >"$work/log" 2>&1; then
    result="NOT BUILT (a mutation must compile)"; touch "$work/bad"
  elif ENG_REQUIRE_DEVICE=1 "$work/build/tests/$prog" --filter "$flt" --jobs 1 >"$work/log" 2>&1; then
    result="SURVIVED"; touch "$work/bad"
  else
    result="killed"
  fi
  mv "$work/tree/$f.orig" "$work/tree/$f"
  echo "$result: $f: $prog $flt"
done
[ ! -f "$work/bad" ]
