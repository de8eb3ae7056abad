#!/usr/bin/env bash
# Runs a command with an X display: the real one when DISPLAY is set, else a
# private Xvfb server (xvfb-run). Without a display the only device that can
# present to Xvfb is lavapipe, so ENG_DEVICE defaults to it there.
set -euo pipefail
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
if [ -n "${DISPLAY:-}" ]; then
  exec "$@"
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "with-display.sh: no DISPLAY and no xvfb-run (Debian: apt-get install xvfb xauth)" >&2
  exit 1
fi
export ENG_DEVICE=${ENG_DEVICE:-llvmpipe}
exec xvfb-run -a -s "-screen 0 1920x1200x24" "$@"
