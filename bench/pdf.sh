#!/usr/bin/env bash
# The text of a 100-page PDF: `read` (lopdf + src/tools/read/pdf_text.rs) vs poppler's
# `pdftotext`, side by side, with the ratio. The PDF is written here by a few lines of Python
# (raw PDF, Helvetica, 12 lines a page, FlateDecode content streams as real PDFs have).
#
# Needs hyperfine and poppler-utils (`apt-get install hyperfine poppler-utils`).
# Usage: bench/pdf.sh [path/to/loopr-tool]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/x86_64-unknown-linux-gnu/release/loopr-tool}
[ -x "$BIN" ] || cargo build --release
BIN=$(realpath "$BIN")
for t in hyperfine pdftotext python3; do
  command -v "$t" >/dev/null || { echo "missing $t: apt-get install hyperfine poppler-utils" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"
export LOOPR_STATE_DIR=$work/state LOOPR_ROOT=$work/root

python3 - "$work/root/book.pdf" <<'PY'
import sys, zlib
pages, lines = 100, 12  # ~75,000 characters: under read's 100,000 cap, so both print every page
objs = {}
objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
objs[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
kids = []
for p in range(pages):
    ops = [b"BT /F1 10 Tf 12 TL 56 770 Td"]
    for l in range(lines):
        text = f"Page {p + 1}, line {l + 1}: the quick brown fox jumps over the lazy dog."
        ops.append(b"(" + text.encode() + b") '")
    ops.append(b"ET")
    body = zlib.compress(b"\n".join(ops))
    content, page = 4 + 2 * p, 5 + 2 * p
    objs[content] = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(body) + body + b"\nendstream"
    objs[page] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content
    kids.append(b"%d 0 R" % page)
objs[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % pages
out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
offsets = {}
for n in sorted(objs):
    offsets[n] = len(out)
    out += b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n"
xref = len(out)
count = max(objs) + 1
out += b"xref\n0 %d\n0000000000 65535 f \n" % count
for n in range(1, count):
    out += b"%010d 00000 n \n" % offsets[n]
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, xref)
open(sys.argv[1], "wb").write(out)
PY
ls -l "$work/root/book.pdf" | awk '{print "book.pdf:", $5, "bytes, 100 pages"}'
# read shows 20 pages by default; both sides extract all 100 here.
"$BIN" read book.pdf --pages 1-100 --format text | grep -c 'the quick brown fox' | sed 's/^/read lines of text: /'
pdftotext "$work/root/book.pdf" - | grep -c 'the quick brown fox' | sed 's/^/pdftotext lines of text: /'
hyperfine -N --warmup 3 --runs 30 --export-json "$work/pdf.json" \
  "$BIN read book.pdf --pages 1-100" \
  "pdftotext $work/root/book.pdf $work/out.txt"
python3 - "$work/pdf.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ours, poppler = r[0]["median"] * 1e3, r[1]["median"] * 1e3
print(f"100-page PDF: read {ours:.1f} ms, pdftotext {poppler:.1f} ms -> read takes {ours/poppler:.2f}x pdftotext's time")
PY
