#!/usr/bin/env python3
"""`symbols` definition/references against language servers (SPEC 26.6, first bullet).

For a real Python project (rich 13.9.4's sdist from PyPI: 78 modules, ~28k lines of typed,
idiomatic Python with classes, dataclasses, enums and re-exports) and a real TypeScript project
(rxjs 7.8.2 from npm, whose package ships its 251 `.ts` sources under `src/`: classes,
interfaces, overloaded operator functions and heavy re-exporting), this script

 1. installs pyright and typescript + typescript-language-server from npm, pinned, into
    target/lsbench/npm, and the two projects into target/lsbench/projects (offline afterwards:
    everything is cached there);
 2. samples identifier occurrences (fixed seed) and asks the server where each is defined,
    keeping a name when the server resolves it to a top-level or class-level definition in the
    project (by the server's own documentSymbol tree: depth 0, or a member of a class or
    interface), one occurrence per name, until 200 names per project;
 3. asks the server for the references of that definition (includeDeclaration) and asks
    `loopr-tool symbols --action definition|references --name N` for the same name;
 4. prints, per project, the definition found-rate (one of our definitions is in the server's
    file and spans the server's line), references recall (server's reference positions, file +
    line + column, that we list) and precision (ours that the server lists), pooled over all
    names and for names defined once in the project (once among the top-level and class-level
    symbols of every file's documentSymbol tree: the server's count, not ours), against the
    targets of 26.6 (definition >= 95%, recall >= 90%, precision >= 90% for names defined
    once), the same without the names the server defines as fields (class and interface
    properties, `self.x` instance attributes, `__slots__` entries, constructor parameter
    properties: not definitions for `symbols`, SPEC 26.7), and the kinds of line where the two
    differ most.

Servers: `pyright-langserver --stdio` and `typescript-language-server --stdio` (which drives
tsserver), both spoken to over LSP with a small stdlib client.

Usage: bench/lsp_compare.py [--bin PATH] [--samples 200] [--seed 26] [--only python|typescript]
       [--json OUT]   (without --bin: `cargo build --locked` and the debug binary)
Needs node >= 20, npm, pip (for the first run only).
"""

import argparse
import collections
import json
import os
import queue
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import threading
import time
import tokenize
import urllib.parse
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(REPO, "target", "lsbench")
NPM_PINS = ["pyright@1.1.414", "typescript@5.9.3", "typescript-language-server@5.1.3", "rxjs@7.8.2"]
RICH = "rich==13.9.4"
TARGETS = {"definition": 0.95, "recall": 0.90, "precision_once": 0.90}
# LSP SymbolKind: Class, Interface, Struct — a member of one of these is class-level.
CLASS_KINDS = {5, 11, 23}
SYMBOL_KINDS = {2: "module", 5: "class", 6: "method", 7: "property", 8: "field", 9: "constructor", 10: "enum",
                11: "interface", 12: "function", 13: "variable", 14: "constant", 22: "enum member", 23: "struct",
                26: "type parameter"}


# ---------------------------------------------------------------- installing


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def install():
    """Servers and projects into target/lsbench; a second run finds them there."""
    npm = os.path.join(CACHE, "npm")
    bins = os.path.join(npm, "node_modules", ".bin")
    if not all(os.path.exists(os.path.join(bins, b)) for b in ("pyright-langserver", "typescript-language-server")):
        os.makedirs(npm, exist_ok=True)
        run(["npm", "install", "--no-audit", "--no-fund", "--prefix", npm, *NPM_PINS])
    projects = os.path.join(CACHE, "projects")
    os.makedirs(projects, exist_ok=True)
    py_root = os.path.join(projects, "rich-13.9.4")
    if not os.path.isdir(py_root):
        sdists = os.path.join(CACHE, "py")
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", sdists, RICH])
        with tarfile.open(os.path.join(sdists, "rich-13.9.4.tar.gz")) as tar:
            tar.extractall(projects, filter="data")
    ts_root = os.path.join(projects, "rxjs-7.8.2")
    if not os.path.isdir(ts_root):
        src = os.path.join(npm, "node_modules", "rxjs", "src")
        shutil.copytree(src, ts_root, ignore=lambda d, names: [n for n in names if os.path.isfile(os.path.join(d, n)) and not n.endswith(".ts")])
        # rxjs's own src/tsconfig.json extends the package's; one standalone config instead,
        # with the self-imports (`from 'rxjs'`) mapped onto the sources as rxjs maps them.
        config = {
            "compilerOptions": {
                "strict": True, "target": "es2018", "lib": ["es2018", "dom"], "noEmit": True,
                "moduleResolution": "node", "baseUrl": ".",
                "paths": {"rxjs": ["./index.ts"], "rxjs/*": ["./*"]},
            },
            "include": ["./**/*.ts"],
        }
        with open(os.path.join(ts_root, "tsconfig.json"), "w") as f:
            json.dump(config, f, indent=2)
    return bins, py_root, ts_root


# ---------------------------------------------------------------- an LSP client


class Lsp:
    """JSON-RPC over stdio with Content-Length framing; server requests answered minimally."""

    def __init__(self, cmd, root, init_options=None):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.next_id = 0
        self.pending = {}
        self.lock = threading.Lock()
        threading.Thread(target=self._reader, daemon=True).start()
        uri = path_uri(root)
        caps = {
            "textDocument": {
                "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                "definition": {"linkSupport": False},
                "references": {},
                "synchronization": {"didSave": False},
            },
            "workspace": {"configuration": True, "workspaceFolders": True},
            "window": {"workDoneProgress": False},
        }
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": uri, "capabilities": caps,
            "workspaceFolders": [{"uri": uri, "name": os.path.basename(root)}],
            "initializationOptions": init_options or {},
        }, timeout=120)
        self.notify("initialized", {})

    def _send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _reader(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            if "id" in msg and "method" in msg:  # a request from the server
                result = [{} for _ in msg.get("params", {}).get("items", [])] if msg["method"] == "workspace/configuration" else None
                with self.lock:
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif "id" in msg:
                box = self.pending.pop(msg["id"], None)
                if box:
                    box.put(msg)

    def request(self, method, params, timeout=300):
        box = queue.Queue()
        with self.lock:
            self.next_id += 1
            self.pending[self.next_id] = box
            self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        msg = box.get(timeout=timeout)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result")

    def notify(self, method, params):
        with self.lock:
            self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def close(self):
        try:
            self.request("shutdown", None, timeout=20)
            self.notify("exit", None)
            self.proc.wait(timeout=20)
        except Exception:
            self.proc.kill()


def path_uri(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def uri_path(uri):
    return urllib.parse.unquote(urllib.parse.urlparse(uri).path)


# ---------------------------------------------------------------- identifiers in the sources

TS_WORDS = set("""abstract any as asserts async await bigint boolean break case catch class const
constructor continue debugger declare default delete do else enum export extends false finally for
from function get if implements import in infer instanceof interface is keyof let module namespace
never new null number object of package private protected public readonly return satisfies set
static string super switch symbol this throw true try type typeof undefined unique unknown var void
while with yield""".split())
TS_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|([A-Za-z_$][\w$]*)""", re.S)


def identifiers(path, language):
    """(line0, col0, name) of each identifier outside strings and comments."""
    text = open(path, encoding="utf-8").read()
    out = []
    if language == "python":
        import keyword
        with open(path, "rb") as f:
            for tok in tokenize.tokenize(f.readline):
                if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string) and not keyword.issoftkeyword(tok.string):
                    out.append((tok.start[0] - 1, tok.start[1], tok.string))
        return out
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    import bisect
    for m in TS_TOKEN.finditer(text):
        name = m.group(1)
        if name and name not in TS_WORDS:
            line = bisect.bisect_right(starts, m.start()) - 1
            out.append((line, m.start() - starts[line], name))
    return out


def source_files(root, language):
    ext = (".py",) if language == "python" else (".ts",)
    found = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x != "node_modules")
        found += [os.path.join(d, n) for n in sorted(names) if n.endswith(ext)]
    return found


# ---------------------------------------------------------------- the server's side


class Server:
    def __init__(self, lsp, root, files, language):
        self.lsp, self.root, self.language = lsp, root, language
        self.symbols = {}
        for path in files:
            text = open(path, encoding="utf-8").read()
            lsp.notify("textDocument/didOpen", {"textDocument": {
                "uri": path_uri(path), "languageId": language, "version": 1, "text": text}})

    def rel(self, uri):
        path = uri_path(uri)
        rel = os.path.relpath(path, self.root)
        return None if rel.startswith("..") else rel

    def doc_symbols(self, rel):
        """[(name, line0, col0, depth, parent_kind, kind)] of every symbol in the file's tree."""
        if rel not in self.symbols:
            flat = []

            def walk(nodes, depth, parent_kind):
                for s in nodes or []:
                    sel = s.get("selectionRange") or s["location"]["range"]
                    flat.append((s["name"], sel["start"]["line"], sel["start"]["character"], depth, parent_kind, s["kind"]))
                    walk(s.get("children"), depth + 1, s["kind"])

            result = self.lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": path_uri(os.path.join(self.root, rel))}})
            walk(result, 0, None)
            self.symbols[rel] = flat
        return self.symbols[rel]

    def level(self, rel, line, col, name):
        """('top' or 'class', the server's SymbolKind name) for the symbol declared at (line, col)."""
        for sname, sline, scol, depth, parent, kind in self.doc_symbols(rel):
            if sline == line and scol == col and sname.split("(")[0].strip() == name:
                if depth == 0:
                    return ("top", SYMBOL_KINDS.get(kind, str(kind)))
                if depth == 1 and parent in CLASS_KINDS:
                    return ("class", f"{SYMBOL_KINDS.get(kind, str(kind))} of {SYMBOL_KINDS[parent]}")
                return None
        return None

    def definition(self, rel, line, col):
        result = self.lsp.request("textDocument/definition", {
            "textDocument": {"uri": path_uri(os.path.join(self.root, rel))}, "position": {"line": line, "character": col}})
        if isinstance(result, dict):
            result = [result]
        out = []
        for loc in result or []:
            uri = loc.get("uri") or loc.get("targetUri")
            rng = loc.get("range") or loc.get("targetSelectionRange")
            target = self.rel(uri)
            if target:
                out.append((target, rng["start"]["line"], rng["start"]["character"]))
        return out

    def references(self, rel, line, col):
        result = self.lsp.request("textDocument/references", {
            "textDocument": {"uri": path_uri(os.path.join(self.root, rel))}, "position": {"line": line, "character": col},
            "context": {"includeDeclaration": True}}) or []
        out = set()
        for loc in result:
            target = self.rel(loc["uri"])
            if target:
                out.add((target, loc["range"]["start"]["line"] + 1, loc["range"]["start"]["character"] + 1))
        return out


def sample(server, files, count, seed):
    """Names the server resolves to a top-level or class-level definition in the project."""
    occurrences = []
    for path in files:
        rel = os.path.relpath(path, server.root)
        occurrences += [(rel, line, col, name) for line, col, name in identifiers(path, server.language)]
    occurrences.sort()
    random.Random(seed).shuffle(occurrences)
    chosen, tried = {}, 0
    for rel, line, col, name in occurrences:
        if len(chosen) >= count:
            break
        if name in chosen:
            continue
        tried += 1
        defs = [d for d in server.definition(rel, line, col) if server.level(d[0], d[1], d[2], name)]
        if defs:
            level, kind = server.level(defs[0][0], defs[0][1], defs[0][2], name)
            chosen[name] = {"name": name, "at": (rel, line, col), "server_defs": defs, "level": level, "kind": kind}
    return list(chosen.values()), tried


def defined_once(server, files):
    """How many top-level or class-level symbols of each name the whole project has."""
    counts = collections.Counter()
    for path in files:
        rel = os.path.relpath(path, server.root)
        for name, _line, _col, depth, parent, _kind in server.doc_symbols(rel):
            if depth == 0 or (depth == 1 and parent in CLASS_KINDS):
                counts[name.split("(")[0].strip()] += 1
    return counts


# ---------------------------------------------------------------- our side


def ours(binary, root, action, name):
    env = dict(os.environ, LOOPR_STATE_DIR=os.path.join(CACHE, "state"))
    started = time.perf_counter()
    proc = subprocess.run([binary, "--root", root, "symbols", "--action", action, "--name", name, "--limit", "100000"],
                          capture_output=True, text=True, env=env, cwd=root)
    elapsed = time.perf_counter() - started
    envelope = json.loads(proc.stdout)
    if not envelope.get("ok"):
        raise RuntimeError(f"symbols {action} {name}: {envelope.get('output')}")
    return envelope["data"], elapsed


def found_definition(server_defs, our_defs):
    """One of ours is in the server's file and spans the server's line (any of its locations)."""
    return any(d["path"] == rel and d["line"] <= line + 1 <= d["end_line"] for rel, line, _ in server_defs for d in our_defs)


# ---------------------------------------------------------------- one project


def compare(name, binary, lsp, root, language, samples, seed):
    files = source_files(root, language)
    started = time.perf_counter()
    server = Server(lsp, root, files, language)
    rel = os.path.relpath(files[0], root)
    server.definition(rel, 0, 0)
    first = time.perf_counter() - lsp.started
    picked, tried = sample(server, files, samples, seed)
    once = defined_once(server, files)
    print(f"{name}: {len(files)} files; {len(picked)} names sampled from {tried} occurrences tried "
          f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    print(f"- {name}: the server's first answer {first:.1f} s after it was started (all files opened)")
    rows, times = [], {"server_refs": [], "ours_def": [], "ours_refs": []}
    for item in picked:
        rel, line, col = item["server_defs"][0]
        t0 = time.perf_counter()
        server_refs = server.references(rel, line, col)
        times["server_refs"].append(time.perf_counter() - t0)
        our_def, t_def = ours(binary, root, "definition", item["name"])
        our_refs_data, t_refs = ours(binary, root, "references", item["name"])
        times["ours_def"].append(t_def)
        times["ours_refs"].append(t_refs)
        our_refs = {(r["path"], r["line"], r["column"]) for r in our_refs_data["references"]}
        rows.append({
            "name": item["name"], "level": item["level"], "kind": item["kind"], "server_defs": item["server_defs"], "defined_once": once[item["name"]] == 1,
            "def_found": found_definition(item["server_defs"], our_def["definitions"]),
            "our_defs": our_def["total"], "server_refs": server_refs, "our_refs": our_refs,
            "lines": {(r["path"], r["line"]): r["text"] for r in our_refs_data["references"]},
        })
    return rows, times


def line_text(root, rel, line, cache={}, strip=True):
    if rel not in cache:
        cache[rel] = open(os.path.join(root, rel), encoding="utf-8").read().split("\n")
    lines = cache[rel]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text.strip() if strip else text


def summarise(name, root, rows, times):
    def ratios(subset):
        server = sum(len(r["server_refs"]) for r in subset)
        mine = sum(len(r["our_refs"]) for r in subset)
        common = sum(len(r["server_refs"] & r["our_refs"]) for r in subset)
        defs = sum(r["def_found"] for r in subset)
        return {"names": len(subset), "definition": defs / len(subset) if subset else 0,
                "server_refs": server, "our_refs": mine, "common": common,
                "recall": common / server if server else 1.0, "precision": common / mine if mine else 1.0}

    overall = ratios(rows)
    once = ratios([r for r in rows if r["defined_once"]])
    several = ratios([r for r in rows if not r["defined_once"]])
    # SPEC 26.7: fields are not definitions (as ctags' struct members); these are the names the
    # server defines as fields, properties, instance attributes or __slots__ entries.
    unfielded = [r for r in rows if not is_field(root, r)]
    print(f"\n## {name}\n")
    print("| names | count | definition found | server refs | our refs | in both | recall | precision |")
    print("|---|---|---|---|---|---|---|---|")
    for label, s in (("all", overall), ("defined once", once), ("defined more than once", several),
                     ("not fields (all)", ratios(unfielded)),
                     ("not fields, defined once", ratios([r for r in unfielded if r["defined_once"]]))):
        print(f"| {label} | {s['names']} | {s['definition']:.1%} | {s['server_refs']} | {s['our_refs']} | "
              f"{s['common']} | {s['recall']:.1%} | {s['precision']:.1%} |")
    checks = [("definition found (all)", overall["definition"], TARGETS["definition"]),
              ("references recall (all)", overall["recall"], TARGETS["recall"]),
              ("references precision (defined once)", once["precision"], TARGETS["precision_once"])]
    for label, value, target in checks:
        print(f"- {label}: {value:.1%} (target >= {target:.0%}: {'met' if value >= target else 'NOT met'})")
    print(f"- overall precision: {overall['precision']:.1%}")
    by_kind = collections.defaultdict(list)
    for r in rows:
        by_kind[("top-level " if r["level"] == "top" else "") + r["kind"]].append(r["def_found"])
    print("- definition found by the server's kind of symbol: " + "; ".join(
        f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))))
    med = {k: statistics.median(v) * 1000 for k, v in times.items() if v}
    print(f"- median per name: server references {med['server_refs']:.1f} ms (warm server); "
          f"loopr-tool definition {med['ours_def']:.1f} ms, references {med['ours_refs']:.1f} ms (a process each)")
    explain(root, rows)
    return {"all": overall, "defined_once": once, "several": several, "not_fields": ratios(unfielded), "median_ms": med}


def place(root, rel, line, col):
    """A rough kind of the position, to say where the two differ (from the line's text)."""
    text = open(os.path.join(root, rel), encoding="utf-8").read().split("\n")[line - 1]
    before = text[: col - 1]
    stripped = text.lstrip()
    if stripped.startswith(("*", "/*", "//", "#")) or "//" in before or "/*" in before:
        return "in a comment"
    if before.count('"') % 2 or before.count("'") % 2:
        return "in a string (Python: a quoted annotation)"
    if before.rstrip().endswith("."):
        return "an attribute after a dot"
    return "a bare name"


def declared_as(root, row):
    """What a definition the server gives is, from its line: instance attributes, `__slots__`
    entries and constructor parameter properties are members declared outside a class body."""
    rel, line, col = row["server_defs"][0]
    text = line_text(root, rel, line + 1, strip=False)
    if text[:col].rstrip().endswith(("self.", "this.")):
        return "an instance attribute assigned in a method (self.NAME = ...)"
    if text[max(col - 1, 0) : col + 1].strip("'\"") != text[max(col - 1, 0) : col + 1]:
        return "a name in __slots__ (a string)"
    if row["kind"].startswith("property") and ("constructor(" in text or text.rstrip().endswith((",", ")", ") {"))):
        return "a constructor parameter property"
    return f"a {row['kind']}"


def is_field(root, row):
    return row["kind"].startswith(("property", "field")) or declared_as(root, row).startswith(
        ("an instance attribute", "a name in __slots__", "a constructor parameter"))


def explain(root, rows):
    """Where the two differ: the names with the largest gaps, and what the differing lines hold."""
    misses = [(r["name"], rel, line, col) for r in rows for rel, line, col in sorted(r["server_refs"] - r["our_refs"])]
    extras = [(r["name"], rel, line, col) for r in rows if r["defined_once"] for rel, line, col in sorted(r["our_refs"] - r["server_refs"])]
    undefined = [r for r in rows if not r["def_found"]]
    if undefined:
        what = collections.Counter(declared_as(root, r) for r in undefined)
        print(f"- definitions not found ({len(undefined)}), by what the server's definition is: " +
              "; ".join(f"{k} {c}" for k, c in what.most_common()))
        print("    e.g. " + ", ".join(r["name"] for r in undefined[:24]))
    for label, items in (("server's references we miss", misses), ("our references the server lacks (names defined once)", extras)):
        if not items:
            continue
        per_name = collections.Counter(n for n, *_ in items)
        where = collections.Counter(place(root, rel, line, col) for _n, rel, line, col in items)
        print(f"- {label}: {len(items)}; " + ", ".join(f"{k} {c}" for k, c in where.most_common()) +
              "; most in " + ", ".join(f"{n} {c}" for n, c in per_name.most_common(6)))
        for n, rel, line, col in items[:: max(1, len(items) // 8)][:8]:
            print(f"    {n}: {rel}:{line}:{col}: {line_text(root, rel, line)[:110]}")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", help="a built loopr-tool (default: cargo build --locked, the debug binary)")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--only", choices=["python", "typescript"])
    ap.add_argument("--json", help="write the figures and the per-name rows here")
    args = ap.parse_args()
    binary = args.bin
    if not binary:
        run(["cargo", "build", "--locked", "-q"], cwd=REPO)
        binary = os.path.join(REPO, "target", "x86_64-unknown-linux-gnu", "debug", "loopr-tool")
    binary = os.path.abspath(binary)
    bins, py_root, ts_root = install()
    tsserver = os.path.join(CACHE, "npm", "node_modules", "typescript", "lib")
    projects = [
        ("python", "rich 13.9.4 (Python) vs pyright 1.1.414", py_root,
         [os.path.join(bins, "pyright-langserver"), "--stdio"], {}),
        ("typescript", "rxjs 7.8.2 src (TypeScript) vs tsserver 5.9.3 (typescript-language-server 5.1.3)", ts_root,
         [os.path.join(bins, "typescript-language-server"), "--stdio"], {"tsserver": {"path": tsserver}}),
    ]
    report = {}
    for language, title, root, cmd, init in projects:
        if args.only and args.only != language:
            continue
        lsp = Lsp(cmd, root, init)
        try:
            rows, times = compare(title, binary, lsp, root, language, args.samples, args.seed)
        finally:
            lsp.close()
        report[language] = summarise(title, root, rows, times)
        report[language]["rows"] = [{**{k: v for k, v in r.items() if k not in ("server_refs", "our_refs", "lines")},
                                     "server_refs": sorted(r["server_refs"]), "our_refs": sorted(r["our_refs"])} for r in rows]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
