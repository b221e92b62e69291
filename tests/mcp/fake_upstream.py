"""A tiny MCP server on stdio for tests/mcp/upstream.rs: the failures a real one can have.

Usage: fake_upstream.py [ok|broken|garbage]. `ok` prints a line of garbage first (a server's
stray print), then serves tools echo, fail, die, hang, where (echoes a path argument) and
structured. `broken` writes to stderr and exits at once; `garbage` prints only garbage.
"""

import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
if mode == "broken":
    print("fake_upstream: cannot start: the config file is missing", file=sys.stderr)
    sys.exit(1)
if mode == "garbage":
    while True:
        print("this is not JSON-RPC", flush=True)
        time.sleep(0.2)

import os

if os.environ.get("FAKE_STARTS"):
    with open(os.environ["FAKE_STARTS"], "a") as f:
        f.write(f"{os.getpid()}\n")
print("a stray line that is not JSON", flush=True)
TOOLS = [
    {"name": "echo", "description": "Echoes text.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "fail", "description": "Always fails.", "inputSchema": {"type": "object"}},
    {"name": "die", "description": "Exits during the call.", "inputSchema": {"type": "object"}},
    {"name": "hang", "description": "Never answers.", "inputSchema": {"type": "object"}},
    {"name": "where", "description": "Says which path it was given.",
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}},
    {"name": "structured", "description": "Answers with structuredContent.", "inputSchema": {"type": "object"}},
    {"name": "pid", "description": "Its process id.", "inputSchema": {"type": "object"}},
    {"name": "big", "description": "500 lines.", "inputSchema": {"type": "object"}},
    {"name": "image", "description": "A text and an image.", "inputSchema": {"type": "object"}},
]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def text(t, error=False):
    return {"content": [{"type": "text", "text": t}], "isError": error}


for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method, params, mid = msg.get("method"), msg.get("params") or {}, msg["id"]
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name, args = params["name"], params.get("arguments") or {}
        if name == "echo":
            result = text("echo: " + args.get("text", ""))
        elif name == "fail":
            result = text("the fake tool failed on purpose", error=True)
        elif name == "die":
            print("fake_upstream: dying during the call", file=sys.stderr, flush=True)
            sys.exit(3)
        elif name == "hang":
            continue  # never answered; the server goes on serving other requests
        elif name == "where":
            result = text("given " + args.get("path", "?"))
        elif name == "structured":
            result = {"content": [{"type": "text", "text": "two numbers"}], "structuredContent": {"a": 1, "b": 2}}
        elif name == "image":
            png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
            result = {"content": [{"type": "text", "text": "a dot"},
                                  {"type": "image", "data": png, "mimeType": "image/png"}]}
        elif name == "big":
            result = text("".join(f"line {i}\n" for i in range(1, 501)))
        elif name == "pid":
            result = text(str(os.getpid()))
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": f"no tool {name}"}})
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": result})
    else:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no such method"}})
