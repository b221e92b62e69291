//! Output caps (SPEC §4, 16.1): each tool's `output` is cut after the last whole line that fits,
//! and a trailer line says what was cut and how to get the rest.
//!
//! Caps count Unicode scalar values of the whole output, trailer included.

pub const READ: usize = 100_000;
pub const GREP: usize = 20_000;
pub const GLOB: usize = 30_000;
pub const TREE: usize = 30_000;
pub const RUN: usize = 30_000;
/// fetch's `output` is `max_length` characters (default 50,000, at most 1,000,000); what MCP
/// clients are told they may receive is capped at 500,000 (SPEC 24.5).
pub const FETCH_MAX: usize = 500_000;
/// todo, session and every tool without a cap of its own.
pub const OTHER: usize = 30_000;

/// Joins as many of `lines` (each without its `\n`) as fit in `cap` characters together with
/// the trailer. `trailer(k)` is the last line to print when the first `k` lines are shown, or
/// `None` when nothing needs saying. Returns the text and `k`.
pub fn fit(
    lines: &[String],
    cap: usize,
    trailer: impl Fn(usize) -> Option<String>,
) -> (String, usize) {
    let mut used = 0usize;
    let mut k = 0usize;
    for line in lines {
        let len = line.chars().count() + 1;
        let t = trailer(k + 1).map_or(0, |t| t.chars().count() + 1);
        if used + len + t > cap {
            break;
        }
        used += len;
        k += 1;
    }
    let mut out = String::with_capacity(used + 100);
    for line in &lines[..k] {
        out.push_str(line);
        out.push('\n');
    }
    if let Some(t) = trailer(k) {
        out.push_str(&t);
        out.push('\n');
    }
    (out, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_after_the_last_whole_line_and_counts_the_trailer() {
        let lines: Vec<String> = (0..10).map(|i| format!("line{i}")).collect();
        let trailer = |k: usize| (k < 10).then(|| format!("({k} of 10)"));
        let (out, k) = fit(&lines, 40, trailer);
        assert!(out.chars().count() <= 40, "{out:?}");
        assert_eq!(k, 5); // five lines of 6 chars and a trailer of 10 make exactly 40
        assert!(out.ends_with("(5 of 10)\n"));
        let (out, k) = fit(&lines, 1000, trailer);
        assert_eq!(k, 10);
        assert!(!out.contains('('));
    }

    #[test]
    fn counts_characters_not_bytes() {
        let lines = vec!["ééééé".to_string(); 3]; // 5 chars, 10 bytes
        let (_, k) = fit(&lines, 18, |_| None);
        assert_eq!(k, 3);
    }
}
