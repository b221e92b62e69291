#!/usr/bin/env python3
"""Do the real clients reach `loopr-tool mcp --http` with a bearer token? (SPEC 27.1)

Starts `loopr-tool mcp --http 127.0.0.1:PORT --token-env LOOPR_MCP_TOKEN` and runs Claude
Code, Codex and Gemini CLI (npm, pinned; see bench/agents.py) against a fake model API, each
configured in its own form for an HTTP MCP server with a header:

  Claude Code  --mcp-config {"type": "http", "url": …, "headers": {"Authorization": "Bearer …"}}
  Codex        config.toml [mcp_servers.loopr] url = … , bearer_token_env_var = "VAR"
  Gemini CLI   settings.json mcpServers.loopr.httpUrl + headers

The fake model calls our `read` on a small file; the next request the agent sends must carry
the file's text. Then each runs again with a wrong token: the server answers 401 and the
agent's model must never be offered our tools. One line per agent and case; exit 1 if any
case fails.

With --tls the server serves HTTPS (`--tls-cert`/`--tls-key`, a self-signed certificate made
with `openssl req`) and each agent trusts that certificate through its runtime's variable:
NODE_EXTRA_CA_CERTS (Claude Code, Gemini CLI), CODEX_CA_CERTIFICATE (Codex).

    python3 bench/agents_http.py [--binary PATH] [--agents claude,codex,gemini] [--node PATH]
                                 [--tls]
"""

import argparse
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agents  # noqa: E402
import agents_paging as paging  # noqa: E402

FILE = "small.txt"
MARKER = "the http marker 7f3a9c is in this file"
SERVER_VAR = "LOOPR_MCP_TOKEN"  # the server's token
AGENT_VAR = "LOOPR_AGENT_TOKEN"  # what Codex sends (bearer_token_env_var)
TOKEN = "s3cret-" + os.urandom(8).hex()
TLS = {}  # {"cert", "key"} with --tls


def scheme():
    """http or https; also names the scratch dirs, so an HTTP and an HTTPS run can overlap."""
    return "https" if TLS else "http"


def certificate(dir):
    """A self-signed certificate for 127.0.0.1 (not a CA: rustls refuses a CA as the server's)."""
    cert, key = os.path.join(dir, "cert.pem"), os.path.join(dir, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", key, "-out", cert,
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-addext", "basicConstraints=critical,CA:FALSE", "-addext", "extendedKeyUsage=serverAuth"],
        check=True, capture_output=True)
    return {"cert": cert, "key": key}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(loopr, root):
    """`mcp --http` on a free loopback port, serving `root`; waits until it answers."""
    port = free_port()
    env = dict(os.environ, **{SERVER_VAR: TOKEN})
    argv = [loopr, "mcp", "--http", f"127.0.0.1:{port}", "--token-env", SERVER_VAR]
    if TLS:
        argv += ["--tls-cert", TLS["cert"], "--tls-key", TLS["key"]]
    proc = subprocess.Popen(argv, cwd=root, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"{scheme()}://127.0.0.1:{port}/mcp"
    for _ in range(100):
        if post_status(url, "wrong") == 401:
            return proc, url
        time.sleep(0.05)
    proc.kill()
    sys.exit("mcp --http did not answer: " + proc.stderr.read())


def post_status(url, token):
    """The status of an `initialize` POST with this bearer token (None: no answer)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "agents_http.py", "version": "1"}}}
    req = urllib.request.Request(url, json.dumps(body).encode(), headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream"})
    context = ssl.create_default_context(cafile=TLS["cert"]) if TLS else None
    try:
        with urllib.request.urlopen(req, timeout=2, context=context) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return None


def offered(key, body):
    """Whether this request to the model offers any of our tools (named after server `loopr`)."""
    if not isinstance(body, dict):
        return False
    if key == "claude":
        return any(str(t.get("name", "")).startswith("mcp__loopr__") for t in body.get("tools", []))
    if key == "gemini":
        return paging.gemini_tool(body) is not None
    # Codex defers MCP tools behind tool_search: they reach the model in its outputs.
    found = agents.input_items(body, "tool_search_output")
    tools = body.get("tools", []) + [t for i in found for t in i.get("tools", [])]
    return any("loopr" in str(t.get("name", "")) for t in tools)


def requests_of(scratch):
    with open(os.path.join(scratch, "requests.json")) as f:
        return json.load(f)


def auth_lines(run):
    """What the agent itself said about the refusal (its output lines naming 401 or auth)."""
    if run is None:
        return []
    words = ("401", "nauthori", "auth", "mcp_servers: ")
    lines = (run.stdout + "\n" + run.stderr).splitlines()
    for ln in lines:
        if '"mcp_servers"' in ln:  # Claude Code's stream-json init event: keep just that part
            lines.append("mcp_servers: " + json.dumps(json.loads(ln).get("mcp_servers")))
    said = [ln.strip() for ln in lines if any(w in ln for w in words) and '"type"' not in ln]
    return [ln[:200] for ln in said][:3]


def case(key, loopr, url, token, right):
    """One agent run; (ok, line)."""
    title, spec, run_agent = paging.AGENTS[key]
    scratch = os.path.join(agents.cache_dir(), f"{scheme()}-{key}-{'token' if right else 'wrong'}")
    work = os.path.join(scratch, "work")
    with open(os.path.join(work, FILE), "w") as f:
        f.write(f"line one\n{MARKER}\nline three\n")
    paging.HTTP.clear()
    paging.HTTP.update(url=url, token=token, var=AGENT_VAR)
    os.environ[AGENT_VAR] = token
    started = time.monotonic()
    try:
        text, run = run_agent(loopr, scratch)
    except (subprocess.SubprocessError, OSError, StopIteration) as e:
        return False, f"{title} ({spec}): could not run: {e}"
    secs = time.monotonic() - started
    with open(os.path.join(scratch, "agent.out"), "w") as f:
        f.write(f"stdout:\n{run.stdout}\nstderr:\n{run.stderr}")
    seen = text is not None and MARKER in text
    listed = any(offered(key, r.get("body")) for r in requests_of(scratch))
    if right:
        ok = seen and listed
        how = "the model saw the file's text" if seen else f"the model did NOT see it ({text!r:.200})"
        line = (f"{title} ({spec}) over {scheme().upper()} with the token: "
                f"tools listed: {listed}; {how} ({secs:.0f} s)")
    else:
        ok = not listed and not seen
        said = "; ".join(auth_lines(run)) or "nothing about it"
        line = (f"{title} ({spec}) with a wrong token: tools listed: {listed}; "
                f"the agent said: {said} ({secs:.0f} s)")
    if not ok and run is not None:
        line += f"\n  stdout: {run.stdout[-1500:]}\n  stderr: {run.stderr[-3000:]}"
    return ok, line


def with_our_certificate(existing, var):
    """A bundle of the roots `existing` names (a PEM file, if set) and our certificate."""
    bundle = os.path.join(agents.cache_dir(), f"{var.lower()}.pem")
    parts = []
    for path in (existing, TLS["cert"]):
        if path and os.path.isfile(path):
            with open(path) as f:
                parts.append(f.read().rstrip("\n") + "\n")
    with open(bundle, "w") as f:
        f.write("".join(parts))
    return bundle


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", help="loopr-tool to serve (default: cargo build's)")
    ap.add_argument("--agents", default="claude,codex,gemini")
    ap.add_argument("--node", default="node", help="node for Gemini CLI (>= 20)")
    ap.add_argument("--tls", action="store_true", help="serve HTTPS with a self-signed certificate")
    args = ap.parse_args()
    if args.tls:
        TLS.update(certificate(agents.cache_dir()))
        # Our certificate is added to the roots these variables already name, never put in
        # their place: npm (installing an agent) and the agents reach the registry and the
        # model API through whatever CA the machine needs (a proxy's, here).
        for var in ("NODE_EXTRA_CA_CERTS", "CODEX_CA_CERTIFICATE"):
            os.environ[var] = with_our_certificate(os.environ.get(var), var)
    paging.NODE[0] = args.node
    paging.FILE = FILE
    paging.PROMPT = f"Read {FILE} and tell me what it holds."
    loopr = agents.binary(args.binary)

    failed = 0
    for key in args.agents.split(","):
        for kind in ("token", "wrong"):
            scratch = os.path.join(agents.cache_dir(), f"{scheme()}-{key}-{kind}")
            shutil.rmtree(scratch, ignore_errors=True)
            os.makedirs(os.path.join(scratch, "work"))
        # The server's root is the token run's work dir, where the model's `read` points.
        root = os.path.join(agents.cache_dir(), f"{scheme()}-{key}-token", "work")
        server, url = start_server(loopr, root)
        try:
            wrong = post_status(url, "not-" + TOKEN)
            print(f"server: a POST with a wrong token answers {wrong}")
            failed += wrong != 401
            for right in (True, False):
                ok, line = case(key, loopr, url, TOKEN if right else "not-" + TOKEN, right)
                failed += not ok
                print(line, flush=True)
        finally:
            server.kill()
            server.wait()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
