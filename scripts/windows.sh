#!/usr/bin/env bash
# The Windows step: the render graph, the engine and the device-free unit
# programs (tests/, label unit) cross-built for x86_64 Windows with
# MinGW-w64 (cmake/mingw-w64-x86_64.cmake, warnings as errors) into
# build-win (BUILD_DIR overrides it), and every unit program run under
# wine. The tests run through tests/runner's stand-in for Criterion (not
# packaged for MinGW): the same test files as Linux's Criterion programs.
# Each program must pass, list the same tests as its Linux build
# (LINUX_BUILD_DIR, default build: built there first when missing) and pass
# as many; the totals are printed ("windows: N passed under wine, linux: N").
# Then the application's side (docs/windows.md): the libraries installed
# into a prefix and tests/consumer cross-built against them as another
# project would, its programs run under wine, one rendering a frame on
# wine's Vulkan (lavapipe, under Xvfb).
#
# No Vulkan loader is packaged for MinGW: the engine's programs link the
# import library for vulkan-1.dll that the configure makes from the
# headers (cmake/mingwVulkanImport.cmake), and under wine they would load
# wine's own vulkan-1.dll (the device-free tests make no Vulkan call).
# Installs what it needs (Debian: the MinGW-w64 compilers, wine) when
# missing.
#
#   ./scripts/windows.sh      deps, configure, build, run under wine
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dir=${BUILD_DIR:-build-win}
linux_dir=${LINUX_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Debian's packages for this step alone (scripts/run.sh deps has the rest).
packages=(gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 wine wine64 xvfb xauth curl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing: ${missing[*]}"
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
wine=$(command -v wine64 || command -v wine) || { echo "windows.sh: no wine" >&2; exit 1; }

# cJSON for the frame library and rgtool: Debian packages it for Linux
# only, so its source package's tarball (the version bookworm ships),
# checked, built into the Windows build (cmake/cjsonFromSource.cmake).
cjson_url=http://deb.debian.org/debian/pool/main/c/cjson/cjson_1.7.15.orig.tar.gz
cjson_sha256=5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2
cjson=$root/$dir/cjson-1.7.15
if [ ! -f "$cjson/cJSON.c" ]; then
  say "cJSON's source ($cjson_url)"
  mkdir -p "$cjson"
  curl -sSfL "$cjson_url" -o "$cjson.tar.gz"
  echo "$cjson_sha256  $cjson.tar.gz" | sha256sum -c --quiet
  tar -xzf "$cjson.tar.gz" -C "$cjson" --strip-components=1
fi

say "configure ($dir, MinGW-w64)"
cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKG_WERROR=ON -DVKG_CJSON_SOURCE_DIR="$cjson" \
      -DVKG_BUILD_TESTS=ON -DVKG_BUILD_DEMOS=OFF -DVKG_BUILD_BENCHMARKS=OFF >/dev/null
say "build (rendergraph, engine, unit programs)"
cmake --build "$dir" -j "$jobs"

mapfile -t programs < <(cd "$dir/tests" && ls unit_*.exe | sed 's/\.exe$//' | sort)
[ ${#programs[@]} -gt 0 ] || { echo "windows.sh: no unit program built in $dir/tests" >&2; exit 1; }

# The Linux build of the same programs (Criterion), for the counts.
if [ ! -f "$linux_dir/CMakeCache.txt" ]; then
  say "configure ($linux_dir) for the Linux counts"
  cmake -S . -B "$linux_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
say "build ${programs[*]} in $linux_dir"
cmake --build "$linux_dir" -j "$jobs" --target "${programs[@]}"

export WINEPREFIX=$root/$dir/wineprefix WINEDEBUG=-all
rm -rf "$WINEPREFIX"
say "wine prefix ($WINEPREFIX)"
"$wine" wineboot --init >/dev/null 2>&1 || true

# "Tested: N | Passing: N | Failing: N" -> "N N N"
counts() { sed -nE 's/.*Tested: ([0-9]+) \| Passing: ([0-9]+) \| Failing: ([0-9]+).*/\1 \2 \3/p' | tail -1; }
failed=0 win_total=0 linux_total=0
for p in "${programs[@]}"; do
  log=$dir/$p.wine.log
  status=0
  (cd "$dir/tests" && "$wine" "./$p.exe" --jobs 1) >"$log" 2>&1 || status=$?
  read -r tested passing failing < <(tr -d '\r' <"$log" | counts) || true
  read -r l_tested l_passing l_failing < <("$linux_dir/tests/$p" --jobs 1 2>&1 | counts) || true
  win_list=$(cd "$dir/tests" && "$wine" "./$p.exe" --list 2>&1 | tr -d '\r') || true
  linux_list=$("$linux_dir/tests/$p" --list 2>&1) || true
  printf '%s: windows %s passed of %s, linux %s passed of %s\n' "$p" "${passing:-?}" "${tested:-?}" \
         "${l_passing:-?}" "${l_tested:-?}" >&2
  if [ "$status" -ne 0 ] || [ -z "${tested:-}" ] || [ "${failing:-1}" -ne 0 ] || [ "$passing" -ne "$tested" ]; then
    echo "windows.sh: $p failed under wine (status $status); its output: $log" >&2
    grep -E '^\[(FAIL|----)\]' "$log" | tr -d '\r' | head -40 >&2 || true
    failed=1
  fi
  if [ "${tested:-x}" != "${l_tested:-y}" ] || [ "$win_list" != "$linux_list" ]; then
    echo "windows.sh: $p: windows and linux differ (counts ${tested:-?} and ${l_tested:-?}, or the lists)" >&2
    diff <(echo "$linux_list") <(echo "$win_list") | head -20 >&2 || true
    failed=1
  fi
  win_total=$((win_total + ${passing:-0}))
  linux_total=$((linux_total + ${l_passing:-0}))
done
echo "windows: $win_total passed under wine, linux: $linux_total passed (${#programs[@]} programs)" >&2
if [ "$failed" -ne 0 ] || [ "$win_total" -ne "$linux_total" ]; then
  echo "windows.sh: failed" >&2
  exit 1
fi

# The application's side (docs/windows.md): the libraries installed from
# that build into a prefix, tests/consumer configured as another project
# would, with the toolchain file and CMAKE_PREFIX_PATH alone, built, and its
# programs run under wine: consumer (device-free) and consumer_render (a
# frame on wine's Vulkan, which needs a display: Xvfb; on lavapipe here).
# The programs take the shared winpthread runtime (libwinpthread-1.dll) from
# the MinGW-w64 root, through WINEPATH.
prefix=$root/$dir/prefix
user=$root/$dir/consumer
say "install ($prefix) and the consumer project against it"
rm -rf "$prefix" "$user"
cmake --install "$dir" --prefix "$prefix" >/dev/null
cmake -S tests/consumer -B "$user" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
      -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_VULKAN_ONLY=ON >/dev/null
cmake --build "$user" -j "$jobs" >/dev/null
export WINEPATH=/usr/x86_64-w64-mingw32/lib
(cd "$user" && "$wine" ./consumer.exe) | tr -d '\r' | tail -n 1
# The prefix's wine server started without a display (above) would serve
# the next program too, and wine's Vulkan then has no X connection: it
# goes first, and the next one starts under Xvfb's display.
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
"$wineserver" -k 2>/dev/null || true
"$wineserver" -w 2>/dev/null || true
(cd "$user" && xvfb-run -a "$wine" ./consumer_render.exe) | tr -d '\r' | grep -v "^X connection" | tail -n 2
# rgtool.exe plans a committed frame file under wine.
plan=$(cd "$dir/rendergraph/tool" && "$wine" ./rgtool.exe plan "Z:$root/tests/frames/deferred.json" | tr -d '\r')
grep -q "execution order: 42 commands" <<<"$plan" || { echo "windows.sh: rgtool.exe plan failed under wine" >&2; exit 1; }
grep -m 1 "execution order" <<<"$plan"
say "windows: the consumer project built against the installed package renders under wine; rgtool.exe plans"
