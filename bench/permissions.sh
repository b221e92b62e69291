#!/usr/bin/env bash
# What the permission step (SPEC 29) adds to a call: the same `read` under a catalog without
# and with a [permissions] table of 12 rules (Claude Code's syntax, none matching the read: the
# rules are parsed and matched, no state is read), and a `run` in ask mode allowed by a
# session grant (the grants are read from the session's state under its lock). 2,000 runs of
# each pair, interleaved; prints the medians and the difference.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
bin=$(realpath target/x86_64-unknown-linux-gnu/release/loopr-tool)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root" && head -c 2048 /dev/zero | tr '\0' 'x' | fold -w 64 > "$work/root/small.txt"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root HOME=$work
printf '[tools.read]\n[tools.run]\n' > "$work/plain.toml"
cat "$work/plain.toml" - > "$work/rules.toml" <<'TOML'
[permissions]
allow = ["Bash(npm test:*)", "Bash(cargo test:*)", "Read(/src/**)", "WebFetch(domain:docs.rs)"]
ask = ["Bash(git push:*)", "Edit(/src/**)", "Bash(npm publish:*)", "mcp__github"]
deny = ["Read(.env)", "Read(//etc/**)", "Bash(rm -rf:*)", "Read(~/.ssh/**)"]
TOML
"$bin" --config "$work/rules.toml" --harness permissions grant 'Bash(true)' >/dev/null
cd "$work/root"
python3 - "$bin" "$work" <<'PY'
import statistics, subprocess, sys, time
b, w = sys.argv[1], sys.argv[2]
pairs = {
    "read, 12 rules": ([b, "--config", f"{w}/plain.toml", "read", "small.txt"],
                       [b, "--config", f"{w}/rules.toml", "read", "small.txt"]),
    "run true, ask mode + grant": ([b, "--config", f"{w}/plain.toml", "run", "true"],
                                   [b, "--config", f"{w}/rules.toml", "--permission-mode", "ask", "run", "true"]),
}
for name, (a, c) in pairs.items():
    times = {0: [], 1: []}
    for i in range(2000):
        for k in ((0, 1) if i % 2 else (1, 0)):
            s = time.perf_counter()
            subprocess.run(a if k == 0 else c, stdout=subprocess.DEVNULL, check=True)
            times[k].append(time.perf_counter() - s)
    m0, m1 = statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000
    print(f"{name}: without {m0:.3f} ms, with {m1:.3f} ms: {m1 - m0:+.3f} ms (median of 2000)")
PY
