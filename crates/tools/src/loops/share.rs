//! `share` (SPEC 20.2): one message per target session, appended to its inbox. Seed 000's
//! `share_data` (`target_exec_ids`) is an alias.

use super::check_session;
use super::store::{self, Kind, Stored};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::state;
use crate::tool::{Effect, Hints, Tool};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};
use std::borrow::Cow;

pub struct Share;

/// The most sessions one share reaches (SPEC 31.4).
pub const MAX_TARGETS: usize = 100;

/// Any JSON value. A string that is itself JSON text is taken as the value it encodes: strict
/// schemas (22.2) cannot describe "any JSON", so they publish this field as a JSON-encoded
/// string (24.7), and the parser takes that form in every mode. A string that does not parse
/// as JSON is kept as the string.
#[derive(Debug, Clone)]
pub struct AnyJson(pub Value);

impl<'de> Deserialize<'de> for AnyJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(AnyJson(match Value::deserialize(d)? {
            Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
            other => other,
        }))
    }
}

// Any JSON but null (null means absent, 16.2), spelled as single-type branches: a schema with
// no keyword at all constrains nothing (the MCP Inspector warns), and a type array is less
// portable (22.2). `schema --strict` turns it into a JSON-encoded string.
impl JsonSchema for AnyJson {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "AnyJson".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"anyOf": [
            {"type": "object"},
            {"type": "array"},
            {"type": "string"},
            {"type": "number"},
            {"type": "boolean"}
        ]})
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The session ids of the loops to tell (an unknown session is created, so a loop can be
    /// told things before it starts).
    #[schemars(length(min = 1))]
    pub to: Vec<String>,
    /// What kind of data this is, for the reader (`review`, `api-change`, `test-results`).
    #[schemars(length(min = 1))]
    pub data_type: String,
    /// The data: any JSON value (a string holding JSON text is taken as that JSON).
    pub data: AnyJson,
}

impl Tool for Share {
    type Input = Input;
    const NAME: &'static str = "share";
    const SUMMARY: &'static str = "Send data to other loops' inboxes";
    const DESCRIPTION: &'static str = "Sends data to other loops (sessions of this root): one message per session in `to`, appended to its inbox (see `inbox`). \
data_type says what the data is; data is any JSON. An inbox keeps 500 messages (the oldest read ones go first); one holding 500 unread messages refuses the share (too_large, nothing sent). \
Does not wait for the readers; to ask and wait for an answer, use query. data: {to, ids} (each message's id in its inbox).";
    const HINTS: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    const EXAMPLES: &'static str = "  echo '{\"to\": [\"coder\"], \"data_type\": \"api\", \"data\": {\"endpoint\": \"/v2\"}}' | loopr-tool share\n  loopr-tool share --to coder --to tester --data-type note --data '\"lexer done\"'";

    fn read_only(_: &Input) -> bool {
        false
    }

    fn effect(_: &Input) -> Effect {
        Effect::Talks
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        if input.to.is_empty() {
            return Err(ToolError::invalid(
                "to",
                "share: to is empty; name at least one session",
            ));
        }
        // Each target costs a copy of the message (SPEC 31.4: every multiplier is capped).
        if input.to.len() > MAX_TARGETS {
            return Err(ToolError::too_large(
                MAX_TARGETS,
                format!(
                    "share: to names {} sessions; one share reaches at most {MAX_TARGETS}; nothing was sent",
                    input.to.len()
                ),
            )
            .with("field", "to")
            .hint("Split the targets over several shares."));
        }
        for (i, t) in input.to.iter().enumerate() {
            let field = format!("to[{i}]");
            check_session(&field, t)?;
            if input.to[..i].contains(t) {
                return Err(ToolError::invalid(
                    &field,
                    format!("share: {field} names session {t} a second time"),
                ));
            }
        }
        if input.data_type.trim().is_empty() {
            return Err(ToolError::invalid(
                "data_type",
                "share: data_type is empty; say what the data is",
            ));
        }
        let msg = Stored {
            from: ctx.session.clone(),
            at: state::now(),
            kind: Kind::Share,
            data_type: Some(input.data_type),
            data: Some(input.data.0),
            question: None,
            nonce: None,
        };
        store::check_size(&msg, "data")?;
        let targets: Vec<(&str, Stored)> =
            input.to.iter().map(|t| (t.as_str(), msg.clone())).collect();
        let mut new = vec![];
        for t in &input.to {
            if !store::known(ctx, t)? {
                new.push(t.as_str());
            }
        }
        let ids = store::deliver(ctx, &targets)?;
        let lines: Vec<String> = input
            .to
            .iter()
            .zip(&ids)
            .map(|(t, id)| format!("  {t} (message {id})"))
            .collect();
        let output = format!(
            "Shared {} ({}) with {} session(s):\n{}\n",
            msg.data_type.as_deref().unwrap_or(""),
            short(msg.data.as_ref().unwrap_or(&Value::Null)),
            ids.len(),
            lines.join("\n")
        );
        // A session the hub has never seen may be a typo: say so where the model reads.
        let mut output = output;
        for t in &new {
            output.push_str(&format!(
                "created an inbox for {t}, which has not started\n"
            ));
        }
        let (output, _) = super::render::cap(&output, "data.ids holds every target");
        Ok(Success::new(
            output,
            json!({"to": input.to, "ids": ids, "new_sessions": new}),
        ))
    }
}

/// A value on one line, at most 80 characters, for output.
pub fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= 80 {
        return text;
    }
    let mut cut: String = text.chars().take(77).collect();
    cut.push('…');
    cut
}
