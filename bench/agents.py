"""Shared by bench/codex_tool_search.py and bench/agents_paging.py: real coding agents, installed
from npm (pinned), run as MCP clients of `loopr-tool mcp` against a fake model API on 127.0.0.1
that records every request the agent sends and answers with the moves a script scripts.

Why fake the model: what we need to see is what the *agent* does with our tools (how its tool
search ranks them, how much of a result it passes on), and the next request it sends the model
is exactly that. A scripted model makes the run deterministic and needs no network or key.

stdlib only, so the scripts run wherever python3 and npm are.
"""

import glob
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The versions SPEC 31 was written against; change a pin on purpose, never by drift.
CODEX = "@openai/codex@0.171.0"
CLAUDE = "@anthropic-ai/claude-code@2.1.332"
GEMINI = "@google/gemini-cli@0.61.0"


def cache_dir():
    """Where agents are installed and runs keep their scratch files (under cargo's target dir,
    which is ignored by git and already holds the large things)."""
    d = os.environ.get("LOOPR_AGENTS_DIR") or os.path.join(ROOT, "target", "agents")
    os.makedirs(d, exist_ok=True)
    return d


def binary(explicit=None):
    """The loopr-tool to serve: --binary, else the debug build (built when missing)."""
    if explicit:
        return os.path.abspath(explicit)
    out = subprocess.run(
        ["cargo", "build", "-q", "--message-format=json-render-diagnostics"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        check=True,
        text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if os.path.basename(msg["executable"]) == "loopr-tool":
                return msg["executable"]
    sys.exit("cargo build did not name a loopr-tool executable")


def npm_install(spec):
    """`npm install` of one pinned package into its own prefix under the cache dir (reused while
    the pin holds); that prefix. Under an exclusive lock: the test suite runs these scripts side
    by side, and two installs into one prefix leave a half-installed package the other reads."""
    import fcntl

    name, version = spec.rsplit("@", 1)
    prefix = os.path.join(cache_dir(), spec.replace("@", "_").replace("/", "_"))
    manifest = os.path.join(prefix, "node_modules", name, "package.json")
    os.makedirs(cache_dir(), exist_ok=True)
    with open(prefix + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(manifest) as f:
                if json.load(f)["version"] == version:
                    return prefix
        except (OSError, ValueError, KeyError):
            pass
        if not shutil.which("npm"):
            sys.exit("npm is needed to install " + spec)
        print(f"installing {spec} ...", file=sys.stderr)
        subprocess.run(
            # Install scripts are skipped: each agent's native binary is a plain (optional)
            # dependency, and the scripts would build native addons the agents do not need here.
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
            + ["--prefix", prefix, spec],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        return prefix


def codex_binary():
    """Codex's native binary: @openai/codex's launcher only picks the platform package's
    `vendor/<triple>/bin/codex` (an optional dependency, e.g. @openai/codex-linux-x64) and
    execs it; running it directly skips node."""
    prefix = npm_install(CODEX)
    found = glob.glob(os.path.join(prefix, "node_modules/@openai/codex-*/vendor/*/bin/codex"))
    if not found:
        sys.exit(f"no native codex binary under {prefix} (is this platform packaged?)")
    return found[0]


def sse(events):
    """Server-sent events as the OpenAI and Anthropic streaming APIs write them."""
    out = ""
    for ev in events:
        out += f"event: {ev['type']}\ndata: {json.dumps(ev)}\n\n"
    return out.encode()


class FakeModel:
    """A model API on 127.0.0.1: `answer(path, body)` gives (content_type, bytes) for each POST;
    every request (path and JSON body) is kept in `requests`, in order."""

    def __init__(self, answer):
        self.requests = []
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with fake.lock:
                    fake.requests.append({"method": "GET", "path": self.path})
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                with fake.lock:
                    fake.requests.append({"method": "POST", "path": self.path, "body": body})
                    kind, data = answer(self.path, body)
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def responses_events(response_id, items):
    """One Responses API turn (SSE) producing these output items, as codex-rs's own tests mock
    it (core/tests/common/responses.rs: response.created, output_item.done, completed)."""
    usage = {
        "input_tokens": 0,
        "input_tokens_details": None,
        "output_tokens": 0,
        "output_tokens_details": None,
        "total_tokens": 0,
    }
    events = [{"type": "response.created", "response": {"id": response_id}}]
    events += [{"type": "response.output_item.done", "item": item} for item in items]
    events.append({"type": "response.completed", "response": {"id": response_id, "usage": usage}})
    return sse(events)


def assistant_message(text):
    return {
        "type": "message",
        "role": "assistant",
        "id": "msg_done",
        "content": [{"type": "output_text", "text": text}],
    }


def codex_home(scratch, model_url, loopr, model="gpt-5.5", http=None):
    """A CODEX_HOME whose config points Codex at the fake Responses API and serves loopr-tool
    as the MCP server `loopr`. gpt-5.5 is the bundled catalog's model with
    `supports_search_tool` and no code mode, so MCP tools are deferred behind the native
    `tool_search` tool. With `http` ({"url", "var"}) Codex reaches `loopr-tool mcp --http`
    instead, sending the token it finds in the variable `var` as a bearer token."""
    if http:
        server = f'url = "{http["url"]}"\nbearer_token_env_var = "{http["var"]}"\n'
    else:
        server = f'command = "{loopr}"\nargs = ["mcp"]\n'

    home = os.path.join(scratch, "codex-home")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write(
            f"""model = "{model}"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "{model_url}/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.loopr]
{server}"""
        )
    return home


def run_codex(scratch, home, prompt, model):
    """`codex exec` in `scratch/work` against `model`."""
    env = dict(os.environ, CODEX_HOME=home, NO_COLOR="1")
    argv = [codex_binary(), "exec", "--skip-git-repo-check", prompt]
    return run_agent(argv, scratch, model, env)


def run_agent(argv, scratch, model, env, timeout=240):
    """Runs an agent in `scratch/work` (stdout and stderr kept); then stops the fake model and
    keeps every request it got in `scratch/requests.json`."""
    work = os.path.join(scratch, "work")
    os.makedirs(work, exist_ok=True)
    try:
        return subprocess.run(
            argv,
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        model.close()
        save_requests(scratch, model)


def responses_model(item_for_turn):
    """A Responses API whose model answers its Nth request with `item_for_turn(N)`."""
    state = {"turn": 0}

    def answer(path, body):
        if not path.endswith("/responses"):
            return "application/json", b"{}"
        turn = state["turn"]
        state["turn"] += 1
        return "text/event-stream", responses_events(f"resp-{turn}", [item_for_turn(turn)])

    return answer


def save_requests(scratch, model):
    """Every request the agent sent, for a look after the run."""
    with open(os.path.join(scratch, "requests.json"), "w") as f:
        json.dump(model.requests, f, indent=1)


def input_items(body, kind):
    return [i for i in (body or {}).get("input", []) if i.get("type") == kind]
