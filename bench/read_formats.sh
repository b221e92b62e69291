#!/usr/bin/env bash
# read's second-round powers, side by side (SPEC 18.2, 24.2):
#   1. the last 10 lines of a 1 GiB file: `read --offset -10` vs `tail -n 10` (which seeks to
#      the end and reads a few KB), vs `cat | tail -n 10` and `wc -l` (which read every byte,
#      as read must: the tail comes from the pass that fingerprints the whole file), with
#      peak RSS (target ≤ 16 MB);
#   2. 50 files of 2 KB: one `read` with `paths` vs one `batch` of 50 reads vs `cat` of them.
#
# Needs hyperfine and GNU time (`apt-get install hyperfine time`).
# Usage: bench/read_formats.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || cargo build --release
BIN=$(realpath "$BIN")
for t in hyperfine /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "missing $t: apt-get install hyperfine time" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$root

median() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.3f" % (x["median"]*1e3) for x in r))' "$1"; }

echo "== 1. last 10 lines of a 1 GiB file (55-byte lines, 19.5 M of them)"
# `yes` ends with SIGPIPE when head has enough, which pipefail would count as failure.
set +o pipefail
yes "the quick brown fox jumps over the lazy dog 0123456789" | head -c 1073741824 > "$root/big.log"
set -o pipefail
cat "$root/big.log" > /dev/null # in the page cache for every contender
hyperfine -N --warmup 1 --runs 10 --export-json "$work/tail.json" \
  "$BIN read big.log --offset -10" \
  "tail -n 10 $root/big.log" \
  "wc -l $root/big.log"
hyperfine --warmup 1 --runs 10 --export-json "$work/tailpipe.json" \
  "cat $root/big.log | tail -n 10"
read -r t_read t_tail t_wc <<< "$(median "$work/tail.json")"
t_pipe=$(median "$work/tailpipe.json")
rss_read=$(/usr/bin/time -f %M "$BIN" read big.log --offset -10 2>&1 >/dev/null | tail -1)
rss_tail=$(/usr/bin/time -f %M tail -n 10 "$root/big.log" 2>&1 >/dev/null | tail -1)
python3 - "$t_read" "$t_tail" "$t_pipe" "$t_wc" "$rss_read" "$rss_tail" <<'PY'
import sys
r, t, p, w, rr, rt = map(float, sys.argv[1:])
print(f"read --offset -10: {r:.1f} ms, peak RSS {rr/1024:.1f} MB (target <= 16 MB)")
print(f"  vs tail -n 10 FILE     {t:8.2f} ms  ({r/t:6.1f}x; tail seeks to the end, reads ~8 KB; RSS {rt/1024:.1f} MB)")
print(f"  vs cat | tail -n 10    {p:8.1f} ms  ({r/p:6.2f}x; every byte read, as read must)")
print(f"  vs wc -l FILE          {w:8.1f} ms  ({r/w:6.2f}x; every byte read, newlines counted)")
PY

echo "== 2. 50 files of 2 KB: read with paths vs batch of 50 reads vs cat"
{
  printf '['
  for i in $(seq 1 50); do
    head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$root/f$i.txt"
    [ "$i" -gt 1 ] && printf ','
    printf '{"name":"read","input":{"path":"f%d.txt"},"id":%d}' "$i" "$i"
  done
  printf ']'
} > "$work/calls.json"
paths=$(python3 -c 'import json; print(json.dumps({"paths": [f"f{i}.txt" for i in range(1, 51)]}))')
printf '%s' "$paths" > "$work/paths.json"
files=$(for i in $(seq 1 50); do printf '%s ' "$root/f$i.txt"; done)
hyperfine --warmup 5 --runs 100 --export-json "$work/many.json" \
  "$BIN read < $work/paths.json" \
  "$BIN batch < $work/calls.json" \
  "cat $files"
read -r m_read m_batch m_cat <<< "$(median "$work/many.json")"
python3 - "$m_read" "$m_batch" "$m_cat" <<'PY'
import sys
r, b, c = map(float, sys.argv[1:])
print(f"50 files: read paths {r:.2f} ms, batch of 50 reads {b:.2f} ms ({b/r:.1f}x the paths call), cat {c:.2f} ms (paths is {r/c:.1f}x cat)")
PY
