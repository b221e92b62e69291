//! When nothing matches: the region of the file most like old_string, and what differs
//! (SPEC §7, 16.5).
//!
//! Scoring every window with a character diff would be quadratic on a large file, so the
//! search has two stages. First every line is scored by the old_string words (and whole
//! lines) it contains, each weighted by how rare it is in the file, and windows of
//! old_string's line count are ranked by the sum — one pass, linear in the file. Then a few of
//! the best windows, and their neighbours one line longer, shorter or shifted, are compared
//! with a character diff, and the most similar wins.

use super::indent::Mapping;
use super::lines::{LineIndex, count_eols, fold, fold_char, is_blank, leading_ws, split_lines};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
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
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// A line reduced to what survives every rung and more: folded, whitespace runs dropped.
fn squeeze(s: &str) -> String {
    fold(s).split_whitespace().collect()
}

/// A whole-line key, kept apart from word keys.
fn line_key(s: &str) -> Option<u64> {
    let sq = squeeze(s);
    (!sq.is_empty()).then(|| hash_of(&sq) ^ 0x9E37_79B9_7F4A_7C15)
}

pub fn find(text: &str, idx: &LineIndex, old: &str) -> Option<Closest> {
    let n = idx.count();
    let (old_lines, _) = split_lines(old);
    if n == 0 {
        return None;
    }
    let k = old_lines.len().min(n);

    // Stage 1: rarity-weighted overlap, per line, summed per window.
    let mut ids: HashMap<u64, usize> = HashMap::new();
    for l in &old_lines {
        for key in words(l).map(hash_of).chain(line_key(l)) {
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
        for key in words(content).map(hash_of).chain(line_key(content)) {
            if let Some(&id) = ids.get(&key)
                && seen[id] != p
            {
                seen[id] = p;
                df[id] += 1;
                hits.push(id as u32);
            }
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
    let mut scored: Vec<(f64, usize, usize)> = picked.iter().map(|&i| (sim(i, k), i, k)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut best = scored[0];
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
            let s = sim(first, len);
            if s > best.0 + 1e-9 {
                best = (s, first, len);
            }
        }
    }
    let (s, first, len) = best;
    Some(Closest {
        first,
        last: first + len - 1,
        text: region(first, len).to_string(),
        similarity: (s * 100.0).round() / 100.0,
    })
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
    if indents.iter().any(|(o, r)| o != r) && Mapping::infer(&indents, false).is_none() {
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
