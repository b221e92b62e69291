//! Rungs 5 and 6 (SPEC 17.1, 24.1): old_string carrying what a model copied along with the
//! text — read's line-number prefixes — or escaped once too often by a JSON-in-JSON mistake.
//! Each gives the ladder a cleaned old_string (and new_string) to climb again; the caller keeps
//! only what the cleaning proves (for prefixes, the numbers must be the lines matched).

/// The line number of read's prefix at the start of `line` (spaces, digits, a tab — or the
/// arrow Claude Code's Read puts there), and the rest.
fn prefix(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start_matches(' ');
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let rest = &t[digits..];
    let rest = rest
        .strip_prefix('\t')
        .or_else(|| rest.strip_prefix('\u{2192}'))?;
    Some((t[..digits].parse().ok()?, rest))
}

/// When every line of `old` starts with read's prefix and the numbers run on by one: the first
/// number, and old and new with the prefixes dropped (from every line of new that has one).
pub fn strip_numbers(old: &str, new: &str) -> Option<(usize, String, String)> {
    let body = old.strip_suffix('\n').unwrap_or(old);
    let mut first = None;
    let mut stripped = String::with_capacity(old.len());
    for (i, line) in body.split('\n').enumerate() {
        let (n, rest) = prefix(line)?;
        let start = *first.get_or_insert(n);
        if n != start + i {
            return None;
        }
        stripped.push_str(rest);
        stripped.push('\n');
    }
    if !old.ends_with('\n') {
        stripped.pop();
    }
    let new: String = new
        .split_inclusive('\n')
        .map(|l| prefix(l).map_or(l, |(_, rest)| rest))
        .collect();
    Some((first?, stripped, new))
}

/// Whether old_string looks escaped once too often (24.1): `\"`, or the two characters `\n`
/// with no real newline.
pub fn over_escaped(old: &str) -> bool {
    old.contains("\\\"") || (old.contains("\\n") && !old.contains('\n'))
}

/// `s` unescaped once as a JSON string body: `\n`, `\t`, `\"`, `\\`, `\'` (24.1), and the rest
/// of JSON's escapes (`\r`, `\f`, `\b`, `\/`, `\uXXXX`); any other backslash stays.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('b') => out.push('\u{8}'),
            Some(q @ ('"' | '\'' | '\\' | '/')) => out.push(q),
            Some('u') => {
                // \uXXXX, as JSON writes a control character
                let hex: String = chars.clone().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(c) if hex.len() == 4 => {
                        out.push(c);
                        for _ in 0..4 {
                            chars.next();
                        }
                    }
                    _ => out.push_str("\\u"),
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_prefixes_are_stripped_when_every_line_has_one_in_sequence() {
        let (n, old, new) = strip_numbers(
            "    12\tfn a() {\n    13\t    x();\n    14\t}\n",
            "    12\tfn a() {\n    y();\n    14\t}\n",
        )
        .unwrap();
        assert_eq!(n, 12);
        assert_eq!(old, "fn a() {\n    x();\n}\n");
        assert_eq!(new, "fn a() {\n    y();\n}\n");
        // Claude Code's arrow, and a blank line shown as its prefix alone
        let (n, old, _) = strip_numbers("     7\u{2192}a\n     8\u{2192}", "x").unwrap();
        assert_eq!((n, old.as_str()), (7, "a\n"));
        assert!(
            strip_numbers("    12\ta\n    14\tb", "x").is_none(),
            "not consecutive"
        );
        assert!(
            strip_numbers("    12\ta\nb", "x").is_none(),
            "a line without one"
        );
        assert!(strip_numbers("12 a", "x").is_none());
    }

    #[test]
    fn unescaping_once() {
        assert!(over_escaped("if (x) {\\n  y();\\n}"));
        assert!(over_escaped("say(\\\"hi\\\")\nmore"));
        assert!(!over_escaped("a\\nb\nc"), "a real newline: \\n is meant");
        assert_eq!(
            unescape("a\\n\\tb \\\"q\\\" \\\\ \\' \\d"),
            "a\n\tb \"q\" \\ ' \\d"
        );
        assert_eq!(unescape("\\f\\u0041\\/\\uZZ"), "\u{c}A/\\uZZ");
    }
}
