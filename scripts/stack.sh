#!/usr/bin/env bash
# Runs scripts/run.sh inside a second Vulkan stack: a Debian 13 (trixie)
# root with its own Vulkan 1.4.309 headers, loader and validation layer and
# Mesa 25 lavapipe. run.sh calls it for STACK=debian13:
#
#   STACK=debian13 ./scripts/run.sh test      (any run.sh subcommand)
#
# The root is made once with debootstrap (minbase) from the Debian mirror
# the host's apt already uses (STACK_MIRROR overrides it) into
# .stacks/debian13 (git-ignored) and kept for reuse; run.sh inside it
# installs the project's packages there as it does on a host. The checkout
# is bind-mounted at the same path, with /proc, /sys and /dev; every mount
# is undone on every exit path. The build goes to build-debian13 unless
# BUILD_DIR says otherwise. Needs root (debootstrap, chroot and mount do).
set -euo pipefail

stack=${1:?usage: stack.sh debian13 SUBCOMMAND [ARGS...]}
shift
case "$stack" in
debian13) suite=trixie ;;
*) echo "stack.sh: unknown stack '$stack' (known: debian13)" >&2; exit 2 ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$repo/.stacks/$stack
say() { printf '\033[1m==> [%s] %s\033[0m\n' "$stack" "$*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  echo "stack.sh: STACK=$stack needs root: debootstrap, chroot and bind mounts do (run it as root or with sudo)" >&2
  exit 1
fi

# The Debian mirror of the host's apt sources (its main archive, not the
# security one); never a hard-coded host.
mirror() {
  if [ -n "${STACK_MIRROR:-}" ]; then
    echo "$STACK_MIRROR"
    return
  fi
  apt-get indextargets --format '$(REPO_URI) $(ORIGIN)' 2>/dev/null |
    awk '$2 == "Debian" && $1 !~ /security/ { print $1; exit }'
}

make_root() {
  local url
  url=$(mirror)
  if [ -z "$url" ]; then
    echo "stack.sh: the host's apt sources name no Debian mirror; set STACK_MIRROR to one (a URL ending in /debian)" >&2
    exit 1
  fi
  command -v debootstrap >/dev/null || {
    say "installing debootstrap"
    apt-get update >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null
  }
  say "debootstrap $suite from $url into .stacks/$stack"
  rm -rf "$root"
  mkdir -p "$root"
  debootstrap --variant=minbase "$suite" "$root" "$url" >"$repo/.stacks/$stack.log" 2>&1 || {
    echo "stack.sh: debootstrap failed; its log: .stacks/$stack.log" >&2
    exit 1
  }
  touch "$root/.vkgraph-stack"
}

[ -e "$root/.vkgraph-stack" ] || make_root

# One run per root at a time: a second one waits (the mounts and the build
# folder are shared).
exec 9>"$root.lock"
flock 9

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R -l "${mounted[i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

mount_at() { # DESTINATION MOUNT-ARGUMENTS...
  local dst=$1
  shift
  mkdir -p "$dst"
  mount "$@" "$dst"
  mounted+=("$dst")
}
mount_at "$root/proc" -t proc proc
mount_at "$root/sys" -t sysfs sysfs
mount_at "$root/dev" --rbind /dev
mount --make-rslave "$root/dev"
mount_at "$root$repo" --bind "$repo"
# Name resolution for apt inside the root.
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

say "run.sh $* (Debian $(cat "$root/etc/debian_version"))"
pass=(CI ENG_REQUIRE_DEVICE ENG_DEVICE SANITIZE VKG_TEST_CHUNKS CTEST_PARALLEL_LEVEL CTEST_OUTPUT_ON_FAILURE ENG_LAYERS VK_ADD_LAYER_PATH
      VKGRAPH_TILE_MOLTENVK VKGRAPH_TILE_PROFILE VKGRAPH_TILE_REPORT ENG_TILE_PROFILE ENG_NO_MSAA_FOLD)
env_args=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
          VKG_STACK="$stack" BUILD_DIR="${BUILD_DIR:-build-$stack}")
for v in "${pass[@]}"; do
  [ -n "${!v:-}" ] && env_args+=("$v=${!v}")
done
status=0
chroot "$root" /usr/bin/env -i "${env_args[@]}" bash "$repo/scripts/run.sh" "$@" || status=$?
exit "$status"
