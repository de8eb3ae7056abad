#!/usr/bin/env bash
# Checks the render graph's layer rule (docs/internals.md): its source is
# one folder per layer under rendergraph/src, in this order from the
# bottom,
#   base  declare  compile  place  execute  report
# with the conductor (graph.c, graph_execute.c) and the model header
# (model.h) at src/ itself. A file includes and calls only its own layer
# and the layers below it:
#   - includes, read from the sources: `#include "LAYER/..."` names a
#     layer no higher than the file's own; model.h, the model every layer
#     shares, may be included anywhere, and itself includes nothing above
#     declare (the later layers' data stays behind pointers);
#   - calls, read from the objects (nm): a function a file calls is
#     defined in its own layer or one below.
# A subfolder (compile/schedule) is part of its layer.
#
#   check_layers.sh SRC_DIR OBJECT...
#
# CTest passes rendergraph/src and $<TARGET_OBJECTS:rendergraph>
# (layers_rendergraph); layers_selftest runs it on a planted call and a
# planted include, which it must refuse. VERBOSE=1 prints every edge.
# Exit 1 on a violation, naming the file, the line or symbol and both
# layers; 2 on a usage error.
set -euo pipefail
src=${1:?usage: check_layers.sh SRC_DIR OBJECT...}
shift
[ -d "$src" ] || { echo "check_layers: no such folder: $src" >&2; exit 2; }
verbose=${VERBOSE:-}
layers="base declare compile place execute report"

# The rank of a layer name (0 = base); the conductor's files rank above all.
rank() {
  local i=0 l
  for l in $layers; do
    [ "$l" = "$1" ] && { echo $i; return; }
    i=$((i + 1))
  done
  echo 99
}

# The layer of a path below src/ (its first folder; "" at src/ itself).
layer_of() {
  case "$1" in
  */*) echo "${1%%/*}" ;;
  *) echo "" ;;
  esac
}

bad=0
files=0
# Includes.
while read -r f; do
  rel=${f#"$src"/}
  own=$(layer_of "$rel")
  files=$((files + 1))
  if [ -n "$own" ] && [ "$(rank "$own")" -eq 99 ]; then
    echo "check_layers: $rel is in '$own', which is not a layer ($layers)"
    bad=1
    continue
  fi
  limit=$([ -n "$own" ] && rank "$own" || echo 99)
  [ "$rel" = model.h ] && limit=$(rank declare)
  while IFS=: read -r line inc; do
    target=$(layer_of "$inc")
    [ -n "$target" ] && [ "$(rank "$target")" -ne 99 ] || continue # model.h, a public header
    [ -n "$verbose" ] && echo "$rel:$line includes $inc"
    if [ "$(rank "$target")" -gt "$limit" ]; then
      echo "check_layers: $rel:$line includes $inc: '$target' is above '${own:-model.h}'"
      bad=1
    fi
  done < <(grep -nE '^#include "[^"]+"' "$f" | sed -E 's/^([0-9]+):#include "([^"]+)".*/\1:\2/')
done < <(find "$src" -name '*.[ch]' | sort)

# Calls: every symbol an object uses that another object of the list
# defines, with both objects' layers (from the object's path below src/).
calls=0
if [ $# -gt 0 ]; then
  while read -r caller callee symbol; do
    calls=$((calls + 1))
    lc=$(layer_of "$caller")
    ld=$(layer_of "$callee")
    rc=$([ -n "$lc" ] && rank "$lc" || echo 99)
    rd=$([ -n "$ld" ] && rank "$ld" || echo 99)
    [ -n "$verbose" ] && echo "$caller -> $callee ($symbol)"
    if [ "$rd" -gt "$rc" ]; then
      echo "check_layers: ${caller%.o} calls $symbol of ${callee%.o}: '${ld:-src}' is above '${lc:-src}'"
      bad=1
    fi
  done < <(
    for o in "$@"; do
      rel=${o##*/src/}
      nm --defined-only "$o" | awk -v f="$rel" '$2 ~ /^[TDBRC]$/ { print "D", f, $3 }'
      nm --undefined-only "$o" | awk -v f="$rel" '{ print "U", f, $2 }'
    done | awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
                END { for (i = 1; i <= n; i++) { split(use[i], u, " ");
                        if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]], u[2] } }' | sort -u
  )
fi
if [ $bad -eq 0 ]; then
  echo "check_layers: $files files, $calls calls between $# objects: no include or call goes up a layer"
fi
exit $bad
