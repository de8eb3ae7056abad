#!/usr/bin/env bash
# Checks the call graph between a static library's source files, from its
# objects (nm): which file calls into which.
#
#   check_stages.sh --order OBJECT...     no file calls into a file whose
#                                         object is listed after its own
#                                         (the rendergraph's stages)
#   check_stages.sh --acyclic OBJECT...   no cycle among the files (tsort)
# CTest passes $<TARGET_OBJECTS:...>, in the order of the target's sources.
# VERBOSE=1 prints the edges. Exit 1 on a violation.
set -euo pipefail
mode=${1:?usage}; shift
[ $# -gt 0 ] || { echo "check_stages.sh: no objects given" >&2; exit 2; }
verbose=${VERBOSE:-}
objects=("$@")

# "caller callee symbol" for every call between two of the objects.
edges() {
  local o
  for o in "${objects[@]}"; do
    nm --defined-only "$o" | awk -v f="$(basename "$o" .o)" '$2 ~ /^[TDBRC]$/ { print "D", f, $3 }'
    nm --undefined-only "$o" | awk -v f="$(basename "$o" .o)" '{ print "U", f, $2 }'
  done | awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
              END { for (i = 1; i <= n; i++) { split(use[i], u, " ");
                      if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]], u[2] } }' | sort -u
}

case "$mode" in
--order)
  rank=""
  i=0
  for f in "${objects[@]}"; do rank+="$(basename "$f" .o) $i"$'\n'; i=$((i + 1)); done
  edges | awk -v ranks="$rank" -v verbose="$verbose" '
    BEGIN { n = split(ranks, lines, "\n"); for (i = 1; i <= n; i++) if (lines[i] != "") { split(lines[i], p, " "); r[p[1]] = p[2] } }
    { if (!($1 in r) || !($2 in r)) { print "check_stages: " $1 " or " $2 " is not in the stage list"; bad = 1; next }
      if (verbose) print $1 " -> " $2 " (" $3 ")"
      if (r[$2] > r[$1]) { print "check_stages: " $1 " calls " $3 " of " $2 ", a later stage"; bad = 1 } }
    END { exit bad }'
  echo "check_stages: $# files, no call into a later stage"
  ;;
--acyclic)
  e=$(edges)
  [ -n "$verbose" ] && printf '%s\n' "$e"
  if ! printf '%s\n' "$e" | awk 'NF { print $1, $2 }' | tsort >/dev/null 2>/tmp/check_stages.$$; then
    cat /tmp/check_stages.$$ >&2; rm -f /tmp/check_stages.$$; exit 1
  fi
  if grep -q loop /tmp/check_stages.$$; then cat /tmp/check_stages.$$ >&2; rm -f /tmp/check_stages.$$; exit 1; fi
  rm -f /tmp/check_stages.$$
  echo "check_stages: $# files, no cycle"
  ;;
*) echo "usage: check_stages.sh --order|--acyclic OBJECT..." >&2; exit 2 ;;
esac
