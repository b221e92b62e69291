#!/usr/bin/env bash
# Search benchmarks (issue 6): glob, grep and tree against fd, ripgrep and tree on a real codebase,
# each pair side by side in one hyperfine run, warm cache; then the peak RSS of each command.
# Targets: grep ≤ 1.15× rg's median in every mode; glob ≤ 1.2× fd's; tree ≤ 1.5× tree's;
# peak RSS ≤ 1.2× rg's, tree's ≤ 2× tree's (issue 22; bench/rss.sh measures RSS alone, with
# medians and each side's floor).
#
# Every loopr-tool command asks for all results (head_limit 0, a limit above the count), so it
# does the same work as the peer, which prints everything; loopr-tool also sorts by path.
#
# Needs: hyperfine, ripgrep (rg), fd (fd or fdfind), tree, GNU time.
# Usage: bench/search.sh CORPUS [path/to/loopr-tool]   (default: the release build)
# e.g.:  git clone <glibc> /work/corpus/glibc && bench/search.sh /work/corpus/glibc
set -euo pipefail
set -f   # the commands below are split on spaces; their globs are for the tools, not the shell
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: bench/search.sh CORPUS [BIN]}
BIN=${2:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
FD=$(command -v fd || command -v fdfind || true)
for t in hyperfine rg tree /usr/bin/time "$FD"; do
  command -v "$t" >/dev/null || { echo "missing ${t:-fd}: apt-get install hyperfine ripgrep fd-find tree time" >&2; exit 1; }
done

cd "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPR_STATE_DIR=$work/state
unset LOOPR_ROOT LOOPR_NO_SANDBOX LOOPR_FORMAT || true
echo "corpus: $corpus ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(rg --files | wc -l) files)"
echo "$(rg --version | head -1); $($FD --version); $(tree --version | cut -c1-12); $(nproc) cores"

L=$BIN
# shellcheck source=bench/search_cases.sh
. "$here/bench/search_cases.sh"
results=$work/results.txt
: > "$results"
for c in "${cases[@]}"; do
  IFS='|' read -r name ours theirs <<< "$c"
  echo
  echo "== $name"
  hyperfine -N --warmup 3 --runs "${RUNS:-20}" --export-json "$work/h.json" "$ours" "$theirs" | grep -E 'Time|±' || true
  rss_ours=$(eval "/usr/bin/time -f %M $ours" 2>&1 >/dev/null | tail -1)
  rss_theirs=$(eval "/usr/bin/time -f %M $theirs" 2>&1 >/dev/null | tail -1)
  # The machine is shared: load drifts between hyperfine's block of A runs and its block of B
  # runs. Runs alternated A, B, A, B… give a ratio per pair that drift cannot bias.
  python3 - "$work/h.json" "$name" "$rss_ours" "$rss_theirs" "$ours" "$theirs" "${RUNS:-20}" >> "$results" <<'EOF'
import json, shlex, statistics, subprocess, sys, time
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"], r[1]["median"]
def once(cmd):
    t = time.perf_counter()
    # stdin from /dev/null as under hyperfine: rg searches a piped stdin instead of the tree.
    subprocess.run(shlex.split(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
pairs = [once(sys.argv[5]) / once(sys.argv[6]) for _ in range(int(sys.argv[7]))]
print(f"{sys.argv[2]}\t{a*1e3:.1f}\t{b*1e3:.1f}\t{a/b:.2f}\t{statistics.median(pairs):.2f}\t{int(sys.argv[3])/1024:.1f}\t{int(sys.argv[4])/1024:.1f}\t{int(sys.argv[3])/int(sys.argv[4]):.2f}")
EOF
done
echo
printf '%-26s %9s %9s %7s %8s %9s %9s %7s\n' case "ours ms" "peer ms" ratio paired "ours MB" "peer MB" "RSS x"
while IFS=$'\t' read -r n a b r p ra rb rr; do
  printf '%-26s %9s %9s %6sx %7sx %9s %9s %6sx\n' "$n" "$a" "$b" "$r" "$p" "$ra" "$rb" "$rr"
done < "$results"
echo "(hyperfine medians and their ratio; paired = median of per-pair ratios of alternated runs;"
echo " peer = rg, fd or tree as named in the case; peak RSS from GNU time)"
