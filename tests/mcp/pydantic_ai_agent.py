"""pydantic-ai's MCP client against `loopr-tool mcp`, for tests/mcp/mcp_pydantic_ai.rs.

Usage: pydantic_ai_agent.py BIN ROOT STATE_DIR. For each mode (`mcp`, `mcp --structured`) an
Agent runs twice with pydantic-ai's TestModel, which calls tools with arguments it generates
from their input schemas: once calling only `read` (what pydantic-ai hands the model for a
read must hold the file's text), then calling every tool. Prints one JSON report on stdout;
the assertions are in the Rust test.

What pydantic-ai sends and the server answers is copied by `tee` into files as it goes, so the report can say what
crossed the wire (a JSON-RPC error, a tool's error code) and not only what pydantic-ai made
of it.
"""

import json
import os
import sys

import anyio
import jsonschema
import person
from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent, messages
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.models.test import TestModel

READ_TEXT = "pydantic-ai must see this line\n"


class ReadModel(TestModel):
    """TestModel calling `read` with `path` "a": read's schema requires no field (`path` or
    `paths` is a rule between fields, SPEC 18.2), so generated arguments would name no file."""

    def gen_tool_args(self, tool_def):
        return {"path": "a"}


def toolset(binary, root, state, wire, extra):
    # sh -c 'tee IN | BIN … mcp | tee OUT': passive copies of both directions.
    script = 'tee "$LOOPR_WIRE_IN" | "$0" "$@" | tee "$LOOPR_WIRE_OUT"'
    transport = StdioTransport(
        command="sh",
        args=["-c", script, binary, "--root", root, "--session", "pydantic-ai", "mcp", *extra],
        env={
            "LOOPR_STATE_DIR": state,
            "PATH": os.environ.get("PATH", ""),
            "LOOPR_WIRE_IN": wire + ".in",
            "LOOPR_WIRE_OUT": wire + ".out",
        },
    )
    # 'failed' hands a tool's error to the model as a failed tool return; a protocol error
    # (JSON-RPC) is still a retry prompt, which the report counts.
    return MCPToolset(transport, tool_error_behavior="failed")


def parts(result):
    """What the run exchanged: calls, returns, retry prompts."""
    calls, returns, retries = [], [], []
    for msg in result.all_messages():
        for p in msg.parts:
            if isinstance(p, messages.ToolCallPart):
                calls.append({"tool": p.tool_name, "args": p.args_as_dict()})
            elif isinstance(p, messages.ToolReturnPart):
                returns.append(
                    {
                        "tool": p.tool_name,
                        "outcome": getattr(p, "outcome", "success"),
                        "model_sees": p.model_response_str(),
                    }
                )
            elif isinstance(p, messages.RetryPromptPart):
                retries.append({"tool": p.tool_name, "content": p.model_response()})
    return calls, returns, retries


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def wire(path):
    """Each request pydantic-ai sent, with the server's answer: a JSON-RPC error, or for a
    tools/call its isError and (under --structured) its error code."""
    answers = {m["id"]: m for m in lines(path + ".out") if "id" in m and "method" not in m}
    out = []
    for req in lines(path + ".in"):
        if "id" not in req or "method" not in req:
            continue
        a = answers.get(req["id"], {})
        entry = {"method": req["method"], "answered": bool(a), "jsonrpc_error": a.get("error")}
        if req["method"] == "tools/call":
            res = a.get("result") or {}
            entry["tool"] = req["params"]["name"]
            entry["isError"] = res.get("isError")
            entry["code"] = ((res.get("structuredContent") or {}).get("error") or {}).get("code")
            entry["text"] = "".join(b.get("text", "") for b in res.get("content", []))
        out.append(entry)
    return out


async def one_mode(binary, root, state, mode, extra):
    root = os.path.join(root, mode)
    os.makedirs(root)
    with open(os.path.join(root, "a"), "w") as f:
        # The file ReadModel's `read` reads ("a", the string TestModel fills in).
        f.write(READ_TEXT)
    os.makedirs(state, exist_ok=True)
    wire_log = os.path.join(state, f"wire-{mode}")
    ts = toolset(binary, root, state, wire_log, extra)
    report = {}
    # TestModel calls ask_user too: the person answers (person.py), as a harness would.
    stop = person.answer_questions(binary, root, state)

    read_model = ReadModel(call_tools=["read"])
    r = await Agent(read_model, toolsets=[ts]).run("read the file")
    calls, returns, retries = parts(r)
    report["read_only"] = {"calls": calls, "returns": returns, "retries": retries}

    model = TestModel()
    r = await Agent(model, toolsets=[ts]).run("use every tool")
    calls, returns, retries = parts(r)
    offered = model.last_model_request_parameters.function_tools
    schemas = {t.name: t.parameters_json_schema for t in offered}
    # The arguments TestModel generated are valid under the schema the server published, so a
    # refusal of them for their shape is the schema's fault, not the model's.
    for c in calls:
        try:
            jsonschema.validate(c["args"], schemas[c["tool"]])
            c["valid_under_schema"] = True
        except jsonschema.ValidationError as e:
            c["valid_under_schema"] = False
            c["schema_error"] = e.message
    report["all"] = {
        "offered": sorted(schemas),
        "calls": calls,
        "returns": returns,
        "retries": retries,
        "output": r.output,
    }
    report["wire"] = wire(wire_log)
    stop.set()
    return report


async def main(binary, root, state):
    report = {}
    for mode, extra in (("default", ()), ("structured", ("--structured",))):
        try:
            report[mode] = await one_mode(binary, root, state, mode, extra)
        except Exception as e:  # the run itself broke: reported, the test fails on it
            while isinstance(e, BaseExceptionGroup) and e.exceptions:
                e = e.exceptions[0]
            report[mode] = {"exception": type(e).__name__ + ": " + str(e)}
    report["read_text"] = READ_TEXT
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
