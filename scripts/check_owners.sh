#!/usr/bin/env bash
# Checks the render graph's ownership rule for what execute writes
# (rendergraph/src/execute/results.h): every part has one writer. The
# compile results and the placement need no check: the model holds them
# behind pointers to const, and only graph.c, which hands each stage its
# own part, can write them (the compiler refuses the rest). This check
# reads the sources for the per-frame state:
#   - a part of g->exec is written, or a non-const pointer to it taken,
#     only in the files its comment in execute/results.h names.
# Usage: check_owners.sh [SRC_DIR] (default rendergraph/src). Exit 1 on a
# violation, naming the file, the line and the part.
set -euo pipefail
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/rendergraph/src}

# part of rg__execution -> the files that may write it
declare -A owners=(
  [frames]="execute_frames.c execute_chunks.c execute.c"
  [bound]="execute_imports.c"
  [access_views]="record_descriptors.c"
  [by_hand]="record_context.c graph.c"
  [timing]="record_timings.c"
  [submitted]="submit.c"
)

bad=0
# A write: an assignment, increment or compound assignment on the line
# after the part's name, or a non-const pointer to it (&...exec->part
# outside a const declaration or a call that only reads).
write_re='(=[^=]|\+\+|--|\+=|-=|\|=|&=)'
while read -r f; do
  name=$(basename "$f")
  while IFS=: read -r line text; do
    part=$(printf '%s\n' "$text" | grep -oE 'exec->[a-z_]+' | head -1 | sed 's/exec->//')
    [ -n "$part" ] || continue
    allowed=${owners[$part]:-}
    if [ -z "$allowed" ]; then
      echo "check_owners: $name:$line: exec->$part is not a part execute/results.h names"
      bad=1
      continue
    fi
    case " $allowed " in *" $name "*) continue ;; esac
    after=${text#*exec->$part}
    if printf '%s\n' "$after" | grep -qE "^[^;(]*$write_re" ||
       printf '%s\n' "$text" | grep -qE "^[[:space:]]*[a-z_]+ \*[a-z_]+ = &[a-z_]+->exec->$part"; then
      echo "check_owners: $name:$line: writes exec->$part, which only ${allowed// /, } may write"
      bad=1
    fi
  done < <(grep -nE 'exec->[a-z_]+' "$f" || true)
done < <(find "$src" -name '*.c' | sort)
[ $bad -eq 0 ] && echo "check_owners: each part of exec written by its owner"
exit $bad
