#!/usr/bin/env python3
"""Edit robustness (issue 5): flawed edits of real code, the way models get them wrong.

Samples regions (3-8 whole lines, occurring once in their file) from a corpus nobody here
wrote, makes a copy of each file in a temp dir, sends `loopr-tool read` then `loopr-tool edit`
with an old_string carrying one kind of flaw, and checks the bytes left on disk against a
result computed here, independently of the tool: the copy with the region replaced by what the
model meant, in the file's own conventions (tabs, CRLF, encoding).

    bench/edit_robustness.py /path/to/corpus [--n 100] [--seed 5] [--bin PATH]

Kinds (one flaw at a time), then the control, then negatives that must be refused:
  tabs_as_spaces   the file indents with tabs; old/new_string have each leading tab typed as
                   N spaces (N = 4 or 8, per attempt)
  lf_for_crlf      the copy is converted to CRLF; old/new_string use \\n
  straight_quotes  the copy's region gets curly quotes, en dashes, ellipses; old_string has
                   the straight ASCII ones (lines new_string keeps keep their curly quotes,
                   17.1; changed lines are written as given, straight)
  dedented         old/new_string lack the indentation every line of the region shares
  trailing_ws      the copy's region gets trailing spaces/tabs; old_string has none
  windows_1252     the copy holds accented comments and is transcoded to windows-1252;
                   old/new_string are Unicode
  quotes_inline    (17.1) the copy's line gets curly quotes; old_string is part of that line
                   (from one token to another), typed with straight quotes
  line_numbers     (17.1) old/new_string carry read's prefixes (`{n:>6}\t`) on every line
                   they copied from the read; new lines the model wrote have none
  over_escaped     (17.1) old/new_string escaped once more (`\n`, `\"` as two characters)
  alignment_tabs   (17.1) a tab-indented region with tabs inside lines too; every tab typed
                   as spaces to the next stop of N (N = 4 or 8): kept lines keep the file's
                   tabs, changed lines are written as typed inside, re-indented
  first_dedented   (17.1) the first line without its indentation, the rest with tabs typed
                   as N spaces
  trailing_ws_tabs (17.1) trailing whitespace in the copy, and tabs typed as N spaces: every
                   kept line keeps its trailing whitespace
  crlf_tabs        (17.1) the copy in CRLF, and tabs typed as N spaces
  exact            control: old_string copied exactly
  duplicated       the region occurs twice in the copy (with one of the flaws above):
                   must be ambiguous_match
  typo             one word of old_string misspelt (with one of the flaws above): no_match

new_string is the region after one or two edits a model makes (a renamed word, an added
comment, an inserted line at the same or one level deeper indentation, a deleted line), typed
with the same flaw. For a deeper line the intended bytes follow the file's conventions: tabs
of the model's N for tabs_as_spaces (the model sees a tab as N columns), tabs of 8 in a
tab-indented file otherwise (glibc's, and GNU's, tab width).

Outcomes: correct (file == expected, or for tabs_as_spaces an added line indented as the
region indents that column) · same_columns (only how some line's indentation is written
differs: tabs or spaces, every line at the intended column) · in_region (bytes outside the
region kept, its new text differs otherwise) · wrong_region (bytes outside the region changed)
· refused (file unchanged; error code). Only correct counts as applied to the intended region.

A region must be unique even with every line's leading/trailing whitespace and typography
ignored, so that the intended place can be identified at all. When trailing whitespace sits on
the region's last line only, old_string matches exactly and ends before it; those bytes are
outside the match and are kept (SPEC 7), so the expected result keeps them too.

Exit status 1 when a target is missed: >= 95% correct over the flawed kinds, no wrong_region,
every negative refused with its code. Nothing is written outside a temp dir (--keep keeps it).
"""

import argparse
import collections
import concurrent.futures
import difflib
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

FLAWED = ["tabs_as_spaces", "lf_for_crlf", "straight_quotes", "dedented", "trailing_ws",
          "windows_1252", "quotes_inline", "line_numbers", "over_escaped", "alignment_tabs",
          "first_dedented", "trailing_ws_tabs", "crlf_tabs"]
CONTROL = ["exact"]
INFO = []
NEGATIVE = {"duplicated": "ambiguous_match", "typo": "no_match"}
# the flaws a negative is combined with, round robin (line_numbers is no duplicate: its
# prefixes name the place, so it is combined with typos only)
NEGATIVE_BASES = ["exact", "tabs_as_spaces", "dedented", "trailing_ws", "lf_for_crlf",
                  "straight_quotes", "quotes_inline", "over_escaped", "alignment_tabs",
                  "first_dedented", "trailing_ws_tabs", "crlf_tabs", "line_numbers"]

FOLD = {}
for chars, to in [("\u2018\u2019\u201a\u201b\u2032", "'"), ("\u201c\u201d\u201e\u201f\u2033", '"'),
                  ("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"), ("\u2026", "..."),
                  ("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                   "\u202f\u205f\u3000", " "), ("\u200b\ufeff", "")]:
    FOLD.update({ord(c): to for c in chars})

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
MIXED = re.compile(r"^\t+ {1,7}\S")
ACCENTED_HEADER = [
    "/* Überarbeitet von Jürgen Groß und François Lefèvre für die Portierung.",
    "   Größe, Maße und Übergänge: geprüft; naïve Fälle siehe unten.  */",
]


def loose(line):
    """What must be equal for a line to match on the loosest rung."""
    return line.translate(FOLD).strip(" \t")


def lead(line):
    return line[:len(line) - len(line.lstrip(" \t"))]


def cols(ws, n):
    return sum(n if c == "\t" else 1 for c in ws)


def unexpand(width, n):
    return "\t" * (width // n) + " " * (width % n)


class Source:
    """A corpus file: its lines, and an index of their loose keys."""

    def __init__(self, rel, text):
        self.rel = rel
        self.final_eol = text.endswith("\n")
        self.text = text[:-1] if self.final_eol else text
        self.lines = self.text.split("\n")
        self.keys = [loose(l) for l in self.lines]
        self.by_key = collections.defaultdict(list)
        for i, k in enumerate(self.keys):
            self.by_key[k].append(i)
        tab_lines = sum(l[:1] == "\t" for l in self.lines)
        space_lines = sum(l[:1] == " " for l in self.lines)
        wide = sum(l.startswith(" " * 8) for l in self.lines)
        self.mixed = any(MIXED.match(l) for l in self.lines)
        # GNU style (glibc's) indents by spaces alone below 8 columns, so most indented lines
        # start with a space; it still indents with tabs: 8 spaces where a tab goes only on
        # a stray line
        self.tabs = tab_lines > 0 and (wide * 10 <= tab_lines or tab_lines > space_lines)

    def loose_count(self, region):
        keys = [loose(l) for l in region]
        return sum(1 for p in self.by_key.get(keys[0], [])
                   if self.keys[p:p + len(keys)] == keys)


def lines_from(text):
    """A corpus file's text (no final newline) as lines."""
    return text.split("\n")


class Attempt:
    def __init__(self, kind, src, lines, a, b, old, new, expected, eol="\n", enc="utf-8"):
        self.kind, self.src, self.a, self.b = kind, src, a, b
        self.lines, self.eol, self.enc = lines, eol, enc  # the copy
        self.old, self.new, self.expected = old, new, expected
        self.want = None  # the error code a negative must give
        self.alternatives = []  # other results as good as `expected`
        self.n = 8  # the tab width the model sees

    def render(self, lines):
        text = self.eol.join(lines) + (self.eol if self.src.final_eol else "")
        return text.encode(self.enc)

    def copy_bytes(self):
        return self.render(self.lines)

    def outside(self):
        """The copy's bytes before and after the region (its last terminator is outside)."""
        body = self.eol.join(self.lines) + (self.eol if self.src.final_eol else "")
        start = sum(len(l) + len(self.eol) for l in self.lines[:self.a])
        end = start + len(self.eol.join(self.lines[self.a:self.b]))
        return body[:start].encode(self.enc), body[end:].encode(self.enc)


class Generator:
    def __init__(self, sources, rng):
        self.sources, self.rng, self.serial = sources, rng, 0

    def region(self, src, cond=lambda r: True):
        """A random region of `src` that is unique, even loosely, and satisfies `cond`."""
        rng = self.rng
        for _ in range(40):
            k = rng.randint(3, 8)
            if len(src.lines) < k + 4:
                return None
            a = rng.randrange(len(src.lines) - k + 1)
            r = src.lines[a:a + k]
            if not r[0].strip() or not r[-1].strip() or any(len(l) > 160 for l in r):
                continue
            if not cond(r) or src.loose_count(r) != 1:
                continue
            if src.text.count("\n".join(r)) != 1:
                continue
            return a, a + k
        return None

    def modify(self, region, deeper, note="/* checked */"):
        """The region after one or two changes a model makes (file conventions)."""
        rng, new = self.rng, list(region)
        self.serial += 1
        for op in rng.sample(["rename", "comment", "insert", "delete"], rng.choice([1, 2])):
            nonblank = [i for i, l in enumerate(new) if l.strip()]
            j = rng.choice(nonblank)
            words = list(WORD.finditer(new[j]))
            if op == "rename" and words:
                w = rng.choice(words)
                new[j] = new[j][:w.end()] + "_v2" + new[j][w.end():]
            elif op in ("rename", "comment"):
                new[j] = new[j] + "  " + note
            elif op == "insert":
                ws = lead(new[j])
                if deeper and rng.random() < 0.5:
                    ws = deeper(ws)
                new.insert(j + 1, f"{ws}edit_marker ({self.serial});")
            elif len(nonblank) > 2:
                del new[j]
        if new == list(region):
            new[-1] += "  " + note
        return new

    def make(self, kind):
        for _ in range(200):
            src = self.rng.choice(self.sources)
            att = getattr(self, "gen_" + kind)(src)
            if att:
                return att
        raise SystemExit(f"no region found for {kind}: is the corpus too small?")

    def plain(self, kind, src, a, b, old_lines, new_lines, expected_lines, lines=None,
              eol="\n", enc="utf-8", final_nl=False):
        lines = lines if lines is not None else src.lines
        att = Attempt(kind, src, lines, a, b, "\n".join(old_lines), "\n".join(new_lines), None,
                      eol, enc)
        if final_nl:  # old_string ends with its newline: so does new_string
            att.old += "\n"
            att.new += "\n"
        att.expected = att.render(lines[:a] + expected_lines + lines[b:])
        return att

    def deeper(self, src, n=8):
        """One level deeper than `ws`: two columns in GNU's mixed style, else a tab or four
        spaces; a tab-indented file writes the new column as tabs of n, then spaces."""
        step = 2 if src.mixed else n
        if src.tabs:
            return lambda ws: unexpand(cols(ws, n) + step, n)
        return lambda ws: ws + "    "

    def gen_exact(self, src):
        r = self.region(src)
        if not r:
            return None
        a, b = r
        new = self.modify(src.lines[a:b], self.deeper(src))
        return self.plain("exact", src, a, b, src.lines[a:b], new, new,
                          final_nl=self.rng.random() < 0.3)

    def gen_tabs_as_spaces(self, src, everywhere=False):
        if not src.tabs:
            return None
        inner = lambda r: "\t" in "".join(l.lstrip(" \t") for l in r)
        r = self.region(src, lambda r: any(l.startswith("\t") for l in r) and
                        (inner(r) or not everywhere))
        if not r:
            return None
        a, b = r
        n = self.rng.choice([4, 8])
        new = self.modify(src.lines[a:b], self.deeper(src, n))

        def typed(l):
            if everywhere:
                return l.expandtabs(n)
            ws = lead(l)
            return ws.replace("\t", " " * n) + l[len(ws):]
        old_t = [typed(l) for l in src.lines[a:b]]
        new_t = [typed(l) for l in new]
        kind = "tabs_everywhere" if everywhere else "tabs_as_spaces"
        att = self.plain(kind, src, a, b, old_t, new_t, new)
        att.n = n
        self.alternatives(att, src.lines[a:b], new)
        return att

    def alternatives(self, att, region, expected):
        """The model sees a tab as n columns: an added line may take any indentation the
        region itself uses for its column, not only the canonical one."""
        n, a, b, lines = att.n, att.a, att.b, att.lines
        choices = []
        for i, l in enumerate(expected):
            if "edit_marker (" in l:
                c = cols(lead(l), n)
                same = {lead(r) for r in region if cols(lead(r), n) == c}
                choices.append((i, sorted(same | {lead(l)})))
        for combo in itertools.product(*[ws for _, ws in choices]):
            alt = list(expected)
            for (i, _), ws in zip(choices, combo):
                alt[i] = ws + alt[i].lstrip(" \t")
            att.alternatives.append(att.render(lines[:a] + alt + lines[b:]))

    def gen_tabs_everywhere(self, src):
        return self.gen_tabs_as_spaces(src, everywhere=True)

    def gen_lf_for_crlf(self, src):
        r = self.region(src)
        if not r:
            return None
        a, b = r
        new = self.modify(src.lines[a:b], self.deeper(src))
        return self.plain("lf_for_crlf", src, a, b, src.lines[a:b], new, new, eol="\r\n",
                          final_nl=self.rng.random() < 0.3)

    def gen_straight_quotes(self, src):
        r = self.region(src, lambda r: any(c in "".join(r) for c in "\"'") or
                        " - " in "".join(r) or "..." in "".join(r))
        if not r:
            return None
        a, b = r
        curly, opened = [], False
        for l in src.lines[a:b]:
            out = []
            for c in l.replace(" - ", " \u2013 ").replace("...", "\u2026"):
                if c == '"':
                    out.append("\u201d" if opened else "\u201c")
                    opened = not opened
                elif c == "'":
                    out.append("\u2019")
                else:
                    out.append(c)
            curly.append("".join(out))
        lines = src.lines[:a] + curly + src.lines[b:]
        new = self.modify(src.lines[a:b], self.deeper(src))
        # lines the edit keeps keep their curly quotes (17.1); changed ones are as typed
        expected = self.kept(src.lines[a:b], new, curly)
        return self.plain("straight_quotes", src, a, b, src.lines[a:b], new, expected,
                          lines=lines)

    def gen_dedented(self, src):
        def common(r):
            return os.path.commonprefix([lead(l) for l in r if l.strip()])
        r = self.region(src, lambda r: common(r) != "")
        if not r:
            return None
        a, b = r
        p = common(src.lines[a:b])
        deeper = self.deeper(src)
        new = self.modify(src.lines[a:b], deeper)
        # What the model types: its own text without p; a deeper line is the line above's
        # indentation plus one step of spaces, as it sees it.
        step = " " * (2 if src.mixed else (8 if src.tabs else 4))
        typed = []
        for l in new:
            if not l.strip():
                typed.append("")
            elif l.startswith(p):
                typed.append(l[len(p):])
            else:  # a deeper line whose tab-8 form no longer starts with p
                above = typed[-1] if typed else ""
                typed.append(lead(above) + step + l.lstrip(" \t"))
        old_t = [l[len(p):] if l.strip() else "" for l in src.lines[a:b]]
        return self.plain("dedented", src, a, b, old_t, typed, new)

    def gen_trailing_ws(self, src):
        r = self.region(src)
        if not r:
            return None
        a, b = r
        region = list(src.lines[a:b])
        for j in self.rng.sample(range(len(region)), self.rng.randint(1, len(region))):
            if region[j].strip() and not region[j].endswith((" ", "\t")):
                region[j] += self.rng.choice([" ", "  ", "\t", " \t", "    "])
        lines = src.lines[:a] + region + src.lines[b:]
        new = self.modify(src.lines[a:b], self.deeper(src))
        if region[:-1] == src.lines[a:b - 1]:
            # Only the last line has trailing whitespace: old_string matches exactly, ending
            # before it, and those bytes outside the match are kept (SPEC 7).
            expected = list(new)
            expected[-1] += region[-1][len(src.lines[b - 1]):]
        else:
            # whole lines match without trailing whitespace: kept lines keep theirs (17.1)
            expected = self.kept(src.lines[a:b], new, region)
        return self.plain("trailing_ws", src, a, b, src.lines[a:b], new, expected, lines=lines)

    def gen_windows_1252(self, src):
        try:
            "\n".join(src.lines).encode("cp1252")
        except UnicodeEncodeError:
            return None
        r = self.region(src)
        if not r:
            return None
        a, b = r
        # accented comments at the top (a real file has more than one such word) and one in
        # the region itself, so old_string holds non-ASCII text too
        h = len(ACCENTED_HEADER)
        region = list(src.lines[a:b])
        j = self.rng.choice([i for i, l in enumerate(region) if l.strip()])
        region[j] += "  /* für René: Größe prüfen */"
        lines = ACCENTED_HEADER + src.lines[:a] + region + src.lines[b:]
        new = self.modify(region, self.deeper(src), note="/* geprüft, déjà vu */")
        return self.plain("windows_1252", src, a + h, b + h, region, new, new, lines=lines,
                          enc="cp1252")

    def kept(self, region, new, file_lines):
        """new with every line it keeps from `region` (as difflib pairs them) written as the
        file's own line `file_lines[j]` (17.1: kept lines keep their bytes)."""
        out = list(new)
        sm = difflib.SequenceMatcher(None, region, new, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                for t in range(i2 - i1):
                    out[j1 + t] = file_lines[i1 + t]
        return out

    def tabbed(self, src, cond=lambda r: True):
        """A region of a tab-indented file with a line indented by tabs, and N."""
        if not src.tabs:
            return None
        r = self.region(src, lambda r: any(l.startswith("\t") for l in r) and cond(r))
        return (r, self.rng.choice([4, 8])) if r else None

    @staticmethod
    def spaces_for_tabs(l, n):
        ws = lead(l)
        return ws.replace("\t", " " * n) + l[len(ws):]

    def gen_quotes_inline(self, src):
        quoted = re.compile(r'[A-Za-z_][\w.>-]*\s*\([^()\n]*"[^"\n]*"[^()\n]*\)')
        r = self.region(src, lambda r: any(quoted.search(l) for l in r))
        if not r:
            return None
        a, b = r
        cands = [i for i in range(a, b) if quoted.search(src.lines[i])]
        i = self.rng.choice(cands)
        line = src.lines[i]
        m = quoted.search(line)
        frag = m.group()
        curly, opened = [], False
        for c in frag:
            if c == '"':
                curly.append("\u201d" if opened else "\u201c")
                opened = not opened
            else:
                curly.append(c)
        curly = "".join(curly)
        file_line = line[:m.start()] + curly + line[m.end():]
        if src.text.count(frag) != 1:
            return None
        lines = src.lines[:i] + [file_line] + src.lines[i + 1:]
        words = list(WORD.finditer(frag))
        if not words:
            return None
        w = self.rng.choice(words)
        new = frag[:w.end()] + "_v2" + frag[w.end():]
        att = Attempt("quotes_inline", src, lines, i, i + 1, frag, new, None)
        att.expected = att.render(lines[:i] + [line[:m.start()] + new + line[m.end():]]
                                  + lines[i + 1:])
        return att

    def gen_line_numbers(self, src):
        r = self.region(src)
        if not r:
            return None
        a, b = r
        region = src.lines[a:b]
        new = self.modify(region, self.deeper(src))
        old_t = [f"{a + 1 + j:>6}\t{l}" for j, l in enumerate(region)]
        # lines copied from the read keep their prefixes; lines the model wrote have none
        new_t = list(new)
        sm = difflib.SequenceMatcher(None, region, new, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                for t in range(i2 - i1):
                    new_t[j1 + t] = f"{a + 1 + i1 + t:>6}\t{new[j1 + t]}"
        return self.plain("line_numbers", src, a, b, old_t, new_t, new)

    def gen_over_escaped(self, src):
        r = self.region(src, lambda r: "\\" not in "".join(r))
        if not r:
            return None
        a, b = r
        new = self.modify(src.lines[a:b], self.deeper(src))
        esc = lambda ls: json.dumps("\n".join(ls), ensure_ascii=False)[1:-1]
        att = self.plain("over_escaped", src, a, b, src.lines[a:b], new, new)
        att.old, att.new = esc(src.lines[a:b]), esc(new)
        if "\\n" not in att.old and '\\"' not in att.old:
            return None
        return att

    def gen_alignment_tabs(self, src):
        inner = lambda r: "\t" in "".join(l.lstrip(" \t") for l in r)
        t = self.tabbed(src, inner)
        if not t:
            return None
        (a, b), n = t
        region = src.lines[a:b]
        new = self.modify(region, self.deeper(src, n))
        old_t = [l.expandtabs(n) for l in region]
        new_t = [l.expandtabs(n) for l in new]
        # kept lines are the file's own; changed ones the file's indentation, the inside as
        # typed
        sm = difflib.SequenceMatcher(None, region, new, autojunk=False)
        keep = set()
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "equal":
                keep.update(range(j1, j2))
        expected = [new[j] if j in keep else lead(new[j]) + new_t[j].lstrip(" \t")
                    for j in range(len(new))]
        att = self.plain("alignment_tabs", src, a, b, old_t, new_t, expected)
        att.n = n
        self.alternatives(att, region, expected)
        return att

    def gen_first_dedented(self, src):
        t = self.tabbed(src, lambda r: lead(r[0]) != "" and r[0].strip() != "")
        if not t:
            return None
        (a, b), n = t
        region = src.lines[a:b]
        new = self.modify(region, self.deeper(src, n))
        typed = lambda ls: [l.lstrip(" \t") if j == 0 else self.spaces_for_tabs(l, n)
                            for j, l in enumerate(ls)]
        att = self.plain("first_dedented", src, a, b, typed(region), typed(new), new)
        att.n = n
        self.alternatives(att, region, new)
        if src.text.count(att.old) == 1:
            # the rest has no tab to type as spaces: old_string is the file's own bytes from
            # the first line's first token on, and exact replaces just those (SPEC 7)
            att.expected = att.render(lines_from(src.text.replace(att.old, att.new, 1)))
            att.alternatives = []
        return att

    def gen_trailing_ws_tabs(self, src):
        t = self.tabbed(src)
        if not t:
            return None
        (a, b), n = t
        region = list(src.lines[a:b])
        for j in self.rng.sample(range(len(region)), self.rng.randint(1, len(region))):
            if region[j].strip() and not region[j].endswith((" ", "\t")):
                region[j] += self.rng.choice([" ", "  ", "\t", " \t", "    "])
        if region[:-1] == src.lines[a:b - 1]:
            return None  # only the last line: the trailing_ws kind's exact case
        lines = src.lines[:a] + region + src.lines[b:]
        new = self.modify(src.lines[a:b], self.deeper(src, n))
        old_t = [self.spaces_for_tabs(l, n) for l in src.lines[a:b]]
        new_t = [self.spaces_for_tabs(l, n) for l in new]
        expected = self.kept(src.lines[a:b], new, region)
        att = self.plain("trailing_ws_tabs", src, a, b, old_t, new_t, expected, lines=lines)
        att.n = n
        self.alternatives(att, src.lines[a:b], expected)
        return att

    def gen_crlf_tabs(self, src):
        t = self.tabbed(src)
        if not t:
            return None
        (a, b), n = t
        new = self.modify(src.lines[a:b], self.deeper(src, n))
        old_t = [self.spaces_for_tabs(l, n) for l in src.lines[a:b]]
        new_t = [self.spaces_for_tabs(l, n) for l in new]
        att = self.plain("crlf_tabs", src, a, b, old_t, new_t, new, eol="\r\n")
        att.n = n
        self.alternatives(att, src.lines[a:b], new)
        return att

    def negative(self, kind, base_kind):
        if kind == "duplicated" and base_kind == "line_numbers":
            base_kind = "exact"
        for _ in range(200):
            att = self.make(base_kind)
            if kind == "duplicated":
                region = att.lines[att.a:att.b]
                k = len(region)
                spots = [i for i in range(len(att.lines) + 1)
                         if i < att.a - 1 or i > att.b + 1]
                if not spots:
                    continue
                at = self.rng.choice(spots)
                att.lines = att.lines[:at] + region + att.lines[at:]
                if at <= att.a:
                    att.a, att.b = att.a + k, att.b + k
            else:
                olds = att.old.split("\n")
                cands = [(i, m) for i, l in enumerate(olds) for m in WORD.finditer(l)
                         if len(set(m.group()[1:-1])) > 1]
                if not cands:
                    continue
                i, m = self.rng.choice(cands)
                w = list(m.group())
                p = self.rng.randrange(1, len(w) - 2)
                if w[p] == w[p + 1]:
                    continue
                w[p], w[p + 1] = w[p + 1], w[p]
                olds[i] = olds[i][:m.start()] + "".join(w) + olds[i][m.end():]
                if loose(olds[i]) in att.src.by_key:
                    continue  # the misspelt line exists elsewhere: no typo at all there
                att.old = "\n".join(olds)
            att.kind, att.base, att.want, att.expected = kind, base_kind, NEGATIVE[kind], None
            return att
        raise SystemExit(f"could not make a {kind} negative")


def load_sources(corpus, rng, limit):
    paths = []
    for d, dirs, files in os.walk(corpus):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        paths += [os.path.join(d, f) for f in sorted(files) if f.endswith((".c", ".h", ".py",
                                                                           ".js", ".rs", ".go"))]
    rng.shuffle(paths)
    out = []
    for p in paths:
        if len(out) >= limit:
            break
        try:
            if not 2_000 <= os.path.getsize(p) <= 300_000:
                continue
            text = open(p, "rb").read().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "\r" in text or "\x00" in text:
            continue
        out.append(Source(os.path.relpath(p, corpus), text))
    return out


def run_chunk(binary, root, state, chunk):
    calls = []
    for i, att in chunk:
        path = f"a{i:05}/{os.path.basename(att.src.rel)}"
        att.path = path
        calls.append({"name": "read", "input": {"path": path, "limit": 1}})
        calls.append({"name": "edit", "input": {"path": path, "old_string": att.old,
                                                 "new_string": att.new}})
    p = subprocess.run([binary, "--root", root, "--state-dir", state, "batch"],
                       input=json.dumps(calls).encode(), capture_output=True, check=False)
    envs = json.loads(p.stdout)
    assert len(envs) == len(calls), p.stderr
    for (i, att), r, e in zip(chunk, envs[0::2], envs[1::2]):
        att.read_env, att.edit_env = r, e


def same_columns(att, after):
    """Whether `after` differs from the expected result only in how some lines' indentation
    is written (tabs or spaces), each line at the same column (a tab being att.n wide)."""
    def shape(b):
        return [" " * cols(lead(l), att.n) + l.lstrip(" \t")
                for l in b.decode(att.enc, "replace").split(att.eol)]
    return shape(after) == shape(att.expected)


def classify(att, root):
    after = att.result = open(os.path.join(root, att.path), "rb").read()
    before = att.copy_bytes()
    e = att.edit_env
    code = None if e["ok"] else e["error"]["code"]
    if after == before:
        return "refused" if code else "unchanged_ok", code
    if att.expected is not None and (after == att.expected or after in att.alternatives):
        return "correct", code
    pre, post = att.outside()
    if after.startswith(pre) and after.endswith(post) and len(after) >= len(pre) + len(post):
        if att.expected is not None and same_columns(att, after):
            return "same_columns", code
        return "in_region", code
    return "wrong_region", code


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--n", type=int, default=100, help="attempts per kind (default 100)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target",
                                                  "x86_64-unknown-linux-gnu", "release",
                                                  "loopr-tool"))
    ap.add_argument("--files", type=int, default=3000, help="corpus files sampled from")
    ap.add_argument("--show", type=int, default=3, help="failures shown per kind")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    ap.add_argument("--json", help="write every attempt's outcome here")
    args = ap.parse_args()
    binary = os.path.realpath(args.bin)
    rng = random.Random(args.seed)
    sources = load_sources(args.corpus, rng, args.files)
    gen = Generator(sources, rng)
    attempts = [gen.make(k) for k in FLAWED + CONTROL + INFO for _ in range(args.n)]
    for kind in NEGATIVE:
        attempts += [gen.negative(kind, NEGATIVE_BASES[i % len(NEGATIVE_BASES)])
                     for i in range(args.n)]

    work = tempfile.mkdtemp(prefix="edit-robustness.")
    root, state = os.path.join(work, "root"), os.path.join(work, "state")
    try:
        for i, att in enumerate(attempts):
            d = os.path.join(root, f"a{i:05}")
            os.makedirs(d)
            with open(os.path.join(d, os.path.basename(att.src.rel)), "wb") as f:
                f.write(att.copy_bytes())
        chunks = [list(enumerate(attempts))[s:s + 100] for s in range(0, len(attempts), 100)]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda c: run_chunk(binary, root, state, c), chunks))
        for att in attempts:
            att.outcome, att.code = classify(att, root)
        ok = report(attempts, args.show)
        if args.json:
            with open(args.json, "w") as f:
                json.dump([{"kind": a.kind, "file": a.src.rel, "lines": [a.a + 1, a.b],
                            "outcome": a.outcome, "code": a.code,
                            "match": a.edit_env.get("data", {}).get("match"),
                            "encoding": a.read_env.get("data", {}).get("encoding")}
                           for a in attempts], f, indent=1)
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work)
    sys.exit(0 if ok else 1)


def report(attempts, show):
    by = collections.defaultdict(list)
    for a in attempts:
        by[a.kind].append(a)
    print("| kind | attempts | correct | same columns, other tabs/spaces | in region, other "
          "text | wrong region | refused (codes) | rungs |")
    print("|---|---|---|---|---|---|---|---|")
    flawed = collections.Counter()
    wrong = neg_bad = 0
    for kind in FLAWED + CONTROL + INFO + list(NEGATIVE):
        atts = by[kind]
        c = collections.Counter(a.outcome for a in atts)
        codes = collections.Counter(a.code for a in atts if a.outcome == "refused")
        rungs = collections.Counter(a.edit_env.get("data", {}).get("match") for a in atts
                                    if a.edit_env["ok"])
        pct = 100.0 * c["correct"] / len(atts)
        code_s = ", ".join(f"{k} {v}" for k, v in sorted(codes.items())) or "-"
        rung_s = ", ".join(f"{k} {v}" for k, v in sorted(rungs.items())) or "-"
        print(f"| {kind} | {len(atts)} | {c['correct']} ({pct:.1f}%) | {c['same_columns']} | "
              f"{c['in_region']} | {c['wrong_region']} | "
              f"{c['refused'] + c['unchanged_ok']} ({code_s}) | {rung_s} |")
        wrong += c["wrong_region"]
        if kind in FLAWED:
            flawed.update(c)
            flawed["total"] += len(atts)
        if kind in NEGATIVE:
            neg_bad += sum(1 for a in atts if a.outcome != "refused" or a.code != a.want)
    total = max(flawed["total"], 1)
    pct = 100.0 * flawed["correct"] / total
    loose_pct = 100.0 * (flawed["correct"] + flawed["same_columns"]) / total
    print(f"\nflawed kinds: {flawed['correct']}/{flawed['total']} correct byte for byte "
          f"({pct:.1f}%, target >= 95%), {loose_pct:.1f}% counting same columns; "
          f"wrong region: {wrong} (target 0); negatives not refused with their code: "
          f"{neg_bad} (target 0)")
    enc = collections.Counter(a.read_env.get("data", {}).get("encoding")
                              for a in by["windows_1252"])
    print(f"windows_1252 copies as read decodes them: {dict(enc)}")
    for kind in FLAWED + CONTROL + INFO + list(NEGATIVE):
        bad = [a for a in by[kind] if a.outcome != ("refused" if kind in NEGATIVE else "correct")
               or (kind in NEGATIVE and a.code != a.want)]
        for a in bad[:show]:
            print(f"\n--- {kind} ({getattr(a, 'base', '')}) {a.src.rel} lines {a.a + 1}-{a.b}: "
                  f"{a.outcome} {a.code or ''}")
            print("old_string:", json.dumps(a.old))
            print("new_string:", json.dumps(a.new))
            print("output:", a.edit_env["output"][:1500])
            if a.outcome in ("in_region", "same_columns"):
                want = a.expected.decode(a.enc).split(a.eol)
                got = a.result.decode(a.enc, "replace").split(a.eol)
                for i, (w, g) in enumerate(zip(want, got)):
                    if w != g:
                        print(f"line {i + 1}: expected {w!r}, got {g!r}")
                        break
    return pct >= 95.0 and wrong == 0 and neg_bad == 0


if __name__ == "__main__":
    main()
