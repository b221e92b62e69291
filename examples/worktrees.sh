#!/usr/bin/env bash
# Seeds 000/001's flow, one git worktree per loop (SPEC 25.8): plan -> spec -> phase -> code (in
# its own worktree: read, edit, test, share, query, commit) -> a validation of the code loop's
# worktree. Each model call is a `call` under the loop's profile of examples/catalog.toml; the
# model's part is played by fixed inputs. The harness's own calls pass --harness, and it waits
# with `inbox wait` instead of polling.
#
#   LOOPR_TOOL=target/debug/loopr-tool examples/worktrees.sh            # a file hub: the repo
#   LOOPR_HUB=redis://127.0.0.1:6379/0 examples/worktrees.sh            # loops meet on Redis
#
# It works in a scratch directory (a tiny Cargo crate made here, its state dir beside it) and
# leaves nothing else behind.
set -euo pipefail
tool=${LOOPR_TOOL:-loopr-tool}
catalog=$(cd "$(dirname "$0")" && pwd)/catalog.toml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPR_STATE_DIR="$work/state" CARGO_TARGET_DIR="$work/target"

echo "== the repository: a tiny crate, and a worktree for the code loop"
proj="$work/proj"
cargo init -q --lib --vcs none --name calc "$proj"
git -C "$proj" init -q
git -C "$proj" add -A
git -C "$proj" -c user.name=harness -c user.email=h@example.com commit -q -m "start"
git -C "$proj" worktree add -q "$work/wt-code"

# model PROFILE SESSION ROOT: one model call (JSON {"name", "input"} on stdin) under its profile.
model() { "$tool" --config "$catalog" --profile "$1" --session "$2" --root "$3" --format text call; }
# harness ROOT ARGS...: the harness's own call, outside any profile's offer.
harness() { local root=$1; shift; "$tool" --config "$catalog" --harness --root "$root" "$@"; }

echo "== plan loop (main checkout)"
model plan plan-1 "$proj" <<'JSON'
{"name": "create_plan", "input": {"name": "calc", "title": "Calculator",
  "overview": "An add function, tested.",
  "specs": [{"name": "add", "title": "Add", "description": "Add two numbers."}]}}
JSON
echo '{"name": "complete_task", "input": {"summary": "Plan: one spec, add."}}' | model plan plan-1 "$proj"

echo "== spec loop reads the plan and writes its spec"
harness "$proj" --session spec-1 artifact <<< '{"kind": "plan", "name": "calc", "session": "plan-1"}' >/dev/null
model spec spec-1 "$proj" <<'JSON'
{"name": "create_spec", "input": {"name": "add", "title": "Add", "overview": "add(a, b) = a + b.",
  "phases": [{"name": "impl", "title": "Implement add", "description": "Write add and its test."},
             {"name": "docs", "title": "Document add", "description": "A doc comment."},
             {"name": "bench", "title": "Measure add", "description": "A benchmark."}]}}
JSON

echo "== phase loop hands the phase over, with how to validate it"
model phase phase-1 "$proj" <<'JSON'
{"name": "create_phase", "input": {"name": "impl", "title": "Implement add", "objective": "add and a test.",
  "tasks": [{"description": "Write add", "file": "src/lib.rs", "action": "modify"}],
  "validation_command": "cargo test -q 2>&1 | grep -q 'test result: ok. 1 passed' && echo validated in $(basename $PWD)"}}
JSON
harness "$proj" --session phase-1 --format text share <<< '{"to": ["code-1"], "data_type": "phase", "data": {"session": "phase-1", "phase": "impl"}}'

echo "== code loop (its own worktree): what it was given"
wt="$work/wt-code"
harness "$wt" --session code-1 session clear_reads >/dev/null          # each iteration starts clean
harness "$wt" --session code-1 --format text inbox <<< '{"action": "wait", "timeout_ms": 10000}'
echo '{"name": "read_file", "input": {"path": "src/lib.rs"}}' | model code code-1 "$wt" >/dev/null
cat > "$work/edit.json" <<'JSON'
{"name": "write_file", "input": {"path": "src/lib.rs",
  "content": "pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 3), 5);\n    }\n}\n"}}
JSON
model code code-1 "$wt" < "$work/edit.json" >/dev/null
echo '{"name": "test", "input": {}}' | model code code-1 "$wt" | grep -E '^(test result|Exit code)' | head -n 2

echo "== code loop asks the phase loop; the harness waits for the question and answers for it"
echo '{"name": "query_loop", "input": {"target_exec_id": "phase-1", "question": "Should add saturate on overflow?", "timeout_ms": 60000}}' |
  model code code-1 "$wt" >"$work/answer" &
asker=$!
got=$(harness "$proj" --session phase-1 inbox <<< '{"action": "wait", "timeout_ms": 30000}')
id=$(printf '%s' "$got" | grep -o '"messages":\[{"id":[0-9]*' | grep -o '[0-9]*$' || true)
[ -n "$id" ] || { echo "no question came: $got" >&2; exit 1; }
harness "$proj" --session phase-1 --format text inbox <<< "{\"action\": \"reply\", \"id\": $id, \"text\": \"No: plain addition; overflow panics in debug.\"}"
wait "$asker"
echo "code loop got: $(cat "$work/answer")"

echo "== code loop commits in its worktree, under the write sandbox, and says so"
echo '{"name": "run_command", "input": {"command": "git add -A && git -c user.name=code -c user.email=c@example.com commit -q -m \"add\" && git log --oneline -1", "sandbox": "workspace-write"}}' |
  model code code-1 "$wt"
echo '{"name": "share_data", "input": {"target_exec_ids": ["phase-1"], "data_type": "done", "data": "add is in"}}' |
  model code code-1 "$wt" >/dev/null
echo '{"name": "complete_task", "input": {"summary": "add written, tested and committed."}}' | model code code-1 "$wt"

echo "== the harness: waits for the hand-over, then validates the phase in the code loop's worktree"
harness "$proj" --session phase-1 --format text inbox <<< '{"action": "wait", "timeout_ms": 10000}'
harness "$wt" --session val-1 --format text validate <<< '{"session": "phase-1"}'
harness "$proj" --session code-1 --format text session | grep -E '^(Hub|Completed):'
