#!/usr/bin/env python3
"""Are our tools found by Codex's tool search? (SPEC 31.1 "Found by search")

Codex defers every MCP tool behind its BM25 `tool_search` (for models whose catalog entry has
`supports_search_tool`): the model sees no MCP tool until it searches, and a tool that ranks
low for the words a model uses is never called. This runs Codex itself (npm, pinned, see
bench/agents.py) against a fake Responses API whose "model" calls `tool_search` once per query
below (a `tool_search_call` output item, `execution: "client"`, arguments {query, limit});
Codex runs the search over loopr-tool's tools and sends the result back as a
`tool_search_output` item in its next request, tools in rank order. We print each query's rank
of the tool meant for it and its top 3. Goal: every intended tool in the top 3; exit 1 if not.

    python3 bench/codex_tool_search.py [--binary target/.../loopr-tool]

The ranking depends on the whole index: each tool's name, description, title, schema property
names and the server's `instructions` (Codex's search text for an MCP tool, codex-rs
core/src/tools/handlers/mcp.rs `build_mcp_search_text`), so a new tool or a longer
description elsewhere can move these ranks.
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agents  # noqa: E402

QUERIES = [
    ("read file", "read"),
    ("read", "read"),
    ("view file", "read"),
    ("open file", "read"),
    ("read file contents", "read"),
    ("list files", "tree"),
    ("list directory", "tree"),
    ("search code", "grep"),
    ("find files", "glob"),
    ("run shell command", "run"),
    ("edit file", "edit"),
    ("apply patch", "apply_patch"),
    ("todo list", "todo"),
    ("fetch url", "fetch"),
]

# Large enough to rank every tool we offer, so a miss reports its rank instead of "absent";
# the order is BM25's whatever the limit (Codex keeps the top `limit`; the default is 8).
LIMIT = 64


def search_call(turn):
    """One tool_search call per query, one per turn, then a final message."""
    if turn >= len(QUERIES):
        return agents.assistant_message("done")
    return {
        "type": "tool_search_call",
        "call_id": f"search-{turn}",
        "execution": "client",
        "status": "completed",
        "arguments": {"query": QUERIES[turn][0], "limit": LIMIT},
    }


def ranked_names(output_item):
    """Tool names of one tool_search_output, in rank order (Codex groups the hits of one MCP
    server in a namespace, keeping their order)."""
    names = []
    for spec in output_item.get("tools", []):
        if spec.get("type") == "namespace":
            names += [(spec["name"], t["name"]) for t in spec.get("tools", [])]
        else:
            names.append((None, spec.get("name")))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", help="loopr-tool to serve (default: cargo build's)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch dir and print it")
    args = ap.parse_args()

    loopr = agents.binary(args.binary)
    scratch = os.path.join(agents.cache_dir(), "codex-tool-search")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    model = agents.FakeModel(agents.responses_model(search_call))
    home = agents.codex_home(scratch, model.url(), loopr)
    run = agents.run_codex(scratch, home, "Find the tools for these tasks.", model)

    outputs = {}
    for req in model.requests:
        for item in agents.input_items(req.get("body"), "tool_search_output"):
            outputs[item["call_id"]] = ranked_names(item)
    if len(outputs) < len(QUERIES):
        print(run.stdout[-2000:], run.stderr[-4000:], sep="\n", file=sys.stderr)
        sys.exit(f"Codex answered {len(outputs)} of {len(QUERIES)} tool searches")

    version = os.path.basename(os.path.dirname(os.path.dirname(agents.codex_binary())))
    print(f"Codex {agents.CODEX.rsplit('@', 1)[1]} ({version}) tool_search over loopr-tool mcp")
    print(f"{'query':<20} {'intended':<12} {'rank':>4}  top 3")
    misses = 0
    for turn, (query, intended) in enumerate(QUERIES):
        names = outputs[f"search-{turn}"]
        # Ours by their bare name; anything else Codex defers (other servers, apps) competes too.
        ours = [name if ns == "mcp__loopr" else f"{ns}.{name}" for ns, name in names]
        rank = ours.index(intended) + 1 if intended in ours else None
        misses += rank is None or rank > 3
        shown = "-" if rank is None else str(rank)
        print(f"{query:<20} {intended:<12} {shown:>4}  {', '.join(ours[:3])}")
    print(f"in the top 3: {len(QUERIES) - misses} of {len(QUERIES)}")
    if args.keep:
        print("scratch:", scratch)
    sys.exit(1 if misses else 0)


if __name__ == "__main__":
    main()
