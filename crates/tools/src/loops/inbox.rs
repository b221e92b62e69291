//! `inbox` (SPEC 20.2, 24.4): what other loops shared with this session or asked it, and the
//! way to answer a question.

use super::store::{self, Kind, Message, Which};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

pub struct Inbox;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
// No doc comments on the variants (see todo): the schema keeps a plain `enum`.
pub enum Action {
    #[default]
    List,
    All,
    Reply,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `list` (default: unread messages), `all` (every kept message), `reply` (id and text).
    #[schemars(extend("default" = "list"))]
    pub action: Option<Action>,
    /// reply: the id of the query to answer.
    #[schemars(range(min = 1))]
    pub id: Option<u64>,
    /// reply: the answer.
    pub text: Option<String>,
}

impl Tool for Inbox {
    type Input = Input;
    const NAME: &'static str = "inbox";
    const SUMMARY: &'static str = "Read what other loops shared or asked; answer their questions";
    const DESCRIPTION: &'static str = "This session's messages from other loops (sessions of this root), oldest first: shares (data_type, data) and queries (question). \
`list` (default) shows the unread ones and marks them read; `all` shows every kept message, read or not, and marks nothing. \
A query's sender is waiting: answer it with action `reply`, its id and text (an expired query, whose sender stopped waiting, cannot be answered). \
data.messages: [{id, from, at, kind: share|query, data_type?, data?, question?, expired?, reply?, read}].";
    const POSITIONALS: &'static [&'static str] = &["action"];
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str = "  loopr-tool inbox\n  echo '{\"action\": \"reply\", \"id\": 3, \"text\": \"The lexer spec\"}' | loopr-tool inbox";

    fn read_only(input: &Input) -> bool {
        input.action.unwrap_or_default() != Action::Reply
    }

    fn effect(input: &Input) -> Effect {
        // A reply is a message like a share: it holds nothing back (a query may be waiting on
        // the very call that answers it).
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::Talks
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let action = input.action.unwrap_or_default();
        if action != Action::Reply {
            for (field, given) in [("id", input.id.is_some()), ("text", input.text.is_some())] {
                if given {
                    return Err(ToolError::invalid(
                        field,
                        format!("inbox: {field} is only for action reply"),
                    ));
                }
            }
            let which = if action == Action::All {
                Which::All
            } else {
                Which::Unread
            };
            return Ok(show(ctx, which, store::list(ctx, &ctx.session, which)?));
        }
        let Some(id) = input.id else {
            return Err(ToolError::invalid(
                "id",
                "inbox: action reply needs id, the query's id",
            ));
        };
        let Some(text) = input.text else {
            return Err(ToolError::invalid(
                "text",
                "inbox: action reply needs text, the answer",
            ));
        };
        let query = store::reply(ctx, &ctx.session, id, &text)?;
        Ok(Success::new(
            format!("Answered query {id} from {}\n", query.from),
            json!({"id": id, "to": query.from}),
        ))
    }
}

fn show(ctx: &Ctx, which: Which, messages: Vec<Message>) -> Success {
    let mut lines = vec![];
    if messages.is_empty() {
        lines.push(match which {
            Which::Unread => format!("No unread messages in session {}'s inbox", ctx.session),
            Which::All => format!("Session {}'s inbox is empty", ctx.session),
        });
    } else {
        let unread = messages.iter().filter(|m| !m.read).count();
        lines.push(format!(
            "{} message(s), {unread} new, oldest first:",
            messages.len()
        ));
    }
    let mut open = vec![];
    for m in &messages {
        let new = if m.read { "" } else { " [new]" };
        match m.kind {
            Kind::Share => {
                lines.push(format!(
                    "#{} share from {} at {}{new}: {}",
                    m.id,
                    m.from,
                    m.at,
                    m.data_type.as_deref().unwrap_or("")
                ));
                lines.push(format!(
                    "  {}",
                    short_block(m.data.as_ref().unwrap_or(&serde_json::Value::Null))
                ));
            }
            Kind::Query => {
                let state = match (&m.reply, m.expired) {
                    (Some(_), _) => " [answered]",
                    (None, Some(true)) => " [expired]",
                    _ => {
                        open.push(m.id);
                        ""
                    }
                };
                lines.push(format!(
                    "#{} query from {} at {}{new}{state}: {}",
                    m.id,
                    m.from,
                    m.at,
                    super::render::one_line(m.question.as_deref().unwrap_or(""))
                ));
                if let Some(r) = &m.reply {
                    lines.push(format!("  answer: {}", super::render::one_line(r)));
                }
            }
        }
    }
    if !open.is_empty() {
        let ids: Vec<String> = open.iter().map(u64::to_string).collect();
        lines.push(format!(
            "Waiting for an answer: {} (inbox action reply with id and text)",
            ids.join(", ")
        ));
    }
    let (output, truncated) =
        super::render::cap(&lines.join("\n"), "data.messages holds every message");
    Success::new(
        output,
        json!({"messages": messages, "truncated": truncated}),
    )
}

/// A share's data for the listing: a string as itself, anything else as compact JSON; one line,
/// cut at 2,000 characters (data.messages has it whole).
fn short_block(v: &serde_json::Value) -> String {
    let text = match v {
        serde_json::Value::String(s) => super::render::one_line(s),
        other => other.to_string(),
    };
    if text.chars().count() <= 2000 {
        return text;
    }
    let mut cut: String = text.chars().take(2000).collect();
    cut.push_str("… (cut; data.messages has it whole)");
    cut
}
