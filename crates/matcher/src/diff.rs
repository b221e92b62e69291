//! The unified diff of `data.diff` (SPEC §7): 3 lines of context, headers `a/PATH` `b/PATH`.
//!
//! `similar` hashes every line of both texts before diffing, which on a 10 MB file costs more
//! than the rest of the edit. An edit changes a few regions, so the common head and tail are cut
//! off first (keeping the context lines) and only the middle is diffed; the hunk headers are
//! then shifted back. Where a change could be placed in several ways along a run of equal
//! lines, the placement may differ from a diff of the whole files; the diff is as exact.

use memchr::{memchr_iter, memrchr};

const CONTEXT: usize = 3;

/// Length of the common prefix of `a` and `b`, compared in blocks.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n
        && a[a.len() - i - BLOCK..a.len() - i] == b[b.len() - i - BLOCK..b.len() - i]
    {
        i += BLOCK;
    }
    i + a[..a.len() - i]
        .iter()
        .rev()
        .zip(b[..b.len() - i].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The offset after the `k`-th newline at or after `from`, or the end.
fn after_newlines(s: &[u8], from: usize, k: usize) -> usize {
    if k == 0 {
        return from;
    }
    memchr_iter(b'\n', &s[from..])
        .nth(k - 1)
        .map_or(s.len(), |i| from + i + 1)
}

fn range(start: usize, end: usize, offset: usize) -> String {
    let len = end - start;
    match len {
        1 => format!("{}", start + offset + 1),
        0 => format!("{},0", start + offset),
        _ => format!("{},{len}", start + offset + 1),
    }
}

pub fn unified(old: &str, new: &str, shown: &str) -> String {
    unified_named(old, new, &format!("a/{shown}"), &format!("b/{shown}"))
}

/// As `unified`, with the headers' names given (`/dev/null` for an added or deleted file, two
/// paths for a move).
pub fn unified_named(old: &str, new: &str, a: &str, b: &str) -> String {
    let (ob, nb) = (old.as_bytes(), new.as_bytes());
    let pre = common_prefix(ob, nb);
    let suf = common_suffix(&ob[pre..], &nb[pre..]);
    let head_end = memrchr(b'\n', &ob[..pre]).map_or(0, |i| i + 1);
    let head_lines = memchr_iter(b'\n', &ob[..head_end]).count();
    // the first line start whose newline lies in the common tail: a line start in both texts
    let tail_start = after_newlines(ob, ob.len() - suf, 1).max(head_end);
    // The diff may slide a change along a run of equal lines, past where the bytes first
    // differ; when a change comes closer to a cut edge than the context, cut wider.
    let mut margin = CONTEXT;
    loop {
        let skip = head_lines.saturating_sub(margin);
        let start = if skip == 0 {
            0
        } else {
            memchr_iter(b'\n', ob).nth(skip - 1).map_or(0, |i| i + 1)
        };
        let old_end = after_newlines(ob, tail_start, margin);
        let new_end = nb.len() - (ob.len() - old_end);
        let (o, n) = (&old[start..old_end], &new[start..new_end]);
        let diff = similar::TextDiff::configure()
            .timeout(std::time::Duration::from_secs(2))
            .diff_lines(o, n);
        let ops = diff.ops();
        let changes = ops
            .iter()
            .filter(|op| op.tag() != similar::DiffTag::Equal)
            .collect::<Vec<_>>();
        let (Some(first), Some(last)) = (changes.first(), changes.last()) else {
            return String::new();
        };
        let head_ok = start == 0 || first.old_range().start >= CONTEXT;
        let tail_ok = old_end == ob.len() || diff.old_len() - last.old_range().end >= CONTEXT;
        if !(head_ok && tail_ok) {
            margin *= 4;
            continue;
        }
        return render(&diff, a, b, skip);
    }
}

fn render(diff: &similar::TextDiff<'_, '_, str>, a: &str, b: &str, skip: usize) -> String {
    let mut out = format!("--- {a}\n+++ {b}\n");
    for group in diff.grouped_ops(CONTEXT) {
        let (first, last) = (group[0], group[group.len() - 1]);
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(first.old_range().start, last.old_range().end, skip),
            range(first.new_range().start, last.new_range().end, skip)
        ));
        for op in &group {
            for change in diff.iter_changes(op) {
                out.push_str(&change.tag().to_string());
                out.push_str(change.value());
                if !change.value().ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(old: &str, new: &str) -> String {
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a/f", "b/f")
            .to_string()
    }

    #[test]
    fn same_text_as_a_diff_of_the_whole_files() {
        let base: Vec<String> = (0..40).map(|i| format!("line {i}\n")).collect();
        let cases: Vec<(usize, usize, &str)> = vec![
            (0, 1, "first\n"),
            (39, 40, "last\n"),
            (20, 21, "mid\nmore\n"),
            (10, 13, ""),
            (5, 5, "inserted\n"),
            (2, 3, "line 2 changed\n"),
            (39, 40, "no newline"),
        ];
        for (a, b, repl) in cases {
            let old: String = base.concat();
            let new: String = base[..a].concat() + repl + &base[b..].concat();
            assert_eq!(
                unified(&old, &new, "f"),
                whole(&old, &new),
                "{a}..{b} {repl:?}"
            );
        }
        // two changes far apart, a change within a line, and files without a final newline
        let old = base.concat();
        let new = old
            .replace("line 3\n", "LINE 3\n")
            .replace("line 30\n", "x\n");
        assert_eq!(unified(&old, &new, "f"), whole(&old, &new));
        let new = old.replace("line 17", "line 17 and more");
        assert_eq!(unified(&old, &new, "f"), whole(&old, &new));
        let (old, new) = ("a\nb\nc", "a\nB\nc");
        assert_eq!(unified(old, new, "f"), whole(old, new));
        let (old, new) = ("a\nb\nc", "a\nb\nc\n");
        assert_eq!(unified(old, new, "f"), whole(old, new));
        let (old, new) = ("x", "");
        assert_eq!(unified(old, new, "f"), whole(old, new));
        assert_eq!(unified("same\n", "same\n", "f"), "");
    }

    #[test]
    fn repeated_lines_at_the_edges_still_diff_alike() {
        let old = "a\na\na\na\na\nb\na\na\na\na\n";
        for new in [
            "a\na\na\na\na\na\na\na\na\n",
            "a\na\na\na\na\nb\nb\na\na\na\na\n",
            "a\nb\n",
        ] {
            assert_eq!(unified(old, new, "f"), whole(old, new), "{new:?}");
        }
    }

    /// Applies a unified diff to `old`, checking every hunk's header and context.
    fn patch(old: &str, diff: &str) -> String {
        let old: Vec<&str> = old.split_inclusive('\n').collect();
        let mut out: Vec<String> = Vec::new();
        let mut at = 0; // next old line to copy
        let lines: Vec<&str> = diff.lines().skip(2).collect();
        let mut i = 0;
        while i < lines.len() {
            let h = lines[i].strip_prefix("@@ -").expect("hunk header");
            let start: usize = h.split([',', ' ']).next().unwrap().parse().unwrap();
            let start = if h.split(' ').next().unwrap().ends_with(",0") {
                start
            } else {
                start - 1
            };
            out.extend(old[at..start].iter().map(|s| s.to_string()));
            at = start;
            i += 1;
            let (mut lead, mut trail, mut seen_change) = (0, 0, false);
            while i < lines.len() && !lines[i].starts_with("@@") {
                let (tag, text) = lines[i].split_at(1);
                let nl = if lines.get(i + 1) == Some(&"\\ No newline at end of file") {
                    ""
                } else {
                    "\n"
                };
                let line = format!("{text}{nl}");
                match tag {
                    " " => {
                        assert_eq!(old[at], line);
                        out.push(line);
                        at += 1;
                        if seen_change { trail += 1 } else { lead += 1 }
                    }
                    "-" => {
                        assert_eq!(old[at], line);
                        at += 1;
                        seen_change = true;
                        trail = 0;
                    }
                    "+" => {
                        out.push(line);
                        seen_change = true;
                        trail = 0;
                    }
                    _ => panic!("{}", lines[i]),
                }
                i += if nl.is_empty() { 2 } else { 1 };
            }
            assert!(lead >= CONTEXT.min(start), "leading context");
            assert!(trail >= CONTEXT.min(old.len() - at), "trailing context");
        }
        out.extend(old[at..].iter().map(|s| s.to_string()));
        out.concat()
    }

    #[test]
    fn random_edits_give_a_diff_that_patches_old_into_new() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let words = ["a\n", "b\n", "a\n", "{\n", "}\n", "x = 1;\n", ""];
        for _ in 0..2000 {
            let lines = 1 + below(30);
            let old: String = (0..lines).map(|_| words[below(words.len())]).collect();
            let mut new = old.clone();
            for _ in 0..1 + below(3) {
                let a = below(new.len() + 1);
                let b = (a + below(8)).min(new.len());
                new.replace_range(a..b, words[below(words.len())]);
            }
            let d = unified(&old, &new, "f");
            if old == new {
                assert_eq!(d, "");
            } else {
                assert_eq!(patch(&old, &d), new, "{old:?} -> {new:?}\n{d}");
            }
        }
    }
}
