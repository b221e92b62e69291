//! Error codes of the contract (SPEC §3) and the error every tool returns.
//!
//! A `ToolError` carries everything the envelope needs: the code, a message written for a model
//! that must recover, an optional hint, and the extra fields a code defines (`path`, `limit`, …).

use serde_json::{Map, Value};
use std::fmt;
use std::io;
use std::path::Path;

/// Every error code of SPEC §3. Later tools use the codes that this foundation does not.
#[allow(dead_code)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    InvalidInput,
    UnknownTool,
    NotFound,
    IsDirectory,
    NotADirectory,
    OutsideRoot,
    PermissionDenied,
    BinaryFile,
    UnsupportedFile,
    TooLarge,
    NotRead,
    StaleRead,
    NoMatch,
    AmbiguousMatch,
    NoChange,
    InvalidRegex,
    InvalidGlob,
    InvalidUrl,
    BlockedUrl,
    HttpError,
    NetworkError,
    Timeout,
    UnsupportedContent,
    LockTimeout,
    CommandFailed,
    BlockedCommand,
    IoError,
    InternalError,
    PathDenied,
    SandboxUnavailable,
    ToolDisabled,
    BlockedByHook,
    ToolUnavailable,
    UpstreamError,
    DeniedByRule,
    ApprovalRequired,
}

impl Code {
    /// Every code, in SPEC 3's order.
    pub const ALL: [Code; 36] = [
        Code::InvalidInput,
        Code::UnknownTool,
        Code::NotFound,
        Code::IsDirectory,
        Code::NotADirectory,
        Code::OutsideRoot,
        Code::PermissionDenied,
        Code::BinaryFile,
        Code::UnsupportedFile,
        Code::TooLarge,
        Code::NotRead,
        Code::StaleRead,
        Code::NoMatch,
        Code::AmbiguousMatch,
        Code::NoChange,
        Code::InvalidRegex,
        Code::InvalidGlob,
        Code::InvalidUrl,
        Code::BlockedUrl,
        Code::HttpError,
        Code::NetworkError,
        Code::Timeout,
        Code::UnsupportedContent,
        Code::LockTimeout,
        Code::CommandFailed,
        Code::BlockedCommand,
        Code::IoError,
        Code::InternalError,
        Code::PathDenied,
        Code::SandboxUnavailable,
        Code::ToolDisabled,
        Code::BlockedByHook,
        Code::ToolUnavailable,
        Code::UpstreamError,
        Code::DeniedByRule,
        Code::ApprovalRequired,
    ];

    /// The code named `s` (`"not_found"`), if the contract has it.
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == s)
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Code::InvalidInput => "invalid_input",
            Code::UnknownTool => "unknown_tool",
            Code::NotFound => "not_found",
            Code::IsDirectory => "is_directory",
            Code::NotADirectory => "not_a_directory",
            Code::OutsideRoot => "outside_root",
            Code::PermissionDenied => "permission_denied",
            Code::BinaryFile => "binary_file",
            Code::UnsupportedFile => "unsupported_file",
            Code::TooLarge => "too_large",
            Code::NotRead => "not_read",
            Code::StaleRead => "stale_read",
            Code::NoMatch => "no_match",
            Code::AmbiguousMatch => "ambiguous_match",
            Code::NoChange => "no_change",
            Code::InvalidRegex => "invalid_regex",
            Code::InvalidGlob => "invalid_glob",
            Code::InvalidUrl => "invalid_url",
            Code::BlockedUrl => "blocked_url",
            Code::HttpError => "http_error",
            Code::NetworkError => "network_error",
            Code::Timeout => "timeout",
            Code::UnsupportedContent => "unsupported_content",
            Code::LockTimeout => "lock_timeout",
            Code::CommandFailed => "command_failed",
            Code::BlockedCommand => "blocked_command",
            Code::IoError => "io_error",
            Code::InternalError => "internal_error",
            Code::PathDenied => "path_denied",
            Code::SandboxUnavailable => "sandbox_unavailable",
            Code::ToolDisabled => "tool_disabled",
            Code::BlockedByHook => "blocked_by_hook",
            Code::ToolUnavailable => "tool_unavailable",
            Code::UpstreamError => "upstream_error",
            Code::DeniedByRule => "denied_by_rule",
            Code::ApprovalRequired => "approval_required",
        }
    }

    /// Exit status of SPEC §1.3: 2 for bad input or usage, 1 for every other failure.
    pub fn exit_status(self) -> crate::exit_status::ExitStatus {
        use crate::exit_status::ExitStatus;
        if self == Code::InvalidInput {
            ExitStatus::Usage
        } else {
            ExitStatus::Failure
        }
    }
}

#[derive(Debug, Clone)]
pub struct ToolError {
    pub code: Code,
    pub message: String,
    pub hint: Option<String>,
    /// Extra fields of `error` named per code (`path`, `limit`, `field`, …), in insertion order.
    pub extra: Map<String, Value>,
    /// `data` on failure, for the tools that define one (run).
    pub data: Option<Value>,
}

pub type Result<T> = std::result::Result<T, ToolError>;

impl ToolError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            hint: None,
            extra: Map::new(),
            data: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// `data` carried on failure (run: so the log of a failed command can be paged).
    pub fn data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// `invalid_input` blaming one field.
    /// `not_found` (SPEC 3): the path does not exist; carries `path`.
    pub fn not_found(path: &str, message: impl Into<String>) -> Self {
        Self::new(Code::NotFound, message).with("path", path)
    }

    /// `too_large` (SPEC 3): over a size limit; carries `limit` (a number).
    pub fn too_large(limit: impl Into<Value>, message: impl Into<String>) -> Self {
        Self::new(Code::TooLarge, message).with("limit", limit)
    }

    /// `stale_read` (SPEC 3): the file changed since this session last read or wrote it;
    /// carries `path`.
    pub fn stale_read(path: &str, message: impl Into<String>) -> Self {
        Self::new(Code::StaleRead, message).with("path", path)
    }

    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        ToolError::new(Code::InvalidInput, message).with("field", field)
    }

    /// `invalid_input` with no single field at fault (bad JSON, usage).
    pub fn usage(message: impl Into<String>) -> Self {
        ToolError::new(Code::InvalidInput, message)
    }

    /// The caller cancelled the call (SPEC 22.1). `mcp` sends no response for a cancelled
    /// request, so this is seen only where a caller looks at the envelope anyway.
    pub fn cancelled(what: &str) -> Self {
        ToolError::new(Code::IoError, format!("{what} was cancelled by the client"))
            .with("cancelled", true)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        ToolError::new(Code::InternalError, message)
    }

    /// Maps an OS error on `shown` (the path as the user named it) to the contract's codes.
    pub fn io(err: &io::Error, shown: &str, doing: &str) -> Self {
        match err.kind() {
            io::ErrorKind::NotFound => {
                ToolError::new(Code::NotFound, format!("{shown} does not exist"))
                    .with("path", shown)
                    .hint("Check the path with glob or tree.")
            }
            io::ErrorKind::PermissionDenied => ToolError::new(
                Code::PermissionDenied,
                format!("permission denied {doing} {shown}"),
            )
            .with("path", shown)
            .with_errno(err),
            io::ErrorKind::IsADirectory => ToolError::is_directory(shown),
            _ => {
                // "no space left on device while writing src/a.rs" (SPEC 23.2).
                let cause = io_cause(err).to_lowercase();
                ToolError::new(Code::IoError, format!("{cause} while {doing} {shown}"))
                    .with("path", shown)
                    .with_errno(err)
            }
        }
    }

    pub fn is_directory(shown: &str) -> Self {
        ToolError::new(
            Code::IsDirectory,
            format!("{shown} is a directory, not a file"),
        )
        .with("path", shown)
        .hint("Use tree or glob to list a directory.")
    }

    /// An I/O failure in the state directory: `path` names the state file (SPEC 24.6).
    pub fn state(err: &io::Error, what: &Path) -> Self {
        let cause = io_cause(err);
        ToolError::new(
            Code::IoError,
            format!(
                "state directory: {}: {}",
                what.display(),
                cause.to_lowercase()
            ),
        )
        .with("path", what.display().to_string())
        .hint("Check --state-dir (LOOPR_STATE_DIR): it must be a writable directory.")
        .with_errno(err)
    }

    /// Adds `errno` (`"ENOSPC"`) when the error has a known one (SPEC 23.2).
    fn with_errno(self, err: &io::Error) -> Self {
        match crate::fault::errno_name(err) {
            Some(name) => self.with("errno", name),
            None => self,
        }
    }
}

/// An I/O error's text without its errno suffix: "Permission denied", not
/// "Permission denied (os error 13)".
pub fn io_cause(err: &io::Error) -> String {
    let s = err.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}
