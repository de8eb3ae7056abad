#!/bin/sh
# Smoke check of rgtool on the demo frame files, for CTest or by hand:
#   tests/frames/check_rgtool.sh build/rendergraph/tool/rgtool tests/frames
# Each frame plans (text and JSON, saved and tile profiles, another size),
# diffs against itself as identical (exit 0) and against another profile
# with exit 0 or 1, and writes DOT and the timeline; usage and load errors
# exit 2. JSON is checked with python3 where there is one.
set -u
rgtool=$1
frames=$2
tmp=${TMPDIR:-/tmp}/check_rgtool.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
expect() { # expect STATUS ARGS...: rgtool ARGS exits with STATUS
    want=$1; shift
    "$rgtool" "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    [ "$got" -eq "$want" ] || { fail "rgtool $* exited $got, wanted $want"; cat "$tmp/err"; }
}
json() { # json ARGS...: rgtool ARGS prints valid JSON
    command -v python3 >/dev/null 2>&1 || return 0
    "$rgtool" "$@" 2>/dev/null | python3 -m json.tool >/dev/null || fail "rgtool $* printed invalid JSON"
}
expect 0 --version
expect 0 --help
expect 2
expect 2 plan
expect 2 plan "$tmp/none.json"
expect 2 frob
count=0
for f in "$frames"/*.json; do
    [ -e "$f" ] || continue
    count=$((count + 1))
    expect 0 plan "$f"
    expect 0 plan "$f" --verbose --profile apple7 --size 1280x720
    expect 2 plan "$f" --profile no-such-gpu
    expect 2 plan "$f" --size 12
    json plan "$f" --json
    json plan "$f" --json --profile mali-valhall --size 640x360
    expect 0 diff "$f" "$f"
    grep -q "identical plans" "$tmp/out" || fail "rgtool diff $f $f: not identical"
    "$rgtool" diff "$f" "$f" --profile-b adreno7 >/dev/null 2>&1
    [ $? -le 1 ] || fail "rgtool diff $f $f --profile-b adreno7 failed"
    json diff "$f" "$f" --profile-b apple7 --json
    expect 0 dot "$f" -o "$tmp/f.dot"
    expect 0 timeline "$f" -o "$tmp/f.svg" --profile apple7
    expect 2 dot "$f"
done
[ "$count" -gt 0 ] || fail "no frame files in $frames"
[ "$failed" -eq 0 ] && echo "rgtool: $count frames checked"
exit "$failed"
