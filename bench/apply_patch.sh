#!/usr/bin/env bash
# apply_patch of a 3-file, 6-hunk patch vs the same 6 changes as 6 edits in one `batch`
# (issue 16; target: apply_patch <= 2x the batch's time), side by side.
#
# Both start from the same state: --prepare puts the three files back, drops the session state
# and reads them (so the edits pass their read check, and apply_patch checks the same records
# for freshness). Both write three files, journal them and update the read records. Needs
# hyperfine. Usage: bench/apply_patch.sh [RUNS] [path/to/loopr-tool]  (default: 40, release)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-40}
BIN=${2:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || cargo build --release
BIN=$(realpath "$BIN")
# Not /tmp: it may be a tmpfs, where fsync costs nothing.
work=$(mktemp -d "${BENCH_DIR:-$PWD/target}/apply-patch.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/orig" "$work/root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root

# Three source files of 400 lines; each gets two changes, far apart. The patch and the batch
# are written from the same list of (file, old line, new line).
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
changes = []
for f in range(3):
    lines = [f"    let value_{f}_{i:03} = compute(input, {i});" for i in range(400)]
    with open(f"{work}/orig/f{f}.rs", "w") as out:
        out.write("fn main() {\n" + "\n".join(lines) + "\n}\n")
    for i in (100, 300):
        changes.append((f"f{f}.rs", i))
patch = ["*** Begin Patch"]
calls = [{"name": "edit", "input": {}} for _ in changes]
for k, (name, i) in enumerate(changes):
    f = int(name[1])
    ctx = lambda j: f"    let value_{f}_{j:03} = compute(input, {j});"
    if i == 100:
        patch.append(f"*** Update File: {name}")
    patch.append("@@")
    patch += [" " + ctx(i - 2), " " + ctx(i - 1), "-" + ctx(i),
              "+" + ctx(i).replace("compute", "COMPUTE"), " " + ctx(i + 1), " " + ctx(i + 2)]
    old = "\n".join(ctx(j) for j in range(i - 2, i + 3))
    calls[k]["input"] = {"path": name, "old_string": old,
                         "new_string": old.replace(ctx(i), ctx(i).replace("compute", "COMPUTE"))}
patch.append("*** End Patch")
open(f"{work}/patch.txt", "w").write("\n".join(patch) + "\n")
json.dump(calls, open(f"{work}/calls.json", "w"))
PY

cat > "$work/restore.sh" <<SH
cp $work/orig/*.rs $work/root/ && rm -rf $work/state
for f in f0 f1 f2; do $BIN read \$f.rs --limit 1 > /dev/null; done
SH

# One run of each by hand first: both must succeed and leave the same files.
sh "$work/restore.sh"
"$BIN" apply_patch < "$work/patch.txt" | python3 -c 'import json,sys; e=json.load(sys.stdin); assert e["ok"], e; print("apply_patch ok:", e["output"].splitlines()[0])'
mkdir -p "$work/by_patch" && cp "$work"/root/*.rs "$work/by_patch/"
sh "$work/restore.sh"
"$BIN" batch < "$work/calls.json" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert all(e["ok"] for e in r), r; print("batch ok:", len(r), "edits")'
for f in f0 f1 f2; do cmp "$work/root/$f.rs" "$work/by_patch/$f.rs"; done

hyperfine --warmup 3 --runs "$RUNS" --export-json "$work/h.json" \
  --prepare "sh $work/restore.sh" -n "apply_patch (3 files, 6 hunks)" "sh -c '$BIN apply_patch < $work/patch.txt > /dev/null'" \
  --prepare "sh $work/restore.sh" -n "batch of 6 edits" "sh -c '$BIN batch < $work/calls.json > /dev/null'"
python3 - "$work/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
patch, batch = r[0]["median"], r[1]["median"]
print(f"\napply_patch {patch*1e3:.1f} ms, batch of 6 edits {batch*1e3:.1f} ms (medians) -> "
      f"apply_patch takes {patch/batch:.2f}x the batch's time (target <= 2x)")
PY
