"""Drives `loopr-tool --config CATALOG --profile PROFILE mcp` with the official MCP Python SDK's
stdio client, for tests/mcp/upstream.rs: the tools listed, and the text of the calls given.

Usage: upstream_client.py BIN ROOT STATE CATALOG PROFILE CALLS_JSON. Prints one JSON report.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, root, state, catalog, profile, calls):
    params = StdioServerParameters(
        command=binary,
        args=["--root", root, "--config", catalog, "--profile", profile, "mcp"],
        env={"LOOPR_STATE_DIR": state, "PATH": os.environ.get("PATH", "")},
    )
    report = {"calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report["tools"] = [t.name for t in tools.tools]
            for name, args in calls:
                r = await session.call_tool(name, args)
                report["calls"].append({"isError": r.is_error, "text": r.content[0].text})
    print(json.dumps(report))


anyio.run(main, *sys.argv[1:6], json.loads(sys.argv[6]))
