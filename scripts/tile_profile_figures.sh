#!/usr/bin/env bash
set -uo pipefail
# The deferred and scene demos' frames under every tile profile (docs/tiles.md), merged
# where the graph merges (--merge on), on Debian 13's lavapipe (local read) under the
# tile-memory layer held to the profile: merges taken and refused for the budget,
# lazy and pooled MiB, the graph's tile-traffic estimate, validation. Needs root
# (scripts/stack.sh). Prints a table for benchmarks/README.md.
cd "$(dirname "$0")/.."
root=$(pwd)
printf "%-8s %-13s %6s %7s %9s %10s %11s %s\n" demo profile merged refused "lazy MiB" "pooled MiB" "traffic MiB" "validation"
for demo in deferred scene; do
  for p in desktop apple2 apple4 apple7 mali-g71 mali-g72 mali-g76 mali-g57 mali-g310 mali-g610 mali-g720 \
           adreno6 adreno7 adreno-a810 adreno-a840 adreno-x2-85; do
    out=$(STACK=debian13 ENG_LAYERS=VK_LAYER_VKGRAPH_tile_memory VK_ADD_LAYER_PATH=$root/build-debian13/tests/layers \
          VKGRAPH_TILE_PROFILE=$p ENG_TILE_PROFILE=$p ./scripts/run.sh demo $demo --headless --validation --report --merge on --frames 3 2>&1)
    merged=$(printf '%s\n' "$out" | grep -c "^merge '.*: merged$")
    refused=$(printf '%s\n' "$out" | grep "^merge '" | grep -c "not merged: the instance would need")
    lazy=$(printf '%s\n' "$out" | grep -m1 "^pooled" | sed -E 's/.*lazy [0-9]+ \(([0-9.]+) MiB\).*/\1/')
    pooled=$(printf '%s\n' "$out" | grep -m1 "^pooled" | sed -E 's/^pooled [0-9]+ bytes \(([0-9.]+) MiB\).*/\1/')
    traffic=$(printf '%s\n' "$out" | grep -m1 "  frame: loads" | sed -E 's/.* bytes \(([0-9.]+) MiB.*/\1/')
    val=$(printf '%s\n' "$out" | grep -m1 -o "validation: [0-9]* warnings, [0-9]* errors")
    printf "%-8s %-13s %6s %7s %9s %10s %11s %s\n" $demo $p "$merged" "$refused" "$lazy" "$pooled" "$traffic" "$val"
  done
done
