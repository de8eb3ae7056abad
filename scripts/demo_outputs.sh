#!/usr/bin/env bash
# Renders every demo with fixed flags and keeps all it writes: the last
# frame (PNG), the graph (DOT), the memory timeline (SVG) and stdout (the
# memory lines and reports). Two builds' outputs compare file by file: a
# change that must not alter behaviour leaves them equal.
#
#   scripts/demo_outputs.sh BUILD_DIR OUT_DIR
#   scripts/demo_outputs.sh --compare OUT_A OUT_B     cmp each file (stdout
#                                                     less its screenshot line)
set -u
if [ "${1:-}" = "--compare" ]; then
  a=${2:?}; b=${3:?}; status=0
  for f in "$a"/*; do
    n=$(basename "$f")
    if [[ $n == *.txt ]]; then
      diff <(grep -v ': screenshot ' "$f") <(grep -v ': screenshot ' "$b/$n") >/dev/null || { echo "differs: $n"; status=1; }
    else
      cmp -s "$f" "$b/$n" || { echo "differs: $n"; status=1; }
    fi
  done
  [ $status -eq 0 ] && echo "demo_outputs: $(ls "$a" | wc -l) files equal"
  exit $status
fi
bin=${1:?usage: demo_outputs.sh BUILD_DIR OUT_DIR}
out=${2:?usage: demo_outputs.sh BUILD_DIR OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
status=0
run() { # run TAG DEMO FLAGS...
  local tag=$1 demo=$2
  shift 2
  "$root/scripts/with-display.sh" "$bin/demos/$demo" --frames 12 --width 320 --height 240 --validation \
    --screenshot "$out/$tag.png" --dot "$out/$tag.dot" --timeline "$out/$tag.svg" --report "$@" \
    >"$out/$tag.txt" 2>&1 || { echo "demo_outputs: $tag failed (see $out/$tag.txt)"; status=1; }
}
run msaa msaa
run msaa1 msaa --samples 1
run depth depth
run depth_notest depth --no-depth-test
run deferred deferred
run deferred4 deferred --samples 4
run deferred_lights deferred --lights 3
run postfx postfx
run postfx_some postfx --passes edges,grade,fxaa
run postfx_toggle postfx --toggle-test
exit $status
