#!/usr/bin/env bash
# Runs every benchmark at its GPU-machine sizes and writes JSON and the
# printed tables into OUTDIR:
#   memory_budget.{json,txt}       1280x720, 1920x1080, 2560x1440, 7 rounds
#   memory_budget_tile.{json,txt}  the same under VK_LAYER_VKGRAPH_tile_memory
#                                  (figures labelled "emulated by ...")
#   graph_cpu.{json,txt}           10 .. 10,000 commands and the deferred
#                                  frame at 1920x1080, graph vs hand-written
#   gpu_frame.{json,txt}           the deferred frame at 1920x1080 and
#                                  3840x2160, graph vs hand, aliasing on/off
#   gpu_frame_merge_{off,on}.*     the same with span merging forced off / on
#   gpu_frame_overlap.{json,txt}   the overlap frame (shadow cascades beside an
#                                  async-compute pass) at 1920x1080 and
#                                  3840x2160: single queue, async compute,
#                                  single queue with concurrent sharing, and
#                                  the measured queue policy with its choice
#   gpu_frame_scene.{json,txt}     the same four on the scene demo's frame
#   *_validation.txt               small runs of graph_cpu and gpu_frame (both
#                                  frames) under synchronization validation
#                                  (must be silent)
#   environment.txt                date, device, driver, commands
# then the plots (scripts/plot_benchmarks.sh) when gnuplot and jq are there.
#
#   BIN=gpu-run LAYERS=gpu-run/layers bash benchmarks/run_gpu.sh "$OUT"
#
# BIN: the folder holding memory_budget, graph_cpu and gpu_frame (default
# build/benchmarks); LAYERS: the folder holding the tile-memory layer's JSON
# manifest (default build/tests/layers); ONLY: the runs to make, by name
# (e.g. ONLY="gpu_frame_overlap gpu_frame_scene"; default: all). GPU_ENV: a file sourced first when
# it exists (default .gpu/env.sh, the GPU machine's environment). A device
# is required (ENG_REQUIRE_DEVICE=1): no device is a failure, not a skip.
# Each run's exit status is recorded; the script exits 1 if any failed.
set -u
OUT=${1:?usage: BIN=... LAYERS=... bash benchmarks/run_gpu.sh OUTDIR}
BIN=${BIN:-build/benchmarks}
LAYERS=${LAYERS:-build/tests/layers}
GPU_ENV=${GPU_ENV:-.gpu/env.sh}
# shellcheck disable=SC1090
[ -f "$GPU_ENV" ] && . "$GPU_ENV"
export ENG_REQUIRE_DEVICE=1
mkdir -p "$OUT"
BIN=$(cd "$BIN" && pwd) || { echo "run_gpu.sh: no folder $BIN" >&2; exit 1; }
LAYERS=$(cd "$LAYERS" && pwd) || { echo "run_gpu.sh: no folder $LAYERS" >&2; exit 1; }
for b in memory_budget graph_cpu gpu_frame; do
  [ -x "$BIN/$b" ] || { echo "run_gpu.sh: $BIN/$b missing" >&2; exit 1; }
done

status=0
env_txt="$OUT/environment.txt"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(uname -srm)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  command -v vulkaninfo >/dev/null &&
    vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverVersion|driverInfo|apiVersion'
  echo "BIN=$BIN LAYERS=$LAYERS"
} > "$env_txt"

# run NAME COMMAND...: output to OUT/NAME.txt and the terminal, status noted.
run() {
  local name=$1
  shift
  [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $name "* ]] || return 0
  echo "== $name: $*" | tee -a "$env_txt"
  "$@" 2>&1 | tee "$OUT/$name.txt"
  local rc=${PIPESTATUS[0]}
  echo "   exit $rc" | tee -a "$env_txt"
  [ "$rc" -eq 0 ] || status=1
}

run memory_budget "$BIN/memory_budget" --json "$OUT/memory_budget.json"
run memory_budget_tile env ENG_LAYERS=VK_LAYER_VKGRAPH_tile_memory \
  "VK_ADD_LAYER_PATH=${VK_ADD_LAYER_PATH:+$VK_ADD_LAYER_PATH:}$LAYERS" \
  "$BIN/memory_budget" --json "$OUT/memory_budget_tile.json"
run graph_cpu "$BIN/graph_cpu" --reps 21 --deferred 1920x1080 --json "$OUT/graph_cpu.json"
run gpu_frame "$BIN/gpu_frame" --sizes 1920x1080,3840x2160 --frames 100 --warmup 10 --json "$OUT/gpu_frame.json"
# Span merging forced off and on: the evidence for the driver's default.
for m in off on; do
  run gpu_frame_merge_$m "$BIN/gpu_frame" --merge $m --sizes 1920x1080,3840x2160 --frames 100 --warmup 10 \
    --json "$OUT/gpu_frame_merge_$m.json"
done
# Async compute: the overlap frame and the scene frame on one queue, on
# two, and as the measured queue policy chooses.
run gpu_frame_overlap "$BIN/gpu_frame" --frame overlap --sizes 1920x1080,3840x2160 --frames 100 --warmup 10 \
  --json "$OUT/gpu_frame_overlap.json"
run gpu_frame_scene "$BIN/gpu_frame" --frame scene --sizes 1920x1080,3840x2160 --frames 100 --warmup 10 \
  --json "$OUT/gpu_frame_scene.json"
# Under validation (times not meaningful): the hand-written frames and the
# graph's must both pass synchronization validation.
run graph_cpu_validation "$BIN/graph_cpu" --sizes 10,100,1000 --reps 1 --deferred 1920x1080 --validation
run gpu_frame_validation "$BIN/gpu_frame" --sizes 1920x1080 --frames 2 --warmup 1 --validation
run gpu_frame_merge_on_validation "$BIN/gpu_frame" --merge on --sizes 1920x1080 --frames 2 --warmup 1 --validation
run gpu_frame_overlap_validation "$BIN/gpu_frame" --frame overlap --sizes 1920x1080 --frames 2 --warmup 1 \
  --validation

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -f "$here/../scripts/plot_benchmarks.sh" ] && command -v gnuplot >/dev/null && command -v jq >/dev/null; then
  bash "$here/../scripts/plot_benchmarks.sh" "$OUT" "$OUT" || status=1
else
  echo "(no plots here: run scripts/plot_benchmarks.sh $OUT where gnuplot and jq are installed)"
fi
echo "run_gpu.sh: results in $OUT (status $status)"
exit $status
