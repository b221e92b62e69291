"""Drives `loopr-tool mcp` with the official MCP Python SDK's stdio client.

Usage: client.py BIN ROOT STATE_DIR. Prints one JSON report on stdout for tests/mcp_client.rs.
Every tool the server lists is called once with the sample input below; a listed tool without
a sample is reported, so a new tool cannot slip past this test.
"""

import http.server
import json
import os
import sys
import threading

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SAMPLES = {
    # Order matters: write first, so read/edit/undo have a file to work on.
    "write": {"path": "notes/a.txt", "content": "alpha\nbeta\n"},
    "read": {"path": "notes/a.txt"},
    "stat": {"path": "notes/a.txt"},
    "mkdir": {"path": "made/here"},
    "move": {"from": "made", "to": "moved"},
    "delete": {"path": "moved", "recursive": True},
    # not a notebook: answered (invalid_input, isError) through the protocol all the same
    "notebook_edit": {"path": "notes/a.txt", "cell_id": "cell-0", "new_source": "x"},
    # before edit: undo (last) takes back the edit
    "apply_patch": {"patch": "*** Begin Patch\n*** Add File: notes/p.txt\n+patched\n*** End Patch\n"},
    "edit": {"path": "notes/a.txt", "old_string": "beta", "new_string": "gamma"},
    "glob": {"pattern": "*.txt"},
    "grep": {"pattern": "alpha"},
    "tree": {},
    "todo": {"action": "add", "content": "Ship it"},
    "session": {"action": "show"},
    "run": {"command": "echo from mcp"},
    "jobs": {"action": "list"},
    "undo": {},
}


class Page(http.server.BaseHTTPRequestHandler):
    """The page the fetch sample reads: served here, on loopback, so the test needs no network."""

    def do_GET(self):
        body = b"<html><head><title>Sample</title></head><body><main><h1>Sample page</h1><p>Served by the test.</p></main></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def local_page():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main(binary, root, state):
    params = StdioServerParameters(
        command=binary,
        # --structured: this script also checks the structured results (structuredContent
        # {output, data}); the default, text only, is checked by tests/integration.rs.
        args=["--root", root, "--session", "mcp-client", "mcp", "--structured"],
        # fetch refuses loopback unless allowed; the sample page is on loopback.
        env={"LOOPR_STATE_DIR": state, "PATH": os.environ.get("PATH", ""), "LOOPR_FETCH_ALLOW_PRIVATE": "1"},
    )
    SAMPLES["fetch"] = {"url": local_page()}
    report = {"calls": {}}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = dump(await session.initialize())
            report["protocol_version"] = init["protocolVersion"]
            report["server"] = init["serverInfo"]["name"]
            await session.send_ping()
            listed = dump(await session.list_tools())["tools"]
            report["tools"] = sorted(t["name"] for t in listed)
            report["annotated"] = sorted(t["name"] for t in listed if "annotations" in t)
            order = [n for n in SAMPLES if n in report["tools"]]
            report["missing_samples"] = sorted(set(report["tools"]) - set(SAMPLES))
            for name in order:
                result = dump(await session.call_tool(name, SAMPLES[name]))
                report["calls"][name] = {
                    "isError": result.get("isError", False),
                    "text": result["content"][0]["text"],
                    "structured": (result.get("structuredContent") or {}).get("data"),
                    "structured_output": (result.get("structuredContent") or {}).get("output"),
                }
            bad = dump(await session.call_tool("read", {"path": "no/such/file"}))
            report["failed_call"] = {"isError": bad.get("isError"), "structured": bad.get("structuredContent")}
            try:
                await session.call_tool("no_such_tool", {})
                report["unknown_tool"] = "no error"
            except Exception as e:  # the SDK raises on a JSON-RPC error
                report["unknown_tool"] = type(e).__name__ + ": " + str(e)
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
