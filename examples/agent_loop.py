#!/usr/bin/env python3
"""A minimal agent loop around loopr-tool, with the model replaced by a recorded transcript.

A real harness would send `loopr-tool schema` to the model as its tool definitions, then for
every tool_use block the model emits run `loopr-tool call` and send back a tool_result whose
content is the envelope's `output` and whose is_error is `not ok`. Here the tool_use blocks come
from a JSON file (Claude Code's own tool names and fields), so it runs offline.

    python3 examples/agent_loop.py --root /path/to/project examples/claude_code_transcript.json
"""

import argparse
import json
import subprocess
import sys


def call(loopr, root, session, block):
    """One tool_use block through `loopr-tool call`; returns the tool_result block."""
    request = {"name": block["name"], "input": block["input"], "id": block["id"]}
    done = subprocess.run(
        [loopr, "--root", root, "--session", session, "call"],
        input=json.dumps(request), capture_output=True, text=True, check=False,
    )
    envelope = json.loads(done.stdout)
    return {
        "type": "tool_result",
        "tool_use_id": envelope["id"],
        "content": envelope["output"],
        "is_error": not envelope["ok"],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("transcript", help="JSON array of tool_use blocks; {ROOT} is replaced by --root")
    p.add_argument("--root", required=True, help="the project directory (the sandbox root)")
    p.add_argument("--loopr", default="loopr-tool", help="path to the loopr-tool binary")
    p.add_argument("--session", default="agent-loop-example")
    args = p.parse_args()

    with open(args.transcript) as f:
        blocks = json.loads(f.read().replace("{ROOT}", args.root))
    results = [call(args.loopr, args.root, args.session, b) for b in blocks]
    for block, result in zip(blocks, results):
        mark = "ERROR" if result["is_error"] else "ok"
        first = result["content"].splitlines()[0] if result["content"] else ""
        print(f"{block['id']} {block['name']:<10} {mark:<5} {first}", file=sys.stderr)
    json.dump(results, sys.stdout)
    print()
    return 1 if any(r["is_error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
