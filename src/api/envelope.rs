//! The envelope a harness gets back (SPEC 1.2, 30.1): the same JSON object `loopr-tool call`
//! prints, as a plain struct.

use crate::envelope as internal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The result of one tool call: what `loopr-tool call` prints, as a struct.
///
/// Serialised with serde_json it is exactly the line `loopr-tool call` prints for the same
/// call without an `id` (less its newline): `ok`, `tool`, `output`, then `data` and/or
/// `error`. Warnings stay in `data.warnings` (and at the end of `output`).
///
/// Hand `output` to the model: it is the text written for it, errors and hints included.
/// `data` is the structured result for the harness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Whether the call succeeded.
    pub ok: bool,
    /// The tool that ran (an alias's call names the tool it ran as).
    pub tool: String,
    /// The text for the model: the result, or the error's message and hint.
    pub output: String,
    /// The structured result (on failure, only for tools that define one, and warnings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// Why the call failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// The `error` of a failed call (SPEC 3): a code from the contract's list, a message written for
/// the model, an optional hint, and the fields the code defines (`path`, `field`, `limit`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// The contract's code: `invalid_input`, `not_found`, `stale_read`, …
    pub code: String,
    /// What went wrong, for the model.
    pub message: String,
    /// What to do about it, when there is something to say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The code's own fields (`path`, `field`, `limit`, …), in the order the tool gave them;
    /// serialised beside `code` and `message`.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Envelope {
    /// The exit status `loopr-tool` gives this envelope (SPEC 1.3): 0 ok, 2 `invalid_input`,
    /// 1 any other failure.
    pub fn exit_status(&self) -> i32 {
        match &self.error {
            _ if self.ok => 0,
            Some(e) if e.code == "invalid_input" => 2,
            _ => 1,
        }
    }

    /// The warnings of the call (`data.warnings`), in order.
    pub fn warnings(&self) -> Vec<&str> {
        self.data
            .as_ref()
            .and_then(|d| d.get("warnings"))
            .and_then(Value::as_array)
            .map(|w| w.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The internal envelope as the public one: the same fields, in the same order.
    pub(crate) fn from_internal(env: internal::Envelope) -> Envelope {
        let (ok, tool, output) = (env.ok, env.tool, env.output);
        match env.body {
            internal::Body::Data { data, warnings } => Envelope {
                ok,
                tool,
                output,
                data: Some(data.into_value(&warnings)),
                error: None,
            },
            internal::Body::Error { error, data } => Envelope {
                ok,
                tool,
                output,
                data,
                error: Some(ErrorInfo::from_value(error)),
            },
        }
    }
}

impl ErrorInfo {
    /// `error` as the envelope builds it: `code`, `message`, `hint`, then the extra fields.
    fn from_value(error: Value) -> ErrorInfo {
        let mut map = match error {
            Value::Object(m) => m,
            other => {
                let mut m = Map::new();
                m.insert("message".into(), other);
                m
            }
        };
        let mut text = |k: &str| match map.shift_remove(k) {
            Some(Value::String(s)) => Some(s),
            Some(other) => Some(other.to_string()),
            None => None,
        };
        let code = text("code").unwrap_or_else(|| "internal_error".into());
        let message = text("message").unwrap_or_default();
        let hint = text("hint");
        ErrorInfo {
            code,
            message,
            hint,
            extra: map,
        }
    }
}
