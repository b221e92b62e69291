#!/usr/bin/env bash
# Static vs dynamic build (issue 11): binary size and start-up time, side by side.
# Builds a dynamically linked release binary into target/dynamic (RUSTFLAGS overrides the
# crt-static flag of .cargo/config.toml). Needs hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
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
