//! `complete_task` (SPEC 20.1): a loop says it is done. The completion is kept in the session's
//! state, so a harness learns it from `session show` in any process; one per session until
//! `session reopen` (or `reset`) clears it.

use super::store::{self, Completion};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::state;
use crate::tool::{Effect, Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

pub struct CompleteTask;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// What was done, for whoever reads the loop's result.
    #[schemars(length(min = 1))]
    pub summary: String,
}

impl Tool for CompleteTask {
    type Input = Input;
    const NAME: &'static str = "complete_task";
    const SUMMARY: &'static str = "Say this loop's task is done, with a summary";
    const DESCRIPTION: &'static str = "Marks this session's task as complete, with a summary of what was done; `session show` then reports {summary, completed_at} to the harness. \
Call it once, when the work is finished and checked: a second call is invalid_input until `session` with action `reopen` (or `reset`).";
    const POSITIONALS: &'static [&'static str] = &["summary"];
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str =
        "  echo '{\"summary\": \"Parser rewritten; all tests pass\"}' | loopr-tool complete_task";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        if input.summary.trim().is_empty() {
            return Err(ToolError::invalid(
                "summary",
                "complete_task: summary is empty; say what was done",
            ));
        }
        let done = Completion {
            summary: input.summary,
            completed_at: state::now(),
        };
        if let Err(done) = store::complete(ctx, &done)? {
            return Err(ToolError::usage(format!(
                "complete_task: session {} was already completed at {} ({:?})",
                ctx.session, done.completed_at, done.summary
            ))
            .with("completed_at", done.completed_at)
            .hint("To complete it again, first `session` with action `reopen` (keeps the rest of the state) or `reset` (drops it all)."));
        }
        Ok(Success::new(
            format!(
                "Session {} completed at {}: {}\n",
                ctx.session, done.completed_at, done.summary
            ),
            json!({"session": ctx.session, "summary": done.summary, "completed_at": done.completed_at}),
        ))
    }
}
