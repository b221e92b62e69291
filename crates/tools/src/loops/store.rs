//! Where loops meet (SPEC 20): each session's inbox, its completion and its artifacts, as
//! files in its state directory.
//!
//! An inbox is a directory of one file per message, `m<id>.json`, as reads.rs shards read
//! records: a share costs one file and a directory listing, whatever the inbox holds, and a
//! reader killed half-way through can leave nothing half-written. Beside each query, `r<id>.json`
//! is its reply and `x<id>` marks it expired (the asker stopped waiting); `read.json` holds the
//! highest id shown to the owner, so every message at or below it is read. Ids are never reused
//! while the inbox lives: a new one is one more than any id present or read.
//!
//! A message is written and fsynced under a temporary name before any lock is taken, so the
//! fsync (2–6 ms here) never serialises senders; under the target's state lock the sender only
//! lists the inbox, checks its cap, picks the id and renames. The directory is fsynced after
//! the lock is released, before the call answers (concurrent fsyncs share the journal commit).

use super::redis;
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::state::{self, SessionsLock, StateLock};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const INBOX: &str = "inbox";
/// Messages an inbox keeps (SPEC 20.2); unread ones are never dropped (24.7).
pub const CAP: usize = 500;
/// The largest message, serialised: 500 of them must stay a reasonable inbox.
pub const MAX_MESSAGE: usize = 1 << 20;
const READ_FILE: &str = "read.json";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Share,
    Query,
}

/// A message as its file holds it (the id is the file's name).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    pub from: String,
    pub at: String,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// A query's token, repeated in its reply: an asker never takes the reply to another
    /// question that got the same id after the inbox was reset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<u64>,
}

/// A reply to a query, `r<id>.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reply {
    pub text: String,
    pub from: String,
    pub at: String,
    pub nonce: Option<u64>,
    /// The options chosen, for a question with options (ask_user, SPEC 25.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<Vec<String>>,
}

/// What a reply says: its text, and for a question with options the ones chosen.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    pub text: String,
    pub selected: Option<Vec<String>>,
}

/// A question's options, as ask_user stores them in its query's `data`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Choices {
    pub options: Vec<String>,
    #[serde(default)]
    pub multi_select: bool,
}

/// Checks an answer's `selected` against the question's options (SPEC 25.4): the harness's
/// reply is refused, never the model's call.
pub(super) fn check_selected(query: &Stored, selected: Option<&[String]>) -> Result<()> {
    let choices = query
        .data
        .as_ref()
        .and_then(|d| serde_json::from_value::<Choices>(d.clone()).ok())
        .filter(|c| !c.options.is_empty());
    let Some(selected) = selected else {
        return Ok(());
    };
    let Some(choices) = choices else {
        return Err(ToolError::invalid(
            "selected",
            "inbox: selected is for a question with options; this one has none: answer with text",
        ));
    };
    if selected.is_empty() || (!choices.multi_select && selected.len() > 1) {
        let want = if choices.multi_select {
            "one or more"
        } else {
            "exactly one"
        };
        return Err(ToolError::invalid(
            "selected",
            format!(
                "inbox: selected holds {} option(s); this question takes {want}",
                selected.len()
            ),
        ));
    }
    if let Some((i, bad)) = selected
        .iter()
        .enumerate()
        .find(|(_, s)| !choices.options.contains(s))
    {
        return Err(ToolError::invalid(
            &format!("selected[{i}]"),
            format!(
                "inbox: {bad:?} is not one of the question's options: {}",
                choices.options.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A message as `inbox` shows it (SPEC 24.4).
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    pub id: u64,
    pub from: String,
    pub at: String,
    pub kind: Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expired: Option<bool>,
    /// A query's reply text, once given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// Whether it had been shown before this call.
    pub read: bool,
}

/// A session's directory in this call's file hub (SPEC 25.1): the root's own session directory
/// outside git, else the repository's or the named hub's.
pub fn hub_session_dir(ctx: &Ctx, session: &str) -> Result<PathBuf> {
    match ctx.hub()?.dir() {
        Some(dir) => Ok(crate::hub::session_dir(dir, session)),
        None => Err(ToolError::internal(
            "a Redis hub has no directory: the caller asks the Redis backend",
        )),
    }
}

pub fn inbox_dir(ctx: &Ctx, session: &str) -> Result<PathBuf> {
    Ok(hub_session_dir(ctx, session)?.join(INBOX))
}

fn lock_session<'a>(ctx: &'a Ctx, session: &str) -> Result<StateLock<'a>> {
    StateLock::acquire_in(ctx, hub_session_dir(ctx, session)?)
}

fn name(prefix: char, id: u64) -> String {
    match prefix {
        'm' | 'r' => format!("{prefix}{id:012}.json"),
        _ => format!("{prefix}{id:012}"),
    }
}

/// What an inbox directory holds, by id.
#[derive(Default)]
struct Scan {
    messages: BTreeSet<u64>,
    replies: BTreeSet<u64>,
    expired: BTreeSet<u64>,
    read_upto: u64,
}

impl Scan {
    fn unread(&self) -> usize {
        self.messages.range(self.read_upto + 1..).count()
    }

    fn next_id(&self) -> u64 {
        self.messages
            .last()
            .copied()
            .unwrap_or(0)
            .max(self.read_upto)
            + 1
    }
}

/// Lists an inbox (held under its session's lock). Temporary files of senders that died
/// before their rename are removed once they are old enough to be nobody's.
fn scan(ctx: &Ctx, dir: &Path) -> Result<Scan> {
    let mut s = Scan::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(s),
        Err(e) => return Err(ToolError::state(&e, dir)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| ToolError::state(&e, dir))?;
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        if file.starts_with('.') {
            remove_if_stale(&entry.path());
            continue;
        }
        let (kind, rest) = file.split_at(1.min(file.len()));
        let digits = rest.strip_suffix(".json").unwrap_or(rest);
        let Ok(id) = digits.parse::<u64>() else {
            continue;
        };
        match kind {
            "m" => s.messages.insert(id),
            "r" => s.replies.insert(id),
            "x" => s.expired.insert(id),
            _ => false,
        };
    }
    s.read_upto = read_upto(ctx, dir);
    Ok(s)
}

fn remove_if_stale(path: &Path) {
    let old = std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(600));
    if old {
        let _ = std::fs::remove_file(path);
    }
}

#[derive(Serialize, Deserialize)]
struct ReadMark {
    read_upto: u64,
}

/// The highest id shown. A lost or corrupt mark shows messages again, which loses nothing.
fn read_upto(ctx: &Ctx, dir: &Path) -> u64 {
    let path = dir.join(READ_FILE);
    match std::fs::read(&path) {
        Ok(bytes) => match serde_json::from_slice::<ReadMark>(&bytes) {
            Ok(m) => m.read_upto,
            Err(e) => {
                ctx.warn(format!(
                    "inbox read mark {} was corrupt ({e}); every kept message counts as unread",
                    path.display()
                ));
                let _ = std::fs::remove_file(&path);
                0
            }
        },
        Err(_) => 0,
    }
}

/// Writes `value` under a temporary name in `dir`, fsynced: ready to be renamed into place.
fn stage(dir: &Path, value: &impl Serialize) -> Result<tempfile::TempPath> {
    state::create_dir(dir)?;
    let bytes = serde_json::to_vec(value)
        .map_err(|e| ToolError::internal(format!("serialising a message: {e}")))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".new.")
        .tempfile_in(dir)
        .map_err(|e| ToolError::state(&e, dir))?;
    tmp.write_all(&bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| ToolError::state(&e, tmp.path()))?;
    Ok(tmp.into_temp_path())
}

/// The serialised size of a message, refused over `MAX_MESSAGE` (`too_large`, naming `field`).
pub fn check_size(value: &impl Serialize, field: &str) -> Result<()> {
    let n = serde_json::to_vec(value).map(|v| v.len()).unwrap_or(0);
    if n > MAX_MESSAGE {
        return Err(ToolError::too_large(
            MAX_MESSAGE,
            format!("{field} is {n} bytes as JSON; a message holds at most {MAX_MESSAGE} bytes"),
        )
        .with("field", field)
        .hint("Share a file's path instead of its content, or split the data."));
    }
    Ok(())
}

/// The refusal of a share to a full inbox: `target` is `to[i]`.
pub fn full_inbox(i: usize, target: &str) -> ToolError {
    ToolError::too_large(
        CAP,
        format!("the inbox of session {target} holds {CAP} unread messages; nothing was sent"),
    )
    .with("field", format!("to[{i}]"))
    .with("target", target)
    .hint(format!(
        "Session {target} must read its inbox (`inbox`) before it can take more."
    ))
}

/// Appends one message to each target's inbox: all of them or none (a full inbox refuses the
/// whole share). `targets[i]` is blamed as `to[i]`. Returns the ids given, in order.
pub fn deliver(ctx: &Ctx, targets: &[(&str, Stored)]) -> Result<Vec<u64>> {
    deliver_by(ctx, targets, None)
}

/// As `deliver`, waiting for a Redis hub no later than `deadline` (a query's own timeout).
pub fn deliver_by(
    ctx: &Ctx,
    targets: &[(&str, Stored)],
    deadline: Option<Instant>,
) -> Result<Vec<u64>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::deliver(ctx, url, targets, deadline);
    }
    let dirs: Vec<PathBuf> = targets
        .iter()
        .map(|(t, _)| inbox_dir(ctx, t))
        .collect::<Result<_>>()?;
    // A share that fails creates nothing (SPEC 31.4): the inboxes it made for it go again (only
    // if still empty: a concurrent share may have delivered into one meanwhile).
    let new: Vec<PathBuf> = dirs.iter().filter(|d| !d.exists()).cloned().collect();
    match deliver_into(ctx, targets, &dirs) {
        Ok(ids) => {
            note(ctx);
            Ok(ids)
        }
        Err(e) => {
            for dir in new {
                let _ = std::fs::remove_dir(dir);
            }
            Err(e)
        }
    }
}

fn deliver_into(ctx: &Ctx, targets: &[(&str, Stored)], dirs: &[PathBuf]) -> Result<Vec<u64>> {
    let mut staged = Vec::with_capacity(targets.len());
    for ((_, msg), dir) in targets.iter().zip(dirs) {
        staged.push(stage(dir, msg)?);
    }
    let names: Vec<&str> = targets.iter().map(|(t, _)| *t).collect();
    let lock = SessionsLock::acquire_in(ctx, &names, |s| {
        dirs[names.iter().position(|n| *n == s).expect("a target")]
            .parent()
            .expect("an inbox is in its session's directory")
            .to_path_buf()
    })?;
    let mut scans = Vec::with_capacity(targets.len());
    for (i, ((target, _), dir)) in targets.iter().zip(dirs).enumerate() {
        debug_assert_eq!(lock.dir(target).join(INBOX), *dir);
        let s = scan(ctx, dir)?;
        if s.unread() >= CAP {
            return Err(full_inbox(i, target));
        }
        scans.push(s);
    }
    let mut ids = Vec::with_capacity(targets.len());
    for ((tmp, s), dir) in staged.into_iter().zip(&mut scans).zip(dirs) {
        // Room for one more: the oldest read messages go (the read ones are the oldest ids).
        while s.messages.len() >= CAP {
            let Some(old) = s.messages.pop_first() else {
                break;
            };
            for prefix in ['m', 'r', 'x'] {
                let _ = std::fs::remove_file(dir.join(name(prefix, old)));
            }
        }
        let id = s.next_id();
        let target = dir.join(name('m', id));
        tmp.persist(&target)
            .map_err(|e| ToolError::state(&e.error, &target))?;
        s.messages.insert(id);
        ids.push(id);
    }
    drop(lock);
    for dir in dirs {
        state::sync_dir(dir);
    }
    Ok(ids)
}

/// Which messages `list` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Unread,
    All,
}

/// The messages of this session's inbox, oldest first. The unread ones, once shown by `Unread`,
/// are marked read; `All` looks without marking (a harness may peek; SPEC 20.2 marks on list).
/// The bytes of messages one `inbox` call shows (SPEC 31.4): at least one message, the rest on
/// the next call (unread ones stay unread) or with `offset`.
pub const PAGE_BYTES: usize = 1 << 20;

/// One call's messages, and how many after them it left out.
pub struct Page {
    pub messages: Vec<Message>,
    pub more: usize,
}

pub fn list(ctx: &Ctx, session: &str, which: Which, offset: usize) -> Result<Page> {
    if let Some(url) = redis::hub(ctx)? {
        let l = redis::list(ctx, url, session, which, offset, None)?;
        return Ok(Page {
            messages: l.messages,
            more: l.more,
        });
    }
    if session == ctx.session {
        note(ctx);
    }
    let lock = lock_session(ctx, session)?;
    let dir = lock.dir().join(INBOX);
    let s = scan(ctx, &dir)?;
    let ids: Vec<u64> = match which {
        Which::Unread => s.messages.range(s.read_upto + 1..).copied().collect(),
        Which::All => s.messages.iter().copied().collect(),
    };
    let (ids, more) = page(&dir, &ids, offset);
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let path = dir.join(name('m', id));
        let stored: Stored = match read_json(ctx, &path)? {
            Some(m) => m,
            None => continue,
        };
        let reply = if s.replies.contains(&id) {
            read_json::<Reply>(ctx, &dir.join(name('r', id)))?.map(|r| r.text)
        } else {
            None
        };
        let is_query = stored.kind == Kind::Query;
        out.push(Message {
            id,
            from: stored.from,
            at: stored.at,
            kind: stored.kind,
            data_type: stored.data_type,
            data: stored.data,
            question: stored.question,
            expired: is_query.then(|| s.expired.contains(&id)),
            reply,
            read: id <= s.read_upto,
        });
    }
    if which == Which::Unread
        && let Some(last) = out.last().map(|m| m.id)
        && last > s.read_upto
    {
        // Not fsynced: after a power cut a lost mark only shows messages again.
        state::write_atomic(
            &dir,
            READ_FILE,
            &serde_json::to_vec(&ReadMark { read_upto: last }).expect("plain data"),
            false,
        )?;
    }
    Ok(Page {
        messages: out,
        more,
    })
}

/// The ids one page holds after skipping `offset`: messages (and their replies) up to
/// `PAGE_BYTES` by their files' sizes, at least one; and how many are left after them.
fn page(dir: &Path, ids: &[u64], offset: usize) -> (Vec<u64>, usize) {
    let size = |p: PathBuf| std::fs::symlink_metadata(p).map_or(0, |m| m.len() as usize);
    let rest = ids.get(offset..).unwrap_or(&[]);
    let mut used = 0;
    let mut shown = vec![];
    for &id in rest {
        let cost = size(dir.join(name('m', id))) + size(dir.join(name('r', id)));
        if !shown.is_empty() && used + cost > PAGE_BYTES {
            break;
        }
        used += cost;
        shown.push(id);
    }
    let more = rest.len() - shown.len();
    (shown, more)
}

/// Reads a store file; a missing one is None, a corrupt one is moved aside with a warning.
fn read_json<T: serde::de::DeserializeOwned>(ctx: &Ctx, path: &Path) -> Result<Option<T>> {
    // Never through a link another process put there (SPEC 31.4).
    let bytes = match state::read_own(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ToolError::state(&e, path)),
    };
    match serde_json::from_slice(&bytes) {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            // Ignored by the listings (not `m<digits>.json`), kept for a person to look at.
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            let aside = path.with_file_name(format!("{file}.corrupt-{}", state::unix_secs()));
            let _ = std::fs::rename(path, &aside);
            ctx.warn(format!(
                "{} was corrupt ({e}); moved aside to {}",
                path.display(),
                aside.display()
            ));
            Ok(None)
        }
    }
}

/// Answers query `id` of `session`'s inbox (the caller's, or `user`'s for ask_user).
pub fn reply(ctx: &Ctx, session: &str, id: u64, answer: Answer) -> Result<Stored> {
    if let Some(url) = redis::hub(ctx)? {
        return match redis::reply(ctx, url, session, id, answer)? {
            redis::Replied::Ok(stored) => Ok(stored),
            redis::Replied::Missing { newest } => Err(no_message(session, id, newest)),
            redis::Replied::Share(m) => Err(not_a_query(id, &m)),
            redis::Replied::Expired(m) => Err(expired(id, &m)),
            redis::Replied::Answered(m) => Err(answered(id, &m)),
        };
    }
    let lock = lock_session(ctx, session)?;
    let dir = lock.dir().join(INBOX);
    let s = scan(ctx, &dir)?;
    if !s.messages.contains(&id) {
        return Err(no_message(session, id, s.messages.last().copied()));
    }
    let Some(stored) = read_json::<Stored>(ctx, &dir.join(name('m', id)))? else {
        return Err(ToolError::new(
            Code::NotFound,
            format!("inbox: message {id} could not be read"),
        )
        .with("id", id));
    };
    if stored.kind != Kind::Query {
        return Err(not_a_query(id, &stored));
    }
    if s.expired.contains(&id) {
        return Err(expired(id, &stored));
    }
    if s.replies.contains(&id) {
        return Err(answered(id, &stored));
    }
    check_selected(&stored, answer.selected.as_deref())?;
    let reply = Reply {
        text: answer.text,
        from: session.to_string(),
        at: state::now(),
        nonce: stored.nonce,
        selected: answer.selected,
    };
    let tmp = stage(&dir, &reply)?;
    let target = dir.join(name('r', id));
    tmp.persist(&target)
        .map_err(|e| ToolError::state(&e.error, &target))?;
    drop(lock);
    state::sync_dir(&dir);
    Ok(stored)
}

fn no_message(session: &str, id: u64, newest: Option<u64>) -> ToolError {
    ToolError::new(
        Code::NotFound,
        format!(
            "inbox: there is no message {id} in session {session}'s inbox{}",
            match newest {
                Some(n) => format!(" (the newest is {n})"),
                None => " (it is empty)".into(),
            }
        ),
    )
    .with("id", id)
    .hint("Run `inbox` with action `all` to see the messages and their ids.")
}

fn not_a_query(id: u64, stored: &Stored) -> ToolError {
    ToolError::invalid(
        "id",
        format!(
            "inbox: message {id} is a share from {}, not a query: only a query takes a reply",
            stored.from
        ),
    )
    .hint("To answer a share, `share` back to its sender.")
}

fn expired(id: u64, stored: &Stored) -> ToolError {
    ToolError::invalid(
        "id",
        format!(
            "inbox: query {id} from {} has expired: {} stopped waiting for the answer",
            stored.from, stored.from
        ),
    )
    .hint(format!(
        "The asker no longer waits; `share` the answer to {} instead.",
        stored.from
    ))
}

fn answered(id: u64, stored: &Stored) -> ToolError {
    ToolError::invalid(
        "id",
        format!(
            "inbox: query {id} from {} was already answered",
            stored.from
        ),
    )
}

/// The reply to query `id` in `target`'s inbox, if it has come (no lock: replies land by
/// rename, whole or not at all).
pub fn reply_of(ctx: &Ctx, target: &str, id: u64, nonce: u64) -> Result<Option<Reply>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::reply_of(ctx, url, target, id, nonce, None);
    }
    let path = inbox_dir(ctx, target)?.join(name('r', id));
    Ok(read_json::<Reply>(ctx, &path)?.filter(|r| r.nonce == Some(nonce)))
}

/// The asker gives up on query `id`: marks it expired, unless the reply came first (then it is
/// returned, and the asker takes it after all). Under the target's lock, so a reply and the
/// expiry never both win.
pub fn expire(ctx: &Ctx, target: &str, id: u64, nonce: u64) -> Result<Option<Reply>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::expire(ctx, url, target, id, nonce);
    }
    let lock = lock_session(ctx, target)?;
    if let Some(r) = reply_of(ctx, target, id, nonce)? {
        return Ok(Some(r));
    }
    let dir = lock.dir().join(INBOX);
    let ours =
        read_json::<Stored>(ctx, &dir.join(name('m', id)))?.is_some_and(|m| m.nonce == Some(nonce));
    if ours {
        state::write_atomic(&dir, &name('x', id), b"", false)?;
    }
    Ok(None)
}

/// Waits for the reply to query `id` of `target` until `deadline`, without polling: on the
/// inbox directory (inotify) in a file hub, a blocking read on the server in a Redis hub.
pub fn await_reply(
    ctx: &Ctx,
    target: &str,
    id: u64,
    nonce: u64,
    deadline: Instant,
) -> Result<super::wait::Outcome<Reply>> {
    use super::wait::Outcome;
    if let Some(url) = redis::hub(ctx)? {
        return Ok(
            match redis::await_reply(ctx, url, target, id, nonce, deadline)? {
                redis::Waited::Found(r) => Outcome::Found(r),
                redis::Waited::TimedOut => Outcome::TimedOut,
                redis::Waited::Cancelled => Outcome::Cancelled,
            },
        );
    }
    let dir = inbox_dir(ctx, target)?;
    super::wait::until(ctx, &[&dir], deadline, || reply_of(ctx, target, id, nonce))
}

/// The completion of a session (SPEC 20.1), `completed.json`.
pub const COMPLETED: &str = "completed.json";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Completion {
    pub summary: String,
    pub completed_at: String,
}

/// The artifact kinds (SPEC 24.4), in the order `session show` lists them.
pub const KINDS: [&str; 3] = ["plan", "spec", "phase"];

pub fn artifacts_dir(ctx: &Ctx, session: &str, kind: &str) -> Result<PathBuf> {
    Ok(hub_session_dir(ctx, session)?.join("artifacts").join(kind))
}

/// The names of a session's artifacts of one kind, sorted.
pub fn artifact_names(ctx: &Ctx, session: &str, kind: &str) -> Result<Vec<String>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::artifact_names(ctx, url, session, kind);
    }
    let dir = artifacts_dir(ctx, session, kind)?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(ToolError::state(&e, &dir)),
    };
    let mut names = vec![];
    for entry in entries {
        let entry = entry.map_err(|e| ToolError::state(&e, &dir))?;
        let file = entry.file_name();
        if let Some(n) = file.to_str().and_then(|f| f.strip_suffix(".json"))
            && !n.starts_with('.')
        {
            names.push(n.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// One stored artifact, or None.
pub fn load_artifact(ctx: &Ctx, session: &str, kind: &str, name: &str) -> Result<Option<Value>> {
    // A name from input (validate's `phase`) is never a path (SPEC 31.4).
    if !state::bare_name(name) {
        return Ok(None);
    }
    if let Some(url) = redis::hub(ctx)? {
        return redis::load_artifact(ctx, url, session, kind, name);
    }
    read_json(
        ctx,
        &artifacts_dir(ctx, session, kind)?.join(format!("{name}.json")),
    )
}

/// Stores an artifact of this session (fsynced: a plan is what a user would miss). Refuses an
/// existing name unless `replace`.
pub fn save_artifact(
    ctx: &Ctx,
    kind: &str,
    name: &str,
    value: &Value,
    replace: bool,
) -> Result<bool> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::save_artifact(ctx, url, kind, name, value, replace)?
            .ok_or_else(|| artifact_exists(ctx, kind, name));
    }
    note(ctx);
    let lock = lock_session(ctx, &ctx.session)?;
    let dir = lock.dir().join("artifacts").join(kind);
    state::create_dir(&dir)?;
    let file = format!("{name}.json");
    let existed = dir.join(&file).exists();
    if existed && !replace {
        return Err(artifact_exists(ctx, kind, name));
    }
    let bytes = serde_json::to_vec(value).expect("plain data");
    state::write_atomic(&dir, &file, &bytes, true)?;
    Ok(existed)
}

fn artifact_exists(ctx: &Ctx, kind: &str, name: &str) -> ToolError {
    ToolError::invalid(
        "name",
        format!(
            "{kind} `{name}` already exists in session {}; nothing was changed",
            ctx.session
        ),
    )
    .hint(format!(
        "Pass replace: true to overwrite it, or choose another name (`artifact` with kind {kind} lists them)."
    ))
}

/// The completion of `session`, if it has one.
pub fn completion(ctx: &Ctx, session: &str) -> Result<Option<Completion>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::completion(ctx, url, session);
    }
    lock_session(ctx, session)?.load::<Option<Completion>>(COMPLETED)
}

/// Records this session's completion; a second one is refused with the first (SPEC 20.1).
pub fn complete(ctx: &Ctx, done: &Completion) -> Result<std::result::Result<(), Completion>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::complete(ctx, url, done);
    }
    note(ctx);
    let lock = lock_session(ctx, &ctx.session)?;
    if let Some(first) = lock.load::<Option<Completion>>(COMPLETED)? {
        return Ok(Err(first));
    }
    lock.save(COMPLETED, done, true)?;
    Ok(Ok(()))
}

/// Clears this session's completion; returns what it was.
pub fn reopen(ctx: &Ctx) -> Result<Option<Completion>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::reopen(ctx, url);
    }
    let lock = lock_session(ctx, &ctx.session)?;
    let done = lock.load::<Option<Completion>>(COMPLETED)?;
    if done.is_some() {
        let path = lock.dir().join(COMPLETED);
        std::fs::remove_file(&path).map_err(|e| ToolError::state(&e, &path))?;
        state::sync_dir(lock.dir());
    }
    Ok(done)
}

/// Drops what this session holds in the hub (`session reset`): its inbox, artifacts and
/// completion. Outside git the hub session is the root's session directory, which the reset
/// clears whole anyway. Returns how many entries went.
pub fn reset(ctx: &Ctx) -> Result<usize> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::reset(ctx, url);
    }
    let lock = lock_session(ctx, &ctx.session)?;
    if lock.dir() == state::session_dir(ctx) {
        return Ok(0);
    }
    let mut removed = 0;
    for entry in [INBOX, "artifacts", COMPLETED] {
        let path = lock.dir().join(entry);
        let gone = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(_) => continue,
        };
        gone.map_err(|e| ToolError::state(&e, &path))?;
        removed += 1;
    }
    Ok(removed)
}

/// Where a file hub lists the sessions it knows: a name no session id can take (`+` is not in
/// a session id), so it never collides with a session's directory.
const SESSIONS: &str = "+sessions";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    pub session: String,
    /// The absolute root it last called a hub tool from.
    pub root: String,
}

/// Notes that this session called a hub tool from this root (SPEC 25.1: `session show` lists
/// where each loop lives). Written only when it changed: a call costs one small read.
pub fn note_session(ctx: &Ctx) -> Result<()> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::note_session(ctx, url);
    }
    let dir = hub_session_dir(ctx, SESSIONS)?;
    let file = format!("{}.json", ctx.session);
    let me = Known {
        session: ctx.session.clone(),
        root: ctx.root.display().to_string(),
    };
    let seen = std::fs::read(dir.join(&file))
        .ok()
        .and_then(|b| serde_json::from_slice::<Known>(&b).ok());
    if seen.as_ref() == Some(&me) {
        return Ok(());
    }
    state::create_dir(&dir)?;
    let bytes = serde_json::to_vec(&me).expect("plain data");
    state::write_atomic(&dir, &file, &bytes, false)
}

/// `note_session` as bookkeeping: a hub tool's call does not fail for it, it warns.
fn note(ctx: &Ctx) {
    if let Err(e) = note_session(ctx) {
        ctx.warn(format!(
            "the hub could not note where session {} runs: {}",
            ctx.session, e.message
        ));
    }
}

/// Every session the hub knows, sorted: those that called a hub tool, and those that only
/// have an inbox or artifacts (their root unknown, "").
pub fn sessions(ctx: &Ctx) -> Result<Vec<Known>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::sessions(ctx, url);
    }
    let hub = hub_session_dir(ctx, SESSIONS)?;
    let mut out: std::collections::BTreeMap<String, String> = Default::default();
    for entry in std::fs::read_dir(&hub).into_iter().flatten().flatten() {
        if let Ok(k) =
            serde_json::from_slice::<Known>(&std::fs::read(entry.path()).unwrap_or_default())
        {
            out.insert(k.session, k.root);
        }
    }
    let top = hub.parent().expect("a session directory has a parent");
    for entry in std::fs::read_dir(top).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let holds = [INBOX, "artifacts", COMPLETED]
            .iter()
            .any(|e| entry.path().join(e).exists());
        if holds && crate::context::valid_session(&name) {
            out.entry(name).or_default();
        }
    }
    Ok(out
        .into_iter()
        .map(|(session, root)| Known { session, root })
        .collect())
}

/// Whether the hub has ever seen `session`: it called a hub tool, or has an inbox.
pub fn known(ctx: &Ctx, session: &str) -> Result<bool> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::known(ctx, url, session);
    }
    let registered = hub_session_dir(ctx, SESSIONS)?.join(format!("{session}.json"));
    Ok(registered.exists() || inbox_dir(ctx, session)?.exists())
}

/// The first of `sessions` whose inbox holds an unread message, or None (no lock: a listing,
/// and messages land by rename).
pub fn first_unread(ctx: &Ctx, sessions: &[String]) -> Result<Option<String>> {
    if let Some(url) = redis::hub(ctx)? {
        return Ok(redis::first_unread(ctx, url, sessions, None)?.0);
    }
    for session in sessions {
        let dir = inbox_dir(ctx, session)?;
        if scan(ctx, &dir)?.unread() > 0 {
            return Ok(Some(session.clone()));
        }
    }
    Ok(None)
}

/// `inbox wait` (SPEC 25.3): sleeps until one of `sessions` has an unread message (its name),
/// the deadline passes or the call is cancelled. Wakes through inotify on the inboxes, which
/// are made first so there is something to watch.
pub fn wait_unread(
    ctx: &Ctx,
    sessions: &[String],
    deadline: std::time::Instant,
) -> Result<super::wait::Outcome<String>> {
    if let Some(url) = redis::hub(ctx)? {
        return redis::wait_unread(ctx, url, sessions, deadline);
    }
    let dirs = sessions
        .iter()
        .map(|s| {
            let dir = inbox_dir(ctx, s)?;
            state::create_dir(&dir)?;
            Ok(dir)
        })
        .collect::<Result<Vec<_>>>()?;
    let dirs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    super::wait::until(ctx, &dirs, deadline, || first_unread(ctx, sessions))
}
