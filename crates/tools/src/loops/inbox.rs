//! `inbox` (SPEC 20.2, 24.4): what other loops shared with this session or asked it, and the
//! way to answer a question.

use super::store::{self, Kind, Which};
use super::wait::Outcome;
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
    Wait,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `list` (default: unread messages), `all` (every kept message), `reply` (id and text),
    /// `wait` (until a message comes, then as `list`).
    #[schemars(extend("default" = "list"))]
    pub action: Option<Action>,
    /// reply: the id of the query to answer.
    #[schemars(range(min = 1))]
    pub id: Option<u64>,
    /// reply: the answer.
    pub text: Option<String>,
    /// reply to a question with options (ask_user): the option(s) chosen.
    pub selected: Option<Vec<String>>,
    /// all: how many kept messages to skip (a call shows at most 1 MiB of messages; the rest
    /// with offset).
    pub offset: Option<usize>,
    /// wait: how long to wait, in milliseconds (default 30000, max 600000).
    #[schemars(range(min = 1, max = 600000))]
    pub timeout_ms: Option<u64>,
    /// A harness's call (--harness): whose inbox (default this session's).
    pub session: Option<String>,
    /// wait, a harness's call (--harness): several inboxes; the first with an unread message
    /// answers.
    pub sessions: Option<Vec<String>>,
}

/// The longest `inbox wait` (SPEC 25.3).
const MAX_WAIT_MS: u64 = 600_000;

impl Tool for Inbox {
    type Input = Input;
    const NAME: &'static str = "inbox";
    const SUMMARY: &'static str = "Read what other loops shared or asked; answer their questions";
    const DESCRIPTION: &'static str = "This session's messages from other loops (sessions of this hub), oldest first: shares (data_type, data) and queries (question). \
`list` (default) shows the unread ones and marks them read; `all` shows every kept message, read or not, and marks nothing; `wait` sleeps until an unread message comes (timeout_ms, default 30000), then shows it as `list` does (data.timed_out when none came). \
A query's sender is waiting: answer it with action `reply`, its id and text (an expired query, whose sender stopped waiting, cannot be answered). \
data.messages: [{id, from, at, kind: share|query, data_type?, data?, question?, expired?, reply?, read}].";
    const POSITIONALS: &'static [&'static str] = &["action"];
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str = "  loopr-tool inbox\n  loopr-tool inbox wait --timeout-ms 60000\n  echo '{\"action\": \"reply\", \"id\": 3, \"text\": \"The lexer spec\"}' | loopr-tool inbox";

    fn read_only(input: &Input) -> bool {
        matches!(input.action.unwrap_or_default(), Action::List | Action::All)
    }

    fn effect(input: &Input) -> Effect {
        // A reply is a message like a share: it holds nothing back (a query may be waiting on
        // the very call that answers it). A wait holds nothing either.
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::Talks
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let action = input.action.unwrap_or_default();
        refuse_misplaced(action, &input)?;
        let sessions = whose(ctx, action, &input)?;
        match action {
            Action::List | Action::All => {
                let which = if action == Action::All {
                    Which::All
                } else {
                    Which::Unread
                };
                let session = &sessions[0];
                let offset = input.offset.unwrap_or(0);
                let page = store::list(ctx, session, which, offset)?;
                Ok(show(session, which, page, offset, false))
            }
            Action::Wait => wait(ctx, &sessions, input.timeout_ms),
            Action::Reply => reply(ctx, &sessions[0], input),
        }
    }
}

/// Fields that belong to another action are refused, naming the field.
fn refuse_misplaced(action: Action, input: &Input) -> Result<()> {
    let fields = [
        ("id", input.id.is_some(), action == Action::Reply),
        ("text", input.text.is_some(), action == Action::Reply),
        (
            "selected",
            input.selected.is_some(),
            action == Action::Reply,
        ),
        (
            "timeout_ms",
            input.timeout_ms.is_some(),
            action == Action::Wait,
        ),
        ("sessions", input.sessions.is_some(), action == Action::Wait),
        ("offset", input.offset.is_some(), action == Action::All),
    ];
    for (field, given, allowed) in fields {
        if given && !allowed {
            let only = match field {
                "timeout_ms" | "sessions" => "wait",
                "offset" => "all",
                _ => "reply",
            };
            return Err(ToolError::invalid(
                field,
                format!("inbox: {field} is only for action {only}"),
            ));
        }
    }
    Ok(())
}

/// Whose inboxes the call is about: this session's, or with --harness the `session` or
/// `sessions` given (SPEC 25.3). `user`'s inbox (ask_user's questions) is the harness's alone.
fn whose(ctx: &Ctx, action: Action, input: &Input) -> Result<Vec<String>> {
    if input.session.is_some() && input.sessions.is_some() {
        return Err(ToolError::invalid(
            "sessions",
            "inbox: give session or sessions, not both",
        ));
    }
    let (field, list) = match (&input.session, &input.sessions) {
        (Some(s), _) => ("session", vec![s.clone()]),
        (_, Some(list)) => ("sessions", list.clone()),
        _ => ("session", vec![ctx.session.clone()]),
    };
    if list.is_empty() {
        return Err(ToolError::invalid("sessions", "inbox: sessions is empty"));
    }
    for (i, s) in list.iter().enumerate() {
        let name = if field == "sessions" {
            format!("sessions[{i}]")
        } else {
            field.to_string()
        };
        super::check_session(&name, s)?;
        if !ctx.harness && (s != &ctx.session || s == super::ask_user::USER) {
            let why = if s == super::ask_user::USER {
                "the person's inbox (`user`, where ask_user's questions wait) is answered by the harness"
            } else {
                "another session's inbox is read by the harness"
            };
            return Err(ToolError::invalid(
                &name,
                format!("inbox: {name} is {s:?}: {why}, with --harness (LOOPR_HARNESS=1)"),
            ));
        }
    }
    let _ = action;
    Ok(list)
}

fn wait(ctx: &Ctx, sessions: &[String], timeout_ms: Option<u64>) -> Result<Success> {
    let timeout_ms = timeout_ms.unwrap_or(30_000);
    if timeout_ms == 0 || timeout_ms > MAX_WAIT_MS {
        return Err(ToolError::invalid(
            "timeout_ms",
            format!("inbox: timeout_ms is {timeout_ms}; wait 1 to {MAX_WAIT_MS} ms"),
        ));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(timeout_ms);
    ctx.control
        .set_message(format!("waiting for a message to {}", sessions.join(", ")));
    match store::wait_unread(ctx, sessions, deadline)? {
        Outcome::Found(session) => {
            let page = store::list(ctx, &session, Which::Unread, 0)?;
            Ok(show(&session, Which::Unread, page, 0, true))
        }
        Outcome::TimedOut => Ok(Success::new(
            format!(
                "No message came for {} within {timeout_ms} ms\n",
                sessions.join(", ")
            ),
            json!({"messages": [], "session": null, "timed_out": true}),
        )),
        Outcome::Cancelled => Err(ToolError::cancelled("inbox wait")),
    }
}

fn reply(ctx: &Ctx, session: &str, input: Input) -> Result<Success> {
    let Some(id) = input.id else {
        return Err(ToolError::invalid(
            "id",
            "inbox: action reply needs id, the query's id",
        ));
    };
    if input.text.is_none() && input.selected.is_none() {
        return Err(ToolError::invalid(
            "text",
            "inbox: action reply needs text, the answer",
        ));
    }
    let answer = store::Answer {
        text: input.text.unwrap_or_default(),
        selected: input.selected,
    };
    let query = store::reply(ctx, session, id, answer)?;
    Ok(Success::new(
        format!("Answered query {id} from {}\n", query.from),
        json!({"id": id, "to": query.from}),
    ))
}

/// The messages as the model reads them; `waited` adds whose inbox answered a wait.
fn show(session: &str, which: Which, page: store::Page, offset: usize, waited: bool) -> Success {
    let store::Page { messages, more } = page;
    let mut lines = vec![];
    if messages.is_empty() {
        lines.push(match which {
            Which::Unread => format!("No unread messages in session {session}'s inbox"),
            Which::All => format!("Session {session}'s inbox is empty"),
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
                if let Some(c) = m
                    .data
                    .as_ref()
                    .and_then(|d| serde_json::from_value::<store::Choices>(d.clone()).ok())
                {
                    let how = if c.multi_select { "one or more" } else { "one" };
                    lines.push(format!(
                        "  options ({how}, reply with selected): {}",
                        c.options.join(" | ")
                    ));
                }
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
    // At most 1 MiB of messages a call (SPEC 31.4): say how to get the rest.
    let next_offset = offset + messages.len();
    if more > 0 {
        lines.push(match which {
            Which::Unread => format!(
                "{more} more unread message(s) not shown (1 MiB of messages a call): call inbox again for them"
            ),
            Which::All => format!(
                "{more} more message(s) not shown (1 MiB of messages a call): inbox action all with offset {next_offset}"
            ),
        });
    }
    let (output, truncated) =
        super::render::cap(&lines.join("\n"), "data.messages holds every message");
    let mut data = json!({"messages": messages, "truncated": truncated});
    if more > 0 {
        data["more"] = json!(more);
        if which == Which::All {
            data["next_offset"] = json!(next_offset);
        }
    }
    if waited {
        data["session"] = json!(session);
        data["timed_out"] = json!(false);
    }
    Success::new(output, data)
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
