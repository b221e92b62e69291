#!/usr/bin/env python3
"""The hubs side by side (issue 32, SPEC 25.2): a file hub and a Redis hub on loopback.

1. Round trip query -> inbox reply -> answer, median and p99 (targets: file <= 3 ms,
   Redis <= 5 ms). The answering loop is a warm `mcp --structured` server of session
   `planner` that lists its inbox in a loop and replies as soon as a question is there. Timed
   two ways:
   a. `mcp`: the asking loop is a warm `mcp` server of session `coder` too; from writing its
      `tools/call query` to reading the answer (what the hub costs a running loop);
   b. `cli`: a fresh `loopr-tool query` process each time, from spawn to exit (a harness's
      one-shot call: adds a process start).
2. `inbox wait` in a warm mcp server, woken by a `share` from another process: from the share
   process's exit to the waiter's answer, median and p99 (target: p99 <= 50 ms).
3. 50 loops x 100 shares each, at once: 50 `batch` processes (one per loop, sessions
   loop-0..49), share j of loop i going to inbox in-((i+j) % 10), so 10 inboxes take 500 each
   from 50 writers. Then every inbox is read: 0 lost, 0 duplicated, and throughput in shares
   per second (from the first start to the last exit).

The file hub lives in a state dir on disk (fsync per message, as the contract requires); the
Redis hub on a redis-server started here on a free loopback port (no persistence), stopped at
the end. Needs python3 and redis-server.

Usage: bench/hub.py [path/to/loopr-tool]   (default: the release build)
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "target/x86_64-unknown-linux-gnu/release/loopr-tool")
if not os.path.exists(BIN):
    subprocess.run(["cargo", "build", "--release"], cwd=HERE, check=True)
BIN = os.path.realpath(BIN)
ROUNDS = int(os.environ.get("ROUNDS", "300"))


class Mcp:
    def __init__(self, session, env):
        self.proc = subprocess.Popen(
            [BIN, "--session", session, "mcp", "--structured"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=-1)
        self.next_id = 0
        self.call_raw("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "hub-bench", "version": "0"}})
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def write(self, msg):
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def send(self, method, params):
        self.next_id += 1
        self.write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def receive(self, want):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the mcp server went away")
            msg = json.loads(line)
            if msg.get("id") == want:
                return msg

    def call_raw(self, method, params):
        return self.receive(self.send(method, params))

    def tool(self, name, args):
        res = self.call_raw("tools/call", {"name": name, "arguments": args})["result"]
        return res["structuredContent"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(work):
    if not shutil.which("redis-server"):
        print("redis-server is not installed: the Redis hub is not measured")
        return None, None
    port = free_port()
    data = os.path.join(work, "redis")
    os.makedirs(data)
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", data, "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return proc, f"redis://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("redis-server did not start")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def responder_step(planner):
    """Lists the planner's unread messages; answers every open question. Returns how many."""
    msgs = planner.tool("inbox", {})["data"]["messages"]
    n = 0
    for m in msgs:
        if m["kind"] == "query" and not m.get("expired") and m.get("reply") is None:
            planner.tool("inbox", {"action": "reply", "id": m["id"], "text": "yes"})
            n += 1
    return n


def round_trips(env, mode):
    planner = Mcp("planner", env)
    coder = Mcp("coder", env) if mode == "mcp" else None
    times = []
    for i in range(ROUNDS + 10):
        q = {"to": "planner", "question": f"q{i}?", "timeout_ms": 10000}
        t0 = time.perf_counter()
        if coder:
            rid = coder.send("tools/call", {"name": "query", "arguments": q})
        else:
            asker = subprocess.Popen([BIN, "--session", "coder", "query"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
            asker.stdin.write(json.dumps(q).encode())
            asker.stdin.close()
        while responder_step(planner) == 0:
            pass
        if coder:
            out = coder.receive(rid)["result"]["structuredContent"]
        else:
            out = json.loads(asker.stdout.read())
            asker.wait()
        dt = time.perf_counter() - t0
        assert out["data"]["reply"] == "yes", out
        if i >= 10:  # warm-up
            times.append(dt * 1000)
    planner.close()
    if coder:
        coder.close()
    return times


def wait_wakes(env, rounds=100):
    """`inbox wait` in a warm mcp server of session `w`; a `share` process to it. From the
    share's exit to the waiter's answer read (the wake, the listing and the response)."""
    waiter = Mcp("w", env)
    lat = []
    for i in range(rounds + 5):
        rid = waiter.send("tools/call", {"name": "inbox",
                                          "arguments": {"action": "wait", "timeout_ms": 10000}})
        time.sleep(0.05)  # well inside its wait
        subprocess.run([BIN, "--session", "s", "share"], env=env, capture_output=True,
                       input=json.dumps({"to": ["w"], "data_type": "n", "data": i}).encode())
        t_exit = time.perf_counter()
        out = waiter.receive(rid)["result"]["structuredContent"]
        dt = time.perf_counter() - t_exit
        assert out["data"]["messages"][0]["data"] == i, out
        if i >= 5:
            lat.append(dt * 1000)
    waiter.close()
    return lat


def many_shares(env, loops=50, each=100, inboxes=10):
    procs = []
    t0 = time.perf_counter()
    for i in range(loops):
        calls = [{"name": "share", "input": {"to": [f"in-{(i + j) % inboxes}"],
                                              "data_type": "n", "data": {"loop": i, "j": j}}}
                 for j in range(each)]
        p = subprocess.Popen([BIN, "--session", f"loop-{i}", "batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=env)
        p.stdin.write(json.dumps(calls).encode())
        p.stdin.close()
        procs.append(p)
    refused = 0
    for p in procs:
        out = json.loads(p.stdout.read())
        p.wait()
        for r in out:
            if not r["ok"]:
                refused += 1
    wall = time.perf_counter() - t0
    seen, dup = set(), 0
    for k in range(inboxes):
        out = subprocess.run([BIN, "--session", f"in-{k}", "inbox", "all"], env=env,
                             capture_output=True)
        msgs = json.loads(out.stdout)["data"]["messages"]
        ids = [m["id"] for m in msgs]
        assert len(ids) == len(set(ids)), "an id given twice"
        for m in msgs:
            key = (m["data"]["loop"], m["data"]["j"])
            if key in seen:
                dup += 1
            seen.add(key)
    lost = loops * each - len(seen)
    return loops * each, lost, dup, refused, wall


def main():
    work = tempfile.mkdtemp(prefix="hub-bench.")
    redis, url = start_redis(work)
    try:
        hubs = [("file", None)] + ([("redis", url)] if url else [])
        print(f"binary: {BIN}")
        print(f"{ROUNDS} round trips per figure (after 10 warm-up ones)")
        for name, hub in hubs:
            root = os.path.join(work, name, "root")
            os.makedirs(root)
            env = dict(os.environ, LOOPR_STATE_DIR=os.path.join(work, name, "state"),
                       LOOPR_ROOT=root)
            for v in ("LOOPR_SESSION", "LOOPR_FORMAT", "LOOPR_HUB", "LOOPR_CONFIG"):
                env.pop(v, None)
            if hub:
                env["LOOPR_HUB"] = hub
            for mode in ("mcp", "cli"):
                t = round_trips(env, mode)
                print(f"{name:5} round trip ({mode}): median {statistics.median(t):.2f} ms, "
                      f"p99 {pct(t, 99):.2f} ms, min {min(t):.2f} ms")
            w = wait_wakes(env)
            print(f"{name:5} inbox wait woken after a share process exits: median "
                  f"{statistics.median(w):.2f} ms, p99 {pct(w, 99):.2f} ms")
            total, lost, dup, refused, wall = many_shares(env)
            print(f"{name:5} 50 loops x 100 shares: {total} sent, {lost} lost, {dup} duplicated, "
                  f"{refused} refused, {wall:.2f} s, {total / wall:.0f} shares/s")
    finally:
        if redis:
            redis.kill()
            redis.wait()
        shutil.rmtree(work, ignore_errors=True)


main()
