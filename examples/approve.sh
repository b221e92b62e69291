#!/bin/sh
# A harness's approval loop (SPEC 29): make the call; while it answers approval_required, show
# the person what would happen and, if they agree, make it again under the approval.
#   examples/approve.sh [GLOBALS] TOOL < INPUT.json     (the answer is read from $ANSWERS)
tool=${LOOPR_TOOL:-loopr-tool}; input=$(cat)
out=$(printf '%s' "$input" | "$tool" "$@")
while [ "$(printf '%s' "$out" | jq -r '.error.code // ""')" = approval_required ]; do
  id=$(printf '%s' "$out" | jq -r .error.approval.id)
  printf '%s' "$out" | jq -r '.error.approval | .summary, .diff // empty' >&2
  printf 'Allow? [y/N] ' >&2; read -r yes < "${ANSWERS:-/dev/tty}"
  [ "$yes" = y ] || { printf '%s\n' "$out"; exit 1; }
  out=$(printf '%s' "$input" | "$tool" --approve "$id" "$@")
done
printf '%s\n' "$out"
