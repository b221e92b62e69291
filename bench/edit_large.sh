#!/usr/bin/env bash
# A one-line edit of a 10 MB file (issue 5; target <= 100 ms with the read-record check), side by
# side with `sed -i` doing the same substitution, `cp` of the file, and `cp` + fsync (the floor
# for a durable write: edit fsyncs the new file, its directory and the undo journal, SPEC 2.2
# and 6; sed -i and cp fsync nothing).
#
# Every run edits a fresh copy: --prepare puts the original back, drops the session state (so
# the undo journal does not pile up 10 MB blobs) and reads the file again, so the timed edit
# includes the read-record check. Needs hyperfine.
# Usage: bench/edit_large.sh [RUNS] [path/to/loopr-tool]   (defaults: 40, the release build)
#        BASELINE=old/loopr-tool[:older/loopr-tool] bench/edit_large.sh   adds those builds to
#        the same hyperfine run (the load on a shared machine drifts between runs)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-40}
BIN=${2:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || cargo build --release
BIN=$(realpath "$BIN")
# Not /tmp: it may be a tmpfs, where fsync costs nothing and the figures would flatter edit.
work=$(mktemp -d "${BENCH_DIR:-$PWD/target}/edit-large.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root

# 160,000 lines of 64 bytes = 10.24 MB (9.8 MiB); the edited line is in the middle.
python3 - "$work/orig.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(160_000):
        f.write(f"    let value_{i:06} = compute(input, {i % 997:3}); // pad".ljust(63, ".") + "\n")
PY
line=$(sed -n 80000p "$work/orig.txt")
new=${line/compute/COMPUTE}
sed_expr="80000s/compute/COMPUTE/"
ls -l "$work/orig.txt"

# One run by hand first: the edit must succeed and make exactly the change sed makes.
cp "$work/orig.txt" "$work/root/big.txt"
"$BIN" read big.txt --limit 1 > /dev/null
"$BIN" edit big.txt --old-string "$line" --new-string "$new" | python3 -c 'import json,sys; e=json.load(sys.stdin); assert e["ok"], e; print("edit ok:", e["output"].splitlines()[0])'
cp "$work/orig.txt" "$work/sed.txt"
sed -i "$sed_expr" "$work/sed.txt"
cmp "$work/root/big.txt" "$work/sed.txt"

# -N: no shell around the timed commands (its start-up would be noise); the line holds no quote.
# `sync big.txt`: the file to edit is on disk, as one saved a while ago or by the last edit is.
restore="sh -c 'cp $work/orig.txt $work/root/big.txt && sync $work/root/big.txt && rm -rf $work/state && $BIN read big.txt --limit 1 > /dev/null'"
edit_args="edit big.txt --old-string '$line' --new-string '$new'"
baseline=()
IFS=: read -r -a others <<< "${BASELINE:-}"
for b in "${others[@]}"; do
  b=$(realpath "$b")
  baseline+=(--prepare "${restore//$BIN/$b}" -n "edit by $b" "$b $edit_args")
done
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$work/h.json" \
  --prepare "$restore" -n "loopr-tool edit" "$BIN $edit_args" "${baseline[@]}" \
  --prepare "cp $work/orig.txt $work/sed.txt" -n "sed -i" "sed -i $sed_expr $work/sed.txt" \
  --prepare "rm -f $work/copy.txt" -n "cp" "cp $work/orig.txt $work/copy.txt" \
  --prepare "rm -f $work/copy.txt" -n "cp + fsync" "dd if=$work/orig.txt of=$work/copy.txt bs=1M conv=fsync status=none"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
edit = r["loopr-tool edit"]
print(f"\n10 MB one-line edit: median {edit['median']*1e3:.1f} ms "
      f"(min {edit['min']*1e3:.1f}, mean {edit['mean']*1e3:.1f} ± {edit['stddev']*1e3:.1f})")
for name, p in r.items():
    if name != "loopr-tool edit":
        print(f"  {name:11} median {p['median']*1e3:6.1f} ms -> edit takes {edit['median']/p['median']:.2f}x")
PY
