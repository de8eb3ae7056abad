#!/bin/sh
# Mutation check: for each line of scripts/mutations.txt, applies the one
# change it names to a copy of the committed tree (a git worktree of HEAD),
# builds the named test program and runs the named tests, which must fail.
# A line `rule | ID | broken | program | filter` names a rule of
# rendergraph/src/base/rules.h by its id instead of its text: the tree is
# built with mutation hooks (VKG_MUTATION_HOOKS) and the tests run with
# RG_MUTATE_RULE=ID, which inverts that rule's check (RG__RULE), so the
# line holds however the rule's code moves or its words change.
# Every rule the headers state has a line; a rule whose line survives has
# no test that pins it.
#
# Configured once (no demos, no benchmarks), the named programs built once
# and each named test run on the unmutated tree first (it must pass there,
# or its failure under the mutation proves nothing); then per mutation the
# build is incremental (the mutated file and the program's link). Prints
# "killed" or "SURVIVED" per mutation and the time taken; exits 1 if any
# survived, could not be applied or built, or a test failed unmutated.
# Part of CI (.ci/run).
#
#   scripts/mutate.sh [FILTER]    only mutations whose line contains FILTER
#
# Environment: MUTATE_JOBS (parallel build jobs, default nproc).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/scripts/mutations.txt"
jobs=${MUTATE_JOBS:-$(nproc 2>/dev/null || echo 2)}
start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/vkg-mutate.XXXXXX")
trap 'git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/tree" HEAD >/dev/null
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | grep -F -- "${1:-}" >"$work/lines" || true
if [ ! -s "$work/lines" ]; then
  echo "mutate.sh: no mutation matches '${1:-}'" >&2
  exit 1
fi
if [ "$(sort "$work/lines" | uniq -d | wc -l)" -ne 0 ]; then
  echo "mutate.sh: mutations.txt repeats a line:" >&2
  sort "$work/lines" | uniq -d >&2
  exit 1
fi
# The programs and tests the mutations name.
awk -F ' [|] ' 'NF == 5 { print $4 }' "$work/lines" | sort -u >"$work/programs"
awk -F ' [|] ' 'NF == 5 { print $4 " " $5 }' "$work/lines" | sort -u >"$work/tests"

cmake -S "$work/tree" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKG_BUILD_DEMOS=OFF \
  -DVKG_BUILD_BENCHMARKS=OFF -DVKG_MUTATION_HOOKS=ON >/dev/null
# shellcheck disable=SC2046
if ! cmake --build "$work/build" -j "$jobs" --target $(cat "$work/programs") >"$work/log" 2>&1; then
  tail -40 "$work/log" >&2
  echo "mutate.sh: the unmutated tree does not build" >&2
  exit 1
fi
echo "built $(wc -l <"$work/programs") programs in $(($(date +%s) - start)) s"
export ENG_REQUIRE_DEVICE=1
# The tile-memory layer's programs find it where the build writes its
# manifest (as CTest's environment gives them).
export VK_ADD_LAYER_PATH="$work/build/tests/layers"
while read -r prog flt; do
  if ! "$work/build/tests/$prog" --filter "$flt" --jobs 1 >"$work/log" 2>&1 ||
     grep -q 'Tested: 0 ' "$work/log"; then
    tail -20 "$work/log"
    echo "FAILS UNMUTATED (or matches no test): $prog $flt"
    touch "$work/bad"
  fi
done <"$work/tests"

while IFS= read -r line; do
  printf '%s\n' "$line" >"$work/line"
  if ! python3 - "$work/tree" "$work/line" "$work/target" <<'PY'
import sys
tree, line, target = sys.argv[1:]
fields = [x.strip() for x in open(line).read().split(" | ")]
if len(fields) != 5:
    sys.exit("%d fields, not 5 (a text may not hold ' | ')" % len(fields))
f, old, new, prog, flt = fields
if f == "rule":
    import glob
    uses = sum(open(p).read().count("RG__RULE(%s," % old)
               for p in glob.glob(tree + "/rendergraph/src/**/*.[ch]", recursive=True))
    if uses == 0:
        sys.exit("rule %s is checked nowhere (RG__RULE(%s, ...))" % (old, old))
    open(target, "w").write("rule %s\n%s\n%s\n" % (old, prog, flt))
    sys.exit(0)
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
  if [ "${f%% *}" = rule ]; then
    # The program as committed: a text mutation before it left its build
    # behind (the file restored, the program not yet rebuilt).
    if ! cmake --build "$work/build" --target "$prog" -j "$jobs" >"$work/log" 2>&1; then
      tail -20 "$work/log"
      echo "NOT BUILT: $f: $prog $flt"; touch "$work/bad"; continue
    elif RG_MUTATE_RULE=${f#rule } "$work/build/tests/$prog" --filter "$flt" --jobs 1 >"$work/log" 2>&1; then
      result="SURVIVED"; touch "$work/bad"
    else
      result="killed"
    fi
    echo "$result: $f: $prog $flt"
    continue
  fi
  if ! cmake --build "$work/build" --target "$prog" -j "$jobs" >"$work/log" 2>&1; then
    tail -20 "$work/log"
    result="NOT BUILT (a mutation must compile)"; touch "$work/bad"
  elif "$work/build/tests/$prog" --filter "$flt" --jobs 1 >"$work/log" 2>&1; then
    result="SURVIVED"; touch "$work/bad"
  else
    result="killed"
  fi
  mv "$work/tree/$f.orig" "$work/tree/$f"
  # Newer than the mutated build: the next build compiles it back.
  touch "$work/tree/$f"
  echo "$result: $f: $prog $flt"
done <"$work/lines"
echo "$(wc -l <"$work/lines") mutations in $(($(date +%s) - start)) s"
[ ! -f "$work/bad" ]
