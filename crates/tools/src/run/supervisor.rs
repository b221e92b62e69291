//! Background jobs (SPEC §15): `run` with `background: true` starts a supervisor — this same
//! binary, as the hidden `__job` command — detached in a session of its own and orphaned on
//! purpose (a double fork), so the `loopr-tool` that started it may exit at once. The supervisor
//! is a child subreaper: it starts the shell through a keeper (keeper.rs), writes the log, ends
//! what the shell leaves behind, and records the exit. `jobs` in any later process reads that
//! record. A supervisor that is killed takes the job with it: its keeper ends the tree.
//!
//! The handshake: the order (JSON) goes to the supervisor's stdin; it answers one line on its
//! stdout — `ok` once the shell runs and the record names the supervisor as owner, or `err …`
//! (e.g. `network: none` or the sandbox refused) — so `run` reports a failed start as its own
//! error.

use super::capture::Capture;
use super::exec::{self, Spec};
use super::isolation;
use super::keeper::Refusal;
use super::proc::{self, ProcId};
use super::record::{self, Job};
use super::stdin;
use super::term;
use super::tty;
use super::waiting::Input;
use crate::context::{Ctx, Globals};
use crate::envelope::{Format, Success};
use crate::error::{Code, Result, ToolError};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::ffi::CString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the model reads, stops and types into the job it started, in the names it was offered
/// (SPEC 25.5); a way it lacks is not named.
fn started_hint(ctx: &Ctx, id: &str, interactive: bool) -> String {
    let mut out = "Its output goes to its log.".to_string();
    if let Some(output) = ctx.offered("jobs", Some("output")) {
        let wait = if output.name == "jobs" {
            " (block: true waits for the end)"
        } else {
            ""
        };
        out.push_str(&format!(
            " Page it with {}{wait}.",
            output.call(Some("output"), &[("id", id)])
        ));
    }
    if let Some(kill) = ctx.offered("jobs", Some("kill")) {
        out.push_str(&format!(
            " Stop it with {}.",
            kill.call(Some("kill"), &[("id", id)])
        ));
    }
    out.push('\n');
    if interactive && let Some(write) = ctx.offered("jobs", Some("write")) {
        out.push_str(&format!(
            "Its stdin stays open: type into it with {} and chars \"…\\n\", which answers with what it printed since.\n",
            write.call(Some("write"), &[("id", id)])
        ));
    }
    out
}

/// The hidden subcommand that runs a supervisor.
pub const COMMAND: &str = "__job";

#[derive(Serialize, Deserialize)]
struct Order {
    root: PathBuf,
    session: String,
    state_dir: PathBuf,
    id: String,
    spec: Spec,
}

/// `run` with `background: true`: records the job, starts its supervisor, waits for its word.
pub fn start(ctx: &Ctx, job: Job, spec: Spec, sandbox: serde_json::Value) -> Result<Success> {
    let job = record::begin(ctx, job).inspect_err(|_| {
        isolation::remove_tmpdir(spec.tmpdir.as_ref());
    })?;
    let tmpdir = spec.tmpdir.clone();
    let order = Order {
        root: ctx.root_real.clone(),
        session: ctx.session.clone(),
        state_dir: ctx.state_dir.clone(),
        id: job.id.clone(),
        spec,
    };
    if let Err(e) = launch(&order, &record::tag(ctx, &job.id)) {
        let _ = record::forget(ctx, &job.id);
        isolation::remove_tmpdir(tmpdir.as_ref());
        return Err(e);
    }
    let mut out = String::new();
    out.push_str(&format!(
        "Started job {} in the background: {}\n",
        job.id,
        job.label()
    ));
    out.push_str(&started_hint(ctx, &job.id, job.interactive));
    let mut data = json!({
        "id": job.id,
        "background": true,
        "state": "running",
        "cwd": job.cwd,
        "started_at": job.started_at,
        "log": record::log_path(&crate::state::session_dir(ctx), &job.id).to_string_lossy(),
        "sandbox": sandbox,
    });
    if let Some(d) = &job.description {
        data["description"] = json!(d);
    }
    if job.interactive {
        data["interactive"] = json!(true);
    }
    Ok(Success::new(out, data))
}

fn launch(order: &Order, tag: &str) -> Result<()> {
    let fail = |e: std::io::Error| {
        ToolError::new(
            Code::IoError,
            format!("could not start the background job's supervisor: {e}"),
        )
    };
    let mut cmd = Command::new(super::keeper::program());
    cmd.arg(COMMAND)
        .arg(tag)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: fork, setsid and _exit are async-signal-safe. The intermediate child exits at
    // once, so the supervisor is orphaned (to init, or to the nearest subreaper above us) and
    // never becomes part of any tree a foreground run of this process ends. (rustix offers no
    // fork outside its runtime feature.)
    unsafe {
        cmd.pre_exec(|| match libc::fork() {
            -1 => Err(std::io::Error::last_os_error()),
            0 => {
                rustix::process::setsid()?;
                Ok(())
            }
            _ => libc::_exit(0),
        });
    }
    let mut child = cmd.spawn().map_err(fail)?;
    // Take the pipes before reaping the intermediate: `wait` closes stdin.
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let _ = child.wait();
    let order_json = serde_json::to_vec(order).map_err(|e| ToolError::internal(e.to_string()))?;
    stdin.write_all(&order_json).map_err(fail)?;
    drop(stdin);
    let mut answer = String::new();
    let mut reader = BufReader::new(stdout);
    reader.read_line(&mut answer).map_err(fail)?;
    if !answer.starts_with("ok") {
        // A supervisor that did not start the command exits at once: its pipe's end says it
        // has, so a failed start returns with nothing of it still running (a test saw it alive
        // just after the refusal).
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    }
    match answer
        .trim_end()
        .split_once(' ')
        .unwrap_or((answer.trim_end(), ""))
    {
        ("ok", _) => Ok(()),
        ("err", msg) => match serde_json::from_str::<Refusal>(msg) {
            Ok(r) => Err(isolation::refused(r)),
            Err(_) => Err(ToolError::new(Code::IoError, msg.to_string())),
        },
        _ => Err(ToolError::new(
            Code::IoError,
            "the background job's supervisor ended before starting the command",
        )),
    }
}

/// The supervisor's life: `loopr-tool __job`, its order on stdin.
pub fn main() -> i32 {
    let mut raw = vec![];
    if std::io::stdin().read_to_end(&mut raw).is_err() {
        return 1;
    }
    let Ok(order) = serde_json::from_slice::<Order>(&raw) else {
        answer("err {\"message\":\"unreadable order\"}");
        return 1;
    };
    let g = Globals {
        root: Some(order.root.clone()),
        session: Some(order.session.clone()),
        state_dir: Some(order.state_dir.clone()),
        no_sandbox: true,
        no_read_check: true,
        allow_private: false,
        allow_dangerous: false,
        run_sandbox: None,
        format: Format::Json,
        pretty: false,
        policy: Default::default(),
        hub: None,
        harness: false,
        client: None,
        approve: None,
    };
    let Ok(ctx) = Ctx::new(&g) else {
        answer("err {\"message\":\"the root or state directory is gone\"}");
        return 1;
    };
    let Some(job) = record::peek(&ctx, &order.id) else {
        answer("err {\"message\":\"the job record is gone\"}");
        return 1;
    };
    let mut capture = Capture::new(super::open_log(&ctx, &order.id), super::budget(&job));
    if let Err(e) = proc::set_subreaper(true) {
        answer(&format!(
            "err {}",
            json!({"message": format!("could not become the child subreaper: {e}")})
        ));
        return 1;
    }
    // An interactive job's stdin: its FIFO, whose write end we hold until the job ends.
    let fifo = job
        .interactive
        .then(|| record::stdin_path(&crate::state::session_dir(&ctx), &order.id));
    let made = fifo.as_deref().map(|path| {
        let ends = stdin::make(path)?;
        if let Some(text) = &order.spec.stdin {
            stdin::feed(path, &ends, text)?;
        }
        Ok::<_, std::io::Error>(ends)
    });
    let (stdin, keep) = match made.transpose() {
        Ok(ends) => ends.map_or((None, None), |e| (Some(e.read), Some(e.write))),
        Err(e) => {
            if let Some(f) = &fifo {
                let _ = std::fs::remove_file(f);
            }
            answer(&format!(
                "err {}",
                json!({"message": format!("could not make the job's stdin FIFO: {e}")})
            ));
            return 1;
        }
    };
    let forget_fifo = || {
        if let Some(f) = &fifo {
            let _ = std::fs::remove_file(f);
        }
    };
    let screen = job.interactive.then(|| {
        let (rows, cols) = order.spec.tty.unwrap_or((tty::ROWS, tty::COLS));
        Arc::new(Mutex::new(tty::Screen::new(
            rows,
            cols,
            order.spec.tty.is_none(),
        )))
    });
    if let Some(screen) = &screen {
        let s = screen.clone();
        capture.tap(move |b| s.lock().unwrap_or_else(|e| e.into_inner()).feed(b));
    }
    let relay = Arc::new(tty::Relay::default());
    if order.spec.tty.is_some() {
        let r = relay.clone();
        capture.scrub(move |b| r.scrub(b));
    }
    let Opened {
        io,
        input,
        master,
        slave,
    } = match open_io(&order.spec, stdin, keep.as_ref(), &relay) {
        Ok(x) => x,
        Err(e) => {
            forget_fifo();
            answer(&format!(
                "err {}",
                json!({"message": format!("could not open the job's terminal: {e}")})
            ));
            return 1;
        }
    };
    let running = match exec::spawn_with(&order.spec, io) {
        Ok(r) => r,
        Err(r) => {
            forget_fifo();
            answer(&format!(
                "err {}",
                serde_json::to_string(&r).unwrap_or_default()
            ));
            return 1;
        }
    };
    let term_file = record::term_path(&crate::state::session_dir(&ctx), &order.id);
    let stop = Arc::new(AtomicBool::new(false));
    let watch = match (screen, input) {
        (Some(screen), Some(input)) => {
            let (rows, cols) = order.spec.tty.unwrap_or((tty::ROWS, tty::COLS));
            let w = tty::Watch {
                keeper: running.keeper.pid,
                input,
                master,
                fifo: keep.as_ref().and_then(|k| k.try_clone().ok()),
                slave,
                output: running.output_fd().ok(),
                screen,
                relay,
                rows,
                cols,
            };
            let path = term_file.clone();
            Some(w.spawn(stop.clone(), move |st| term::publish(&path, st)))
        }
        _ => None,
    };
    let me = ProcId::me();
    let keeper = running.keeper;
    let terminal = order.spec.tty.and_then(|_| ProcId::of(running.shell));
    let _ = record::update(&ctx, &order.id, |j| {
        j.owner = Some(me);
        j.keeper = Some(keeper);
        j.terminal = terminal;
    });
    answer("ok");
    // From here on nobody listens: the starter has gone.
    super::keeper::detach_stdio();
    let outcome = exec::finish(
        running,
        &mut capture,
        order.spec.timeout_ms.map(Duration::from_millis),
        &ctx.control,
        None,
    );
    isolation::remove_tmpdir(order.spec.tmpdir.as_ref());
    // The last screen stays with the log (SPEC 28: output after exit is kept).
    stop.store(true, Ordering::SeqCst);
    if let Some(w) = watch.and_then(|h| h.join().ok()) {
        let mut last = w.look();
        last.state = tty::ENDED.into();
        (last.prompt, last.secret, last.choices, last.reader) = (None, false, None, None);
        term::publish(&term_file, &last);
    }
    // The job has ended: a later write finds no FIFO and says so.
    drop(keep);
    forget_fifo();
    let captured = capture.finish(&super::page_hint(&ctx, &order.id));
    // The log is all a later reader has: say there what the end was like.
    let note = if outcome.timed_out {
        Some(format!(
            "[loopr-tool: timed out after {}; {} processes ended]\n",
            super::secs(order.spec.timeout_ms.unwrap_or(0)),
            outcome.ended
        ))
    } else if outcome.ended_leftovers && outcome.ended > 0 {
        Some(format!(
            "[loopr-tool: the shell exited; {} process(es) it left running were ended]\n",
            outcome.ended
        ))
    } else {
        None
    };
    if let Some(note) = note {
        let log = record::log_path(&crate::state::session_dir(&ctx), &order.id);
        if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(log) {
            let _ = f.write_all(note.as_bytes());
        }
    }
    let _ = record::update(&ctx, &order.id, |j| {
        super::settle(j, &outcome, captured.total)
    });
    0
}

/// What `open_io` opened: the command's stdin and output, and what the watch looks at.
struct Opened {
    io: exec::Io,
    input: Option<Input>,
    master: Option<OwnedFd>,
    slave: Option<CString>,
}

/// The command's stdin and output: a pty (`tty`), whose writes the FIFO's bytes reach through
/// the relay; the FIFO itself (an interactive job on pipes); or plain pipes. With them, what
/// waiting.rs watches and the master it asks about the foreground group and echo.
fn open_io(
    spec: &Spec,
    fifo_read: Option<OwnedFd>,
    fifo_write: Option<&OwnedFd>,
    relay: &Arc<tty::Relay>,
) -> std::io::Result<Opened> {
    let pipe_input = |fd: &OwnedFd| -> std::io::Result<Input> {
        let st = rustix::fs::fstat(fd)?;
        Ok(Input::Pipe {
            dev: st.st_dev,
            ino: st.st_ino,
        })
    };
    match (spec.tty, fifo_read) {
        (Some((rows, cols)), Some(read)) => {
            let pty = tty::open(rows, cols)?;
            tty::relay(read, pty.master.try_clone()?, relay.clone());
            let watched = pty.master.try_clone()?;
            let io = exec::Io::Tty {
                slave: pty.slave,
                master: pty.master,
            };
            Ok(Opened {
                io,
                input: Some(Input::Tty { rdev: pty.rdev }),
                master: Some(watched),
                slave: Some(pty.path),
            })
        }
        (_, Some(read)) => {
            let input = fifo_write.map(pipe_input).transpose()?;
            Ok(Opened {
                io: exec::Io::Stdin(read),
                input,
                master: None,
                slave: None,
            })
        }
        (_, None) => Ok(Opened {
            io: exec::Io::Pipes,
            input: None,
            master: None,
            slave: None,
        }),
    }
}

fn answer(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
