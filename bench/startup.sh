#!/usr/bin/env bash
# Static vs dynamic build (issue 11): binary size and start-up time, side by side.
# Builds a dynamically linked release binary into target/dynamic (RUSTFLAGS overrides the
# crt-static flag of .cargo/config.toml). Needs hyperfine.
#
# `bench/startup.sh catalog` measures only what reading a catalog adds to a call (issue 19:
# target <= 0.2 ms with a 20-tool catalog, a profile, path rules and a hook): the same `read`
# with and without --config, 3,000 runs of each, interleaved.
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
  cd "$work/root"
  # Interleaved, not one command's runs then the other's (as hyperfine does): on a shared
  # machine the load drifts by tenths of a millisecond between the two halves of a run.
  python3 - "$bin" "$cat" <<'PY'
import statistics, subprocess, sys, time
b, cat = sys.argv[1], sys.argv[2]
plain = [b, "read", "small.txt"]
with_cat = [b, "--config", cat, "--profile", "code", "read", "small.txt"]
times = {0: [], 1: []}
for i in range(3000):
    order = (0, 1) if i % 2 else (1, 0)
    for k in order:
        cmd = plain if k == 0 else with_cat
        s = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times[k].append(time.perf_counter() - s)
for name, f in (("median", statistics.median), ("p25", lambda x: sorted(x)[len(x) // 4]), ("min", min)):
    a, c = f(times[0]) * 1000, f(times[1]) * 1000
    print(f"{name:>6}: read without a catalog {a:.3f} ms, with a 20-tool catalog {c:.3f} ms: {c - a:+.3f} ms")
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
