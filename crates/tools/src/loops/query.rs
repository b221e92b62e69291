//! `query` (SPEC 20.2): asks another loop a question and waits for its reply. The question
//! lands in the target's inbox; the reply lands beside it (`inbox` action `reply`). The wait
//! sleeps on inotify (`wait`), so an answer given at once arrives in milliseconds, and a wait of
//! minutes costs no CPU. Out of time, the question is marked expired under the target's lock, so
//! a reply that comes later is refused cleanly instead of being lost in silence.

use super::check_session;
use super::store::{self, Kind, Stored};
use super::wait::Outcome;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::state;
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::time::{Duration, Instant};

pub struct Query;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The session id of the loop to ask.
    pub to: String,
    /// The question, complete enough to answer without context.
    #[schemars(length(min = 1))]
    pub question: String,
    /// How long to wait for the reply, in milliseconds.
    #[schemars(range(min = 1, max = 600_000), extend("default" = 30_000))]
    pub timeout_ms: Option<u64>,
}

impl Tool for Query {
    type Input = Input;
    const NAME: &'static str = "query";
    const SUMMARY: &'static str = "Ask another loop a question and wait for its answer";
    const DESCRIPTION: &'static str = "Asks another loop (a session of this root, `to`) a question and waits for its reply: the question appears in that loop's inbox, and it answers with `inbox` action reply. \
The reply's text is the output; data: {id, reply, from}. timeout_ms (default 30000, max 600000) bounds the wait: no reply in time is a timeout error, and the question is marked expired, so a late reply is refused. \
Only ask a loop that is running and reads its inbox; to tell without waiting, use share.";
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str = "  echo '{\"to\": \"planner\", \"question\": \"Which spec covers the lexer?\", \"timeout_ms\": 60000}' | loopr-tool query";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        check_session("to", &input.to)?;
        if input.question.trim().is_empty() {
            return Err(ToolError::invalid(
                "question",
                "query: question is empty; ask something",
            ));
        }
        let timeout_ms = input.timeout_ms.unwrap_or(30_000);
        let (id, reply) = ask(ctx, &input.to, input.question, None, timeout_ms)?;
        let mut output = reply.text.clone();
        if !output.ends_with('\n') {
            output.push('\n');
        }
        let (output, _) = super::render::cap(&output, "data.reply holds the whole reply");
        Ok(Success::new(
            output,
            json!({"id": id, "reply": reply.text, "from": reply.from, "replied_at": reply.at}),
        ))
    }
}

/// Posts a question to `to`'s inbox and waits for its reply (query, and ask_user's question to
/// the person): the reply, or `timeout` with the question marked expired, or `cancelled`.
pub fn ask(
    ctx: &Ctx,
    to: &str,
    question: String,
    data: Option<serde_json::Value>,
    timeout_ms: u64,
) -> Result<(u64, store::Reply)> {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms);
    let nonce = nonce();
    let msg = Stored {
        from: ctx.session.clone(),
        at: state::now(),
        kind: Kind::Query,
        data_type: None,
        data,
        question: Some(question),
        nonce: Some(nonce),
    };
    store::check_size(&msg, "question")?;
    let id = store::deliver_by(ctx, &[(to, msg)], Some(deadline))?[0];
    ctx.control
        .set_message(format!("waiting for session {} to answer query {id}", to));
    let outcome = store::await_reply(ctx, to, id, nonce, deadline)?;
    let reply = match outcome {
        Outcome::Found(r) => r,
        Outcome::TimedOut | Outcome::Cancelled => {
            // A reply that landed while we gave up still counts.
            match store::expire(ctx, to, id, nonce)? {
                Some(r) => r,
                None if matches!(outcome, Outcome::Cancelled) => {
                    return Err(ToolError::cancelled("query"));
                }
                None => {
                    return Err(ToolError::new(
                        Code::Timeout,
                        format!(
                            "{}: session {to} did not answer query {id} within {timeout_ms} ms; the question stays in its inbox, marked expired",
                            if ctx.call.name.is_empty() { "query" } else { &ctx.call.name }
                        ),
                    )
                    .with("timeout_ms", timeout_ms)
                    .with("id", id)
                    .with("to", to)
                    .hint("Ask again with a longer timeout_ms if that loop is busy, or share the question instead of waiting."));
                }
            }
        }
    };
    Ok((id, reply))
}

/// A token no other question shares (the std hasher's seed is random per process).
fn nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}
