#!/usr/bin/env bash
# run's benchmarks (issue 10), side by side in one hyperfine run each, ratio reported:
#   1. the tool's overhead: `loopr-tool run true` vs `bash -c true` (target: ≤ 3 ms median more);
#   2. 100 MB of output through run vs the same command writing it to a file
#      (target: within 2×), and the peak RSS of run while it streams (target: ≤ 32 MB).
#
# Needs: hyperfine, GNU time (/usr/bin/time), python3.
# Usage: bench/run.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
for t in hyperfine /usr/bin/time python3; do
  command -v "$t" >/dev/null || { echo "missing $t: apt-get install hyperfine time python3" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"
cd "$work/root"
export LOOPR_STATE_DIR=$work/state
unset LOOPR_ROOT LOOPR_NO_SANDBOX LOOPR_FORMAT LOOPR_ALLOW_DANGEROUS || true
echo "$("$BIN" --version); $(bash --version | head -1); $(nproc) cores"

ratio() { # hyperfine json → "ours/theirs = R×, diff = D ms" (medians)
  python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"] * 1000, r[1]["median"] * 1000
print(f"median {a:.2f} ms vs {b:.2f} ms: ratio {a / b:.2f}x, difference {a - b:+.2f} ms")
EOF
}

echo
echo "== overhead: run true vs bash -c true"
hyperfine -N --warmup 20 --runs "${RUNS:-300}" --export-json "$work/o.json" \
  "$BIN run true" "bash -c true" | grep -E 'Time|±' || true
ratio "$work/o.json"

echo
echo "== 100 MB of output: through run vs into a file"
GEN="head -c 100000000 /dev/zero | tr '\\\\0' 'x' | fold -w 99"
hyperfine --warmup 2 --runs "${RUNS_BIG:-10}" --export-json "$work/b.json" \
  "$BIN run \"$GEN\" > /dev/null" "bash -c \"$GEN > $work/out.txt\"" | grep -E 'Time|±' || true
ratio "$work/b.json"
rss=$(/usr/bin/time -f %M "$BIN" run "$GEN" 2>&1 >/dev/null | tail -1)
rss_bash=$(/usr/bin/time -f %M bash -c "$GEN > $work/out.txt" 2>&1 >/dev/null | tail -1)
echo "peak RSS: run $((rss / 1024)) MB (target ≤ 32 MB); bash -c into a file $((rss_bash / 1024)) MB"
