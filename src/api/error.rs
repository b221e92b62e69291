//! The library's error: why a `Toolbox` could not be built, and what a harness's own tool
//! returns when it fails. Both are the contract's errors (SPEC 3), as a call's envelope carries.

use super::envelope::ErrorInfo;
use crate::error::{Code, ToolError};
use serde_json::{Map, Value};
use std::fmt;

/// An error of the contract (SPEC 3): a code, a message for the model, an optional hint and the
/// code's own fields.
///
/// `Toolbox::builder().build()` returns one when a setting cannot be used (a root that does not
/// exist, an unreadable catalog, an unknown profile or sandbox mode, a tool name taken twice).
/// A harness's [`Tool`](crate::Tool) returns one to fail a call: the envelope's `error` is
/// then built from it, as for a built-in tool.
///
/// ```
/// let e = loopr_tool::Error::new("not_found", "tickets/12 does not exist")
///     .with_hint("List the tickets first.")
///     .with("path", "tickets/12");
/// assert_eq!(e.code(), "not_found");
/// assert_eq!(e.extra()["path"], "tickets/12");
/// ```
#[derive(Clone)]
pub struct Error(Box<ToolError>);

/// A `Result` whose error is the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with `code`, one of the contract's codes (SPEC 3: `invalid_input`,
    /// `not_found`, `permission_denied`, `timeout`, `io_error`, …; [`Error::CODES`] lists them).
    /// A code outside that list is a bug in the caller: the error becomes `internal_error`,
    /// with the code given in its `code_given` field, so no client meets a code it does not
    /// know.
    pub fn new(code: &str, message: impl Into<String>) -> Error {
        match Code::parse(code) {
            Some(c) => Error(Box::new(ToolError::new(c, message))),
            None => Error(Box::new(
                ToolError::new(Code::InternalError, message).with("code_given", code),
            )),
        }
    }

    /// `invalid_input` blaming one input field (`error.field`): the model knows what to fix.
    pub fn invalid_input(field: &str, message: impl Into<String>) -> Error {
        Error(Box::new(ToolError::invalid(field, message)))
    }

    /// Every code an error may have (SPEC 3).
    pub const CODES: [&'static str; Code::ALL.len()] = {
        let mut names = [""; Code::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Code::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// The same error with a hint: what the model should do next.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.0.hint = Some(hint.into());
        self
    }

    /// The same error with one more field beside `code` and `message` (`path`, `limit`, …).
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Error {
        self.0.extra.insert(key.to_string(), value.into());
        self
    }

    /// The code (`"invalid_input"`, `"not_found"`, …).
    pub fn code(&self) -> &str {
        self.0.code.as_str()
    }

    /// The message, written for a model.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The hint, if there is one.
    pub fn hint(&self) -> Option<&str> {
        self.0.hint.as_deref()
    }

    /// The code's own fields (`field` for `invalid_input`, `path`, …).
    pub fn extra(&self) -> &Map<String, Value> {
        &self.0.extra
    }

    /// The error as an envelope's `error` carries it.
    pub fn to_info(&self) -> ErrorInfo {
        ErrorInfo {
            code: self.code().to_string(),
            message: self.0.message.clone(),
            hint: self.0.hint.clone(),
            extra: self.0.extra.clone(),
        }
    }

    pub(crate) fn from_internal(e: ToolError) -> Error {
        Error(Box::new(e))
    }

    /// An envelope's `error` as an `Error` again.
    pub(crate) fn from_info(info: ErrorInfo) -> Error {
        let mut e = ToolError::new(
            Code::parse(&info.code).unwrap_or(Code::InternalError),
            info.message,
        );
        e.hint = info.hint;
        e.extra = info.extra;
        Error(Box::new(e))
    }

    pub(crate) fn into_internal(self) -> ToolError {
        *self.0
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.code())
            .field("message", &self.0.message)
            .field("hint", &self.0.hint)
            .field("extra", &self.0.extra)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.0.message)?;
        if let Some(h) = &self.0.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
