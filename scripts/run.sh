#!/usr/bin/env bash
# One entry point for a new user and for CI.
#
#   ./scripts/run.sh deps               install what is missing (Debian/Ubuntu; macOS: prints the steps)
#   ./scripts/run.sh build              deps + configure + build (into build/)
#   ./scripts/run.sh test               build + every test (ctest)
#   ./scripts/run.sh demo NAME [flags]  build + run demos/NAME (no display: Xvfb + lavapipe + screenshot)
#   ./scripts/run.sh bench NAME [flags] build + run benchmarks/NAME
#
# Environment: BUILD_DIR (default build), CI=true (warnings are errors, a
# missing Vulkan device fails the tests), SANITIZE=1 (ASan + UBSan build),
# ENG_DEVICE (pick a GPU by index or name), STACK=debian13 (run the
# subcommand inside a Debian 13 root: Vulkan 1.4.309, Mesa 25 lavapipe;
# scripts/stack.sh makes it; needs root; builds into build-debian13).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ -n "${STACK:-}" ] && [ -z "${VKG_STACK:-}" ] && [ $# -gt 0 ]; then
  exec "$root/scripts/stack.sh" "$STACK" "$@"
fi
build_dir=${BUILD_DIR:-build}

debian_packages=(
  build-essential cmake pkg-config
  libvulkan-dev vulkan-validationlayers mesa-vulkan-drivers glslc
  libglfw3-dev libcglm-dev libstb-dev libcriterion-dev libvulkan-volk-dev libcjson-dev
  xvfb xauth clang
)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

cmd_deps() {
  case "$(uname -s)" in
  Darwin)
    cat >&2 <<'TXT'
macOS (MoltenVK) is not installed automatically. Steps:
  brew install cmake pkg-config glfw cglm criterion shaderc molten-vk vulkan-loader vulkan-validationlayers
  (or the LunarG Vulkan SDK, which brings MoltenVK, glslc and the validation layer)
  stb: brew install stb is not packaged everywhere; put stb_image.h/stb_image_write.h on the include path.
Then run ./scripts/run.sh build. See README.md, "macOS / MoltenVK", for what has been run there.
TXT
    return 0 ;;
  esac
  if ! command -v dpkg-query >/dev/null 2>&1; then
    say "not a Debian/Ubuntu system: install the equivalents of: ${debian_packages[*]}"
    return 0
  fi
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "dependencies: all installed"
    return 0
  fi
  say "installing: ${missing[*]}"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

cmd_build() {
  cmd_deps
  local opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  [ "${CI:-}" = "true" ] && opts+=(-DVKG_WERROR=ON)
  [ -n "${SANITIZE:-}" ] && opts+=(-DVKG_SANITIZE=ON)
  say "configure ($build_dir)"
  cmake -S . -B "$build_dir" "${opts[@]}" >/dev/null
  say "build"
  cmake --build "$build_dir" -j "$(nproc 2>/dev/null || echo 2)"
}

cmd_test() {
  cmd_build
  export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}
  mkdir -p -m 700 "$XDG_RUNTIME_DIR"
  # In CI a device test that cannot find a device must fail, not skip.
  if [ "${CI:-}" = "true" ]; then export ENG_REQUIRE_DEVICE=${ENG_REQUIRE_DEVICE:-1}; fi
  say "test"
  ctest --test-dir "$build_dir" --output-on-failure "$@"
}

cmd_demo() {
  local name=${1:?usage: run.sh demo NAME [flags]}; shift
  cmd_build
  local exe="$build_dir/demos/$name"
  [ -x "$exe" ] || { echo "no demo '$name' (have: $(ls "$build_dir/demos" | grep -v '\.' | tr '\n' ' '))" >&2; exit 2; }
  if [ -n "${DISPLAY:-}" ]; then
    exec "$exe" "$@"
  fi
  # No display: render a fixed number of frames under Xvfb on lavapipe and
  # keep the last one as a screenshot.
  local args=("$@") shot=""
  [[ " $* " == *" --frames "* ]] || args+=(--frames 60)
  if [[ " $* " == *" --screenshot "* ]]; then
    local prev=""
    for a in "$@"; do [ "$prev" = "--screenshot" ] && shot=$a; prev=$a; done
  else
    mkdir -p screenshots
    shot="screenshots/$name.png"
    args+=(--screenshot "$shot")
  fi
  say "no DISPLAY: running $name under Xvfb on lavapipe"
  scripts/with-display.sh "$exe" "${args[@]}"
  [[ "$shot" == /* ]] || shot="$root/$shot"
  say "screenshot written to $shot"
}

cmd_bench() {
  local name=${1:?usage: run.sh bench NAME [flags]}; shift
  cmd_build
  local exe="$build_dir/benchmarks/$name"
  [ -x "$exe" ] || { echo "no benchmark '$name'" >&2; exit 2; }
  export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}
  mkdir -p -m 700 "$XDG_RUNTIME_DIR"
  exec "$exe" "$@"
}

sub=${1:-}
[ $# -gt 0 ] && shift
case "$sub" in
deps) cmd_deps ;;
build) cmd_build ;;
test) cmd_test "$@" ;;
demo) cmd_demo "$@" ;;
bench) cmd_bench "$@" ;;
*) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
