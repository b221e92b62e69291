//! When nothing matches: the region of the file most like old_string, and what differs
//! (SPEC §7, 16.5).
//!
//! Scoring every window with a character diff would be quadratic on a large file, so the
//! search has two stages. First every line is scored by the old_string words (and whole
//! lines) it contains, each weighted by how rare it is in the file, and windows of
//! old_string's line count are ranked by the sum — one pass, linear in the file. Then a few of
//! the best windows, and their neighbours one line longer, shorter or shifted, are compared
//! with a character diff, and the most similar wins.

use super::indent;
use super::lines::{LineIndex, count_eols, fold, fold_char, is_blank, leading_ws, split_lines};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

/// The nearest region: whole lines of the file.
#[derive(Debug, Clone)]
pub struct Closest {
    /// 0-based lines, inclusive.
    pub first: usize,
    pub last: usize,
    /// The file's own text of those lines, without the last line's ending.
    pub text: String,
    /// 0–1, two decimals.
    pub similarity: f64,
}

/// Windows compared with a character diff.
const CANDIDATES: usize = 12;
/// Of those, how many also get their neighbours tried.
const REFINED: usize = 3;
/// The character diffs together stop here and keep the best found so far.
const BUDGET: Duration = Duration::from_millis(300);

fn hash_of(s: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(s.as_bytes())
}

/// Keys are hashes already: the map uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Keys = HashMap<u64, usize, BuildHasherDefault<KeyHasher>>;

/// Calls `f` with each word (a run of letters, digits and `_`) of `s`. ASCII lines, the bulk
/// of source code, are scanned as bytes.
fn for_words(s: &str, mut f: impl FnMut(&str)) {
    if !s.is_ascii() {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .for_each(f);
        return;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            f(&s[start..i]);
        } else {
            i += 1;
        }
    }
}

/// A line reduced to what survives every rung and more: folded, whitespace runs dropped.
fn squeeze(s: &str) -> String {
    fold(s).split_whitespace().collect()
}

/// A whole-line key: the hash (FNV-1a) of `squeeze(s)`, computed without building it, kept
/// apart from word keys. `None` for a blank line.
fn line_key(s: &str) -> Option<u64> {
    const SALT: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    if s.is_ascii() {
        let mut any = false;
        for &b in s
            .as_bytes()
            .iter()
            .filter(|b| !b.is_ascii_whitespace() && **b != 0x0B)
        {
            any = true;
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        return any.then_some(h ^ SALT);
    }
    let mut any = false;
    let mut feed = |c: char| {
        if c.is_whitespace() {
            return;
        }
        any = true;
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for c in s.chars() {
        match fold_char(c) {
            Some(f) => f.chars().for_each(&mut feed),
            None => feed(c),
        }
    }
    any.then_some(h ^ SALT)
}

pub fn find(text: &str, idx: &LineIndex, old: &str) -> Option<Closest> {
    let n = idx.count();
    let (old_lines, _) = split_lines(old);
    if n == 0 {
        return None;
    }
    let k = old_lines.len().min(n);

    // Stage 1: rarity-weighted overlap, per line, summed per window.
    let mut ids = Keys::default();
    for l in &old_lines {
        for_words(l, |w| {
            let next = ids.len();
            ids.entry(hash_of(w)).or_insert(next);
        });
        if let Some(key) = line_key(l) {
            let next = ids.len();
            ids.entry(key).or_insert(next);
        }
    }
    let mut df = vec![0u32; ids.len()];
    let mut seen = vec![usize::MAX; ids.len()];
    let mut hits: Vec<u32> = Vec::new();
    let mut line_end = Vec::with_capacity(n);
    for p in 0..n {
        let content = idx.content(text, p);
        let mut hit = |key: u64| {
            if let Some(&id) = ids.get(&key)
                && seen[id] != p
            {
                seen[id] = p;
                df[id] += 1;
                hits.push(id as u32);
            }
        };
        for_words(content, |w| hit(hash_of(w)));
        if let Some(key) = line_key(content) {
            hit(key);
        }
        line_end.push(hits.len());
    }
    let weight: Vec<f64> = df
        .iter()
        .map(|&d| ((n as f64 + 1.0) / (d as f64 + 1.0)).ln() + 1.0)
        .collect();
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0f64);
    let mut from = 0;
    for (p, &end) in line_end.iter().enumerate() {
        let s: f64 = hits[from..end].iter().map(|&id| weight[id as usize]).sum();
        from = end;
        prefix.push(prefix[p] + s);
    }
    let score = |i: usize| prefix[i + k] - prefix[i];
    let mut ranked: Vec<usize> = (0..=n - k).filter(|&i| score(i) > 0.0).collect();
    if ranked.is_empty() {
        return None;
    }
    let by_score = |a: &usize, b: &usize| score(*b).total_cmp(&score(*a)).then(a.cmp(b));
    let keep = ranked.len().min(64 * CANDIDATES);
    if keep < ranked.len() {
        ranked.select_nth_unstable_by(keep - 1, by_score);
        ranked.truncate(keep);
    }
    ranked.sort_by(by_score);
    // Windows overlapping by more than half are one candidate.
    let spacing = (k / 2).max(1);
    let mut picked: Vec<usize> = Vec::new();
    for i in ranked {
        if picked.iter().all(|&j| i.abs_diff(j) >= spacing) {
            picked.push(i);
            if picked.len() == CANDIDATES {
                break;
            }
        }
    }

    // Stage 2: character similarity of the best windows, then of their neighbours.
    let want = old
        .strip_suffix('\n')
        .map(|s| s.strip_suffix('\r').unwrap_or(s))
        .unwrap_or(old)
        .replace("\r\n", "\n");
    let deadline = Instant::now() + BUDGET;
    let region = |first: usize, len: usize| {
        let last = first + len - 1;
        &text[idx.start(first)..idx.content_end(text, last)]
    };
    let sim = |first: usize, len: usize| -> f64 {
        let r = region(first, len).replace("\r\n", "\n");
        let diff = similar::TextDiff::configure()
            .deadline(deadline)
            .diff_chars(want.as_str(), r.as_str());
        diff.ratio() as f64
    };
    // Candidates in stage-1 order; one whose character counts alone cannot beat the best so
    // far (difflib's quick_ratio, an upper bound of the diff ratio) is not diffed.
    let hist = Histogram::of(&want);
    let mut best = (-1.0f64, picked[0], k);
    let mut scored: Vec<(f64, usize, usize)> = Vec::new();
    for &i in &picked {
        if hist.quick_ratio(region(i, k)) <= best.0 {
            continue;
        }
        let s = sim(i, k);
        scored.push((s, i, k));
        if s > best.0 {
            best = (s, i, k);
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i, len) in scored.iter().take(REFINED) {
        let tries = [
            (i.checked_sub(1), len),
            (Some(i + 1), len),
            (Some(i), len + 1),
            (Some(i), len.saturating_sub(1)),
        ];
        for (first, len) in tries {
            let Some(first) = first else { continue };
            if len == 0 || first + len > n || Instant::now() >= deadline {
                continue;
            }
            if hist.quick_ratio(region(first, len)) <= best.0 + 1e-9 {
                continue;
            }
            let s = sim(first, len);
            if s > best.0 + 1e-9 {
                best = (s, first, len);
            }
        }
    }
    let (s, first, len) = best;
    let text = region(first, len);
    // two decimals, but a region that differs never shows as 1.00
    let same = want == text.replace("\r\n", "\n");
    let rounded = (s * 100.0).round() / 100.0;
    Some(Closest {
        first,
        last: first + len - 1,
        text: text.to_string(),
        similarity: if same { 1.0 } else { rounded.min(0.99) },
    })
}

/// Character counts of a text, for an upper bound of the similarity of another.
struct Histogram {
    ascii: [u32; 128],
    other: HashMap<char, u32>,
    len: usize,
}

impl Histogram {
    fn of(s: &str) -> Histogram {
        let mut h = Histogram {
            ascii: [0; 128],
            other: HashMap::new(),
            len: 0,
        };
        for c in s.chars() {
            h.len += 1;
            match h.ascii.get_mut(c as usize) {
                Some(n) => *n += 1,
                None => *h.other.entry(c).or_default() += 1,
            }
        }
        h
    }

    /// 2 × (characters in common, as multisets) / (total length): no diff can match more.
    fn quick_ratio(&self, region: &str) -> f64 {
        let mut left = self.ascii;
        let mut other = self.other.clone();
        let (mut common, mut len) = (0usize, 0usize);
        // the ratio is taken on text with CRLF as LF: a CR before LF does not count
        let bytes = region.as_bytes();
        for (i, c) in region.char_indices() {
            if c == '\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            len += 1;
            let slot = match left.get_mut(c as usize) {
                Some(n) => n,
                None => other.entry(c).or_default(),
            };
            if *slot > 0 {
                *slot -= 1;
                common += 1;
            }
        }
        if self.len + len == 0 {
            return 1.0;
        }
        2.0 * common as f64 / (self.len + len) as f64
    }
}

/// A kind of difference between old_string and the closest region, in the order the hint
/// names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diff {
    TabsVsSpaces,
    Whitespace,
    LineEndings,
    Typography,
    Text,
}

/// What differs between the region's text and old_string, and where the text first differs:
/// `(0-based line in the region, the file's line, old_string's line)`.
pub fn differences(region: &str, old: &str) -> (Vec<Diff>, Option<(usize, String, String)>) {
    let mut kinds = Vec::new();
    let old_body = old
        .strip_suffix('\n')
        .map(|s| s.strip_suffix('\r').unwrap_or(s))
        .unwrap_or(old);
    let (r_lines, _) = split_lines(region);
    let (o_lines, _) = split_lines(old_body);
    let pairs = || r_lines.iter().zip(&o_lines);

    // Trailing whitespace is forgiven by rung 2 and a consistent indentation difference by
    // rung 4, so only what they could not forgive is named: indentation that follows no one
    // mapping, and whitespace inside the text.
    let indents: Vec<(&str, &str)> = pairs()
        .filter(|(r, o)| !is_blank(r) && !is_blank(o))
        .map(|(r, o)| (leading_ws(o), leading_ws(r)))
        .collect();
    if indents.iter().any(|(o, r)| o != r) && indent::kind_of(&indents, None).is_none() {
        let mixed = indents.iter().any(|(o, r)| {
            (o.contains('\t') && r.contains(' ')) || (r.contains('\t') && o.contains(' '))
        });
        kinds.push(if mixed {
            Diff::TabsVsSpaces
        } else {
            Diff::Whitespace
        });
    }
    let inner = pairs().any(|(r, o)| squeeze(r) == squeeze(o) && fold(r.trim()) != fold(o.trim()));
    if inner && !kinds.contains(&Diff::Whitespace) {
        kinds.push(Diff::Whitespace);
    }
    let (rc, rl) = count_eols(region);
    let (oc, ol) = count_eols(old_body);
    let lone_cr = |s: &str| s.replace("\r\n", "").contains('\r');
    if (rc > 0 && oc == 0 && ol > 0)
        || (oc > 0 && rc == 0 && rl > 0)
        || lone_cr(region) != lone_cr(old_body)
    {
        kinds.push(Diff::LineEndings);
    }
    let typo = |s: &str| -> Vec<char> {
        let mut v: Vec<char> = s.chars().filter(|&c| fold_char(c).is_some()).collect();
        v.sort_unstable();
        v
    };
    if typo(region) != typo(old_body) {
        kinds.push(Diff::Typography);
    }
    let first_text = pairs()
        .enumerate()
        .find(|(_, (r, o))| squeeze(r) != squeeze(o))
        .map(|(j, (r, o))| (j, r.trim().to_string(), o.trim().to_string()));
    if first_text.is_some() || r_lines.len() != o_lines.len() {
        kinds.push(Diff::Text);
    }
    (kinds, first_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closest(text: &str, old: &str) -> Option<Closest> {
        find(text, &LineIndex::new(text), old)
    }

    #[test]
    fn finds_the_region_with_a_typo() {
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&format!("fn f{i}() {{\n    call_{i}(a, b);\n}}\n"));
        }
        let c = closest(&text, "fn f57() {\n    call_57(a, c);\n}\n").unwrap();
        assert_eq!((c.first, c.last), (171, 173));
        assert_eq!(c.text, "fn f57() {\n    call_57(a, b);\n}");
        assert!(c.similarity > 0.9 && c.similarity < 1.0, "{}", c.similarity);
        // one character off in a long region still shows as less than 1
        let long: String = (0..300).map(|i| format!("statement_{i}();\n")).collect();
        let old = long.replace("statement_150()", "statement_150(x)");
        let c = closest(&long, &old).unwrap();
        assert_eq!((c.first, c.last, c.similarity), (0, 299, 0.99));
        assert_eq!(c.similarity, (c.similarity * 100.0).round() / 100.0);
    }

    #[test]
    fn a_missing_line_widens_the_window() {
        let text = "a\nb\nalpha();\nbeta();\ngamma();\nz\n";
        let c = closest(text, "alpha();\ngamma();").unwrap();
        assert_eq!((c.first, c.last), (2, 4));
    }

    #[test]
    fn crlf_region_text_is_the_files_own() {
        let text = "x\r\nhello world\r\nsecond line\r\ny\r\n";
        let c = closest(text, "hello wurld\nsecond line\n").unwrap();
        assert_eq!(c.text, "hello world\r\nsecond line");
        assert!(c.similarity >= 0.9);
    }

    #[test]
    fn words_are_runs_of_letters_digits_and_underscores() {
        let mut w = Vec::new();
        for_words("let x_1 = f(y2);", |s| w.push(s.to_string()));
        for_words("über-größe", |s| w.push(s.to_string()));
        assert_eq!(w, ["let", "x_1", "f", "y2", "über", "größe"]);
    }

    #[test]
    fn line_keys_ignore_whitespace_and_typography() {
        assert_eq!(line_key(" a b\t"), line_key("ab"), "the ASCII path");
        assert_eq!(line_key("  a = \u{201C}b\u{201D};"), line_key("a=\"b\";\t"));
        assert_ne!(line_key("a = b;"), line_key("a = c;"));
        assert_eq!(line_key(" \t\u{00A0}"), None);
    }

    #[test]
    fn quick_ratio_bounds_the_diff_ratio() {
        let h = Histogram::of("abcd");
        assert_eq!(h.quick_ratio("bcde"), 0.75);
        assert_eq!(h.quick_ratio("dcba"), 1.0); // counts only: an upper bound
        assert_eq!(Histogram::of("a\nb").quick_ratio("a\r\nb"), 1.0);
        assert_eq!(Histogram::of("é日").quick_ratio("日x"), 0.5);
    }

    #[test]
    fn nothing_in_common_is_none() {
        assert!(closest("abc\ndef\n", "xyz").is_none());
        assert!(closest("", "xyz").is_none());
    }

    #[test]
    fn differences_are_named() {
        // a consistent mapping would have matched: only an inconsistent one is named
        let (d, _) = differences("\tif x {\n\t\ty();", "    if x {\n     y();");
        assert_eq!(d, [Diff::TabsVsSpaces]);
        let (d, _) = differences("  a\n    b", "a\n b");
        assert_eq!(d, [Diff::Whitespace]);
        let (d, _) = differences("\tlet x = 2;", "let y = 1;");
        assert_eq!(d, [Diff::Text]);
        let (d, _) = differences("a  =  1;", "a = 1;");
        assert_eq!(d, [Diff::Whitespace]);
        let (d, _) = differences("say(\u{201C}hi\u{201D})", "say(\"hi\")");
        assert_eq!(d, [Diff::Typography]);
        let (d, first) = differences("a\r\nb = 1;", "a\nb = 2;");
        assert_eq!(d, [Diff::LineEndings, Diff::Text]);
        assert_eq!(first, Some((1, "b = 1;".into(), "b = 2;".into())));
        let (d, _) = differences("a\rb", "a\nb");
        assert!(d.contains(&Diff::LineEndings), "{d:?}");
    }
}
