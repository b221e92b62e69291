"""The person behind a harness, for the MCP drivers: answers `ask_user`'s questions (SPEC 25.4)
as a harness does, with the binary's own `--harness` calls on the hub's `user` inbox, so a
client that calls every tool gets an answer instead of a ten-minute wait."""

import json
import subprocess
import threading


def answer_questions(binary, root, state):
    """Starts answering in a thread; returns the event that stops it."""
    stop = threading.Event()
    env = {"LOOPR_STATE_DIR": state, "PATH": "/usr/bin:/bin"}
    base = [binary, "--root", root, "--harness", "--session", "user", "inbox"]

    def loop():
        while not stop.is_set():
            got = subprocess.run(base + ["wait", "--timeout-ms", "300"], env=env,
                                 capture_output=True, text=True)
            try:
                messages = json.loads(got.stdout)["data"]["messages"]
            except (ValueError, KeyError):
                continue
            for m in messages:
                if m["kind"] != "query":
                    continue
                answer = {"action": "reply", "id": m["id"], "text": "yes"}
                options = (m.get("data") or {}).get("options")
                if options:
                    answer["selected"] = [options[0]]
                subprocess.run(base, input=json.dumps(answer), env=env, capture_output=True, text=True)

    threading.Thread(target=loop, daemon=True).start()
    return stop
