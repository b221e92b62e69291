#!/usr/bin/env bash
# Writes link/order.txt (see build.rs): the functions that typical calls run, in the order the
# calls below first reach them, for the linker to place together at the start of `.text`.
#
# It runs each call under valgrind's callgrind on the shipped release build (which keeps its
# symbol table for this and for named backtraces) and lists every function that executed. The
# most common calls come first: what a `read` runs is the core every call shares.
# Needs: valgrind. Regenerate after large changes; a stale list costs speed, not correctness.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
bin=$(realpath target/x86_64-unknown-linux-gnu/release/loopr-tool)
[ "$(nm "$bin" | grep -c ' T main$')" = 1 ] || { echo "no symbol table in $bin (profile.release strip?)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root/src"
head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/small.txt"
printf 'def add(a, b):\n    return a - b\n' > "$work/root/src/calc.py"
printf 'fn main() {\n    println!("hi");\n}\n' > "$work/root/src/main.rs"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root HOME=$work
cd "$work/root"

n=0
trace() {   # trace [STDIN] -- ARGS...: one call under callgrind, children (run's keeper) too
  local input=$1; shift 2
  n=$((n + 1))
  printf '%s' "$input" | valgrind -q --tool=callgrind --demangle=no --trace-children=yes \
    --callgrind-out-file="$work/cg.$n.%p" "$bin" "$@" > /dev/null 2>&1 || true
}
trace '' -- read small.txt
trace '{"path":"small.txt","offset":2,"limit":5}' -- read
trace '' -- read src/calc.py
trace '{"path":"src/calc.py","old_string":"a - b","new_string":"a + b"}' -- edit
trace '{"path":"new.txt","content":"one\ntwo\n"}' -- write
trace '' -- grep add --output-mode content
trace '' -- grep add
trace '' -- glob '**/*.py'
trace '' -- tree
trace '' -- run true
trace '{"action":"write","todos":[{"content":"fix add","status":"in_progress"}]}' -- todo
trace '' -- stat small.txt
trace '' -- undo
trace '[{"tool":"read","input":{"path":"small.txt"}},{"tool":"grep","input":{"pattern":"add"}}]' -- batch

# Function names in the order the calls first name them; callgrind's "fn=(id) name" and
# "cfn=(id) name" lines give each name once per file.
for f in $(ls "$work"/cg.* | sort -t. -k2,2n); do
  grep -hoE '^c?fn=\([0-9]+\) .*' "$f" | sed -E 's/^c?fn=\([0-9]+\) //; s/'"'"'[0-9]+$//'
done | grep -v -e '^0x' -e '^(below main)' | awk '!seen[$0]++' > "$work/names"
cd "$OLDPWD"
# glibc picks memcpy, strlen & co. by the CPU at start-up (IFUNC), and valgrind's CPU has no
# AVX-512: next to each variant that ran here go its siblings, whichever one a machine picks.
nm "$bin" | python3 -c '
import re, sys
text = [l.split()[2] for l in sys.stdin if len(l.split()) == 3 and l.split()[1] in "tT"]
isa = re.compile(r"^(__[a-z0-9]+?)_(sse2|ssse3|sse4_1|sse4_2|avx2|avx512|avx|evex)")
seen = set()
for name in open(sys.argv[1]).read().split("\n"):
    m = isa.match(name)
    for n in [name] + ([t for t in text if t.startswith(m.group(1) + "_") and isa.match(t)] if m else []):
        if n and n not in seen:
            seen.add(n)
            print(n)
' "$work/names" > link/order.txt.new
mv link/order.txt.new link/order.txt
echo "link/order.txt: $(wc -l < link/order.txt) functions from $n calls"
