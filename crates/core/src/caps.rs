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

/// The agent that passes our results on to its model, and how much of one it keeps (SPEC
/// 31.1). Codex keeps about 48,000 characters of an MCP result for its current models (12,000
/// for others) and Gemini CLI the first 8,000 and the last 32,000, each cutting the middle and
/// with it our paging line: a result sized under what they keep is never cut by them. Claude
/// Code keeps what `maxResultSizeChars` declares, so it needs no lower cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Client {
    /// Its name as `--client` takes it.
    pub name: &'static str,
    /// The most characters of one result it passes on whole; None: our own caps fit.
    pub max_chars: Option<usize>,
}

/// The clients `--client` / `LOOPR_CLIENT` name, and what `clientInfo` is matched against.
pub const CLIENTS: &[Client] = &[
    Client {
        name: "claude-code",
        max_chars: None,
    },
    Client {
        name: "codex",
        max_chars: Some(40_000),
    },
    Client {
        name: "gemini-cli",
        max_chars: Some(36_000),
    },
];

impl Client {
    /// A client by the name `--client` was given (`claude` and `gemini` too).
    pub fn named(name: &str) -> Option<Client> {
        let name = match name {
            "claude" => "claude-code",
            "gemini" => "gemini-cli",
            n => n,
        };
        CLIENTS.iter().copied().find(|c| c.name == name)
    }

    /// `--client NAME` names no client we know: the error lists those we do.
    pub fn unknown(name: &str) -> crate::error::ToolError {
        let known: Vec<&str> = CLIENTS.iter().map(|c| c.name).collect();
        crate::error::ToolError::usage(format!(
            "client {name:?} is not one loopr-tool knows: use {}",
            known.join(", ")
        ))
        .with("field", "client")
        .hint("Without --client, `mcp` learns the client from initialize's clientInfo; the catalog's [client] max_result_chars sets the size for any client.")
    }

    /// The client an MCP `clientInfo.name` names (`codex-mcp-client`, `gemini-cli-mcp-client`,
    /// `claude-code`): by the agent's word in it; None for any other client.
    pub fn from_info(name: &str) -> Option<Client> {
        let name = name.to_ascii_lowercase();
        let word = ["codex", "gemini", "claude"]
            .into_iter()
            .find(|w| name.contains(w))?;
        Client::named(word)
    }
}

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
