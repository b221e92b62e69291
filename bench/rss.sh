#!/usr/bin/env bash
# Peak RSS of the search cases (issue 22): each case of bench/search.sh, ours and the peer's,
# the median of RUNS runs of GNU time's %M, with the ratio. Targets: grep ≤ 1.2× rg's in every
# mode, tree ≤ 2× tree's.
#
# Each side's floor is printed too — ours a `read` of a small file, the peers' `--version` — and
# what each case needs above it: most of a static binary's floor is pages of its own code, so
# "above floor" is what the search itself holds (walk, buffers, results).
#
# Needs: ripgrep (rg), fd (fd or fdfind), tree, GNU time.
# Usage: bench/rss.sh CORPUS [path/to/loopr-tool]   (default: the release build)
# e.g.:  RUNS=7 bench/rss.sh /work/corpus/glibc
set -euo pipefail
set -f   # the commands below are split on spaces; their globs are for the tools, not the shell
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: bench/rss.sh CORPUS [BIN]}
BIN=${2:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
FD=$(command -v fd || command -v fdfind || true)
for t in rg tree /usr/bin/time "$FD"; do
  command -v "$t" >/dev/null || { echo "missing ${t:-fd}: apt-get install ripgrep fd-find tree time" >&2; exit 1; }
done
RUNS=${RUNS:-5}

cd "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPR_STATE_DIR=$work/state
unset LOOPR_ROOT LOOPR_NO_SANDBOX LOOPR_FORMAT || true
echo "corpus: $corpus ($(rg --files | wc -l) files); median of $RUNS runs each"

L=$BIN
# shellcheck source=bench/search_cases.sh
. "$here/bench/search_cases.sh"

# The median peak RSS in KiB of a command given as one string (eval'd, as in search.sh).
rss() {
  local i
  for ((i = 0; i < RUNS; i++)); do
    eval "/usr/bin/time -f %M $1" 2>&1 >/dev/null </dev/null | tail -1
  done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

small=$(rg --files | head -1)
floor_ours=$(rss "$L read $small")
floor_rg=$(rss "rg --version")
floor_fd=$(rss "$FD --version")
floor_tree=$(rss "tree --version")
python3 - "$small" "$floor_ours" "$floor_rg" "$floor_fd" "$floor_tree" <<'PY'
import sys
small, ours, rg, fd, tree = sys.argv[1], *(int(x) / 1024 for x in sys.argv[2:])
print(f"{'case':<26} {'ours MB':>8} {'peer MB':>8} {'RSS x':>7}   above floor: ours / peer MB")
print(f"{'floor':<26} {ours:8.1f} {'':>8} {'':>7}   (ours: read {small}; rg {rg:.1f}, fd {fd:.1f}, tree {tree:.1f})")
PY
for c in "${cases[@]}"; do
  IFS='|' read -r name ours theirs <<< "$c"
  a=$(rss "$ours")
  b=$(rss "$theirs")
  case $theirs in
    rg*) fb=$floor_rg ;;
    tree*) fb=$floor_tree ;;
    *) fb=$floor_fd ;;
  esac
  python3 - "$name" "$a" "$b" "$floor_ours" "$fb" <<'PY'
import sys
name, a, b, fa, fb = sys.argv[1], *map(int, sys.argv[2:])
print(f"{name:<26} {a/1024:8.1f} {b/1024:8.1f} {a/b:6.2f}x   {(a-fa)/1024:5.1f} / {(b-fb)/1024:.1f}")
PY
done
echo "(peer = rg, fd or tree as named in the case, as in bench/search.sh; peak RSS from GNU time)"
