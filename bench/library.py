#!/usr/bin/env python3
"""The same 2 KB `read` three ways (SPEC 30.1), side by side in one run, on one unchanged file:

  in-process  Toolbox::call in a Rust program (examples/bench_read.rs): the median of N reads
              after a warm-up, each timed alone;
  process     `loopr-tool call` spawned per read, as a harness without the library does: the
              median of P spawns, timed from spawn to exit;
  mcp         `loopr-tool mcp`, one warm server, `tools/call` read: the median of N requests,
              timed from writing the request to parsing its response.

Then the ratios to the in-process call. Target: in-process <= 50 us (an unchanged read record
is not rewritten, so a read writes nothing).

Usage: bench/library.py [--n 2000] [--process-n 300] [--warmup 200]
Builds the release binary and the release example when missing (lto = fat: minutes, once).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(HERE, "target", "x86_64-unknown-linux-gnu", "release")
BIN = os.path.join(RELEASE, "loopr-tool")
EXAMPLE = os.path.join(RELEASE, "examples", "bench_read")


def build():
    if not os.path.exists(BIN):
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=HERE, check=True)
    if not os.path.exists(EXAMPLE):
        subprocess.run(
            ["cargo", "build", "--release", "--locked", "--example", "bench_read"],
            cwd=HERE,
            check=True,
        )


def two_kb(path):
    """2,048 bytes of text in lines of 30 to 70 characters."""
    lines, size, i = [], 0, 0
    while size < 2048:
        line = f"line {i}: " + "abcdefghij" * (2 + i % 5) + "\n"
        lines.append(line)
        size += len(line)
        i += 1
    with open(path, "w") as f:
        f.write("".join(lines)[:2047] + "\n")


def in_process(root, state, n, warmup):
    out = subprocess.run(
        [EXAMPLE, root, state, "bench.txt", str(n), str(warmup)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def process(root, state, n, env):
    argv = [BIN, "--root", root, "--state-dir", state, "--session", "bench-process", "call"]
    call = json.dumps({"name": "read", "input": {"path": "bench.txt"}}).encode()
    times = []
    for i in range(n + 10):
        t = time.perf_counter()
        done = subprocess.run(argv, input=call, capture_output=True, env=env)
        elapsed = time.perf_counter() - t
        assert done.returncode == 0, done.stdout
        if i >= 10:
            times.append(elapsed * 1e6)
    return statistics.median(times)


def mcp(root, state, n, warmup, env):
    argv = [BIN, "--root", root, "--state-dir", state, "--session", "bench-mcp", "mcp"]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=-1)
    next_id = 0

    def request(method, params):
        nonlocal next_id
        next_id += 1
        msg = {"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}
        p.stdin.write(json.dumps(msg).encode() + b"\n")
        p.stdin.flush()
        while True:
            r = json.loads(p.stdout.readline())
            if r.get("id") == next_id:
                return r

    request(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
    )
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    p.stdin.flush()
    args = {"name": "read", "arguments": {"path": "bench.txt"}}
    times = []
    for i in range(warmup + n):
        t = time.perf_counter()
        r = request("tools/call", args)
        elapsed = time.perf_counter() - t
        assert not r["result"].get("isError"), r
        if i >= warmup:
            times.append(elapsed * 1e6)
    p.stdin.close()
    p.wait()
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="in-process and mcp reads (2000)")
    ap.add_argument("--process-n", type=int, default=300, help="process spawns (300)")
    ap.add_argument("--warmup", type=int, default=200)
    a = ap.parse_args()
    build()
    work = tempfile.mkdtemp(prefix="loopr-bench-library-")
    root, state = os.path.join(work, "root"), os.path.join(work, "state")
    os.makedirs(root)
    two_kb(os.path.join(root, "bench.txt"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOOPR_")}
    env["HOME"] = work  # no catalog of the user's
    env.pop("XDG_CONFIG_HOME", None)
    local = in_process(root, state, a.n, a.warmup)
    figures = {
        "in-process (Toolbox::call)": local["median_us"],
        "process (loopr-tool call)": process(root, state, a.process_n, env),
        "mcp (tools/call, warm server)": mcp(root, state, a.n, a.warmup, env),
    }
    base = figures["in-process (Toolbox::call)"]
    print(f"2 KB read, median; {a.n} in-process and mcp reads, {a.process_n} processes")
    for name, us in figures.items():
        print(f"  {name:<32} {us:9.1f} us   {us / base:7.1f}x")
    print(f"  in-process p10 {local['p10_us']:.1f} us, p90 {local['p90_us']:.1f} us")
    print("target: in-process <= 50 us:", "met" if base <= 50 else "NOT met")


if __name__ == "__main__":
    sys.exit(main())
