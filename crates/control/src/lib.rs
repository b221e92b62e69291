//! What an entry point can do to a call while it runs: cancel it and hear how far it has got
//! (SPEC 22.1). `mcp` makes one per request; everywhere else a call gets one that is never
//! cancelled and that nobody listens to, so a tool checks and reports without asking who called.
//!
//! Cheap on purpose: a tool may check `cancelled()` per file walked and `advance()` per byte
//! count, so both are single atomic operations; only the text of a progress message takes a lock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Control {
    cancelled: AtomicBool,
    /// The catalog's time limit for the whole call (SPEC 19.2, 24.7): past it, the call is
    /// asked to stop as by a cancel, and answers `timeout` with what it has.
    deadline: OnceLock<Instant>,
    /// Whether the call was stopped by its deadline (it looked, and the time was up).
    timed_out: AtomicBool,
    /// What the call has done so far (bytes of output, files walked): only ever grows.
    amount: AtomicU64,
    /// What a person would want to read about it (a run's last output line).
    message: Mutex<Option<String>>,
    /// What `amount` counts, for a progress message when there is no other.
    unit: Mutex<&'static str>,
}

/// One look at a call's progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub amount: u64,
    pub message: Option<String>,
}

impl Control {
    pub fn new() -> Control {
        Control::default()
    }

    /// Asks the call to stop. A tool stops at its next check; one that changes files honours it
    /// only before its first rename (24.7), so nothing is left half-written.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether the call should stop: the caller cancelled it, or its time is up.
    pub fn is_cancelled(&self) -> bool {
        if self.cancelled.load(Ordering::Relaxed) {
            return true;
        }
        match self.deadline.get() {
            Some(d) if Instant::now() >= *d => {
                self.timed_out.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// Whether the caller cancelled the call (mcp then sends no response); a deadline is not
    /// a cancel.
    pub fn client_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Gives the call a time limit, from now.
    pub fn set_deadline(&self, limit: Duration) {
        let _ = self.deadline.set(Instant::now() + limit);
    }

    /// The time left before the deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .get()
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the call stopped because its time was up (a tool looked after the deadline).
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Relaxed)
    }

    /// Adds to the amount done (files walked, bytes read).
    pub fn advance(&self, by: u64) {
        self.amount.fetch_add(by, Ordering::Relaxed);
    }

    /// Sets the amount done (a total the tool keeps itself); it never goes back.
    pub fn set_amount(&self, amount: u64) {
        self.amount.fetch_max(amount, Ordering::Relaxed);
    }

    pub fn set_message(&self, message: String) {
        *self.message.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
    }

    /// Names what `amount` counts (`"entries walked"`), so progress can say it without text
    /// updated per entry.
    pub fn set_message_unit(&self, unit: &'static str) {
        *self.unit.lock().unwrap_or_else(|e| e.into_inner()) = unit;
    }

    pub fn progress(&self) -> Progress {
        let amount = self.amount.load(Ordering::Relaxed);
        let message = self
            .message
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .or_else(|| {
                let unit = *self.unit.lock().unwrap_or_else(|e| e.into_inner());
                (!unit.is_empty()).then(|| format!("{amount} {unit}"))
            });
        Progress { amount, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_only_grow_and_cancel_sticks() {
        let c = Control::new();
        c.advance(5);
        c.set_amount(3);
        assert_eq!(c.progress().amount, 5);
        c.set_amount(9);
        c.set_message("line".into());
        assert_eq!(
            c.progress(),
            Progress {
                amount: 9,
                message: Some("line".into())
            }
        );
        assert!(!c.is_cancelled());
        c.cancel();
        assert!(c.is_cancelled());
    }
}
