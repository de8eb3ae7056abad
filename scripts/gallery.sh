#!/usr/bin/env bash
# Regenerates the README's gallery in demos/gallery/: a screenshot of each
# demo (under Xvfb + lavapipe when there is no display), the deferred demo's
# render graph drawn by Graphviz, and its memory timeline.
#
#   scripts/gallery.sh            uses build/ (BUILD_DIR to change), builds it
#
# Graphviz (Debian: graphviz) is optional: without `dot` the graph picture is
# left as it is and the script says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_dir=${BUILD_DIR:-build}
out=demos/gallery
size=(--width 640 --height 360)
BUILD_DIR=$build_dir ./scripts/run.sh build >/dev/null
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shot() { # shot NAME DEMO ARGS...: the last of a deterministic run of frames
  local name=$1 demo=$2; shift 2
  echo "gallery: $name"
  scripts/with-display.sh "$build_dir/demos/$demo" --validation "${size[@]}" --screenshot "$out/$name.png" "$@" \
    > "$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" >&2; exit 1; }
}

shot msaa msaa --frames 30
shot depth depth --frames 30
shot deferred deferred --frames 40 --dot "$tmp/deferred.dot" --timeline "$out/deferred-timeline.svg"
shot postfx postfx --frames 30
shot postfx-trails postfx --frames 30 --trails
if command -v dot >/dev/null; then
  dot -Tsvg "$tmp/deferred.dot" -o "$out/deferred-graph.svg"
else
  echo "gallery: Graphviz 'dot' not found (apt-get install graphviz): $out/deferred-graph.svg left as it is"
fi
ls -l "$out"
