#!/usr/bin/env bash
# Checks the libraries' symbols with nm, static (.a) or shared (.so) alike.
#
#   check_symbols.sh [--graph LIB] [--engine LIB] [--exports PREFIX LIB]...
#
#   --graph LIB           the render graph needs Vulkan's headers alone and
#                         sits below the engine: LIB calls no eng_* function
#                         and no vk* function (Vulkan comes through the table
#                         rg_device_create loads); nm -u lists neither.
#   --engine LIB          the engine loads every Vulkan function it calls
#                         through a table (engine/src/vk_table.h), from the
#                         application's vkGetInstanceProcAddr or from the
#                         loader it opens at run time (vk_loader.c): nm -u
#                         lists no vk* name at all, so that a program whose
#                         vk* names are volk's function pointers links the
#                         static engine without the names colliding.
#   --exports PREFIX LIB  LIB defines nothing outside its prefix. Shared:
#                         nm -D --defined-only lists PREFIX_ followed by a
#                         letter or digit and nothing else, so no internal
#                         PREFIX__ helper and no stray name is exported (the
#                         version script, cmake/exports.map.in). Static:
#                         every global it defines starts with PREFIX_
#                         (PREFIX__ included: an archive cannot hide them);
#                         names starting with '_' are the compiler's or a
#                         sanitizer's.
# CTest runs it on the build's own libraries (symbols_rendergraph) and on a
# library built to break every rule (symbols_selftest, tests/package.cmake).
# Exit 1 on a violation, 2 on a usage error.
set -euo pipefail

usage() { echo "usage: check_symbols.sh [--graph LIB] [--engine LIB] [--exports PREFIX LIB]..." >&2; exit 2; }
[ $# -gt 0 ] || usage
bad=0
fail() { echo "check_symbols: $*"; bad=1; }
is_shared() { case "$1" in *.so | *.so.*) return 0 ;; *) return 1 ;; esac; }

# Undefined (or, with --defined-only, defined global) names, one per line.
# POSIX format: "name type [value size]"; archives add "lib.a[x.o]:" lines.
names() {
  nm --format=posix "$@" | awk 'NF >= 2 && $2 ~ /^[A-Za-z]$/ { print $1 }' | sort -u
}
# Exits 2 when LIB is not a file.
need_file() { [ -f "$1" ] || { echo "check_symbols: no such file: $1" >&2; exit 2; }; }
# The names LIB leaves undefined: the dynamic ones of a shared library.
undefined() { if is_shared "$1"; then names -D -u "$1"; else names -u "$1"; fi; }

# --graph LIB: no eng_* and no vk* name left undefined.
check_graph() {
  local lib=$1 und s n=0 wrong=0
  und=$(undefined "$lib")
  while read -r s; do
    [ -n "$s" ] || continue
    n=$((n + 1))
    case "$s" in
    eng_*) fail "$(basename "$lib") calls $s: the render graph must not call into the engine"; wrong=$((wrong + 1)) ;;
    vk*) fail "$(basename "$lib") calls $s directly: Vulkan must come through the function table"; wrong=$((wrong + 1)) ;;
    esac
  done <<<"$und"
  echo "check_symbols: $(basename "$lib"): $n undefined symbols, $wrong of them eng_* or vk*"
}
# --engine LIB: no vk* name left undefined.
check_engine() {
  local lib=$1 und s n=0
  und=$(undefined "$lib")
  while read -r s; do
    case "$s" in
    vk*) fail "$(basename "$lib") calls $s directly: every Vulkan function comes through the table (the loader's entry point from the application or the loader opened at run time)"; n=$((n + 1)) ;;
    esac
  done <<<"$und"
  echo "check_symbols: $(basename "$lib"): $n undefined vk* symbols"
}

checked=0
while [ $# -gt 0 ]; do
  case "$1" in
  --graph | --engine)
    [ $# -ge 2 ] || usage
    need_file "$2"
    if [ "$1" = --graph ]; then check_graph "$2"; else check_engine "$2"; fi
    shift 2
    checked=$((checked + 1))
    ;;
  --exports)
    [ $# -ge 3 ] || usage
    prefix=$2; lib=$3; shift 3
    need_file "$lib"
    n=0
    if is_shared "$lib"; then
      while read -r s; do
        [ -n "$s" ] || continue
        n=$((n + 1))
        [[ "$s" =~ ^${prefix}_[a-z0-9] ]] || fail "$(basename "$lib") exports $s (only ${prefix}_[a-z0-9]* may be exported)"
      done <<<"$(names -D --defined-only "$lib")"
      echo "check_symbols: $(basename "$lib"): exports $n symbols"
    else
      while read -r s; do
        [ -n "$s" ] || continue
        case "$s" in _* | .*) continue ;; esac
        n=$((n + 1))
        [[ "$s" == "${prefix}_"* ]] || fail "$(basename "$lib") defines $s (every global must start with ${prefix}_)"
      done <<<"$(names -g --defined-only "$lib")"
      echo "check_symbols: $(basename "$lib"): defines $n global symbols"
    fi
    [ "$n" -gt 0 ] || fail "$(basename "$lib") defines no ${prefix}_ symbol at all: not the library meant?"
    checked=$((checked + 1))
    ;;
  *) usage ;;
  esac
done
[ "$checked" -gt 0 ] || usage
if [ "$bad" -ne 0 ]; then
  echo "check_symbols: FAILED"
  exit 1
fi
echo "check_symbols: ok"
