#!/usr/bin/env python3
"""Hostile inputs of issue 33 against benign ones of the same size (SPEC 31.4).

1. fetch (markdown and text) of deeply nested pages -- 5,000 nested <ul><li>, <ol><li>,
   <blockquote>, 20,000 nested lists and divs -- beside a flat page of the same byte count:
   wall time and peak RSS of the whole call, and the ratio.
2. read of hostile PDFs -- forms drawing each other, one content stream of 3 M operators --
   beside a PDF of ordinary text of the same file size.
3. A catalog `timeout_ms` and an MCP cancel stopping a long conversion (a 9 MB page, a PDF of
   many pages at the operator budget): how long after the limit (or the cancel) the work stops.
   For the cancel the server's CPU time is sampled every 5 ms; "stopped" is the first sample
   after which it stays still for 100 ms.

Usage: bench/hostile.py [path/to/loopr-tool]   (default: the release build; say which in a
note). Needs /usr/bin/time (GNU time) for the peak RSS.
"""

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.abspath(
    sys.argv[1] if len(sys.argv) > 1
    else os.path.join(HERE, "..", "target/x86_64-unknown-linux-gnu/release/loopr-tool"))
WORK = tempfile.mkdtemp(prefix="loopr-hostile-")
ROOT = os.path.join(WORK, "root")
os.makedirs(ROOT)
ENV = dict(os.environ, LOOPR_STATE_DIR=os.path.join(WORK, "state"), LOOPR_ROOT=ROOT)
TICK = os.sysconf("SC_CLK_TCK")


def nested(open_, close, n):
    return "<html><body>" + open_ * n + close * n + "</body></html>"


def flat_like(page):
    """A flat page of paragraphs as long as `page`."""
    unit = "<p>Some words of an ordinary paragraph.</p>\n"
    body = unit * (len(page) // len(unit) + 1)
    return ("<html><body>" + body)[: len(page) - len("</body></html>")] + "</body></html>"


PAGES = {
    "ul5000": nested("<ul><li>x", "</li></ul>", 5000),
    "ol5000": nested("<ol><li>x", "</li></ol>", 5000),
    "blockquote5000": nested("<blockquote>x", "</blockquote>", 5000),
    "ul20000": nested("<ul><li>x", "</li></ul>", 20000),
    "div20000": nested("<div>x", "</div>", 20000),
}
UNIT = ('<div><p>Some words <b>here</b> and <a href="/x">there</a>.</p>'
        "<ul><li>one</li><li>two</li></ul></div>")
BIG = "<html><body>" + UNIT * 90000 + "</body></html>"
SERVED = {"/" + k: v for k, v in PAGES.items()}
SERVED.update({"/flat-" + k: flat_like(v) for k, v in PAGES.items()})
SERVED["/big"] = BIG


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = SERVED.get(self.path, "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = "http://127.0.0.1:%d" % server.server_port


def timed(args, stdin):
    """Wall seconds and peak RSS (MiB) of `loopr-tool ARGS` with `stdin`, and its envelope."""
    t = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", BIN] + args, input=stdin.encode(),
                       capture_output=True, env=ENV, cwd=ROOT, timeout=600)
    wall = time.monotonic() - t
    rss = int(p.stderr.decode().strip().splitlines()[-1]) / 1024
    try:
        env = json.loads(p.stdout)
    except ValueError:
        env = {"ok": None}
    return wall, rss, env


def row(name, hostile, benign):
    (ht, hr, he), (bt, br, _) = hostile, benign
    print("| %-26s | %7.3f s %6.1f MiB | %7.3f s %6.1f MiB | %5.1fx %5.1fx | %s |" % (
        name, ht, hr, bt, br, ht / max(bt, 1e-3), hr / max(br, 1e-3),
        "ok" if he.get("ok") else he.get("error", {}).get("code")))


def header(what):
    print("\n| %-26s | %-22s | %-22s | %-12s | %s |" % (what, "hostile", "benign, same size",
                                                     "time, RSS", "result"))
    print("|" + "---|" * 5)


# 1. Pages.
header("fetch")
for name in PAGES if os.environ.get("ONLY") != "limits" else []:
    for mode in ("markdown", "text"):
        call = lambda path: timed(["--allow-private", "fetch"],
                                  json.dumps({"url": URL + path, "mode": mode}))
        row("%s %s (%d KB)" % (name, mode, len(PAGES[name]) // 1024),
            call("/" + name), call("/flat-" + name))


# 2. PDFs.
def pdf(objs):
    out = b"%PDF-1.5\n"
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offs)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)
    return out


def stream(data, extra=b""):
    z = zlib.compress(data, 9)
    return (b"<< /Length %d /Filter /FlateDecode %s >>\nstream\n" % (len(z), extra) + z
            + b"\nendstream")


def doc(contents, forms=()):
    """Pages drawing `contents`; objects 1 catalog, 2 pages, 3 font, 4 resources, 5 xobjects."""
    n = len(contents)
    first_form = 6 + 2 * n
    kids = b" ".join(b"%d 0 R" % (6 + 2 * i) for i in range(n))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792] >>" % (kids, n),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Font << /F1 3 0 R >> /XObject 5 0 R >>",
            b"<< " + b"".join(b"/X%d %d 0 R " % (i, first_form + i) for i in range(len(forms)))
            + b">>"]
    for i, c in enumerate(contents):
        objs.append(b"<< /Type /Page /Parent 2 0 R /Contents %d 0 R /Resources 4 0 R >>"
                    % (7 + 2 * i))
        objs.append(stream(c))
    for f in forms:
        objs.append(stream(f, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                              b"/Resources 4 0 R"))
    return pdf(objs)


def text_pdf(size):
    """Pages of ordinary text whose file is about `size` bytes."""
    lines, pages = [], []
    i = 0
    while True:
        lines.append(b"(Line %d: the quick brown fox jumps over the lazy dog %d.) '" % (i, i * 7))
        i += 1
        if len(lines) == 50:
            pages.append(b"BT /F1 10 Tf 12 TL 56 770 Td\n" + b"\n".join(lines) + b"\nET")
            lines = []
            if len(doc(pages)) >= size:
                return doc(pages)


K = 10
draw_all = b"".join(b"/X%d Do " % i for i in range(K))
PDFS = {
    "forms drawing forms (10)": doc([draw_all],
                                    [b"BT /F1 12 Tf 72 720 Td (w) Tj ET " + draw_all] * K),
    "3 M operators": doc([b"BT /F1 12 Tf 72 720 Td (start) Tj ET\n" + b"n\n" * 3_000_000]),
    "20 pages of 1 M operators": doc([b"BT /F1 12 Tf (p) Tj ET\n" + b"n\n" * 1_000_000] * 20),
}
header("read (PDF)")
for name, data in PDFS.items() if os.environ.get("ONLY") != "limits" else []:
    hostile, benign = os.path.join(ROOT, "hostile.pdf"), os.path.join(ROOT, "benign.pdf")
    open(hostile, "wb").write(data)
    open(benign, "wb").write(text_pdf(len(data)))
    call = lambda path: timed(["read"], json.dumps({"path": path}))
    row("%s (%d KB)" % (name, len(data) // 1024), call(hostile), call(benign))


# 3. Limits.
def catalog(tool, ms):
    path = os.path.join(WORK, "catalog-%s.toml" % tool)
    open(path, "w").write("[tools.%s]\ntimeout_ms = %d\n" % (tool, ms))
    return path


def cpu_ms(pid):
    stat = open("/proc/%d/stat" % pid).read()
    f = stat[stat.rfind(")") + 2:].split()
    return (int(f[11]) + int(f[12])) * 1000 / TICK


open(os.path.join(ROOT, "many.pdf"), "wb").write(PDFS["20 pages of 1 M operators"])
LONG = {
    "fetch": ({"url": URL + "/big"}, "9 MB page, markdown"),
    "read": ({"path": "many.pdf", "pages": "1-20"}, "20 pages at the operator budget"),
}
print("\n| limit | call | unlimited | stopped after | past the limit | result |")
print("|---|---|---|---|---|---|")
for tool, (args, what) in LONG.items():
    full, _, _ = timed(["--allow-private", tool], json.dumps(args))
    for ms in (50, 300):
        t, _, env = timed(["--allow-private", "--config", catalog(tool, ms), tool],
                          json.dumps(args))
        print("| timeout_ms %d | %s %s | %.3f s | %.3f s | %+.0f ms | %s |" % (
            ms, tool, what, full, t, t * 1000 - ms,
            "ok" if env.get("ok") else env.get("error", {}).get("code")))


def mcp_cancel(tool, args, busy_ms):
    """Starts the call, cancels it once the server has spent `busy_ms` of CPU on it, and
    measures how long after the cancel the CPU goes quiet."""
    p = subprocess.Popen([BIN, "--allow-private", "mcp"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, cwd=ROOT)
    send = lambda m: (p.stdin.write((json.dumps(m) + "\n").encode()), p.stdin.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
          "params": {"name": tool, "arguments": args}})
    start = cpu_ms(p.pid)
    deadline = time.monotonic() + 30
    while cpu_ms(p.pid) < start + busy_ms and time.monotonic() < deadline:
        time.sleep(0.005)
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    cancelled = time.monotonic()
    at_cancel = cpu_ms(p.pid)
    last, last_change = at_cancel, cancelled
    while time.monotonic() - last_change < 0.1 and time.monotonic() - cancelled < 10:
        time.sleep(0.005)
        now = cpu_ms(p.pid)
        if now != last:
            last, last_change = now, time.monotonic()
    p.stdin.close()
    out = p.stdout.read()
    p.wait()
    answered = any(json.loads(l).get("id") == 1 for l in out.splitlines() if l.strip())
    return (last_change - cancelled) * 1000, last - at_cancel, answered


# Cancelled well inside the call (the read takes 0.6 s in a release build).
for (tool, (args, what)), busy in zip(LONG.items(), (500, 150)):
    ms, cpu, answered = mcp_cancel(tool, args, busy)
    print("| MCP cancel | %s %s (after %d ms of CPU) | | quiet %.0f ms after the cancel "
          "(%.0f ms of CPU) | | %s |" % (tool, what, busy, ms, cpu,
                                        "answered" if answered else "no response"))
print("\nbinary: %s" % BIN)
