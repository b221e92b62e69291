#!/usr/bin/env bash
# Two loops working together through loopr-tool (SPEC 20): a planner hands over a plan and its
# specs as structured artifacts; a coder reads them, asks the planner a question, gets the
# answer, and reports completion. Every step is a `batch` or `call`, as a harness makes them;
# the model's part is played by fixed inputs.
#
#   LOOPR_TOOL=target/debug/loopr-tool LOOPR_ROOT=/path/to/project examples/loops.sh
#
# Each loop is a session of the same root: the state dir is where they meet.
set -euo pipefail
tool=${LOOPR_TOOL:-loopr-tool}
planner() { "$tool" --session planner "$@"; }
coder() { "$tool" --session coder "$@"; }

echo "== planner: a plan and its specs, in one batch"
planner --format text batch >/dev/null <<'JSON'
[
  {"name": "create_plan", "input": {
    "title": "Calculator", "overview": "A calculator: a lexer, then a parser on top of it.",
    "specs": [
      {"name": "lexer", "title": "Lexer", "description": "Turn text into tokens."},
      {"name": "parser", "title": "Parser", "description": "Turn tokens into a tree.",
       "dependencies": ["lexer"]}]}},
  {"name": "create_spec", "input": {
    "name": "lexer", "title": "Lexer", "overview": "Numbers and operators.",
    "phases": [
      {"name": "numbers", "title": "Numbers", "description": "Integers and decimals."},
      {"name": "operators", "title": "Operators", "description": "+ - * / and parentheses."},
      {"name": "errors", "title": "Errors", "description": "Report the column of a bad character.",
       "validation": "cargo test lexer"}]}}
]
JSON

echo "== coder: what the planner handed over"
echo '{"name": "artifact", "input": {"kind": "plan", "name": "calculator", "session": "planner"}}' |
  coder --format text call

echo "== coder: asks the planner, and waits for the answer"
answer=$(mktemp)
trap 'rm -f "$answer"' EXIT
echo '{"name": "query", "input": {"to": "planner", "question": "Do decimals need a leading digit (0.5 vs .5)?", "timeout_ms": 30000}}' |
  coder --format text call >"$answer" &
asker=$!

# The planner's loop notices the question in its inbox (a harness would do this between turns).
id=""
for _ in $(seq 1 600); do
  id=$(planner --format text inbox all | sed -n 's/^#\([0-9]*\) query from coder at [^ ]* *\(\[new\]\)\{0,1\}: .*/\1/p' | tail -n 1)
  [ -n "$id" ] && break
  sleep 0.05
done
[ -n "$id" ] || { echo "the question never arrived" >&2; exit 1; }
echo "== planner: question $id arrived"
planner --format text inbox
echo "{\"name\": \"inbox\", \"input\": {\"action\": \"reply\", \"id\": $id, \"text\": \"Both: .5 is accepted and means 0.5.\"}}" |
  planner --format text call

wait "$asker"
echo "== coder: the answer"
cat "$answer"

echo "== coder: done"
echo '{"name": "complete_task", "input": {"summary": "Lexer written per the planner'"'"'s spec; .5 accepted."}}' |
  coder --format text call
coder --format text session | grep '^Completed:'
