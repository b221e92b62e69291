//! The process's exit status (SPEC 1.3, 16.2), as fd's `exit_codes.rs` and uv's `ExitStatus`
//! have it: a value carried from the call to the entry, and a number only there (`run_main`'s
//! caller, src/main.rs).

/// How the process ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum ExitStatus {
    /// 0: the tool succeeded (in a batch: every call did); `--help`, `--version`.
    Success,
    /// 1: the tool failed (`ok: false`, any code but `invalid_input`), a call panicked, or
    /// stdout failed other than by being closed.
    Failure,
    /// 2: `invalid_input` or a usage error (an unknown subcommand, a bad flag or variable);
    /// also `catalog --check` finding a problem.
    Usage,
}

impl ExitStatus {
    /// The number the process exits with.
    pub const fn code(self) -> i32 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
        }
    }

    /// The status of a hidden entry point's own number (run's keeper and supervisor answer 0
    /// or 1).
    pub const fn of_code(code: i32) -> ExitStatus {
        match code {
            0 => ExitStatus::Success,
            2 => ExitStatus::Usage,
            _ => ExitStatus::Failure,
        }
    }
}

impl From<ExitStatus> for i32 {
    fn from(s: ExitStatus) -> i32 {
        s.code()
    }
}
