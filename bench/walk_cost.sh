#!/usr/bin/env bash
# The cost of race-free access (issue 23's target: no more than 5% slower than before): two
# builds of loopr-tool side by side on the same corpus — the one before a change and the one
# after — for grep in each mode, glob, tree and a read of 2 KB. Runs alternate old, new, old,
# new… so load drifting on a shared machine cannot bias the ratio; the figure per case is the
# median of the per-pair ratios (new / old), with both medians.
#
# Needs: python3. Usage: bench/walk_cost.sh CORPUS OLD_BIN NEW_BIN [RUNS]
# e.g.:  bench/walk_cost.sh /work/corpus/glibc /tmp/loopr-before target/x86_64-unknown-linux-gnu/release/loopr-tool
set -euo pipefail
corpus=${1:?usage: bench/walk_cost.sh CORPUS OLD_BIN NEW_BIN [RUNS]}
old=$(realpath "${2:?old binary}")
new=$(realpath "${3:?new binary}")
runs=${4:-30}
cd "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 2048 /dev/urandom | base64 > "$work/two-kb.txt"
export LOOPR_STATE_DIR=$work/state
unset LOOPR_ROOT LOOPR_NO_SANDBOX LOOPR_FORMAT || true
echo "corpus: $corpus ($(git rev-parse --short HEAD 2>/dev/null || echo '?')); $(nproc) cores; $runs pairs per case"
python3 - "$old" "$new" "$runs" "$work" <<'PY'
import statistics, subprocess, sys, time
old, new, runs, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cases = [
    ("grep files_with_matches", ["grep", "memcpy", "--head-limit", "0"]),
    ("grep content", ["grep", "memcpy", "--output-mode", "content", "--head-limit", "0"]),
    ("grep count", ["grep", "memcpy", "--output-mode", "count", "--head-limit", "0"]),
    ("grep glob *.h content", ["grep", "define", "--glob", "*.h", "--output-mode", "content", "--head-limit", "0"]),
    ("glob *.c by path", ["glob", "*.c", "--sort", "path", "--limit", "100000"]),
    ("glob *.c newest first", ["glob", "*.c", "--limit", "100000"]),
    ("tree depth 3", ["tree", "--depth", "3", "--limit", "100000"]),
    ("read 2 KB", ["--root", work, "read", work + "/two-kb.txt"]),
]
def once(binary, args):
    t = time.perf_counter()
    subprocess.run([binary] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t
print(f"{'case':26} {'old ms':>8} {'new ms':>8} {'new/old':>8}")
for name, args in cases:
    for _ in range(3):
        once(old, args); once(new, args)
    a, b, pairs = [], [], []
    for _ in range(runs):
        x = once(old, args); y = once(new, args)
        a.append(x); b.append(y); pairs.append(y / x)
    print(f"{name:26} {statistics.median(a)*1e3:8.2f} {statistics.median(b)*1e3:8.2f} {statistics.median(pairs):7.3f}x")
PY
