//! The protocol envelope (SPEC §1.2) and how it is printed.
//!
//! One JSON object on one line: `ok`, `tool`, `output`, then `data` or `error`. Warnings join
//! `data.warnings` and the end of `output`. With `--format text` only `output` is printed (on
//! stderr for a failure).

use crate::error::ToolError;
use serde_json::{Map, Value};
use std::io::Write;

/// What a tool hands back on success: the text for the model and the structured result.
#[derive(Debug)]
pub struct Success {
    pub output: String,
    pub data: Value,
}

impl Success {
    pub fn new(output: String, data: Value) -> Self {
        Success { output, data }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Text,
}

/// Makes `s` a run of lines each ending in `\n` (SPEC 16.1); empty stays empty.
pub fn terminate_lines(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The envelope of a finished tool call, before printing.
pub struct Envelope {
    pub ok: bool,
    pub tool: String,
    pub output: String,
    pub body: Value, // `data` when ok, `error` when not
    pub data_on_error: Option<Value>,
    pub exit_status: i32,
}

impl Envelope {
    pub fn success(tool: &str, success: Success, warnings: &[String]) -> Envelope {
        let mut output = terminate_lines(success.output);
        let mut data = success.data;
        if !warnings.is_empty() {
            for w in warnings {
                output.push_str("Warning: ");
                output.push_str(w);
                output.push('\n');
            }
            if let Value::Object(map) = &mut data {
                let list = map
                    .entry("warnings")
                    .or_insert_with(|| Value::Array(vec![]));
                if let Value::Array(items) = list {
                    items.extend(warnings.iter().cloned().map(Value::String));
                }
            }
        }
        Envelope {
            ok: true,
            tool: tool.to_string(),
            output,
            body: data,
            data_on_error: None,
            exit_status: 0,
        }
    }

    pub fn failure(tool: &str, err: ToolError, warnings: &[String]) -> Envelope {
        let mut output = err.message.clone();
        output.push('\n');
        if let Some(h) = &err.hint {
            output.push_str("Hint: ");
            output.push_str(h);
            output.push('\n');
        }
        for w in warnings {
            output.push_str("Warning: ");
            output.push_str(w);
            output.push('\n');
        }
        let mut error = Map::new();
        error.insert("code".into(), err.code.as_str().into());
        error.insert("message".into(), err.message.clone().into());
        if let Some(h) = err.hint {
            error.insert("hint".into(), h.into());
        }
        for (k, v) in err.extra {
            error.insert(k, v);
        }
        let mut data_on_error = err.data;
        if !warnings.is_empty() {
            let d = data_on_error.get_or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(map) = d {
                map.insert(
                    "warnings".into(),
                    warnings.iter().cloned().map(Value::String).collect(),
                );
            }
        }
        Envelope {
            ok: false,
            tool: tool.to_string(),
            output,
            body: Value::Object(error),
            data_on_error,
            exit_status: err.code.exit_status(),
        }
    }

    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("ok".into(), self.ok.into());
        m.insert("tool".into(), self.tool.clone().into());
        m.insert("output".into(), self.output.clone().into());
        if self.ok {
            m.insert("data".into(), self.body.clone());
        } else {
            if let Some(d) = &self.data_on_error {
                m.insert("data".into(), d.clone());
            }
            m.insert("error".into(), self.body.clone());
        }
        Value::Object(m)
    }

    /// Prints the envelope and returns the exit status. A closed stdout (`| head`) is not an
    /// error worth a word: the reader has gone.
    pub fn print(&self, format: Format, pretty: bool) -> i32 {
        let bytes = match format {
            Format::Text => self.output.clone().into_bytes(),
            Format::Json => {
                let v = self.to_value();
                let mut s = if pretty {
                    serde_json::to_string_pretty(&v)
                } else {
                    serde_json::to_string(&v)
                }
                .unwrap_or_else(|_| String::from("{\"ok\":false}"));
                s.push('\n');
                s.into_bytes()
            }
        };
        let written = if format == Format::Text && !self.ok {
            std::io::stderr().write_all(&bytes)
        } else {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes).and_then(|_| out.flush())
        };
        match written {
            Ok(()) => self.exit_status,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.exit_status,
            Err(_) => 1,
        }
    }
}
