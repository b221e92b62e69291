"""SPEC 22.1's MCP behaviours, driven by the official MCP Python SDK (PyPI `mcp`) over stdio.

Usage: scenarios.py SCENARIO BIN ROOT STATE_DIR. Prints one JSON report on stdout for
tests/mcp/mcp_behaviour.rs, which makes the assertions; this script only measures and records, and
never hangs: every wait is bounded, and a call that does not come back in time is reported as
such (so a server without a feature fails the test instead of stalling the suite).

Scenarios:
  structured-preferring  a client that hands the model `structuredContent` when present (as
                         Claude Code and pydantic-ai do), against `mcp` and `mcp --structured`
  concurrent             20 calls in flight on one session, a `run` of `sleep 3` first
  cancel                 a `run` of `sleep 60` cancelled by the SDK (notifications/cancelled)
  progress               a `run` sent with a progressToken
  panic                  a call that panics (LOOPR_DEBUG_PANIC=grep), then a read

Every scenario sees the wire through a tap between the SDK's session and its stdio transport,
so what the server sent (a late response, an out-of-order one) is recorded as it arrived, not
as the SDK chose to surface it.
"""

import json
import os
import sys
import time
import uuid

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Tap:
    """Every JSON-RPC message each way, with the time it crossed, in seconds since `t0`."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.inbound = []
        self.outbound = []

    def now(self):
        return time.monotonic() - self.t0

    def record(self, into, item):
        if isinstance(item, Exception):
            into.append({"t": self.now(), "exception": repr(item)})
        else:
            into.append({"t": self.now(), "msg": dump(item.message)})

    def responses(self):
        """Inbound responses (results and errors) by request id."""
        return {m["msg"]["id"]: m for m in self.inbound if "msg" in m and "id" in m["msg"] and "method" not in m["msg"]}

    def sent_requests(self, method):
        return [m for m in self.outbound if m.get("msg", {}).get("method") == method and "id" in m["msg"]]

    def notifications_in(self, method):
        return [m for m in self.inbound if m.get("msg", {}).get("method") == method]

    def notifications_out(self, method):
        return [m for m in self.outbound if m.get("msg", {}).get("method") == method and "id" not in m["msg"]]


async def with_session(binary, root, state, body, *, extra_args=(), env=None):
    """Starts `loopr-tool mcp`, initializes a ClientSession over a tapped transport, runs
    `body(session, tap)` and returns its result."""
    server_env = {"LOOPR_STATE_DIR": state, "PATH": os.environ.get("PATH", "")}
    server_env.update(env or {})
    params = StdioServerParameters(
        command=binary,
        args=["--root", root, "--session", "mcp-scenarios", "mcp", *extra_args],
        env=server_env,
    )
    tap = Tap()
    async with stdio_client(params) as (read, write):
        to_session, session_reads = anyio.create_memory_object_stream(1000)
        session_writes, from_session = anyio.create_memory_object_stream(1000)

        async def pump_in():
            async with to_session:
                async for item in read:
                    tap.record(tap.inbound, item)
                    await to_session.send(item)

        async def pump_out():
            async for item in from_session:
                tap.record(tap.outbound, item)
                await write.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(pump_in)
            tg.start_soon(pump_out)
            async with ClientSession(session_reads, session_writes) as session:
                with anyio.fail_after(10):
                    await session.initialize()
                result = await body(session, tap)
            tg.cancel_scope.cancel()
    return result


async def call(session, name, args, timeout, **kw):
    """One tools/call; a JSON-RPC error, a timeout or a dead connection is reported, not raised."""
    try:
        with anyio.fail_after(timeout):
            return {"result": dump(await session.call_tool(name, args, **kw))}
    except TimeoutError:
        return {"timeout": timeout}
    except Exception as e:  # the SDK raises MCPError on a JSON-RPC error or a closed connection
        return {"exception": type(e).__name__ + ": " + str(e)}


def model_sees(result):
    """What Claude Code and pydantic-ai hand the model: `structuredContent` when the result has
    it, else the text blocks."""
    if result.get("structuredContent") is not None:
        return json.dumps(result["structuredContent"])
    return "".join(b.get("text", "") for b in result.get("content", []))


# ---------------------------------------------------------------------------------------------


async def structured_preferring(binary, root, state):
    with open(os.path.join(root, "seen.txt"), "w") as f:
        f.write("the model must see this line\nand this one\n")
    report = {}
    for mode, extra in (("default", ()), ("structured", ("--structured",))):

        async def body(session, tap):
            listed = dump(await session.list_tools())["tools"]
            out = {
                "tools": sorted(t["name"] for t in listed),
                "with_output_schema": sorted(t["name"] for t in listed if "outputSchema" in t),
                "meta": {t["name"]: t.get("_meta") for t in listed},
            }
            # call_tool validates structuredContent against a declared outputSchema (the SDK
            # raises when it does not conform), so --structured's schemas are checked here too.
            read = await call(session, "read", {"path": "seen.txt"}, 10)
            run = await call(session, "run", {"command": "echo hello-from-run"}, 30)
            for name, r in (("read", read), ("run", run)):
                res = r.get("result")
                out[name] = {
                    "outcome": r,
                    "model_sees": model_sees(res) if res else None,
                    "has_structured": bool(res) and res.get("structuredContent") is not None,
                }
            return out

        try:
            report[mode] = await with_session(binary, root, state, body, extra_args=extra)
        except Exception as e:  # a server that refuses the flag or dies: reported, not raised
            report[mode] = {"exception": describe(e)}
    return report


async def concurrent(binary, root, state):
    for i in range(19):
        with open(os.path.join(root, f"f{i}.txt"), "w") as f:
            f.write(f"file {i}\n")

    async def body(session, tap):
        done = {}
        run_sent = anyio.Event()

        async def one(key, name, args, timeout):
            r = await call(session, name, args, timeout)
            done[key] = {"t": tap.now(), "ok": "result" in r and not r["result"].get("isError", False), "r": r}

        start = tap.now()
        async with anyio.create_task_group() as tg:
            # The run goes out first, so a server that serves in arrival order makes every
            # read wait behind it.
            tg.start_soon(one, "run", "run", {"command": "sleep 3; echo slept"}, 30)
            with anyio.fail_after(5):
                while not tap.sent_requests("tools/call"):
                    await anyio.sleep(0.001)
            run_sent.set()
            for i in range(19):
                tg.start_soon(one, f"read{i}", "read", {"path": f"f{i}.txt"}, 30)
        calls = tap.sent_requests("tools/call")
        responses = tap.responses()
        wire = {}
        for req in calls:
            rid = req["msg"]["id"]
            args = req["msg"]["params"]["arguments"]
            key = "run" if req["msg"]["params"]["name"] == "run" else "read" + args["path"][1:-4]
            wire[key] = {"sent": req["t"] - start, "answered": responses[rid]["t"] - start if rid in responses else None}
        return {
            "in_flight": len(calls),
            "same_session": True,
            "completed": {k: {"t": v["t"] - start, "ok": v["ok"]} for k, v in done.items()},
            "wire": wire,
            "errors": {k: v["r"] for k, v in done.items() if not v["ok"]},
        }

    return await with_session(binary, root, state, body)


def processes_with(marker):
    """Pids whose command line or environment holds `marker`, read from /proc directly (the
    tool's own count of processes it ended is what this checks, so it is not trusted)."""
    found = []
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(pid))
                        break
            except OSError:
                pass  # gone, or a kernel thread
    return found


async def cancel(binary, root, state):
    with open(os.path.join(root, "after.txt"), "w") as f:
        f.write("still serving\n")
    marker = "loopr-cancel-" + uuid.uuid4().hex

    async def body(session, tap):
        # A tree: bash (the marker in its command line) and two sleeps (the marker in their
        # environment), so killing only the direct child would leave one behind.
        command = f"export LOOPR_TEST_MARKER={marker}; sleep 60 & sleep 60; wait"
        seen_alive = []
        with anyio.move_on_after(10) as scope:
            async with anyio.create_task_group() as tg:

                async def go():
                    # Cancelling the task that awaits call_tool is how an SDK user cancels: the
                    # SDK then sends notifications/cancelled for the request's id.
                    await session.call_tool("run", {"command": command})

                tg.start_soon(go)
                with anyio.fail_after(5):
                    while len(processes_with(marker)) < 3:
                        await anyio.sleep(0.05)
                seen_alive.extend(processes_with(marker))
                tg.cancel_scope.cancel()
        cancelled_at = tap.now()
        run_req = [r for r in tap.sent_requests("tools/call") if r["msg"]["params"]["name"] == "run"]
        run_id = run_req[0]["msg"]["id"] if run_req else None
        # Within a few seconds no process of the run is left.
        left = processes_with(marker)
        deadline = time.monotonic() + 5
        while left and time.monotonic() < deadline:
            await anyio.sleep(0.05)
            left = processes_with(marker)
        gone_after = tap.now() - cancelled_at
        # The next call is answered, on the same session.
        after = await call(session, "read", {"path": "after.txt"}, 10)
        # A response for the cancelled id would have come before the read's, or soon after:
        # give it a moment more.
        await anyio.sleep(1)
        late = tap.responses().get(run_id)
        # Read last: the SDK writes its notification as the cancelled task unwinds, and the tap
        # records it a moment later.
        cancels = [
            n["msg"].get("params", {}) for n in tap.notifications_out("notifications/cancelled")
        ]
        return {
            "timed_out": scope.cancelled_caught,
            "marker_processes_before": len(seen_alive),
            "marker_processes_after": left,
            "gone_after_s": gone_after,
            "run_id": run_id,
            "cancel_notifications": cancels,
            "response_for_cancelled": late,
            "after": after,
        }

    try:
        return await with_session(binary, root, state, body)
    finally:
        # A server that ignored the cancel must not leave 60 s sleeps behind the test.
        for pid in processes_with(marker):
            try:
                os.kill(pid, 9)
            except OSError:
                pass


async def progress(binary, root, state):
    async def body(session, tap):
        got = []

        async def on_progress(progress, total, message):
            got.append({"t": tap.now(), "progress": progress, "total": total, "message": message})

        start = tap.now()
        r = await call(
            session,
            "run",
            {"command": "for i in 1 2 3; do echo line$i; sleep 1; done"},
            30,
            progress_callback=on_progress,
        )
        req = tap.sent_requests("tools/call")[-1]["msg"]
        return {
            "sent_token": req["params"].get("_meta", {}).get("progressToken"),
            "outcome": r,
            "progress": [dict(p, t=p["t"] - start) for p in got],
            "on_wire": len(tap.notifications_in("notifications/progress")),
        }

    return await with_session(binary, root, state, body)


async def panic(binary, root, state):
    """Both modes: the default one shows the model only text, --structured names the code."""
    with open(os.path.join(root, "p.txt"), "w") as f:
        f.write("after the panic\n")

    async def body(session, tap):
        first = await call(session, "grep", {"pattern": "panic"}, 10)
        after = await call(session, "read", {"path": "p.txt"}, 10)
        return {"panicking": first, "after": after}

    report = {}
    for mode, extra in (("default", ()), ("structured", ("--structured",))):
        try:
            report[mode] = await with_session(
                binary, root, state, body, extra_args=extra, env={"LOOPR_DEBUG_PANIC": "grep"}
            )
        except Exception as e:  # the server died with the panic: reported, not raised
            report[mode] = {"exception": describe(e)}
    return report


SCENARIOS = {
    "structured-preferring": structured_preferring,
    "concurrent": concurrent,
    "cancel": cancel,
    "progress": progress,
    "panic": panic,
}


def describe(e):
    """An exception as text, task groups unwrapped to their first leaf."""
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return type(e).__name__ + ": " + str(e)


async def main(scenario, binary, root, state):
    try:
        with anyio.fail_after(120):
            report = await SCENARIOS[scenario](binary, root, state)
    except Exception as e:  # the session itself failed: the report says how, the test fails on it
        report = {"exception": describe(e)}
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
