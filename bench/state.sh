#!/usr/bin/env bash
# Per-call cost vs how much the session holds (issue 22): `read` of a 2 KB file in a session
# that already holds 100,000 read records vs the same read in a fresh session, side by side in
# one hyperfine run; and one `batch` of 10,000 reads (the batch cap, SPEC 23.8).
# Targets: ≤ 1.2× the fresh session; the 10,000-read batch ≤ 5 s.
#
# Needs: hyperfine, python3. Usage: bench/state.sh [path/to/loopr-tool]   (default: release build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root/files"
head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/small.txt"
python3 - "$work/root/files" <<'PY'
import os, sys
d = sys.argv[1]
for i in range(100_000):
    sub = os.path.join(d, str(i // 1000))
    if i % 1000 == 0:
        os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, f"f{i}.txt"), "w") as f:
        f.write(f"file {i}\n")
PY
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root
# Fill session "full" with 100,000 records, 10,000 reads per batch; the first batch is timed.
for chunk in $(seq 0 9); do
  python3 - "$chunk" > "$work/batch.jsonl" <<'PY'
import json, sys
c = int(sys.argv[1])
for i in range(c * 10_000, (c + 1) * 10_000):
    print(json.dumps({"name": "read", "input": {"path": f"files/{i // 1000}/f{i}.txt"}}))
PY
  start=$(date +%s.%N)
  "$BIN" --session full batch < "$work/batch.jsonl" > /dev/null
  end=$(date +%s.%N)
  [ "$chunk" = 0 ] && printf 'batch of 10,000 reads (fresh session): %.2f s\n' "$(echo "$end - $start" | bc)"
  [ "$chunk" = 9 ] && printf 'batch of 10,000 reads (session already holding 90,000): %.2f s\n' "$(echo "$end - $start" | bc)"
done
"$BIN" --session full session | python3 -c 'import json,sys; print("records in session full:", json.load(sys.stdin)["data"]["reads_total"])'
hyperfine -N --warmup 30 --runs 300 \
  "$BIN --session fresh read small.txt" \
  "$BIN --session full read small.txt" \
  --export-json "$work/state.json"
python3 - "$work/state.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
fresh, full = r[0]["median"], r[1]["median"]
print(f"read 2 KB: fresh session {fresh*1000:.2f} ms, 100,000 records {full*1000:.2f} ms: {full/fresh:.2f}x")
PY
