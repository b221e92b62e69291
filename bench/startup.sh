#!/usr/bin/env bash
# Static vs dynamic build (issue 11): binary size and start-up time, side by side.
# Builds a dynamically linked release binary into target/dynamic (RUSTFLAGS overrides the
# crt-static flag of .cargo/config.toml). Needs hyperfine.
#
# `bench/startup.sh catalog` measures only what reading a catalog adds to a call (issue 19:
# target <= 0.2 ms with a 20-tool catalog): the same `read` with and without --config, a
# profile applied, and the difference of the means.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
if [ "${1:-}" = catalog ]; then
  bin=$(realpath target/x86_64-unknown-linux-gnu/release/loopr-tool)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/root" && head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/small.txt"
  export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root HOME=$work
  cat=$work/catalog.toml
  names=(read write edit glob grep tree fetch run jobs todo session undo stat mkdir move delete
         notebook_edit read_file write_file run_command)
  for n in "${names[@]}"; do
    printf '[tools.%s]\nlane = "net"\ntimeout_ms = 30000\nmax_output_bytes = 100000\ndescription = "The %s tool, as this loop sees it"\n\n' "$n" "$n"
  done > "$cat"
  printf '[profiles.code]\ntools = [%s]\n\n[paths]\ndeny = [".env", "secrets/**"]\nread_only = [".git/**"]\n\n[[hooks.post]]\ntools = ["write"]\nfiles = ["*.rs"]\ncommand = "true"\n' \
    "$(printf '"%s",' "${names[@]}" | sed 's/,$//')" >> "$cat"
  "$bin" catalog --check "$cat" --format text
  hyperfine -N --warmup 100 --runs 1000 --export-json "$work/h.json" \
    "$bin read small.txt" "$bin --config $cat --profile code read small.txt"
  python3 - "$work/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["mean"] * 1000, r[1]["mean"] * 1000
print(f"without a catalog {a:.3f} ms, with a 20-tool catalog {b:.3f} ms: +{b - a:.3f} ms ({b / a:.2f}x)")
PY
  exit 0
fi
RUSTFLAGS="" cargo build --release --locked -q --target-dir target/dynamic
static=$(realpath target/x86_64-unknown-linux-gnu/release/loopr-tool)
dynamic=$(realpath target/dynamic/x86_64-unknown-linux-gnu/release/loopr-tool)
for b in "$static" "$dynamic"; do
  printf '%-8s %8d bytes  %s\n' "$( [ "$b" = "$static" ] && echo static || echo dynamic)" "$(stat -c %s "$b")" \
    "$(readelf -lW "$b" | grep -q 'program interpreter' && echo 'needs ld.so' || echo 'no interpreter')"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root" && head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/small.txt"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root
hyperfine -N --warmup 50 --runs 500 \
  "$static --version" "$dynamic --version" \
  "$static read small.txt" "$dynamic read small.txt"
