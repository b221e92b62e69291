//! `artifact` (SPEC 20.3, 24.4): reads back what a planning loop handed over — one artifact, or
//! the names of a kind — from this session or another session of the same root.

use super::render;
use super::store;
use crate::context::{Ctx, SESSION_ID, valid_session};
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

pub struct Artifact;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Plan,
    Spec,
    Phase,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Plan => "plan",
            Kind::Spec => "spec",
            Kind::Phase => "phase",
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `plan`, `spec` or `phase`.
    pub kind: Kind,
    /// The artifact's name; without it, the names of every artifact of that kind are listed.
    pub name: Option<String>,
    /// Another session of this root whose artifacts to read (default: this session). It never
    /// changes the calling session.
    pub session: Option<String>,
}

impl Tool for Artifact {
    type Input = Input;
    const NAME: &'static str = "artifact";
    const SUMMARY: &'static str = "Read a plan, spec or phase handed over by a loop";
    const DESCRIPTION: &'static str = "Gives back an artifact stored by create_plan, create_spec or create_phase: kind (plan, spec or phase) and name give one, as Markdown in output and as stored in data; \
kind alone lists that kind's names (data: {kind, session, names}). session reads another session's artifacts (a planning loop's) without changing the calling session.";
    const POSITIONALS: &'static [&'static str] = &["kind", "name"];
    const HINTS: Hints = Hints::READ_ONLY;
    const EXAMPLES: &'static str = "  echo '{\"kind\": \"plan\", \"session\": \"planner\"}' | loopr-tool artifact\n  loopr-tool artifact spec lexer";

    fn read_only(_: &Input) -> bool {
        true
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let session = match &input.session {
            Some(s) if !valid_session(s) => {
                return Err(ToolError::invalid(
                    "session",
                    format!("session {s:?} is not a session id: {SESSION_ID}"),
                ));
            }
            Some(s) => s.clone(),
            None => ctx.session.clone(),
        };
        let kind = input.kind.as_str();
        let names = store::artifact_names(ctx, &session, kind)?;
        let Some(name) = input.name else {
            let output = match names.is_empty() {
                true => format!("No {kind} artifacts in session {session}\n"),
                false => format!(
                    "{} {kind} artifact(s) in session {session}:\n{}",
                    names.len(),
                    names.iter().map(|n| format!("  {n}\n")).collect::<String>()
                ),
            };
            let (output, _) = render::cap(&output, "data.names holds every name");
            return Ok(Success::new(
                output,
                json!({"kind": kind, "session": session, "names": names}),
            ));
        };
        let found: Option<Value> = if names.contains(&name) {
            store::load_artifact(ctx, &session, kind, &name)?
        } else {
            None
        };
        let Some(value) = found else {
            let known = match names.is_empty() {
                true => format!("session {session} has no {kind} artifacts"),
                false => format!("its {kind}s: {}", names.join(", ")),
            };
            return Err(ToolError::new(
                Code::NotFound,
                format!("artifact: no {kind} `{name}` in session {session}; {known}"),
            )
            .with("name", name)
            .hint("`artifact` with kind alone lists the names; session picks the session that created it."));
        };
        let (output, _) = render::cap(&render::markdown(&value), "data holds the whole artifact");
        Ok(Success::new(output, value))
    }
}
