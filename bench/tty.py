#!/usr/bin/env python3
"""Terminals (SPEC 28): how fast `waiting_input` is reported, and that busy programs never get it.

    bench/tty.py [--bin PATH] [--trials 200] [--samples 1000] [--cargo]

1. Latency. A tty job runs `while :; do echo $EPOCHREALTIME > mark; read -r x; sleep 0.03; done`
   in bash: the mark is the moment it is about to block in `read`. Each trial types a line
   (straight into the job's FIFO, so the trial does not time loopr-tool's own start), then
   calls `loopr-tool jobs wait` and takes the time it returns with `waiting_input`; the
   latency is that time less the mark the job wrote just before it blocked again. p50, p99
   and max over the trials, for a tty job and for a pipe job. SPEC 28's bound: 200 ms p99.

2. False positives. Busy jobs on terminals — a pytest-like run (long output with pauses of
   0.3-0.8 s between "tests", the case that fools a quiet-output heuristic), `yes | head`, and
   with --cargo a `cargo build` of a small crate in a loop — are sampled N times each through
   the state the supervisor publishes (every `jobs` call reads it), 5 ms apart. Ours must count
   0. Side by side, the peer's way: Desktop Commander-style "no new output for 500 ms means it
   waits for input", on the same samples; the ratio of false reports is printed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def binary(given):
    if given:
        return given
    for p in ["target/x86_64-unknown-linux-gnu/release/loopr-tool",
              "target/x86_64-unknown-linux-gnu/debug/loopr-tool"]:
        if (ROOT / p).exists():
            return str(ROOT / p)
    sys.exit("build loopr-tool first (cargo build --release)")


class Tool:
    def __init__(self, bin_path, root, state):
        self.bin, self.root, self.state = bin_path, root, state

    def call(self, tool, payload):
        out = subprocess.run([self.bin, "--root", self.root, "--state-dir", self.state, tool],
                             input=json.dumps(payload), capture_output=True, text=True)
        return json.loads(out.stdout)

    def logs(self):
        return next(Path(self.state).glob("*/default/logs"))

    def start(self, command, tty=True):
        r = self.call("run", {"command": command, "background": True, "interactive": True,
                              "tty": tty})
        assert r["ok"], r
        return r["data"]["id"]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(t, trials, tty):
    mark = Path(t.root) / f"mark-{'tty' if tty else 'pipe'}"
    jid = t.start(f"while :; do echo $EPOCHREALTIME > {mark}; read -r x; sleep 0.03; done", tty)
    fifo = t.logs() / f"{jid}.stdin"
    t.call("jobs", {"action": "wait", "id": jid, "timeout_ms": 10000})
    lat = []
    for _ in range(trials):
        before = mark.read_text() if mark.exists() else ""
        with open(fifo, "w") as f:
            f.write("x\n")
        while True:  # the job's answer: a new mark, written just before it blocks again
            now = mark.read_text() if mark.exists() else ""
            if now != before and now.strip():
                break
            time.sleep(0.001)
        r = t.call("jobs", {"action": "wait", "id": jid, "timeout_ms": 5000})
        done = time.time()
        assert r["data"]["state"] == "waiting_input", r["data"]
        lat.append((done - float(mark.read_text())) * 1000)
    t.call("jobs", {"action": "kill", "id": jid})
    return lat


def false_positives(t, samples, cargo):
    jobs = {
        "pytest-like": t.start(
            "python3 -u -c \"import time,random\n"
            "print('collected 400 items')\n"
            "for i in range(10**6):\n"
            "  print('test_%d PASSED' % i)\n"
            "  time.sleep(random.choice([0, 0, 0.001, 0.3, 0.8]))\""),
        "yes | head": t.start("while :; do yes | head -c 50000000 > /dev/null; done"),
    }
    if cargo:
        crate = Path(t.root) / "crate"
        (crate / "src").mkdir(parents=True)
        (crate / "Cargo.toml").write_text('[package]\nname="c"\nversion="0.1.0"\nedition="2021"\n')
        (crate / "src/main.rs").write_text('fn main() { println!("hi"); }\n')
        jobs["cargo build"] = t.start(
            f"cd {crate} && while :; do cargo build --offline; touch src/main.rs; done")
    logs = t.logs()
    ours, theirs = {}, {}
    for name, jid in jobs.items():
        term, log = logs / f"{jid}.term", logs / f"{jid}.log"
        time.sleep(1.0)
        size, since = log.stat().st_size, time.time()
        ours[name] = theirs[name] = 0
        for _ in range(samples):
            try:
                st = json.loads(term.read_text())["state"]
            except (OSError, ValueError):
                st = "running"
            ours[name] += st in ("waiting_input", "input_required")
            now = log.stat().st_size
            if now != size:
                size, since = now, time.time()
            theirs[name] += time.time() - since >= 0.5
            time.sleep(0.005)
        t.call("jobs", {"action": "kill", "id": jid})
    return ours, theirs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--cargo", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        root, state = os.path.join(d, "root"), os.path.join(d, "state")
        os.makedirs(root)
        t = Tool(binary(a.bin), root, state)
        for tty in (True, False):
            lat = latency(t, a.trials, tty)
            print(f"latency to waiting_input ({'tty' if tty else 'pipe'} job, {len(lat)} trials): "
                  f"p50 {pct(lat, 50):.1f} ms  p99 {pct(lat, 99):.1f} ms  max {max(lat):.1f} ms")
        ours, theirs = false_positives(t, a.samples, a.cargo)
        for name in ours:
            print(f"false waiting over {a.samples} samples of {name}: ours {ours[name]}, "
                  f"quiet-for-500ms heuristic {theirs[name]}")
        o, h = sum(ours.values()), sum(theirs.values())
        print(f"total false reports: ours {o}, heuristic {h}"
              + (f" (heuristic/ours = {h / o:.1f})" if o else " (ours: none)"))
        t.call("session", {"action": "reset"})


if __name__ == "__main__":
    main()
