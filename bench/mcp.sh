#!/usr/bin/env bash
# MCP over stdio (issue 15), side by side in one run, same files, same client (bench/mcp.py):
# loopr-tool mcp vs the MCP reference filesystem server (npm @modelcontextprotocol/server-filesystem)
# vs Desktop Commander (npm @wonderwhy-er/desktop-commander). Medians of 300 sequential calls per
# operation on one warm server, ratios to loopr-tool: start -> initialize answered; read of a
# 2 KB file; tree of glibc's string/ (ours depth 2; the reference's directory_tree; Desktop
# Commander's list_directory depth 2); a one-line edit that really changes the file each time.
# Then reads with 8 requests in flight on one server, throughput over the sequential rate.
#
# Targets: read median <= 0.5 ms and >= 3x faster than the reference; edit no slower than the
# reference's edit_file; 8 in flight >= 1.8x the sequential rate.
#
# Usage: bench/mcp.sh CORPUS [path/to/loopr-tool]
#   CORPUS: a glibc checkout, e.g. made once with
#           git clone /work/.mirror/bminor+glibc/repo /work/corpus/glibc
#   default binary: the release build (built when missing).
# Env: CALLS (300), STARTS (30; a Node server takes ~0.3-1 s to start), INFLIGHT (8),
#      PEERS_DIR (where the peers are installed; default target/bench-mcp-peers).
# Needs python3, node and npm. A peer that cannot be installed is skipped, and the run says so.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: bench/mcp.sh CORPUS [loopr-tool binary]}
[ -d "$corpus/string" ] || { echo "$corpus/string is not a directory (want a glibc checkout)" >&2; exit 1; }
BIN=${2:-$here/target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || (cd "$here" && cargo build --release)
BIN=$(realpath "$BIN")
for t in python3 node npm; do
  command -v "$t" >/dev/null || { echo "missing $t" >&2; exit 1; }
done

REFERENCE=@modelcontextprotocol/server-filesystem@2026.8.31
DC=@wonderwhy-er/desktop-commander@0.2.52
peers=${PEERS_DIR:-$here/target/bench-mcp-peers}
mkdir -p "$peers"
install() { # install() PACKAGE → 0 when node_modules has it afterwards
  ( cd "$peers" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --ignore-scripts --no-audit --no-fund \
      --loglevel=error --prefix "$peers" "$1" >/dev/null 2>"$peers/npm-err.txt" ) \
    || { echo "could not install $1: $(tail -3 "$peers/npm-err.txt")"; return 1; }
}
args=()
if install "$REFERENCE"; then
  args+=(--reference "$peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
else
  echo "skipping the reference filesystem server"
fi
if install "$DC"; then
  args+=(--desktop-commander "$peers/node_modules/@wonderwhy-er/desktop-commander/dist/index.js")
else
  echo "skipping Desktop Commander"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "$("$BIN" --version); node $(node --version); $(python3 --version); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/bench/mcp.py" --loopr "$BIN" --corpus "$(realpath "$corpus")" --work "$work" \
  --calls "${CALLS:-300}" --starts "${STARTS:-30}" --in-flight "${INFLIGHT:-8}" "${args[@]}"
