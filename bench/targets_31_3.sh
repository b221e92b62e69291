#!/usr/bin/env bash
# SPEC 31.3's last two targets, side by side in one run: `run true` ≤ 2× `bash -c true`
# (hyperfine medians), and tree's peak RSS ≤ 2× `tree`'s on the same directory (GNU time's
# %M, the median of RUNS runs). Prints each pair and its ratio.
#
# Needs: hyperfine, tree, GNU time, python3.
# Usage: bench/targets_31_3.sh [DIR] [path/to/loopr-tool]   (default: this checkout, release)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath "${1:-$here/src}")
BIN=${2:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
for t in hyperfine tree /usr/bin/time python3; do
  command -v "$t" >/dev/null || { echo "missing $t: apt-get install hyperfine tree time python3" >&2; exit 1; }
done
RUNS=${RUNS:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPR_STATE_DIR=$work/state
unset LOOPR_ROOT LOOPR_NO_SANDBOX LOOPR_FORMAT || true
echo "$("$BIN" --version); $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg)"

echo "== run true vs bash -c true (target ≤ 2x)"
(cd "$work" && hyperfine -N --warmup 20 --runs "${HRUNS:-300}" --export-json "$work/o.json" \
  "$BIN run true" "bash -c true" >/dev/null)
python3 - "$work/o.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"] * 1000, r[1]["median"] * 1000
print(f"median {a:.2f} ms vs {b:.2f} ms: {a / b:.2f}x")
PY

echo "== tree's peak RSS vs tree's on $dir (target ≤ 2x)"
rss() {
  local i
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null </dev/null | tail -1
  done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
ours=$(cd "$dir" && rss "$BIN" tree --format text)
theirs=$(cd "$dir" && rss tree)
floor=$(cd "$dir" && rss "$BIN" --version)
python3 - "$ours" "$theirs" "$floor" <<'PY'
import sys
o, t, f = (int(x) / 1024 for x in sys.argv[1:])
print(f"ours {o:.1f} MB vs tree {t:.1f} MB: {o / t:.2f}x (our floor, --version: {f:.1f} MB)")
PY
