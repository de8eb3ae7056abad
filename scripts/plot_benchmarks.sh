#!/usr/bin/env bash
# Turns the benchmarks' JSON files into SVG plots with gnuplot.
#
#   scripts/plot_benchmarks.sh INDIR [OUTDIR]
#
# Reads whichever of these INDIR holds (the names benchmarks/run_gpu.sh
# writes; pass --json FILE to each benchmark to make them yourself):
#   memory_budget.json       -> memory_budget.svg       memory per mode per size
#   memory_budget_tile.json  -> memory_budget_tile.svg  the same, tile-memory layer
#   graph_cpu.json           -> graph_cpu.svg           graph vs hand-written
#                                                       ns/command by frame size
#   gpu_frame.json           -> gpu_frame.svg           ms per frame per configuration
# and writes the SVGs into OUTDIR (default INDIR).
#
# Needs gnuplot (Debian: gnuplot-nox) and jq; not part of the CI
# dependencies: install them where you plot.
set -eu
IN=${1:?usage: scripts/plot_benchmarks.sh INDIR [OUTDIR]}
OUTDIR=${2:-$IN}

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "plot_benchmarks.sh: $1 not found. Install it with: sudo apt-get install $2" >&2
    echo "  (macOS: brew install $1)" >&2
    exit 1
  fi
}
need gnuplot gnuplot-nox
need jq jq
mkdir -p "$OUTDIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
made=0

# The head of a clustered histogram chart with the sizes along x: written
# to SVG, titled TITLE (gnuplot's \n breaks its lines), YLABEL up the side.
histogram_head() { # SVG TITLE YLABEL
  cat <<EOF
set terminal svg size 800,450 dynamic noenhanced font "sans,12"
set output "$1"
set title "$2"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "$3"
set xlabel "size"
set key top left
set grid ytics
set yrange [0:*]
EOF
}

# ---------------------------------------------------------- memory_budget
# One row per size: persistent, transient, graph in MiB (median), from the
# heap usage delta when VK_EXT_memory_budget gave one, else committed bytes.
plot_memory() {
  local json=$1 svg=$2 label=$3
  local metric
  metric=$(jq -r 'if (.results[0].heap_delta | type) == "object" then "heap_delta" else "committed" end' "$json")
  jq -r --arg k "$metric" '
    def mib(x): if (x | type) == "object" then (x.median / 1048576) else "NaN" end;
    .results as $r
    | ([$r[] | "\(.width)x\(.height)"] | reduce .[] as $s ([]; if any(.[]; . == $s) then . else . + [$s] end))[]
    | . as $s
    | [$s] + [("persistent", "transient", "graph") as $m
              | ([$r[] | select("\(.width)x\(.height)" == $s and .mode == $m)][0]) as $e
              | if $e == null then "NaN" else mib($e[$k]) end]
    | @tsv' "$json" > "$tmp/memory.dat"
  local device emulated
  device=$(jq -r '.device' "$json")
  emulated=$(jq -r 'if .memory_budget_emulated_by then " (emulated by \(.memory_budget_emulated_by))" else "" end' \
    "$json")
  local what="committed bytes"
  [ "$metric" = heap_delta ] && what="device-local heap usage delta"
  {
    histogram_head "$svg" "memory_budget$label: 4 sets of 4x RGBA8 + 4x D32 depth\n$what$emulated\n$device" \
      "MiB (median)"
    cat <<EOF
plot "$tmp/memory.dat" using 2:xtic(1) title "persistent", '' using 3 title "transient", '' using 4 title "graph"
EOF
  } | gnuplot
  echo "wrote $svg"
  made=$((made + 1))
}
[ -f "$IN/memory_budget.json" ] && plot_memory "$IN/memory_budget.json" "$OUTDIR/memory_budget.svg" ""
[ -f "$IN/memory_budget_tile.json" ] &&
  plot_memory "$IN/memory_budget_tile.json" "$OUTDIR/memory_budget_tile.svg" " (tile-memory layer)"

# -------------------------------------------------------------- graph_cpu
# Generated frames: commands, graph ns/cmd, hand ns/cmd, ratio.
if [ -f "$IN/graph_cpu.json" ]; then
  jq -r '.results[] | select(.frame == "generated" and .ratio != null)
         | [.commands, .graph_execute_ns_per_cmd, .hand_ns_per_cmd, .ratio] | @tsv' \
    "$IN/graph_cpu.json" > "$tmp/cpu.dat"
  jq -r '.results[] | select((.frame | startswith("deferred")) and .ratio != null)
         | [.commands, .graph_execute_ns_per_cmd, .hand_ns_per_cmd, .ratio, (.frame | sub("deferred [0-9x]+ "; ""))]
         | @tsv' "$IN/graph_cpu.json" > "$tmp/cpu_deferred.dat"
  if [ -s "$tmp/cpu.dat" ]; then
    device=$(jq -r '.device' "$IN/graph_cpu.json")
    deferred_plot=""
    [ -s "$tmp/cpu_deferred.dat" ] &&
      deferred_plot=", \"$tmp/cpu_deferred.dat\" using 1:2 with points pt 7 ps 1.2 lc rgb '#d62728'"
    [ -s "$tmp/cpu_deferred.dat" ] &&
      deferred_plot+=" title 'deferred frame, graph', '' using 1:3 with points pt 5 ps 1.2 lc rgb '#1f77b4'"
    [ -s "$tmp/cpu_deferred.dat" ] &&
      deferred_plot+=" title 'deferred frame, hand', '' using 1:2:5 with labels offset 1,0.8 left font ',9' notitle"
    gnuplot <<EOF
set terminal svg size 800,450 dynamic noenhanced font "sans,12"
set output "$OUTDIR/graph_cpu.svg"
set title "graph_cpu: recording ns per command, graph (rg_execute) vs hand-written\n$device"
set logscale x
set xlabel "commands in the frame"
set ylabel "ns per command"
set y2label "ratio graph / hand"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set key outside bottom center horizontal maxrows 2
set datafile separator "\t"
set grid
plot "$tmp/cpu.dat" using 1:2 with linespoints pt 7 lc rgb '#d62728' title "graph", \
     '' using 1:3 with linespoints pt 5 lc rgb '#1f77b4' title "hand-written", \
     '' using 1:4 axes x1y2 with linespoints dt 2 pt 1 lc rgb '#555555' title "ratio (right axis)"$deferred_plot
EOF
    echo "wrote $OUTDIR/graph_cpu.svg"
    made=$((made + 1))
  fi
fi

# -------------------------------------------------------------- gpu_frame
# One row per size: the four configurations' median ms.
if [ -f "$IN/gpu_frame.json" ]; then
  jq -r '
    .results as $r
    | ([$r[] | "\(.width)x\(.height)"] | reduce .[] as $s ([]; if any(.[]; . == $s) then . else . + [$s] end))[]
    | . as $s
    | [$s] + [("aliasing on, graph", "aliasing on, hand", "aliasing off, graph", "aliasing off, hand") as $c
              | ([$r[] | select("\(.width)x\(.height)" == $s and .configuration == $c)][0]) as $e
              | if $e == null then "NaN" else $e.ms.median end]
    | @tsv' "$IN/gpu_frame.json" > "$tmp/gpu.dat"
  device=$(jq -r '.device' "$IN/gpu_frame.json")
  frames=$(jq -r '.frames' "$IN/gpu_frame.json")
  {
    histogram_head "$OUTDIR/gpu_frame.svg" \
      "gpu_frame: deferred frame, GPU ms per frame (median of $frames, timestamps)\n$device" "ms per frame"
    cat <<EOF
plot "$tmp/gpu.dat" using 2:xtic(1) title "aliasing on, graph", '' using 3 title "aliasing on, hand", \
     '' using 4 title "aliasing off, graph", '' using 5 title "aliasing off, hand"
EOF
  } | gnuplot
  echo "wrote $OUTDIR/gpu_frame.svg"
  made=$((made + 1))
fi

if [ "$made" -eq 0 ]; then
  echo "plot_benchmarks.sh: no benchmark JSON in $IN (memory_budget.json, memory_budget_tile.json," \
       "graph_cpu.json, gpu_frame.json)" >&2
  exit 1
fi
