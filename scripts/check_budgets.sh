#!/usr/bin/env bash
# Checks the budgets the code keeps (docs/internals.md, "Budgets"), so a
# slip shows in CTest rather than in a review:
#
#   check_budgets.sh --functions MAX PREFIX LIB
#       LIB (static or shared) defines at most MAX public functions named
#       PREFIX_ followed by a letter or digit (internal PREFIX__ helpers
#       do not count).
#   check_budgets.sh --duplicates MAX DIR
#       `duplicates` finds at most MAX pairs of places sharing six or more
#       lines in the files below DIR. It is a tool of the team's machines,
#       not a Debian package: where it is not installed this says so and
#       exits 77, which CTest reports as skipped.
#
# Several checks may follow each other on one command line. Exit 1 when a
# budget is exceeded, naming it with the figure; 2 on a usage error.
set -euo pipefail

usage() { echo "usage: check_budgets.sh [--functions MAX PREFIX LIB] [--duplicates MAX DIR]..." >&2; exit 2; }
[ $# -gt 0 ] || usage
bad=0
skipped=0

functions() {
  local max=$1 prefix=$2 lib=$3 n
  [ -f "$lib" ] || { echo "check_budgets: no such library: $lib" >&2; exit 2; }
  case "$lib" in
    *.so | *.so.*) n=$(nm -D --defined-only "$lib" | grep -cE " T ${prefix}_[a-z0-9]" || true) ;;
    *) n=$(nm --defined-only "$lib" 2>/dev/null | grep -cE " T ${prefix}_[a-z0-9]" || true) ;;
  esac
  if [ "$n" -gt "$max" ]; then
    echo "check_budgets: $(basename "$lib") exports $n ${prefix}_ functions, over its budget of $max"
    bad=1
  else
    echo "check_budgets: $(basename "$lib") exports $n ${prefix}_ functions (budget $max)"
  fi
}

duplicates_in() {
  local max=$1 dir=$2 out n
  [ -d "$dir" ] || { echo "check_budgets: no such folder: $dir" >&2; exit 2; }
  if ! command -v duplicates >/dev/null 2>&1; then
    echo "check_budgets: 'duplicates' is not installed here: the budget of $max pairs in $dir is not checked"
    skipped=1
    return
  fi
  out=$(cd "$dir" && duplicates --most 200 --seconds 300)
  if printf '%s\n' "$out" | grep -q '^incomplete:'; then
    printf '%s\n' "$out" | grep '^incomplete:'
    echo "check_budgets: duplicates did not read all of $dir in time"
    bad=1
    return
  fi
  n=$(printf '%s\n' "$out" | head -1 | grep -oE '^[0-9]+' || echo 0)
  if [ "$n" -gt "$max" ]; then
    printf '%s\n' "$out"
    echo "check_budgets: $n pairs of duplicated places in $dir, over its budget of $max"
    bad=1
  else
    echo "check_budgets: $n pairs of duplicated places in $dir (budget $max)"
  fi
}

while [ $# -gt 0 ]; do
  case "$1" in
    --functions) [ $# -ge 4 ] || usage; functions "$2" "$3" "$4"; shift 4 ;;
    --duplicates) [ $# -ge 3 ] || usage; duplicates_in "$2" "$3"; shift 3 ;;
    *) usage ;;
  esac
done
[ $bad -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
exit 0
