#!/bin/sh
# Smoke check of rgtool on the demo frame files, for CTest or by hand:
#   tests/frames/check_rgtool.sh build/rendergraph/tool/rgtool tests/frames
# Each frame plans (text and JSON, saved and tile profiles, another size),
# diffs against itself as identical (exit 0) and against another profile
# with exit 0 or 1, and writes DOT and the timeline; usage and load errors
# exit 2. Then an edited frame's modelled memory, and check's errors.
# JSON is checked with python3 where there is one.
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
# A what-if edit that keeps the memory section (hdr RGBA16F -> RGBA32F):
# hdr's saved requirement was measured for RGBA16F, so it is modelled,
# plan and diff say so, and the diff reports the memory it adds.
f=$frames/deferred.json
sed '/"name":[[:space:]]*"hdr"/,/}/s/R16G16B16A16_SFLOAT/R32G32B32A32_SFLOAT/' "$f" >"$tmp/hdr32.json"
note="saved requirement for 'hdr' does not match its declaration (format): modelled"
expect 0 plan "$tmp/hdr32.json"
grep -qF "$note" "$tmp/out" || fail "rgtool plan of the RGBA32F edit does not say: $note"
expect 1 diff "$f" "$tmp/hdr32.json"
grep -qF "$note" "$tmp/out" || fail "rgtool diff of the RGBA32F edit does not say: $note"
grep -q "pooled .* +7372800$" "$tmp/out" || { fail "rgtool diff of the RGBA32F edit: pooled did not grow by hdr's 7372800 bytes"; cat "$tmp/out"; }
# The tile view differs between models where the hardware would: the
# G-buffer's tile (Mali-G71 8x8, G610 32x16), Adreno's bins (A7xx against
# A840) at 1080p; --json carries it per instance.
expect 1 diff "$f" "$f" --size 1920x1080 --profile mali-g71 --profile-b mali-g610
grep -q "^tiles: .* changed (A profile mali-g71, B profile mali-g610)" "$tmp/out" ||
    { fail "rgtool diff mali-g71 against mali-g610: no tiles section"; cat "$tmp/out"; }
grep -q "A  gbuffer: 1920x1080x1, 1 sample, colour 20 B + depth 4 B per pixel per sample: tile 8x8 (shrunk)" "$tmp/out" ||
    { fail "rgtool diff: the G-buffer's Mali-G71 tile is not 8x8"; cat "$tmp/out"; }
expect 1 diff "$f" "$f" --size 1920x1080 --merge off --profile adreno7 --profile-b adreno-a840
grep -q "24 bins of 2048 KiB of GMEM" "$tmp/out" && grep -q "3 bins of 18432 KiB of GMEM" "$tmp/out" ||
    { fail "rgtool diff adreno7 against adreno-a840: the G-buffer's bins are not 24 and 3"; cat "$tmp/out"; }
expect 0 plan "$f" --json --size 1920x1080 --profile mali-g71
grep -q '"tile_width":.8,' "$tmp/out" && grep -q '"gb_per_s_at_60fps":' "$tmp/out" ||
    fail "rgtool plan --json: no per-instance tile or frame GB/s"
expect 0 plan "$f" --size 1920x1080 --profile apple7 --merge on
grep -q "gbuffer albedo .*MoltenVK gives input attachments memory" "$tmp/out" ||
    { fail "rgtool plan: the merged G-buffer on Apple7 does not say why it is not lazy"; cat "$tmp/out"; }
# check's errors name the expected file and line; an unknown profile
# names the known ones.
cp "$f" "$tmp/deferred.json"
printf '# a comment\ndeferred.json --profile Apple7 pooled=1\n' >"$tmp/expected.txt"
expect 2 check "$tmp/expected.txt"
grep -q "expected.txt:2: unknown profile 'Apple7'; the profiles: desktop apple2 .* adreno7" "$tmp/err" ||
    { fail "rgtool check: an unknown profile's error lacks the file:line or the profiles"; cat "$tmp/err"; }
printf 'deferred.json pooled=1\n' >"$tmp/expected.txt"
head -c 300 "$f" >"$tmp/deferred.json"
expect 2 check "$tmp/expected.txt"
grep -q "expected.txt:1: .*deferred.json:[0-9]*:[0-9]*: the JSON ends" "$tmp/err" ||
    { fail "rgtool check: a load error lacks the expected file:line"; cat "$tmp/err"; }
# --update rewrites a wrong figure, keeping comments and the other lines;
# the file then checks as expected.
cp "$f" "$tmp/deferred.json"
printf '# kept\ndeferred.json pooled=1 barriers=35\n' >"$tmp/expected.txt"
expect 1 check "$tmp/expected.txt"
expect 0 check "$tmp/expected.txt" --update
expect 0 check "$tmp/expected.txt"
{ head -n 1 "$tmp/expected.txt" | grep -q '^# kept$' && ! grep -q 'pooled=1 ' "$tmp/expected.txt"; } ||
    { fail "rgtool check --update: the file is not the updated one"; cat "$tmp/expected.txt"; }
[ "$failed" -eq 0 ] && echo "rgtool: $count frames checked"
exit "$failed"
