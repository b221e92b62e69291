//! `ask_user` (SPEC 25.4): seed 002's question for the person running the loop (Claude Code's
//! AskUserQuestion). The question is a query to the hub's reserved session `user`, so the
//! harness sees it where it already waits (`inbox wait --session user --harness`) and answers
//! with `inbox reply`; the model's call waits as `query` does, through the hub.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

pub struct AskUser;

/// The session the person's questions go to; only a harness answers there.
pub const USER: &str = "user";

/// How long a person may take: ten minutes by default, an hour at most.
const DEFAULT_WAIT_MS: u64 = 600_000;
const MAX_WAIT_MS: u64 = 3_600_000;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The question for the person, complete enough to answer without context.
    #[schemars(length(min = 1))]
    pub question: String,
    /// Choices to pick from (2 to 6); the person may still answer in words.
    #[schemars(length(min = 2, max = 6))]
    pub options: Option<Vec<String>>,
    /// Whether several options may be picked.
    #[schemars(extend("default" = false))]
    pub multi_select: Option<bool>,
    /// How long to wait for the answer, in milliseconds.
    #[schemars(range(min = 1, max = 3_600_000), extend("default" = 600_000))]
    pub timeout_ms: Option<u64>,
}

impl Tool for AskUser {
    type Input = Input;
    const NAME: &'static str = "ask_user";
    const SUMMARY: &'static str =
        "Ask the person running this loop a question and wait for the answer";
    const DESCRIPTION: &'static str = "Asks the person running the loop a question and waits for the answer (default 10 minutes, timeout_ms up to an hour). \
Give options (2 to 6) when the answer is a choice; multi_select lets several be picked. The answer is the output; data: {id, answer, selected?}. \
Ask only what you cannot find out yourself: the person may be away, and no answer in time is a timeout error.";
    const POSITIONALS: &'static [&'static str] = &["question"];
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str = "  echo '{\"question\": \"Keep the old API?\", \"options\": [\"keep\", \"drop\"]}' | loopr-tool ask_user";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        if input.question.trim().is_empty() {
            return Err(ToolError::invalid(
                "question",
                "ask_user: question is empty; ask something",
            ));
        }
        let data = choices(&input)?;
        let timeout_ms = input.timeout_ms.unwrap_or(DEFAULT_WAIT_MS);
        if timeout_ms == 0 || timeout_ms > MAX_WAIT_MS {
            return Err(ToolError::invalid(
                "timeout_ms",
                format!("ask_user: timeout_ms is {timeout_ms}; wait 1 to {MAX_WAIT_MS} ms"),
            ));
        }
        let (id, reply) = super::query::ask(ctx, USER, input.question, data, timeout_ms)?;
        let answer = match (&reply.selected, reply.text.is_empty()) {
            (Some(s), true) => s.join(", "),
            (Some(s), false) => format!("{} ({})", s.join(", "), reply.text),
            (None, _) => reply.text.clone(),
        };
        let mut data = json!({"id": id, "answer": answer});
        if let Some(s) = &reply.selected {
            data["selected"] = json!(s);
        }
        Ok(Success::new(format!("{answer}\n"), data))
    }
}

/// The options as the query carries them, checked: 2 to 6, none empty, none twice.
fn choices(input: &Input) -> Result<Option<serde_json::Value>> {
    let Some(options) = &input.options else {
        if input.multi_select == Some(true) {
            return Err(ToolError::invalid(
                "multi_select",
                "ask_user: multi_select needs options to pick from",
            ));
        }
        return Ok(None);
    };
    if !(2..=6).contains(&options.len()) {
        return Err(ToolError::invalid(
            "options",
            format!(
                "ask_user: options holds {}; give 2 to 6, or none for a free answer",
                options.len()
            ),
        ));
    }
    for (i, o) in options.iter().enumerate() {
        if o.trim().is_empty() || options[..i].contains(o) {
            return Err(ToolError::invalid(
                &format!("options[{i}]"),
                format!(
                    "ask_user: options[{i}] is {o:?}: each option is a distinct, non-empty text"
                ),
            ));
        }
    }
    Ok(Some(json!(super::store::Choices {
        options: options.clone(),
        multi_select: input.multi_select.unwrap_or(false),
    })))
}
