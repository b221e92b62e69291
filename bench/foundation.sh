#!/usr/bin/env bash
# Foundation benchmarks (issue 4), side by side in one hyperfine run each:
#   1. per-call wall time of `read` on a 2 KB file, vs `cat` of it and vs a static hello-world
#      binary (the process start-up floor), state lock and read record included;
#   2. `write` of a 10 MB file vs `cp` and `cat >`;
#   3. peak RSS (and time) of a 10-line `read` of a 300 MB file, vs `head -n 10`.
# Targets: read ≤ 2 ms median and ≤ 3× the floor (issue 22: ≤ 1.5×); 300 MB read ≤ 16 MB peak RSS.
#
# Needs: hyperfine, gcc (static libc), GNU time. `apt-get install hyperfine time gcc`.
# Usage: bench/foundation.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${1:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
if [ ! -x "$BIN" ]; then
  cargo build --release
fi
BIN=$(realpath "$BIN")
for t in hyperfine gcc /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "missing $t: apt-get install hyperfine gcc time" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$root

# The start-up floor: a static C hello world.
printf '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n' > "$work/hello.c"
gcc -O2 -static -o "$work/hello" "$work/hello.c"

# Data generators end their producers with SIGPIPE, which pipefail would count as failure.
gen() { set +o pipefail; "$@"; set -o pipefail; }
gen eval 'head -c 2048 /dev/urandom | base64 -w 76 | head -c 2048 > "$root/small.txt"'
echo "== 1. read of a 2 KB file (JSON envelope, state lock and read record included)"
hyperfine -N --warmup 50 --runs 1000 --export-json "$work/read.json" \
  "$work/hello" \
  "cat $root/small.txt" \
  "$BIN read small.txt"
python3 - "$work/read.json" <<'EOF'
import json, sys
r = {x["command"].split()[0].split("/")[-1]: x for x in json.load(open(sys.argv[1]))["results"]}
floor, cat, read = r["hello"]["median"], r["cat"]["median"], r["loopr-tool"]["median"]
print(f"median: hello {floor*1e3:.3f} ms, cat {cat*1e3:.3f} ms, read {read*1e3:.3f} ms")
print(f"read / hello-world floor = {read/floor:.2f}x (target <= 3x; issue 22: <= 1.5x); read / cat = {read/cat:.2f}x; target median <= 2 ms: {'met' if read <= 0.002 else 'MISSED'}")
EOF

echo
echo "== 2. write of a 10 MB file (new file each run; content on stdin)"
gen eval 'head -c $((10 * 1024 * 1024)) /dev/urandom | base64 -w 100 | head -c $((10 * 1024 * 1024)) > "$work/ten.txt"'
hyperfine --warmup 3 --runs 30 \
  --prepare "rm -f $root/w.txt $root/c.txt $root/k.txt" \
  "cp $work/ten.txt $root/c.txt" \
  "cat $work/ten.txt > $root/k.txt" \
  "$BIN --no-read-check write w.txt < $work/ten.txt"
echo "(write fsyncs the file and its directory, as SPEC 6 asks; cp and cat do not)"

echo
echo "== 3. 10-line read of a 300 MB file: time, and peak RSS"
gen eval 'yes "the quick brown fox jumps over the lazy dog, again and again, line after line" | head -c $((300 * 1024 * 1024)) > "$root/huge.txt"'
hyperfine --warmup 1 --runs 5 \
  "head -n 10 $root/huge.txt" \
  "wc -l $root/huge.txt" \
  "$BIN read huge.txt --limit 10"
echo "(read makes one pass over the whole file: total_lines, line endings, indent and the content hash need it)"
rss=$(/usr/bin/time -f %M "$BIN" read huge.txt --limit 10 2>&1 >/dev/null | tail -1)
echo "peak RSS of read --limit 10 on 300 MB: ${rss} KiB (target <= 16384 KiB)"
rss=$(/usr/bin/time -f %M "$work/hello" 2>&1 >/dev/null | tail -1)
echo "peak RSS of the static hello world, for scale: ${rss} KiB"
