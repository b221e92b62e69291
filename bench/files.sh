#!/usr/bin/env bash
# delete of a 10,000-file tree (issue 18): `loopr-tool delete --recursive` (into the trash, on the
# same file system as the tree, so a rename) vs `rm -rf`, side by side in one hyperfine run;
# each run gets a fresh copy of the tree (--prepare). Target: ≤ 3× rm -rf.
# Also `delete --permanent` (no trash), which does what rm -rf does plus the measuring walk.
#
# Needs: hyperfine. Usage: bench/files.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
command -v hyperfine >/dev/null || { echo "missing hyperfine: apt-get install hyperfine" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root" "$work/template"
# 100 directories of 100 small files each.
for d in $(seq 1 100); do
  mkdir "$work/template/d$d"
  for f in $(seq 1 100); do echo "file $d/$f" > "$work/template/d$d/f$f.txt"; done
done
echo "tree: $(find "$work/template" -type f | wc -l) files in $(find "$work/template" -type d | wc -l) directories"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root
prepare="rm -rf $work/root/t $work/state; cp -a $work/template $work/root/t"
hyperfine --warmup 2 --runs 15 --prepare "$prepare" \
  "rm -rf $work/root/t" \
  "$BIN delete t --recursive" \
  "$BIN delete t --recursive --permanent" \
  --export-json "$work/delete.json"
python3 - "$work/delete.json" "$work" "$BIN" <<'PY'
import json, sys
name = lambda c: c.replace(sys.argv[3], "loopr-tool").replace(sys.argv[2] + "/root/", "")
r = {name(x["command"]): x["median"] for x in json.load(open(sys.argv[1]))["results"]}
rm = r["rm -rf t"]
for k, v in r.items():
    print(f"{k:45s} median {v*1000:8.2f} ms  {v/rm:5.2f}x rm -rf")
PY
