#!/usr/bin/env python3
"""An upstream MCP tool (SPEC 27.2) called through loopr-tool vs called directly, side by side.

The upstream is tests/mcp/fake_upstream.py's `echo` (a Python stdio server). Medians of CALLS:
1. direct: one kept connection to the upstream, a `tools/call` at a time;
2. through our `mcp` on stdio: one kept loopr-tool server, the upstream kept behind it;
3. through the CLI: `loopr-tool call`, which starts the upstream, calls and stops it, per call.
Prints each median and the added latency per call. Usage: bench/mcp_upstream.py [loopr-tool]
(default: the release build). Env: CALLS (300; CLI_CALLS 30).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "target/x86_64-unknown-linux-gnu/release/loopr-tool")
FAKE = os.path.join(HERE, "tests/mcp/fake_upstream.py")
CALLS = int(os.environ.get("CALLS", "300"))
CLI_CALLS = int(os.environ.get("CLI_CALLS", "30"))


class Stdio:
    def __init__(self, argv, env=None):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.n = 0
        self.ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "1"}})

    def ask(self, method, params):
        self.n += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method,
                                       "params": params}) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line.startswith("{"):
                continue  # the fake's stray line
            msg = json.loads(line)
            if msg.get("id") == self.n:
                return msg

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def median_us(f, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main():
    tmp = tempfile.mkdtemp(prefix="bench-upstream-")
    catalog = os.path.join(tmp, "catalog.toml")
    with open(catalog, "w") as f:
        f.write(f'[mcp_servers.fake]\ncommand = "python3"\nargs = [{json.dumps(FAKE)}, "ok"]\n')
    args = {"name": "echo", "arguments": {"text": "hi"}}
    direct = Stdio(["python3", FAKE, "ok"])
    d = median_us(lambda: direct.ask("tools/call", args), CALLS)
    direct.close()
    env = dict(os.environ, LOOPR_STATE_DIR=os.path.join(tmp, "state"))
    ours = Stdio([BIN, "--root", tmp, "--config", catalog, "mcp"], env)
    wrapped = {"name": "mcp__fake__echo", "arguments": {"text": "hi"}}
    ours.ask("tools/call", wrapped)  # starts the upstream
    m = median_us(lambda: ours.ask("tools/call", wrapped), CALLS)
    ours.close()
    call = json.dumps({"name": "mcp__fake__echo", "input": {"text": "hi"}})
    cli = median_us(lambda: subprocess.run([BIN, "--root", tmp, "--config", catalog, "call"],
                                           input=call, capture_output=True, text=True, env=env),
                    CLI_CALLS)
    print(f"upstream echo, median µs: direct {d:.0f}; through our mcp (kept) {m:.0f} "
          f"(+{m - d:.0f}); through the CLI (started per call) {cli:.0f} (+{cli - d:.0f})")


if __name__ == "__main__":
    main()
