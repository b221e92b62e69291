#!/usr/bin/env bash
# 100 reads in one `batch` vs 100 `loopr-tool read` processes (issue 9), side by side.
# Needs hyperfine. Usage: bench/batch.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || cargo build --release
BIN=$(realpath "$BIN")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root
{
  printf '['
  for i in $(seq 1 100); do
    head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/f$i.txt"
    [ "$i" -gt 1 ] && printf ','
    printf '{"name":"read","input":{"path":"f%d.txt"},"id":%d}' "$i" "$i"
  done
  printf ']'
} > "$work/calls.json"
printf 'for i in $(seq 1 100); do "%s" read f$i.txt > /dev/null; done\n' "$BIN" > "$work/loop.sh"
hyperfine --warmup 2 --runs 20 --export-json "$work/b.json" \
  "$BIN batch < $work/calls.json" \
  "sh $work/loop.sh"
python3 - "$work/b.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
batch, procs = r[0]["median"], r[1]["median"]
print(f"100 reads: batch {batch*1e3:.1f} ms, 100 processes {procs*1e3:.1f} ms -> batch is {procs/batch:.1f}x faster")
PY
