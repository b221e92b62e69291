"""Drives `loopr-tool mcp --http` with the official MCP Python SDK's Streamable HTTP client.

Usage: http_client.py URL TOKEN. Prints one JSON report on stdout for tests/mcp/http.rs: the
tools listed, a read's text, a run's progress notifications, and what a wrong token gets.
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def session_report(url, token):
    report = {}
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client, streamable_http_client(url, http_client=client) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["server"] = init.server_info.name
            report["protocol_version"] = init.protocol_version
            tools = await session.list_tools()
            report["tools"] = [t.name for t in tools.tools]
            r = await session.call_tool("read", {"path": "hello.txt"})
            report["read"] = {"isError": r.is_error, "text": r.content[0].text}
            progress = []

            async def on_progress(p, total, message):
                progress.append(message)

            r = await session.call_tool(
                "run",
                {"command": "echo one; sleep 1.5; echo two"},
                progress_callback=on_progress,
            )
            report["run"] = {"isError": r.is_error, "text": r.content[0].text}
            report["progress"] = progress
    return report


async def wrong_token(url):
    client = create_mcp_http_client(headers={"Authorization": "Bearer not-the-token"})
    try:
        async with client, streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                with anyio.fail_after(20):
                    await session.initialize()
        return "connected"
    except BaseException as e:  # the SDK raises an exception group from its task group
        return repr(e)


async def main():
    url, token = sys.argv[1], sys.argv[2]
    report = await session_report(url, token)
    report["wrong_token"] = await wrong_token(url)
    print(json.dumps(report))


anyio.run(main)
