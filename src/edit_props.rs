//! Property tests of the ladder's forgiveness (SPEC 17.1): random files, random edits typed
//! with every kind of mistake the ladder forgives; every byte outside the edited lines stays,
//! and every line the edit keeps keeps its bytes (trailing whitespace, tabs, curly quotes).

use loopr_matcher::apply::{Spec, plan};
use loopr_matcher::encode::Doc;
use loopr_matcher::lines::fold;

// The fuzz harness's xorshift64*: deterministic, so a failure reproduces.
use crate::fuzz::Rng;

const KINDS: [&str; 9] = [
    "exact",
    "trailing_ws",
    "straight_quotes",
    "tabs_as_spaces",
    "first_line_dedented",
    "line_numbers",
    "over_escaped",
    "alignment_as_spaces",
    "first_dedented_rest_spaces",
];

/// Tabs expanded at stops of `n`, from column 0.
fn expand(line: &str, n: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let next = (col / n + 1) * n;
            out.extend(std::iter::repeat_n(' ', next - col));
            col = next;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('"', "\\\"").replace('\n', "\\n")
}

#[test]
fn property_every_kind_keeps_bytes_outside_the_region_and_kept_lines() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut applied = [0usize; KINDS.len()];
    let mut rungs = std::collections::BTreeSet::new();
    for case in 0..1200 {
        let kind = case % KINDS.len();
        let crlf = rng.below(3) == 0;
        let eol = if crlf { "\r\n" } else { "\n" };
        let count = 4 + rng.below(10);
        let tab_indented = kind == 3 || kind == 8 || rng.below(2) == 0;
        let mut lines: Vec<String> = Vec::new();
        for i in 0..count {
            let depth = rng.below(3);
            let indent = if tab_indented {
                "\t".repeat(depth)
            } else {
                "    ".repeat(depth)
            };
            let body = match rng.below(4) {
                0 => format!("let w{i} = \u{201C}s{i}\u{201D};"),
                1 if kind != 4 => format!("#define W{i}\t{i}"),
                2 => format!("call(w{i}, \u{2018}x\u{2019}) \u{2014} note"),
                _ => format!("w{i}(a, b);"),
            };
            let trail = ["", " ", "\t", "  "][rng.below(4)];
            lines.push(format!("{indent}{body}{trail}"));
        }
        let last_ends = rng.below(4) != 0;
        let text: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == count && !last_ends {
                    l.clone()
                } else {
                    format!("{l}{eol}")
                }
            })
            .collect();
        let a = rng.below(count - 1);
        let b = a + 1 + rng.below((count - a - 1).min(4));
        let changed = a + rng.below(b - a + 1);
        // what the model sees (read shows lines without endings) and means: one line changed
        let seen: Vec<String> = lines[a..=b].to_vec();
        let mut meant = seen.clone();
        meant[changed - a] = format!("{} // changed {case}", meant[changed - a].trim_end());
        let n = if rng.below(2) == 0 { 4 } else { 8 };
        let typed = |ls: &[String]| -> Vec<String> {
            ls.iter()
                .enumerate()
                .map(|(j, l)| match KINDS[kind] {
                    "trailing_ws" => l.trim_end().to_string(),
                    "straight_quotes" => fold(l).into_owned(),
                    "tabs_as_spaces" => {
                        let ws = l.len() - l.trim_start_matches('\t').len();
                        format!("{}{}", " ".repeat(ws * n), &l[ws..])
                    }
                    "first_line_dedented" if j == 0 => l.trim_start().trim_end().to_string(),
                    "first_line_dedented" => l.trim_end().to_string(),
                    "line_numbers" => format!("{:>6}\t{l}", a + j + 1),
                    "alignment_as_spaces" => expand(l, 8),
                    "first_dedented_rest_spaces" if j == 0 => l.trim_start().to_string(),
                    "first_dedented_rest_spaces" => {
                        let ws = l.len() - l.trim_start_matches('\t').len();
                        format!("{}{}", " ".repeat(ws * n), &l[ws..])
                    }
                    _ => l.clone(),
                })
                .collect()
        };
        let mut old = typed(&seen).join("\n");
        let mut new = typed(&meant).join("\n");
        if KINDS[kind] == "over_escaped" {
            old = escape(&old);
            new = escape(&new);
        }
        let doc = Doc::decode(text.as_bytes());
        let out = match plan(&doc, &[Spec::text(&old, &new, false)]) {
            Ok(o) => o,
            Err(e) => panic!(
                "case {case} ({}): {e:?}\ntext {text:?}\nold {old:?}\nnew {new:?}",
                KINDS[kind]
            ),
        };
        let rung = out.applied[0].rung.name();
        match KINDS[kind] {
            "line_numbers" | "over_escaped" => assert_eq!(
                rung,
                KINDS[kind].replace("over_escaped", "unescaped"),
                "case {case}"
            ),
            _ => {}
        }
        rungs.insert(format!("{}:{rung}", KINDS[kind]));
        let got = out.text();
        // bytes before the region's first line and after its last line's content are kept
        let start_a: usize = lines[..a].iter().map(|l| l.len() + eol.len()).sum();
        let end_b: usize = start_a
            + lines[a..=b]
                .iter()
                .map(|l| l.len() + eol.len())
                .sum::<usize>()
            - eol.len();
        assert!(
            got.starts_with(&text[..start_a]),
            "case {case} ({}): before the region\n{text:?}\n{got:?}",
            KINDS[kind]
        );
        assert!(
            got.ends_with(&text[end_b..]),
            "case {case} ({}): after the region\n{text:?}\n{got:?}",
            KINDS[kind]
        );
        // every line of the region but the changed one keeps its bytes, the changed one holds
        // the change
        let got_lines: Vec<&str> = got
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        for i in a..=b {
            if i == changed {
                assert!(
                    got_lines[i].contains(&format!("// changed {case}")),
                    "case {case} ({}): line {i}\n{got:?}",
                    KINDS[kind]
                );
            } else {
                assert_eq!(
                    got_lines[i], lines[i],
                    "case {case} ({}): kept line {i}\ntext {text:?}\nold {old:?}\ngot {got:?}",
                    KINDS[kind]
                );
            }
        }
        applied[kind] += 1;
    }
    assert!(applied.iter().all(|&c| c >= 100), "{applied:?}");
    // every forgiving rung was reached
    for r in [
        "trailing_whitespace",
        "typography",
        "indentation",
        "line_numbers",
        "unescaped",
    ] {
        assert!(
            rungs.iter().any(|k| k.ends_with(r)),
            "{r} never used: {rungs:?}"
        );
    }
    println!("{rungs:?}");
}

/// The edit ladder under fuzzing (SPEC 23.3): file bytes, old_string and new_string from one
/// input split at NUL bytes; never a panic, and a planned edit never changes the bytes before
/// the first line it touches.
#[test]
fn fuzz_edit_ladder() {
    crate::fuzz::fuzz("edit_ladder", |bytes| {
        let mut parts = bytes.splitn(3, |&b| b == 0);
        let file = parts.next().unwrap_or_default();
        let old = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        let new = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        if old.is_empty() {
            return;
        }
        let doc = Doc::decode(file);
        let spec = Spec {
            old: &old,
            new: &new,
            replace_all: false,
            expected: None,
            hunk: None,
        };
        let _ = plan(&doc, &[spec]);
    });
}
