"""Drives `loopr-tool mcp` with the official MCP Python SDK's stdio client.

Usage: client.py BIN ROOT STATE_DIR. Prints one JSON report on stdout for tests/mcp/mcp_client.rs.
Every tool the server lists is called once with the sample input below; a listed tool without
a sample is reported, so a new tool cannot slip past this test.
"""

import http.server
import json
import os
import sys
import threading

import anyio
import person
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
    "symbols": {"action": "references", "name": "alpha"},
    "map": {"tokens": 256},
    "rewrite": {"pattern": "print($A)", "rewrite": "log($A)", "dry_run": True},
    "todo": {"action": "add", "content": "Ship it"},
    "session": {"action": "show"},
    "run": {"command": "echo from mcp"},
    "jobs": {"action": "list"},
    "complete_task": {"summary": "Sampled every tool"},
    "share": {"to": ["mcp-client"], "data_type": "note", "data": {"from": "mcp"}},
    # asks its own session; answered by a concurrent inbox reply through the same server
    "query": {"to": "mcp-client", "question": "Anyone?", "timeout_ms": 20000},
    "inbox": {"action": "list"},
    "create_plan": {"title": "Sample plan", "overview": "One spec.",
                    "specs": [{"name": "only", "title": "Only", "description": "All of it."}]},
    "create_spec": {"name": "only", "title": "Only", "overview": "Three steps.",
                    "phases": [{"name": n, "title": n, "description": n} for n in ("a", "b", "c")]},
    "create_phase": {"name": "a", "title": "A", "objective": "Start.",
                     "tasks": [{"description": "Note it", "file": "notes/a.txt", "action": "modify"}],
                     "validation_command": "true"},
    "artifact": {"kind": "plan", "name": "sample-plan"},
    # answered by person.py, as the harness answers for the person
    "ask_user": {"question": "Ship it?", "options": ["yes", "no"], "timeout_ms": 20000},
    "undo": {},
}


class Page(http.server.BaseHTTPRequestHandler):
    """The page the fetch sample reads: served here, on loopback, so the test needs no network."""

    def do_GET(self):
        if self.path.startswith("/search?"):
            # A SearXNG stand-in for the search sample (its JSON format, SPEC 21).
            body = json.dumps({"query": "sample", "number_of_results": 1, "results": [
                {"url": "https://docs.example/sample", "title": "Sample result", "content": "Found by the <b>test</b>.", "engine": "test"}
            ], "answers": [], "suggestions": [], "unresponsive_engines": []}).encode()
            content_type = "application/json"
        else:
            body = b"<html><head><title>Sample</title></head><body><main><h1>Sample page</h1><p>Served by the test.</p></main></body></html>"
            content_type = "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
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


async def answer_own_query(session):
    """Answers the sample query while it waits: a query holds nothing back (SPEC 24.7), so the
    server runs these calls while the query is still in flight."""
    for _ in range(500):
        got = dump(await session.call_tool("inbox", {"action": "all"}))
        for m in (got.get("structuredContent") or {}).get("data", {}).get("messages", []):
            if m["kind"] == "query" and not m.get("expired") and "reply" not in m:
                await session.call_tool("inbox", {"action": "reply", "id": m["id"], "text": "Here."})
                return
        await anyio.sleep(0.02)


async def main(binary, root, state):
    page = local_page()
    params = StdioServerParameters(
        command=binary,
        # --structured: this script also checks the structured results (structuredContent
        # {output, data}); the default, text only, is checked by tests/integration/integration.rs.
        args=["--root", root, "--session", "mcp-client", "mcp", "--structured"],
        # fetch refuses loopback unless allowed; the sample page is on loopback.
        # search goes to a SearXNG stand-in on the same local server.
        env={"LOOPR_STATE_DIR": state, "PATH": os.environ.get("PATH", ""), "LOOPR_FETCH_ALLOW_PRIVATE": "1",
             "LOOPR_SEARCH_PROVIDER": "searxng", "SEARXNG_URL": page},
    )
    SAMPLES["fetch"] = {"url": page}
    SAMPLES["search"] = {"query": "sample"}
    report = {"calls": {}}
    person.answer_questions(binary, root, state)
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
                if name == "query":
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(answer_own_query, session)
                        result = dump(await session.call_tool(name, SAMPLES[name]))
                else:
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
