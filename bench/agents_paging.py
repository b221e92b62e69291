#!/usr/bin/env python3
"""Does the model see our paging line through each agent? (SPEC 31.1 "Results fit what the
client passes on")

Codex keeps about 48,000 characters of an MCP result and Gemini CLI the first 8,000 and last
32,000, each cutting the middle, and our `continue with offset=` line with it, unless the
result fits. `mcp` learns the client from `initialize`'s clientInfo and sizes read's pages to
fit. This reads a 98,000-character file through Claude Code, Codex and Gemini CLI (npm,
pinned; see bench/agents.py), each an MCP client of `loopr-tool mcp`, against a fake model
API whose model calls our `read` once; the next request the agent sends carries the tool
result exactly as the model would see it. Per agent: the characters of that result, whether
the paging line is in it, the last file line shown, and whether the agent cut it. Exit 1 if
any agent's model misses the paging line.

    python3 bench/agents_paging.py [--binary PATH] [--agents claude,codex,gemini] [--node PATH]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agents  # noqa: E402

PAGING = "continue with offset="
FILE = "big.txt"
LINES = 1400  # of 69 characters and a newline: 98,000 characters
PROMPT = f"Read {FILE} and tell me what it holds."

# How each agent reaches loopr-tool: empty, as a stdio child (`loopr-tool mcp`); bench/agents_http.py
# fills it ({"url", "token", "var"}) so that each reaches `loopr-tool mcp --http` with a bearer
# token, set in each agent's own config form for an HTTP server with headers.
HTTP = {}


def big_file(work):
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, FILE), "w") as f:
        for i in range(1, LINES + 1):
            f.write(f"line {i:05d} " + "x" * 58 + "\n")
    assert os.path.getsize(os.path.join(work, FILE)) == 98_000


def texts(value):
    """Every string inside a JSON value, in order (the text parts of a tool result)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts(v)


def measure(result_text):
    """What the model saw of the file."""
    shown = re.findall(r"line (\d{5}) x", result_text)
    return {
        "chars": len(result_text),
        "paging_line": PAGING in result_text,
        "last_line_shown": int(shown[-1]) if shown else None,
        "lines_shown": len(shown),
        "gaps": sum(1 for a, b in zip(shown, shown[1:]) if int(b) != int(a) + 1),
        "paging": next((ln for ln in result_text.splitlines() if PAGING in ln), None),
    }


def bearer():
    return {"Authorization": f"Bearer {HTTP['token']}"}


# ---------------------------------------------------------------- Codex (Responses API)


def codex_turn(turn):
    """The model searches (our tools are deferred), calls mcp__loopr's read, then stops."""
    if turn == 0:
        return {
            "type": "tool_search_call",
            "call_id": "search-0",
            "execution": "client",
            "status": "completed",
            "arguments": {"query": "read file", "limit": 8},
        }
    if turn == 1:
        return {
            "type": "function_call",
            "call_id": "read-0",
            "namespace": "mcp__loopr",
            "name": "read",
            "arguments": json.dumps({"path": FILE}),
        }
    return agents.assistant_message("done")


def codex(loopr, scratch):
    model = agents.FakeModel(agents.responses_model(codex_turn))
    home = agents.codex_home(scratch, model.url(), loopr, http=HTTP)
    run = agents.run_codex(scratch, home, PROMPT, model)
    for req in model.requests:
        for item in agents.input_items(req.get("body"), "function_call_output"):
            if item.get("call_id") == "read-0":
                return "".join(texts(item.get("output"))), run
    return None, run


# ---------------------------------------------------------------- Claude Code (Messages API)


def anthropic_stream(blocks, stop_reason):
    msg = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    events = [{"type": "message_start", "message": msg}]
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events.append({"type": "content_block_start", "index": i, "content_block": start})
        events.append({"type": "content_block_delta", "index": i, "delta": delta})
        events.append({"type": "content_block_stop", "index": i})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": 1},
        }
    )
    events.append({"type": "message_stop"})
    return agents.sse(events)


def anthropic_answer(body, blocks, stop_reason):
    if body.get("stream"):
        return "text/event-stream", anthropic_stream(blocks, stop_reason)
    msg = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude"),
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    return "application/json", json.dumps(msg).encode()


def tool_results(body):
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    yield block


def claude(loopr, scratch):
    """Any request offering our read gets a tool_use of it until a tool_result comes back;
    Claude Code's side requests (titles, summaries) get a plain answer."""

    def answer(path, body):
        if "/messages" not in path or not isinstance(body, dict):
            return "application/json", b"{}"
        names = [t.get("name") for t in body.get("tools", [])]
        if "mcp__loopr__read" in names and not list(tool_results(body)):
            block = {
                "type": "tool_use",
                "id": "toolu_read0",
                "name": "mcp__loopr__read",
                "input": {"path": FILE},
            }
            return anthropic_answer(body, [block], "tool_use")
        return anthropic_answer(body, [{"type": "text", "text": "done"}], "end_turn")

    prefix = agents.npm_install(agents.CLAUDE)
    found = [
        os.path.join(prefix, "node_modules/@anthropic-ai/claude-code-linux-x64/claude"),
        os.path.join(prefix, "node_modules/.bin/claude"),
    ]
    exe = next(p for p in found if os.path.exists(p))
    config = os.path.join(scratch, "mcp.json")
    with open(config, "w") as f:
        if HTTP:
            server = {"type": "http", "url": HTTP["url"], "headers": bearer()}
        else:
            server = {"command": loopr, "args": ["mcp"]}
        json.dump({"mcpServers": {"loopr": server}}, f)
    home = os.path.join(scratch, "home")
    os.makedirs(home, exist_ok=True)
    model = agents.FakeModel(answer)
    env = dict(
        os.environ,
        HOME=home,
        CLAUDE_CONFIG_DIR=os.path.join(home, ".claude"),
        ANTHROPIC_BASE_URL=model.url(),
        ANTHROPIC_API_KEY="sk-ant-fake",
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        NO_COLOR="1",
    )
    argv = [
        exe,
        "-p",
        PROMPT,
        "--mcp-config",
        config,
        "--strict-mcp-config",
        "--allowedTools",
        "mcp__loopr__read",
        "--output-format",
        "json",
    ]
    if HTTP:
        # The init event names each MCP server's status (e.g. "failed" on a 401).
        argv[-1:] = ["stream-json", "--verbose"]
    run = agents.run_agent(argv, scratch, model, env)
    for req in model.requests:
        for block in tool_results(req.get("body") or {}):
            if block.get("tool_use_id") == "toolu_read0":
                return "".join(texts(block.get("content"))), run
    return None, run


# ---------------------------------------------------------------- Gemini CLI (Gemini API)


def gemini_tool(body):
    """The name Gemini CLI gives our read (it may prefix the server's name)."""
    for tool in body.get("tools", []) or []:
        for decl in tool.get("functionDeclarations", []) or []:
            name = decl.get("name", "")
            if name == "read" or name.endswith("_read") or name.endswith("__read"):
                if "loopr" in name or name == "read":
                    return name
    return None


def function_responses(body):
    for content in body.get("contents", []) or []:
        for part in content.get("parts", []) or []:
            if "functionResponse" in part:
                yield part["functionResponse"]


def gemini_chunk(parts):
    usage = {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": "gemini-2.5-pro"}


NODE = ["node"]  # Gemini CLI needs node >= 20; --node names another


def gemini(loopr, scratch):
    state = {"called": None}

    def answer(path, body):
        body = body if isinstance(body, dict) else {}
        if ":countTokens" in path:
            return "application/json", b'{"totalTokens": 1}'
        name = gemini_tool(body)
        if name and not list(function_responses(body)) and ":streamGenerateContent" in path:
            state["called"] = name
            parts = [{"functionCall": {"name": name, "args": {"path": FILE}}}]
        else:
            parts = [{"text": "done"}]
        chunk = gemini_chunk(parts)
        if ":streamGenerateContent" in path:
            return "text/event-stream", f"data: {json.dumps(chunk)}\n\n".encode()
        return "application/json", json.dumps(chunk).encode()

    prefix = agents.npm_install(agents.GEMINI)
    script = os.path.join(prefix, "node_modules/@google/gemini-cli/bundle/gemini.js")
    home = os.path.join(scratch, "home")
    os.makedirs(os.path.join(home, ".gemini"), exist_ok=True)
    if HTTP:
        server = {"httpUrl": HTTP["url"], "headers": bearer(), "trust": True}
    else:
        server = {"command": loopr, "args": ["mcp"], "trust": True}
    settings = {
        "mcpServers": {"loopr": server},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
    }
    with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
        json.dump(settings, f)
    model = agents.FakeModel(answer)
    env = dict(
        os.environ,
        HOME=home,
        GEMINI_API_KEY="fake-key",
        GOOGLE_GEMINI_BASE_URL=model.url(),
        GEMINI_CLI_NO_RELAUNCH="true",
        GEMINI_CLI_TRUST_WORKSPACE="true",  # else yolo falls back to asking, and nothing runs
        NO_COLOR="1",
        CI="1",
    )
    argv = [NODE[0], script, "-p", PROMPT, "--approval-mode", "yolo", "-m", "gemini-2.5-pro"]
    run = agents.run_agent(argv, scratch, model, env)
    for req in model.requests:
        for response in function_responses(req.get("body") or {}):
            if response.get("name") == state["called"]:
                return "".join(texts(response.get("response"))), run
    return None, run


AGENTS = {
    "claude": ("Claude Code", agents.CLAUDE, claude),
    "codex": ("Codex", agents.CODEX, codex),
    "gemini": ("Gemini CLI", agents.GEMINI, gemini),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", help="loopr-tool to serve (default: cargo build's)")
    ap.add_argument("--agents", default="claude,codex,gemini")
    ap.add_argument("--node", default="node", help="node for Gemini CLI (>= 20)")
    args = ap.parse_args()
    NODE[0] = args.node
    loopr = agents.binary(args.binary)

    failed = 0
    print(f"a {LINES}-line, 98,000-character file read through each agent (loopr-tool mcp)")
    for key in args.agents.split(","):
        title, spec, run_agent = AGENTS[key]
        scratch = os.path.join(agents.cache_dir(), f"paging-{key}")
        shutil.rmtree(scratch, ignore_errors=True)
        big_file(os.path.join(scratch, "work"))
        started = time.monotonic()
        try:
            text, run = run_agent(loopr, scratch)
        except (subprocess.SubprocessError, OSError, StopIteration) as e:
            text, run = None, None
            print(f"{title}: could not run: {e}")
        secs = time.monotonic() - started
        if text is None:
            failed += 1
            print(f"{title} ({spec}): no tool result reached the model ({secs:.0f} s)")
            if run is not None:
                print("  stdout:", run.stdout[-1500:], "\n  stderr:", run.stderr[-3000:])
            continue
        m = measure(text)
        failed += not m["paging_line"] or m["gaps"] > 0
        print(
            f"{title} ({spec}): the model got {m['chars']:,} characters, "
            f"file lines 1-{m['last_line_shown']} ({m['lines_shown']} lines, "
            f"{'cut in the middle' if m['gaps'] else 'whole'}), paging line "
            f"{'seen' if m['paging_line'] else 'MISSING'}: {m['paging']!r} ({secs:.0f} s)"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
