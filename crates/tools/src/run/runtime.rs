//! What `jobs` (and `session reset`) do to processes: end a job's tree from any `loopr-tool`
//! process, and wait for a job's owner. The jobs tool itself only reads and writes records.

use super::exec::GRACE;
use super::keeper::timespec;
use super::proc::{self, ProcId};
use super::record::{self, Job, State};
use crate::context::Ctx;
use crate::error::Result;
use crate::state::StateLock;
use rustix::event::{PollFd, PollFlags, poll};
use rustix::process::Signal;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Where a job's processes can be found now.
#[derive(Clone, Copy)]
enum Tree {
    /// Below its owner (the keeper and everything under it).
    Owner(ProcId),
    /// Below its keeper: the owner died (a killed supervisor); the keeper is ending the tree
    /// already, and we help.
    Keeper(ProcId),
    /// The keeper's session: owner and keeper are both gone, and what they left was re-parented
    /// to init; what did not start a session of its own is still in theirs — or, on a terminal,
    /// in the session its shell leads (the second).
    Session(ProcId, Option<ProcId>),
    Gone,
}

impl Tree {
    /// Where a running job's processes are.
    fn of(ctx: &Ctx, job: &Job) -> Tree {
        if foreign(ctx, job) {
            return Tree::Gone;
        }
        // An owner is trusted only while it is a process of this binary (SPEC 23.6): a
        // record naming any other process — forged, or a pid reused with the same start time
        // is impossible, but a forger can copy one — signals nothing below it.
        let owner = job.owner.filter(|o| o.alive() && proc::is_ours(*o));
        match (owner, live_keeper(job)) {
            (Some(o), _) => Tree::Owner(o),
            (None, Some(k)) => Tree::Keeper(k),
            (None, None) => dead_keepers_session(job),
        }
    }

    /// What a job settled because its owner died may have left. Only a keeper that no longer
    /// hangs below the recorded owner's pid counts as orphaned: one still below it means the
    /// record's owner is not what it says (a forged or stale record), and then nothing is
    /// touched.
    fn left_behind(ctx: &Ctx, job: &Job) -> Tree {
        if foreign(ctx, job) {
            return Tree::Gone;
        }
        let owner_pid = job.owner.map(|o| o.pid);
        match live_keeper(job) {
            Some(k) if proc::stat(k.pid).is_some_and(|s| Some(s.ppid) != owner_pid) => {
                Tree::Keeper(k)
            }
            Some(_) => Tree::Gone,
            None => dead_keepers_session(job),
        }
    }

    fn signal(self, sig: Signal, keeper: Option<ProcId>, seen: &mut HashSet<ProcId>) {
        match self {
            Tree::Owner(o) => {
                proc::signal_descendants(o.pid, sig, keeper, seen);
            }
            Tree::Keeper(k) => {
                proc::signal_descendants(k.pid, sig, None, seen);
            }
            Tree::Session(k, t) => {
                for p in t.into_iter().chain([k]).flat_map(proc::session_members) {
                    if proc::signal(p, sig) {
                        seen.insert(p);
                    }
                }
            }
            Tree::Gone => {}
        }
    }

    /// Whether anything of it may still run.
    fn alive(self, ctx: &Ctx, job: &Job) -> bool {
        match self {
            Tree::Owner(o) => {
                o.alive() && record::peek(ctx, &job.id).is_some_and(|j| j.state == State::Running)
            }
            Tree::Keeper(k) => k.alive(),
            Tree::Session(k, t) => t
                .into_iter()
                .chain([k])
                .any(|l| !proc::session_members(l).is_empty()),
            Tree::Gone => false,
        }
    }
}

/// Whether the record names a supervisor of some other job — another session's, or another
/// job of this one — as its owner, or as its keeper's parent: such a record was written by
/// someone else, and nothing it names is signalled (SPEC 31.4). A supervisor carries the tag
/// of the job it serves as its argument.
fn foreign(ctx: &Ctx, job: &Job) -> bool {
    let tag = record::tag(ctx, &job.id);
    let other_supervisor = |pid: u32| {
        let args = proc::cmdline(pid);
        args.get(1).map(String::as_str) == Some(super::supervisor::COMMAND)
            && args.get(2) != Some(&tag)
    };
    let owner = job.owner.filter(|o| o.alive() && proc::is_ours(*o));
    let keeper_parent = live_keeper(job)
        .and_then(|k| proc::stat(k.pid))
        .map(|s| s.ppid);
    owner.is_some_and(|o| other_supervisor(o.pid)) || keeper_parent.is_some_and(other_supervisor)
}

/// What a keeper that is gone may have left in its session. Only when the recorded keeper no
/// longer runs at all: a live process with its pid and start time that is not this binary's
/// keeper means the record is not what it says, and then nothing is signalled — not even the
/// members of that process's session a scan of /proc would find (SPEC 23.6, 31.3).
fn dead_keepers_session(job: &Job) -> Tree {
    match job.keeper {
        Some(k) if !k.alive() => Tree::Session(k, job.terminal),
        _ => Tree::Gone,
    }
}

/// The job's keeper, if it still runs and is really a keeper (this binary's `__keep`).
fn live_keeper(job: &Job) -> Option<ProcId> {
    job.keeper.filter(|k| k.alive() && proc::is_keeper(*k))
}

/// Ends a running job's tree (SIGTERM, then SIGKILL after the grace time) and waits, bounded,
/// for its owner to record the end. Returns how many processes were signalled.
pub fn end_job(ctx: &Ctx, job: &Job) -> Result<usize> {
    record::update(ctx, &job.id, |j| j.kill_requested = true)?;
    if job.owner == Some(ProcId::me()) {
        return Ok(0); // our own foreground run cannot be waiting: we are here
    }
    Ok(end_tree(ctx, job, Tree::of(ctx, job)))
}

/// Ends what a finished job left running: a job whose owner was killed is settled as
/// `killed`, but its tree may still be there (SPEC 23.7). Returns how many were signalled.
pub fn end_left_behind(ctx: &Ctx, job: &Job) -> usize {
    // A job its owner settled was ended by it to the last process; only one settled by
    // someone else (its owner died, `note` says so) can have left anything.
    if job.note.is_none() {
        return 0;
    }
    end_tree(ctx, job, Tree::left_behind(ctx, job))
}

fn end_tree(ctx: &Ctx, job: &Job, tree: Tree) -> usize {
    let mut seen = HashSet::new();
    tree.signal(Signal::TERM, job.keeper, &mut seen);
    let stop = Instant::now() + GRACE;
    while tree.alive(ctx, job) && Instant::now() < stop {
        std::thread::sleep(Duration::from_millis(10));
    }
    let stop = Instant::now() + Duration::from_secs(5);
    while tree.alive(ctx, job) && Instant::now() < stop {
        tree.signal(Signal::KILL, job.keeper, &mut seen);
        std::thread::sleep(Duration::from_millis(20));
    }
    if let Some(k) = job.keeper {
        seen.remove(&k);
    }
    seen.len()
}

/// Ends every running job of the session (`session reset`). Returns how many.
pub fn end_all(ctx: &Ctx) -> Result<usize> {
    let jobs = {
        let lock = StateLock::acquire(ctx)?;
        record::load_settled(&lock)?
    };
    let mut n = 0;
    for j in jobs.jobs.iter().filter(|j| j.state == State::Running) {
        end_job(ctx, j)?;
        n += 1;
    }
    Ok(n)
}

/// Sleeps until `job`'s owner exits or `left` passes. A supervisor exits right after recording
/// the end, so its pidfd wakes us at once; a foreground owner lives on (or there are no
/// pidfds): 50 ms at a time.
pub fn nap(job: &Job, left: Duration) {
    let exit_fd = job
        .owner
        .filter(|o| job.background && o.alive())
        .and_then(|o| proc::exit_fd(o.pid).filter(|_| o.alive()));
    match exit_fd {
        Some(fd) => {
            let mut fds = [PollFd::new(&fd, PollFlags::IN)];
            let _ = poll(&mut fds, Some(&timespec(left)));
        }
        None => std::thread::sleep(left.min(Duration::from_millis(50))),
    }
}
