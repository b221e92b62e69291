#!/usr/bin/env python3
"""MCP over stdio, side by side: loopr-tool mcp vs the MCP reference filesystem server vs
Desktop Commander, all driven by this one JSON-RPC client (stdlib only, one request line out,
read lines until the matching response), on the same files, in one run. bench/mcp.sh installs
the peers and calls this; see there for usage.

Per operation: N sequential calls on one warm server per peer (after a few warm-up calls),
each timed from writing the request to parsing its response, taken in blocks that go round the
servers in turn; medians, and each peer's median over loopr-tool's. Start-up: spawn to
`initialize` answered, on a fresh process each time. In flight: rounds of one-at-a-time reads
then K reads outstanding at once on the same server; the median round's ratio of throughputs.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

INIT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "loopr-bench", "version": "0"},
}


class Server:
    def __init__(self, argv, env, cwd):
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=cwd,
            bufsize=-1,  # buffered: an unbuffered readline reads the pipe one byte at a time
        )
        self.out = self.proc.stdout
        self.next_id = 0

    def send(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        return self.next_id

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self):
        """The next response (notifications and log lines on stdout are skipped)."""
        while True:
            line = self.out.readline()
            if not line:
                raise RuntimeError(f"server closed stdout (exit {self.proc.poll()})")
            msg = json.loads(line)
            if "id" in msg and "method" not in msg:
                return msg

    def request(self, method, params=None):
        rid = self.send(method, params)
        msg = self.receive()
        assert msg["id"] == rid, (msg, rid)
        return msg

    def initialize(self):
        r = self.request("initialize", INIT)
        assert "result" in r, r
        self.notify("notifications/initialized")
        return r

    def call(self, name, args):
        r = self.request("tools/call", {"name": name, "arguments": args})
        if "error" in r or r["result"].get("isError"):
            raise RuntimeError(f"{name} {args} failed: {json.dumps(r)[:500]}")
        return r["result"]

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def text_of(result):
    return "".join(b.get("text", "") for b in result.get("content", []))


class Peer:
    """How one server is started and how its tools are called for each operation."""

    def __init__(self, name, argv, env, ops):
        self.name, self.argv, self.env, self.ops = name, argv, env, ops

    def start(self, root):
        return Server(self.argv, self.env, root)


def peers(args, root):
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("LOOPR_")}
    out = []

    def edit_args(path, old, new):
        return {"path": path, "old_string": old, "new_string": new}

    loopr_env = dict(base_env, LOOPR_STATE_DIR=os.path.join(args.work, "loopr-state"))
    out.append(
        Peer(
            "loopr-tool",
            [args.loopr, "--root", root, "mcp"],
            loopr_env,
            {
                "read": lambda p: ("read", {"path": p}),
                "tree": lambda p: ("tree", {"path": p, "depth": 2}),
                "edit": lambda p, old, new: ("edit", edit_args(p, old, new)),
                # loopr-tool edits only files read in the session (SPEC 7)
                "prepare_edit": lambda p: ("read", {"path": p}),
            },
        )
    )
    if args.reference:
        out.append(
            Peer(
                "reference filesystem",
                [args.node, args.reference, root],
                base_env,
                {
                    "read": lambda p: ("read_text_file", {"path": p}),
                    "tree": lambda p: ("directory_tree", {"path": p}),
                    "edit": lambda p, old, new: (
                        "edit_file",
                        {"path": p, "edits": [{"oldText": old, "newText": new}]},
                    ),
                },
            )
        )
    if args.desktop_commander:
        home = os.path.join(args.work, "dc-home")
        os.makedirs(os.path.join(home, ".claude-server-commander"), exist_ok=True)
        with open(os.path.join(home, ".claude-server-commander", "config.json"), "w") as f:
            json.dump(
                {
                    "allowedDirectories": [root],
                    "telemetryEnabled": False,
                    "fileReadLineLimit": 1000,
                    "fileWriteLineLimit": 50,
                    "pendingWelcomeOnboarding": False,
                    "welcomeOnboardingEligible": False,
                },
                f,
            )
        dc_env = dict(
            base_env,
            HOME=home,
            DESKTOP_COMMANDER_DISABLE_TELEMETRY="1",
            # Its feature flags are fetched from its website at start; point that at a closed
            # loopback port so the benchmark sends nothing off the machine.
            DC_FLAG_URL="http://127.0.0.1:9/flags.json",
        )
        out.append(
            Peer(
                "Desktop Commander",
                [args.node, args.desktop_commander],
                dc_env,
                {
                    "read": lambda p: ("read_file", {"path": p}),
                    "tree": lambda p: ("list_directory", {"path": p, "depth": 2}),
                    "edit": lambda p, old, new: (
                        "edit_block",
                        {"file_path": p, "old_string": old, "new_string": new},
                    ),
                },
            )
        )
    return out


def median_ms(xs):
    return statistics.median(xs) * 1000


def timed_calls(server, make, n):
    times = []
    for i in range(n):
        name, a = make(i)
        t = time.perf_counter()
        server.call(name, a)
        times.append(time.perf_counter() - t)
    return times


def in_flight(server, name, a, k, n):
    """n calls with k outstanding at any time (a new one sent as each response arrives);
    throughput in calls per second."""
    line = lambda rid: (  # noqa: E731
        json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": name, "arguments": a}})
        + "\n"
    ).encode()
    base = server.next_id
    sent = done = 0
    t = time.perf_counter()
    while sent < min(k, n):
        sent += 1
        server.proc.stdin.write(line(base + sent))
    server.proc.stdin.flush()
    while done < n:
        msg = server.receive()
        if "error" in msg or msg["result"].get("isError"):
            raise RuntimeError(json.dumps(msg)[:500])
        done += 1
        if sent < n:
            sent += 1
            server.proc.stdin.write(line(base + sent))
            server.proc.stdin.flush()
    elapsed = time.perf_counter() - t
    server.next_id = base + sent
    return n / elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loopr", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--reference", help="server-filesystem's dist/index.js")
    ap.add_argument("--desktop-commander", help="desktop-commander's dist/index.js")
    ap.add_argument("--corpus", required=True, help="a glibc checkout (its string/ is the tree)")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--starts", type=int, default=30)
    ap.add_argument("--in-flight", type=int, default=8)
    ap.add_argument("--blocks", type=int, default=6, help="interleaved blocks per operation")
    ap.add_argument("--only", help="comma-separated operations (start,ping,read,tree,edit,inflight)")
    args = ap.parse_args()
    args.loopr = os.path.abspath(args.loopr)  # the servers run with the scratch root as cwd
    only = set(args.only.split(",")) if args.only else {"start", "ping", "read", "tree", "edit", "inflight"}

    root = os.path.realpath(os.path.join(args.work, "root"))
    os.makedirs(root, exist_ok=True)
    small = os.path.join(root, "small.txt")
    with open(small, "w") as f:
        # 2 KB: 32 lines of 63 characters and a newline
        f.write("".join(f"{i:02d} " + "x" * 60 + "\n" for i in range(32)))
    strings = os.path.join(root, "string")
    if not os.path.isdir(strings):
        shutil.copytree(os.path.join(args.corpus, "string"), strings, symlinks=True)
    ps = peers(args, root)
    rows = {p.name: {} for p in ps}
    n, blocks = args.calls, args.blocks

    # The machine is shared (2 cores, other builds, one disk): every measurement goes round
    # the servers in turn, in blocks, so a busy spell lands on all of them rather than on
    # whichever happened to be running.
    if "start" in only:
        starts = {p.name: [] for p in ps}
        for _ in range(args.starts):
            for p in ps:
                t = time.perf_counter()
                s = p.start(root)
                s.initialize()
                starts[p.name].append(time.perf_counter() - t)
                s.close()
        for p in ps:
            rows[p.name]["start"] = median_ms(starts[p.name])

    servers = {}
    try:
        for p in ps:
            servers[p.name] = s = p.start(root)
            s.initialize()
            s.request("tools/list")

        def each_op(op, make, warm):
            times = {p.name: [] for p in ps}
            for p in ps:
                timed_calls(servers[p.name], make(p), warm)
            for b in range(blocks):
                for p in ps:
                    times[p.name] += timed_calls(servers[p.name], make(p), n // blocks)
            for p in ps:
                rows[p.name][op] = median_ms(times[p.name])
            return times

        if "ping" in only:
            # The floor under every call: this driver, the pipes and the server's JSON-RPC
            # loop, with no tool behind it.
            for p in ps:
                for _ in range(20):
                    servers[p.name].request("ping")
            pings = {p.name: [] for p in ps}
            for b in range(blocks):
                for p in ps:
                    for _ in range(n // blocks):
                        t = time.perf_counter()
                        servers[p.name].request("ping")
                        pings[p.name].append(time.perf_counter() - t)
            for p in ps:
                rows[p.name]["ping"] = median_ms(pings[p.name])
        if "read" in only:
            for p in ps:
                name, a = p.ops["read"](small)
                assert "00 xxxx" in text_of(servers[p.name].call(name, a)), f"{p.name}: read returns the file"
            each_op("read", lambda p: lambda i: p.ops["read"](small), 20)
        if "tree" in only:
            for p in ps:
                name, a = p.ops["tree"](strings)
                listing = text_of(servers[p.name].call(name, a))
                assert "strlen" in listing, f"{p.name}: tree lists string/: {listing[:200]}"
                rows[p.name]["tree_bytes"] = len(listing)
            each_op("tree", lambda p: lambda i: p.ops["tree"](strings), 5)
        if "edit" in only:
            targets = {}
            for k, p in enumerate(ps):
                targets[p.name] = target = os.path.join(root, f"edit-{k}.txt")
                lines = [f"line {i} of the file that is edited\n" for i in range(100)]
                lines[50] = "value = A\n"
                with open(target, "w") as f:
                    f.writelines(lines)
                if "prepare_edit" in p.ops:
                    servers[p.name].call(*p.ops["prepare_edit"](target))
            counter = {p.name: 0 for p in ps}

            def edit(p):
                def make(i):
                    # Alternate A -> B -> A: each edit really changes the file.
                    c = counter[p.name]
                    counter[p.name] += 1
                    old, new = ("value = A", "value = B") if c % 2 == 0 else ("value = B", "value = A")
                    return p.ops["edit"](targets[p.name], old, new)

                return make

            each_op("edit", edit, 10)
            for p in ps:
                with open(targets[p.name]) as f:
                    want = "value = A\n" if counter[p.name] % 2 == 0 else "value = B\n"
                    assert f.readlines()[50] == want, f"{p.name}: the edits landed"
        if "inflight" in only:
            # Rounds of (sequential, then k in flight), each round's ratio of rates; the median
            # round is reported.
            k = args.in_flight
            for p in ps:
                name, a = p.ops["read"](small)
                in_flight(servers[p.name], name, a, k, 50)  # warm-up
            ratios = {p.name: [] for p in ps}
            seq_rates = {p.name: [] for p in ps}
            par_rates = {p.name: [] for p in ps}
            for b in range(blocks):
                for p in ps:
                    s = servers[p.name]
                    name, a = p.ops["read"](small)
                    seq = n // blocks
                    seq_rate = seq / sum(timed_calls(s, lambda i: (name, a), seq))
                    par_rate = in_flight(s, name, a, k, seq * 2)
                    seq_rates[p.name].append(seq_rate)
                    par_rates[p.name].append(par_rate)
                    ratios[p.name].append(par_rate / seq_rate)
            for p in ps:
                rows[p.name]["read_seq_rate"] = statistics.median(seq_rates[p.name])
                rows[p.name]["inflight_rate"] = statistics.median(par_rates[p.name])
                rows[p.name]["inflight_ratio"] = statistics.median(ratios[p.name])
                rows[p.name]["inflight_ratios"] = [round(r, 2) for r in ratios[p.name]]
    finally:
        for s in servers.values():
            s.close()

    report(rows, args)


def report(rows, args):
    names = list(rows)
    ours = rows[names[0]]
    print(
        f"\n{args.calls} sequential calls per operation in {args.blocks} blocks taken in turn; "
        "medians in ms; ratio = peer / loopr-tool"
    )
    header = f"{'operation':<34}" + "".join(f"{n:>22}" for n in names)
    print(header)
    print("-" * len(header))
    labels = {
        "start": f"start -> initialize answered (n={args.starts})",
        "ping": "ping (the round-trip floor)",
        "read": "read a 2 KB file",
        "tree": "tree of glibc string/",
        "edit": "one-line edit",
    }
    for op, label in labels.items():
        if op not in ours:
            continue
        cells = []
        for n in names:
            v = rows[n].get(op)
            if v is None:
                cells.append(f"{'-':>22}")
            elif n == names[0]:
                cells.append(f"{v:>22.3f}")
            else:
                cells.append(f"{v:>12.3f} ({v / ours[op]:>5.1f}x)")
        print(f"{label:<34}" + "".join(cells))
    if "inflight_rate" in ours:
        print(f"\nreads with {args.in_flight} in flight on one server vs one at a time (median of {args.blocks} rounds):")
        for n in names:
            r = rows[n]
            if "inflight_rate" in r:
                print(
                    f"  {n:<22} {r['inflight_rate']:>9.0f} calls/s vs {r['read_seq_rate']:>7.0f} sequential: "
                    f"{r['inflight_ratio']:.2f}x (rounds: {r['inflight_ratios']})"
                )
    if "tree_bytes" in ours:
        print("\ntree output sizes (bytes): " + ", ".join(f"{n} {rows[n].get('tree_bytes', '-')}" for n in names))
    print("\n" + json.dumps(rows))


if __name__ == "__main__":
    sys.exit(main())
