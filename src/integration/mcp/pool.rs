//! The threads that run `tools/call`s, kept between calls: a thread per call cost ~15% of a
//! 2 KB read's time in the server. A call takes an idle thread, or a new one, up to `MAX`
//! (SPEC 31.4: at most 64 calls run at once per server; a client sending thousands of calls no
//! longer gets thousands of threads); past that, calls wait in arrival order for a thread to
//! come free. Under the cap a call never waits for a thread, so a long `run` never holds a
//! read back. An idle thread leaves after a minute.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The most calls that run at once.
pub const MAX: usize = 64;
/// How long an idle thread waits for a call before it leaves.
const IDLE: Duration = Duration::from_secs(60);

pub type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    threads: usize,
    /// Threads waiting for a call that no call has claimed yet.
    idle: usize,
    /// Idle threads claimed by a call and woken, not yet awake.
    woken: usize,
}

#[derive(Default, Clone)]
pub struct Pool {
    shared: Arc<(Mutex<State>, Condvar)>,
}

impl Pool {
    pub fn new() -> Pool {
        Pool::default()
    }

    /// Runs `job` on an idle thread, a new one under `MAX`, or the first to come free.
    pub fn run(&self, job: Job) {
        let (lock, wake) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        s.queue.push_back(job);
        if s.idle > 0 {
            s.idle -= 1;
            s.woken += 1;
            wake.notify_one();
        } else if s.threads < MAX {
            s.threads += 1;
            let pool = self.clone();
            std::thread::spawn(move || pool.work());
        }
    }

    /// Runs calls until none comes for `IDLE`.
    fn work(&self) {
        let (lock, wake) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(job) = s.queue.pop_front() {
                drop(s);
                job();
                s = lock.lock().unwrap_or_else(|e| e.into_inner());
                continue;
            }
            s.idle += 1;
            loop {
                let (next, timeout) = wake
                    .wait_timeout(s, IDLE)
                    .unwrap_or_else(|e| e.into_inner());
                s = next;
                if s.woken > 0 {
                    // Claimed: the call's `run` took this thread off `idle`.
                    s.woken -= 1;
                    break;
                }
                if timeout.timed_out() {
                    s.idle -= 1;
                    s.threads -= 1;
                    return;
                }
            }
        }
    }

    /// Threads alive now.
    #[cfg(test)]
    fn threads(&self) -> usize {
        self.shared.0.lock().unwrap().threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn at_most_max_calls_run_at_once_and_the_rest_start_in_order() {
        let pool = Pool::new();
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let (release, gate) = mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        let (started, starts) = mpsc::channel::<usize>();
        for n in 0..MAX + 10 {
            let (running, peak, gate, started) =
                (running.clone(), peak.clone(), gate.clone(), started.clone());
            pool.run(Box::new(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                started.send(n).unwrap();
                let _ = gate.lock().unwrap().recv();
                running.fetch_sub(1, Ordering::SeqCst);
            }));
        }
        let first: Vec<usize> = (0..MAX).map(|_| starts.recv().unwrap()).collect();
        assert!(first.iter().all(|&n| n < MAX), "{first:?}");
        assert!(
            starts.recv_timeout(Duration::from_millis(200)).is_err(),
            "a call past the cap started"
        );
        assert_eq!(pool.threads(), MAX);
        // Each call that ends lets the next waiting one start, in arrival order.
        for want in MAX..MAX + 10 {
            release.send(()).unwrap();
            assert_eq!(starts.recv().unwrap(), want);
        }
        for _ in 0..MAX {
            release.send(()).unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), MAX);
    }

    #[test]
    fn an_idle_thread_is_reused() {
        let pool = Pool::new();
        let (done, finished) = mpsc::channel::<()>();
        for _ in 0..5 {
            let done = done.clone();
            pool.run(Box::new(move || done.send(()).unwrap()));
            finished.recv().unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(pool.threads(), 1);
    }
}
