//! The order calls in flight keep (SPEC 24.7), for `mcp`: a call that reads starts at once
//! unless a call that changes files is still pending before it; a call that changes files or
//! runs a command starts after every earlier such call has finished. So a `read` never waits
//! behind a running `run`, and an `edit` never overtakes the `write` sent before it.
//!
//! Calls are admitted in arrival order (the order of the protocol stream) and each waits on its
//! own thread for its turn; finishing (or being cancelled while waiting) lets the next go.

use crate::control::Control;
use crate::tool::Effect;
use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

#[derive(Default)]
pub struct Scheduler {
    /// Admitted and not finished, by arrival number.
    pending: Mutex<(u64, BTreeMap<u64, Effect>)>,
    turn: Condvar,
}

/// Whether a call with effect `later` must wait for a pending earlier call with effect `earlier`.
/// Nothing waits for a read or for a call that talks to other loops (24.7: query, share,
/// complete_task and the artifact tools hold nothing back); those two wait only for earlier
/// file changes, so what they look at or tell about is already written.
fn waits_for(earlier: Effect, later: Effect) -> bool {
    match later {
        Effect::Reads | Effect::Talks => earlier == Effect::ChangesFiles,
        Effect::ChangesFiles | Effect::Commands => {
            matches!(earlier, Effect::ChangesFiles | Effect::Commands)
        }
    }
}

impl Scheduler {
    pub fn new() -> Scheduler {
        Scheduler::default()
    }

    /// Takes a call's place in line; call in arrival order.
    pub fn admit(&self, effect: Effect) -> u64 {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let seq = p.0;
        p.0 += 1;
        p.1.insert(seq, effect);
        seq
    }

    /// Blocks until call `seq` may start. Returns false when it was cancelled while waiting
    /// (it then never starts; `finish` must still be called).
    pub fn wait_turn(&self, seq: u64, control: &Control) -> bool {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if control.is_cancelled() {
                return false;
            }
            let Some(&mine) = p.1.get(&seq) else {
                return true;
            };
            if !p.1.range(..seq).any(|(_, e)| waits_for(*e, mine)) {
                return true;
            }
            // A cancel does not notify this condvar; look again now and then.
            p = self
                .turn
                .wait_timeout(p, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The call is done (or will never run): those waiting behind it may go.
    pub fn finish(&self, seq: u64) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.1.remove(&seq);
        drop(p);
        self.turn.notify_all();
    }

    /// Calls admitted and not finished.
    #[cfg(test)]
    pub fn in_flight(&self) -> usize {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Effect::*;

    /// Which of the pending calls may start now.
    fn startable(s: &Scheduler, seqs: &[u64]) -> Vec<u64> {
        let p = s.pending.lock().unwrap();
        seqs.iter()
            .copied()
            .filter(|seq| {
                let mine = p.1[seq];
                !p.1.range(..*seq).any(|(_, e)| waits_for(*e, mine))
            })
            .collect()
    }

    #[test]
    fn reads_pass_commands_but_not_file_changes() {
        let s = Scheduler::new();
        let run = s.admit(Commands);
        let read = s.admit(Reads);
        let write = s.admit(ChangesFiles);
        let read2 = s.admit(Reads);
        let run2 = s.admit(Commands);
        // The read goes past the running command; the write waits for it; the second read
        // waits for the write; the second command waits for both earlier ordered calls.
        assert_eq!(startable(&s, &[run, read, write, read2, run2]), [run, read]);
        s.finish(run);
        assert_eq!(startable(&s, &[read, write, read2, run2]), [read, write]);
        s.finish(write);
        assert_eq!(startable(&s, &[read, read2, run2]), [read, read2, run2]);
    }

    #[test]
    fn a_waiting_query_holds_nothing_back() {
        let s = Scheduler::new();
        let write = s.admit(ChangesFiles);
        let query = s.admit(Talks);
        let reply = s.admit(Talks);
        let run = s.admit(Commands);
        let edit = s.admit(ChangesFiles);
        let read = s.admit(Reads);
        // The query waits for the write before it (it may be about that file), nothing else.
        assert_eq!(
            startable(&s, &[write, query, reply, run, edit, read]),
            [write]
        );
        s.finish(write);
        // With the query still waiting for its answer, everything after it may go in its turn:
        // the answer, the command, then the edit (behind the command), the read (behind the edit).
        assert_eq!(
            startable(&s, &[query, reply, run, edit, read]),
            [query, reply, run]
        );
        s.finish(run);
        s.finish(reply);
        assert_eq!(startable(&s, &[query, edit, read]), [query, edit]);
    }

    #[test]
    fn a_cancelled_waiter_gives_up_and_its_finish_frees_the_line() {
        let s = std::sync::Arc::new(Scheduler::new());
        let first = s.admit(ChangesFiles);
        let second = s.admit(ChangesFiles);
        let third = s.admit(Reads);
        let c = Control::new();
        c.cancel();
        assert!(!s.wait_turn(second, &c));
        s.finish(second);
        let s2 = s.clone();
        let waiter = std::thread::spawn(move || s2.wait_turn(third, &Control::new()));
        std::thread::sleep(Duration::from_millis(30));
        assert!(!waiter.is_finished(), "the read waits for the first write");
        s.finish(first);
        assert!(waiter.join().unwrap());
        assert_eq!(s.in_flight(), 1);
    }
}
