#!/usr/bin/env bash
# Code intelligence (SPEC 26.6), side by side with its peers; prints each ratio.
#
#  1. `symbols` outline of a 2,000-line file as a process vs universal-ctags on it (target: <= 20 ms),
#     and the outline's size against the file's read (target: <= 1/4).
#  2. The syntax check's cost: the same edit of that file as .py (checked) and as .txt (not);
#     target <= 5 ms.
#  3. `map` of a source tree cold (empty tag cache) and warm (cache filled), and `references`
#     across it vs `rg -w NAME`.
#
# Needs hyperfine and universal-ctags (`apt-get install -y hyperfine universal-ctags`).
# Usage: bench/symbols.sh [TREE]   (TREE defaults to this repository's crates/)
#        BIN=path/to/loopr-tool bench/symbols.sh   (a binary already built; no build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked -q
  BIN=target/x86_64-unknown-linux-gnu/release/loopr-tool
fi
bin=$(realpath "$BIN")
tree=$(realpath "${1:-crates}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPR_STATE_DIR=$work/state HOME=$work
mkdir -p "$work/root"

# A 2,000-line Python file: 95 classes of four methods, constants, functions.
python3 - "$work/root/big.py" <<'PY'
import sys
out = ["import os", "import sys", "", "LIMIT = 100", ""]
for c in range(95):
    out += [f"class Handler{c}(object):", f'    """Handles case {c}."""', f"    kind = {c}", ""]
    for m in range(4):
        out += [f"    def step_{m}(self, value, *, scale=1):", f"        total = value * scale + {m}",
                "        if total > LIMIT:", "            return helper(total)", "        return total", ""]
while len(out) < 2000:
    n = len(out)
    out += [f"def helper_{n}(x):", "    return x + 1", ""]
open(sys.argv[1], "w").write("\n".join(out[:2000]) + "\n")
PY
cd "$work/root"
lines=$(wc -l < big.py)
echo "== 1. outline of a ${lines}-line file, as a process"
hyperfine -N -w 5 -r 50 --export-json "$work/outline.json" \
  "$bin symbols big.py" \
  "ctags -f - --fields=+neK big.py" | grep -E 'Time|±|faster|slower' || true
python3 - "$work/outline.json" <<'PY'
import json, sys
ours, ctags = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
print(f"symbols outline {ours:.2f} ms, ctags {ctags:.2f} ms: ratio {ours / ctags:.2f} (target: <= 20 ms)")
PY
outline=$("$bin" symbols big.py --format text | wc -c)
read=$("$bin" read big.py --limit 2000 --format text | wc -c)
ours_defs=$("$bin" symbols big.py --limit 100000 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["total"])')
ctags_defs=$(ctags -f - --fields=+K big.py | grep -cvE $'\t(member|field)$' || true)
echo "outline ${outline} bytes vs read ${read} bytes: $(python3 -c "print(f'{$outline/$read:.3f}')") of it (target: <= 0.25)"
echo "definitions: symbols ${ours_defs}, ctags ${ctags_defs} (ctags lists class attributes as members: left out here)"

echo
echo "== 2. the syntax check's cost on an edit of that file (.py checked, .txt not)"
cp big.py big.txt
"$bin" read big.py > /dev/null
"$bin" read big.txt > /dev/null
hyperfine -N -w 5 -r 40 --export-json "$work/check.json" \
  "$bin edit big.py --old-string 'LIMIT = 100' --new-string 'LIMIT = 101' --dry-run" \
  "$bin edit big.txt --old-string 'LIMIT = 100' --new-string 'LIMIT = 101' --dry-run" 2>/dev/null | grep -E 'Time' || true
python3 - "$work/check.json" <<'PY'
import json, sys
py, txt = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
print(f"edit .py {py:.2f} ms, .txt {txt:.2f} ms: the check adds {py - txt:.2f} ms (target: <= 5 ms)")
PY

echo
echo "== 3. map and references over $tree"
files=$(find "$tree" -type f \( -name '*.rs' -o -name '*.py' -o -name '*.c' -o -name '*.h' -o -name '*.go' -o -name '*.ts' -o -name '*.js' -o -name '*.java' -o -name '*.cpp' \) | wc -l)
echo "$files source files"
cd "$tree"
hyperfine -N -w 1 -r 10 --prepare "rm -rf $work/state" "$bin --root . map" 2>/dev/null | grep -E 'Time' | sed 's/^/cold: /'
"$bin" --root . map > /dev/null
hyperfine -N -w 2 -r 20 "$bin --root . map" 2>/dev/null | grep -E 'Time' | sed 's/^/warm: /'
name=${NAME:-Fingerprint}
hyperfine -N -w 2 -r 20 --export-json "$work/refs.json" \
  "$bin --root . symbols --action references --name $name --limit 100000" \
  "rg -w $name" 2>/dev/null | grep -E 'Time' || true
python3 - "$work/refs.json" "$name" <<'PY'
import json, sys
ours, rg = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
print(f"references {sys.argv[2]}: {ours:.1f} ms, rg -w {rg:.1f} ms: ratio {ours / rg:.2f} (target: <= 2)")
PY

echo
echo "== 4. outline against universal-ctags over $tree: ctags' definitions (kinds we list) we find, by file and name"
# By name, not line: ctags gives a C typedef the line of its name, we the line it starts on.
python3 - "$bin" "$tree" <<'PY'
import json, subprocess, sys, collections
bin, tree = sys.argv[1], sys.argv[2]
# ctags kinds that are definitions we list (fields, enumerators, members, prototypes, locals,
# parameters, imports and Rust impl blocks are not: see the README).
KINDS = {"function", "method", "class", "struct", "enum", "interface", "trait", "macro",
         "namespace", "module", "typedef", "type", "constant", "alias", "union"}
out = subprocess.run(["ctags", "-R", "-f", "-", "--output-format=json", "--fields=+nK", "."],
                     cwd=tree, capture_output=True, text=True).stdout
theirs = collections.defaultdict(set)
for line in out.splitlines():
    t = json.loads(line)
    # ctags names anonymous structs `__anonNNN`; they have no name to find.
    if t.get("_type") == "tag" and t.get("kind") in KINDS and not t["name"].startswith("__anon"):
        theirs[t["path"]].add(t["name"])
ours = {}
files = sorted(theirs)
for i in range(0, len(files), 100):
    r = json.loads(subprocess.run([bin, "--root", tree, "symbols", "--paths", json.dumps(files[i:i + 100]),
                                   "--limit", "1000000"], capture_output=True, text=True).stdout)
    for f in r["data"]["files"]:
        ours[f["path"]] = {s["name"] for s in f["symbols"]}
found = sum(len(lines & ours.get(p, set())) for p, lines in theirs.items())
total = sum(len(l) for l in theirs.values())
print(f"ctags: {total} definitions in {len(theirs)} files; symbols finds {found} of them ({100 * found / max(total, 1):.1f}%)")
missed = [(p, l) for p, lines in theirs.items() for l in sorted(lines - ours.get(p, set()))][:5]
for p, l in missed:
    print(f"  missed {p}:{l}")
PY
