#!/usr/bin/env python3
"""mcp --http vs mcp on stdio (SPEC 27.1), side by side on one machine, same 2 KB file.

1. Latency: CALLS sequential `read`s of a 2 KB file, one client: median and p99, HTTP (one
   keep-alive connection, one session) and stdio (one request in flight), and their ratio.
2. Throughput at 1, 8 and 64 concurrent clients: HTTP, each client its own connection and
   session, reading in a loop; stdio, one server with that many requests in flight. Calls/s.
3. `ping` over HTTP against the TypeScript SDK's Streamable HTTP transport (server-everything's
   `streamableHttp` mode, when EVERYTHING_JS names its dist/index.js): the same call on both.
4. 100 clients x 100 reads over HTTP, each client its own session and its own file: every
   answer must be that client's file (0 lost, 0 crossed).
5. HTTPS (`--tls-cert`/`--tls-key`, a self-signed certificate from `openssl req`) against HTTP:
   the latency of 1. on a keep-alive connection, a new connection per call (the handshake),
   and throughput at 8 clients.

The client is Python (one process, threads): at 64 clients it may be the bottleneck, so the
figures are a floor for the server. Usage: bench/mcp_http.py [path/to/loopr-tool]
(default: the release build). Env: CALLS (2000).
"""

import http.client
import json
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "target/x86_64-unknown-linux-gnu/release/loopr-tool")
CALLS = int(os.environ.get("CALLS", "2000"))


def read_call(i, path="a.txt"):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "read", "arguments": {"path": path}}}


class HttpClient:
    def __init__(self, port, context=None):
        if context:
            self.conn = http.client.HTTPSConnection("127.0.0.1", port, context=context)
        else:
            self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"Content-Type": "application/json",
                        "Accept": "application/json, text/event-stream"}
        r = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        self.headers["Mcp-Session-Id"] = r[1]

    def post(self, msg):
        self.conn.request("POST", "/mcp", json.dumps(msg), self.headers)
        r = self.conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(f"HTTP {r.status}: {body[:200]!r}")
        if r.getheader("Content-Type", "").startswith("text/event-stream"):
            # The TypeScript SDK answers with SSE: the message is the event with our id.
            data = [l[5:].strip() for l in body.decode().splitlines() if l.startswith("data:")]
            events = [json.loads(d) for d in data if d]
            found = [e for e in events if e.get("id") == msg.get("id")]
            return found[0], r.getheader("Mcp-Session-Id")
        return json.loads(body), r.getheader("Mcp-Session-Id")

    def ping(self, i):
        return self.post({"jsonrpc": "2.0", "id": i, "method": "ping"})[0]

    def read(self, i, path="a.txt"):
        return self.post(read_call(i, path))[0]


class StdioServer:
    """One stdio server. `ask` is one request at a time on the calling thread (the latency
    figure: no thread hand-off in the client); after `share`, requests go from any thread and a
    reading thread matches the answers by id (the throughput figures)."""

    def __init__(self, root):
        self.p = subprocess.Popen([BIN, "--root", root, "mcp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.out = self.p.stdout
        self.lock = threading.Lock()
        self.waiting = {}
        self.ask({"jsonrpc": "2.0", "id": -1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})

    def ask(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()
        while True:
            r = json.loads(self.out.readline())
            if r.get("id") == msg["id"]:
                return r

    def share(self):
        threading.Thread(target=self.pump, daemon=True).start()

    def pump(self):
        for line in self.p.stdout:
            msg = json.loads(line)
            ev = self.waiting.pop(msg.get("id"), None)
            if ev:
                ev[1] = msg
                ev[0].set()

    def call(self, msg):
        slot = [threading.Event(), None]
        self.waiting[msg["id"]] = slot
        with self.lock:
            self.p.stdin.write((json.dumps(msg) + "\n").encode())
            self.p.stdin.flush()
        slot[0].wait()
        return slot[1]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def start_http(root, extra=()):
    p = subprocess.Popen([BIN, "--root", root, "mcp", "--http", "127.0.0.1:0", "--no-auth",
                          *extra],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    return p, port


def latencies(call, n):
    out = []
    for i in range(n):
        t = time.perf_counter()
        r = call(i)
        out.append(time.perf_counter() - t)
        assert not r["result"]["isError"], r
    out.sort()
    return statistics.median(out) * 1e6, out[int(len(out) * 0.99) - 1] * 1e6


def throughput(make_client, clients, per_client):
    ready = [make_client() for _ in range(clients)]
    errors = []

    def work(c, k):
        try:
            for i in range(per_client):
                r = c(k * per_client + i)
                assert not r["result"]["isError"]
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(c, k)) for k, c in enumerate(ready)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    took = time.perf_counter() - t
    if errors:
        raise RuntimeError(errors[0])
    return clients * per_client / took


def hundred_by_hundred(port, root):
    for k in range(100):
        with open(os.path.join(root, f"c{k}.txt"), "w") as f:
            f.write(f"client {k} only\n")
    lost, crossed = [0], [0]

    def work(k):
        c = HttpClient(port)
        for i in range(100):
            try:
                r = c.read(i, f"c{k}.txt")
            except Exception:  # noqa: BLE001 - counted
                lost[0] += 1
                continue
            if r.get("id") != i or f"client {k} only" not in r["result"]["content"][0]["text"]:
                crossed[0] += 1

    threads = [threading.Thread(target=work, args=(k,)) for k in range(100)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return lost[0], crossed[0], time.perf_counter() - t


def peer_ping(port):
    """`ping` over HTTP against the TypeScript SDK's Streamable HTTP transport, as
    server-everything serves it (EVERYTHING_JS=path/to/server-everything/dist/index.js; skipped
    without it): the same call on both, so the framing is what differs."""
    js = os.environ.get("EVERYTHING_JS")
    if not js:
        print("ping vs the TypeScript SDK: skipped (set EVERYTHING_JS)")
        return
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        peer_port = s.getsockname()[1]
    peer = subprocess.Popen(["node", js, "streamableHttp"], env=dict(os.environ, PORT=str(peer_port)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while "listening" not in peer.stderr.readline():
            pass
        ours, _ = latencies_ok(HttpClient(port).ping, CALLS)
        theirs, _ = latencies_ok(HttpClient(peer_port).ping, CALLS)
        print(f"ping over HTTP, median µs: ours {ours:.0f}, the TypeScript SDK's {theirs:.0f}"
              f" (ratio {theirs / ours:.2f})")
    finally:
        peer.kill()


def latencies_ok(call, n):
    out = []
    for i in range(n):
        t = time.perf_counter()
        r = call(i)
        out.append(time.perf_counter() - t)
        assert "result" in r, r
    out.sort()
    return statistics.median(out) * 1e6, out[int(len(out) * 0.99) - 1] * 1e6


def https_vs_http(root, port):
    """Section 5: the TLS termination's cost."""
    cert, key = os.path.join(root, "cert.pem"), os.path.join(root, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", key, "-out", cert,
         "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE"],
        check=True, capture_output=True)
    context = ssl.create_default_context(cafile=cert)
    server, tls_port = start_http(root, ["--tls-cert", cert, "--tls-key", key])
    try:
        print("https vs http (µs; a 2 KB read):")
        for name, p, ctx in (("http ", port, None), ("https", tls_port, context)):
            med, p99 = latencies(HttpClient(p, ctx).read, CALLS)
            fresh, _ = latencies(lambda i, p=p, ctx=ctx: HttpClient(p, ctx).read(i), CALLS // 10)
            rate = throughput(lambda p=p, ctx=ctx: HttpClient(p, ctx).read, 8, max(CALLS // 8, 20))
            print(f"  {name} keep-alive median / p99 {med:6.0f} / {p99:6.0f}; a new connection "
                  f"(and session) per call {fresh:6.0f}; 8 clients {rate:6.0f} reads/s")
    finally:
        server.kill()


def main():
    root = tempfile.mkdtemp(prefix="bench-mcp-http-")
    with open(os.path.join(root, "a.txt"), "w") as f:
        f.write(("x" * 63 + "\n") * 32)  # 2 KB
    server, port = start_http(root)
    stdio = StdioServer(root)
    try:
        h = HttpClient(port)
        h_med, h_p99 = latencies(h.read, CALLS)
        s_med, s_p99 = latencies(lambda i: stdio.ask(read_call(i)), CALLS)
        stdio.share()
        print(f"read of 2 KB, {CALLS} sequential calls (median / p99, µs):")
        print(f"  http  {h_med:8.0f} / {h_p99:8.0f}")
        print(f"  stdio {s_med:8.0f} / {s_p99:8.0f}")
        print(f"  http/stdio median ratio {h_med / s_med:.2f}")
        print("throughput, reads/s (http: a connection and session per client; stdio: requests in flight):")
        counter = [10_000_000]

        def stdio_client():
            def call(_i):
                counter[0] += 1
                return stdio.call(read_call(counter[0]))
            return call

        for n in (1, 8, 64):
            per = max(CALLS // n, 20)
            ht = throughput(lambda: HttpClient(port).read, n, per)
            st = throughput(stdio_client, n, per)
            print(f"  {n:3d} clients: http {ht:8.0f}  stdio {st:8.0f}  ratio {ht / st:.2f}")
        peer_ping(port)
        lost, crossed, took = hundred_by_hundred(port, root)
        print(f"100 clients x 100 reads over http: {lost} lost, {crossed} crossed, {took:.1f} s")
        https_vs_http(root, port)
        if lost or crossed:
            sys.exit(1)
    finally:
        stdio.close()
        server.kill()


if __name__ == "__main__":
    main()
