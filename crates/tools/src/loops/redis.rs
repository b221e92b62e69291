//! The Redis hub (SPEC 25.2): the store's operations on a Redis server (≥ 6, or Valkey), with
//! the file hub's meaning exactly — message ids per inbox, unread messages never dropped, the
//! 500 cap dropping the oldest read ones, replies tied to their query's token, expiry marks, a
//! second completion refused, `replace` for artifacts.
//!
//! Every operation is one Lua script, run whole by the server or not at all: a client killed
//! while it sends leaves a command the server never ran, and a script, once started, finishes
//! whatever becomes of its client. Nothing of a message, reply or artifact is ever half there.
//!
//! Keys, per session S (`{S}` is also a hash tag, so a session's keys share one cluster slot):
//!
//! | key                 | type   | holds                                                   |
//! |---------------------|--------|---------------------------------------------------------|
//! | `loopr:{S}:ids`     | zset   | the inbox's message ids (score = id)                    |
//! | `loopr:{S}:m`       | hash   | id → the message as JSON (`store::Stored`)              |
//! | `loopr:{S}:seq`     | string | the last id given (ids are never reused while it lives) |
//! | `loopr:{S}:read`    | string | the highest id shown to the owner                       |
//! | `loopr:{S}:q`       | hash   | id → a query's token (its nonce, in decimal)            |
//! | `loopr:{S}:r`       | hash   | id → the reply as JSON                                  |
//! | `loopr:{S}:x`       | set    | the ids of expired queries                              |
//! | `loopr:{S}:w:ID`    | list   | wakes the asker of query ID: its token, pushed by reply |
//! | `loopr:{S}:ev`      | stream | one entry per message delivered (waiting on unread)     |
//! | `loopr:{S}:done`    | string | the completion as JSON                                  |
//! | `loopr:{S}:a:KIND`  | hash   | artifact name → the artifact as JSON                    |
//!
//! A query's asker waits on the server (`BLPOP` on its wake list) in slices of at most 250 ms,
//! so a cancellation is noticed and no process polls. Connections are made per process and kept
//! in a pool keyed by URL, so `mcp` and `batch` reuse them. Every wait for the server is bounded:
//! by the call's `timeout_ms` for a query, else by the lock wait (`LOOPR_LOCK_TIMEOUT_MS`,
//! 10 s): a server that accepts and never answers is a `timeout`, one that cannot be reached a
//! `network_error` naming the hub without its credentials.

use super::store::{Answer, CAP, Completion, Kind, Known, Message, Reply, Stored, Which};
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::hub::{Hub, RedisUrl};
use loopr_env_vars::EnvVars;
use redis::{Connection, Script, Value as RValue};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The longest a blocking read waits before the asker looks at its cancellation (SPEC 22.1).
const SLICE: Duration = Duration::from_millis(250);
/// How long a wake list outlives its reply: longer than any wait (ask_user waits up to 1 h).
const WAKE_TTL_MS: u64 = 2 * 3600 * 1000;
/// How long the expiry mark of a query that timed out may take: the server answered the wait a
/// moment ago.
const EXPIRE_GRACE: Duration = Duration::from_secs(1);

/// The Redis hub of this call, if it has one.
pub fn hub(ctx: &Ctx) -> Result<Option<&RedisUrl>> {
    Ok(match ctx.hub()? {
        Hub::Redis(url) => Some(url),
        _ => None,
    })
}

fn key(session: &str, part: &str) -> String {
    format!("loopr:{{{session}}}:{part}")
}

/// The default bound on one operation's wait for the server.
fn default_deadline(ctx: &Ctx) -> Instant {
    Instant::now() + ctx.lock_wait
}

// ---------------------------------------------------------------------------------------------
// Connections

/// Idle connections, by URL (with its credentials: a pool per identity).
static POOL: LazyLock<Mutex<HashMap<String, Vec<Connection>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The password the connection uses: the URL's, else `LOOPR_HUB_PASSWORD`.
fn env_password() -> Option<String> {
    std::env::var(EnvVars::LOOPR_HUB_PASSWORD)
        .ok()
        .filter(|p| !p.is_empty())
}

/// What an operation is, for its errors: the tool's words for what was (or may not have been)
/// done.
struct Op<'a> {
    ctx: &'a Ctx,
    url: &'a RedisUrl,
    /// What did not happen when the hub could not be reached: "nothing was sent".
    not_done: &'a str,
}

impl Op<'_> {
    fn tool(&self) -> &str {
        if self.ctx.call.name.is_empty() {
            "loops"
        } else {
            &self.ctx.call.name
        }
    }

    /// Every secret this connection could echo, to be kept out of any message.
    fn scrub(&self, text: &str) -> String {
        let mut out = text.replace(&self.url.url, &self.url.shown);
        let mut secrets: Vec<String> = env_password().into_iter().collect();
        if let Some((_, rest)) = self.url.url.split_once("://") {
            let end = rest.find('/').unwrap_or(rest.len());
            if let Some(at) = rest[..end].rfind('@') {
                let creds = &rest[..at];
                secrets.push(creds.to_string());
                if let Some((_, pw)) = creds.split_once(':') {
                    secrets.push(pw.to_string());
                }
            }
        }
        for s in secrets.iter().filter(|s| s.len() >= 2) {
            out = out.replace(s.as_str(), "***");
        }
        out
    }

    /// The error for a failed exchange with the server.
    fn fail(&self, e: &redis::RedisError, waited: Duration) -> ToolError {
        let hub = &self.url.shown;
        let tool = self.tool();
        if e.is_timeout() {
            return ToolError::new(
                Code::Timeout,
                format!(
                    "{tool}: the Redis hub {hub} did not answer within {} ms; {} (or, if the server ran it after all, it ran whole: nothing is half-written)",
                    waited.as_millis(),
                    self.not_done
                ),
            )
            .with("hub", hub.as_str())
            .with("timeout_ms", waited.as_millis() as u64)
            .hint("Check that the server is up and not overloaded; a query's timeout_ms or LOOPR_LOCK_TIMEOUT_MS bounds the wait.");
        }
        let cause = self.scrub(&cause_of(e));
        if e.kind() == redis::ErrorKind::AuthenticationFailed
            || e.code().is_some_and(|c| c == "NOPERM" || c == "WRONGPASS")
        {
            return ToolError::new(
                Code::PermissionDenied,
                format!(
                    "{tool}: the Redis hub {hub} refused the credentials ({cause}); {}",
                    self.not_done
                ),
            )
            .with("hub", hub.as_str())
            .hint("Give the password in the hub's URL or in LOOPR_HUB_PASSWORD, and the user in the URL.");
        }
        if e.is_io_error() || e.kind() == redis::ErrorKind::Parse {
            return ToolError::new(
                Code::NetworkError,
                format!(
                    "{tool}: the Redis hub {hub} cannot be reached ({cause}); {}",
                    self.not_done
                ),
            )
            .with("hub", hub.as_str())
            .hint("Check the hub's address (--hub, LOOPR_HUB or the catalog's [loops] hub) and that the server runs and is reachable from here.");
        }
        ToolError::new(
            Code::NetworkError,
            format!(
                "{tool}: the Redis hub {hub} refused the operation ({cause}); {}",
                self.not_done
            ),
        )
        .with("hub", hub.as_str())
        .hint("The hub needs Redis 6 or later (or Valkey) with scripting allowed for this user.")
    }

    /// Runs `f` on a connection of the pool (or a new one), every wait for the server bounded by
    /// `deadline`. A pooled connection that turns out dead (the server restarted, or closed it
    /// when idle) is replaced once; a connection that failed mid-exchange is never pooled again.
    fn run<T>(
        &self,
        deadline: Instant,
        mut f: impl FnMut(&mut Connection) -> redis::RedisResult<T>,
    ) -> Result<T> {
        let start = Instant::now();
        let mut fresh_tried = false;
        // No look at the cancellation here: a cancelled query still marks its question expired.
        loop {
            let (mut conn, pooled) = match take(&self.url.url) {
                Some(c) if !fresh_tried => (c, true),
                _ => {
                    fresh_tried = true;
                    let left = remaining(deadline)
                        .ok_or_else(|| self.fail(&timed_out(), start.elapsed()))?;
                    (
                        connect(self.url, left).map_err(|e| self.fail(&e, start.elapsed()))?,
                        false,
                    )
                }
            };
            let Some(left) = remaining(deadline) else {
                return Err(self.fail(&timed_out(), start.elapsed()));
            };
            let set = conn
                .set_read_timeout(Some(left))
                .and_then(|()| conn.set_write_timeout(Some(left)));
            let result = set.and_then(|()| f(&mut conn));
            match result {
                Ok(v) => {
                    give_back(&self.url.url, conn);
                    return Ok(v);
                }
                // A dead pooled connection: the command never reached a live server.
                Err(e) if pooled && e.is_connection_dropped() && !e.is_timeout() => continue,
                Err(e) => {
                    if !(e.is_io_error() || e.is_timeout() || e.is_unrecoverable_error()) {
                        // The server answered with an error: the connection is sound.
                        give_back(&self.url.url, conn);
                    }
                    return Err(self.fail(&e, start.elapsed()));
                }
            }
        }
    }
}

fn remaining(deadline: Instant) -> Option<Duration> {
    let left = deadline.checked_duration_since(Instant::now())?;
    (left >= Duration::from_millis(1)).then_some(left)
}

fn timed_out() -> redis::RedisError {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "out of time").into()
}

/// An error's cause in a few words: the I/O error's, else the server's.
fn cause_of(e: &redis::RedisError) -> String {
    let text = e.to_string();
    let text = text.trim();
    if text.is_empty() {
        e.category().to_string()
    } else {
        text.chars().take(300).collect()
    }
}

fn take(url: &str) -> Option<Connection> {
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    pool.get_mut(url).and_then(Vec::pop)
}

fn give_back(url: &str, conn: Connection) {
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    let idle = pool.entry(url.to_string()).or_default();
    // An mcp server with many calls at once opens as many connections; it keeps a few.
    if idle.len() < 16 {
        idle.push(conn);
    }
}

/// A new connection, its handshake (TLS, AUTH, SELECT) bounded by `within`.
fn connect(url: &RedisUrl, within: Duration) -> redis::RedisResult<Connection> {
    use redis::IntoConnectionInfo;
    let info = url.url.as_str().into_connection_info()?;
    let mut settings = info.redis_settings().clone().set_skip_set_lib_name();
    if settings.password().is_none()
        && let Some(pw) = env_password()
    {
        settings = settings.set_password(pw);
    }
    let info = info.set_redis_settings(settings);
    redis::Client::open(info)?.get_connection_with_timeout(within)
}

// ---------------------------------------------------------------------------------------------
// Replies from scripts

fn bytes(v: &RValue) -> Option<&[u8]> {
    match v {
        RValue::BulkString(b) => Some(b),
        RValue::SimpleString(s) => Some(s.as_bytes()),
        _ => None,
    }
}

fn int(v: &RValue) -> Option<i64> {
    match v {
        RValue::Int(i) => Some(*i),
        other => bytes(other)
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|s| s.parse().ok()),
    }
}

fn text(v: &RValue) -> Option<String> {
    bytes(v).map(|b| String::from_utf8_lossy(b).into_owned())
}

fn array(v: RValue) -> Vec<RValue> {
    match v {
        RValue::Array(a) | RValue::Set(a) => a,
        RValue::Nil => vec![],
        other => vec![other],
    }
}

fn odd(what: &str) -> ToolError {
    ToolError::internal(format!(
        "the Redis hub answered {what} in an unexpected shape"
    ))
}

/// A JSON value the hub holds; a corrupt one (written by something else) is a warning and None.
fn parse<T: serde::de::DeserializeOwned>(ctx: &Ctx, v: &RValue, what: &str) -> Option<T> {
    let b = bytes(v)?;
    match serde_json::from_slice(b) {
        Ok(t) => Some(t),
        Err(e) => {
            ctx.warn(format!(
                "{what} in the Redis hub was corrupt ({e}); it is skipped"
            ));
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Messages

static DELIVER: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS, 8 per target: ids m seq read q r x ev, then the sessions' registry; ARGV: cap, then
-- per target its message, its token ('' for a share) and its name
local cap = tonumber(ARGV[1])
local n = (#KEYS - 1) / 8
for i = 0, n - 1 do
  local upto = tonumber(redis.call('GET', KEYS[i*8+4]) or '0')
  if redis.call('ZCOUNT', KEYS[i*8+1], '(' .. upto, '+inf') >= cap then
    return {-1, i}
  end
end
local out = {}
for i = 0, n - 1 do
  local ids, m, seq, q, r, x, ev =
    KEYS[i*8+1], KEYS[i*8+2], KEYS[i*8+3], KEYS[i*8+5], KEYS[i*8+6], KEYS[i*8+7], KEYS[i*8+8]
  -- Room for one more: the oldest go, which are read ones (fewer than cap are unread).
  while redis.call('ZCARD', ids) >= cap do
    local old = redis.call('ZPOPMIN', ids)[1]
    redis.call('HDEL', m, old)
    redis.call('HDEL', q, old)
    redis.call('HDEL', r, old)
    redis.call('SREM', x, old)
  end
  local id = redis.call('INCR', seq)
  redis.call('ZADD', ids, id, id)
  redis.call('HSET', m, id, ARGV[2 + i*3])
  local token = ARGV[3 + i*3]
  if token ~= '' then redis.call('HSET', q, id, token) end
  -- A target never seen is known from now on, where it lives not yet.
  redis.call('HSETNX', KEYS[#KEYS], ARGV[4 + i*3], '')
  redis.call('XADD', ev, 'MAXLEN', '~', 16, '*', 'id', id)
  out[#out + 1] = id
end
return out
",
    )
});

fn inbox_keys(session: &str) -> [String; 8] {
    ["ids", "m", "seq", "read", "q", "r", "x", "ev"].map(|p| key(session, p))
}

/// `store::deliver` on Redis: one message per target, all of them or none.
pub fn deliver(
    ctx: &Ctx,
    url: &RedisUrl,
    targets: &[(&str, Stored)],
    deadline: Option<Instant>,
) -> Result<Vec<u64>> {
    let mut script = DELIVER.prepare_invoke();
    script.arg(CAP);
    for (target, msg) in targets {
        for k in inbox_keys(target) {
            script.key(k);
        }
        let json = serde_json::to_string(msg)
            .map_err(|e| ToolError::internal(format!("serialising a message: {e}")))?;
        script.arg(json);
        script.arg(msg.nonce.map(|n| n.to_string()).unwrap_or_default());
        script.arg(*target);
    }
    script.key(SESSIONS);
    let op = Op {
        ctx,
        url,
        not_done: if targets.iter().any(|(_, m)| m.kind == Kind::Query) {
            "the question was not asked"
        } else {
            "nothing was sent"
        },
    };
    // A query's own timeout, but never longer than any other call waits for the hub.
    let deadline = deadline.map_or_else(|| default_deadline(ctx), |d| d.min(default_deadline(ctx)));
    let reply: RValue = op.run(deadline, |c| script.invoke(c))?;
    let out = array(reply);
    if out.first().and_then(int) == Some(-1) {
        let i = out.get(1).and_then(int).unwrap_or(0) as usize;
        let target = targets.get(i).map_or("?", |(t, _)| *t);
        return Err(super::store::full_inbox(i, target));
    }
    note(ctx, &op, deadline);
    out.iter()
        .map(|v| int(v).map(|i| i as u64).ok_or_else(|| odd("a share")))
        .collect()
}

static LIST: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: ids m read r x ; ARGV: '1' to list the unread ones and mark them read, the bytes
-- of messages one call shows (at least one message), how many to skip first
local upto = tonumber(redis.call('GET', KEYS[3]) or '0')
local ids
if ARGV[1] == '1' then
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. upto, '+inf')
else
  ids = redis.call('ZRANGE', KEYS[1], 0, -1)
end
local budget, skip = tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {upto, 0}
local used, shown, lastid = 0, 0, nil
for i, id in ipairs(ids) do
  if i > skip then
    local m = redis.call('HGET', KEYS[2], id)
    local r = redis.call('HGET', KEYS[4], id)
    local size = (m and #m or 0) + (r and #r or 0)
    if shown > 0 and used + size > budget then break end
    used, shown, lastid = used + size, shown + 1, id
    out[#out + 1] = tonumber(id)
    out[#out + 1] = m
    out[#out + 1] = r
    out[#out + 1] = redis.call('SISMEMBER', KEYS[5], id)
  end
end
out[2] = math.max(#ids - skip - shown, 0)
if ARGV[1] == '1' and lastid and tonumber(lastid) > upto then
  redis.call('SET', KEYS[3], lastid)
end
return out
",
    )
});

/// What `list` saw: one page of messages, and how many it left out.
pub struct Listing {
    pub messages: Vec<Message>,
    /// Messages after these that one call's page left out.
    pub more: usize,
}

/// `store::list` on Redis.
pub fn list(
    ctx: &Ctx,
    url: &RedisUrl,
    session: &str,
    which: Which,
    offset: usize,
    deadline: Option<Instant>,
) -> Result<Listing> {
    let mut script = LIST.prepare_invoke();
    for p in ["ids", "m", "read", "r", "x"] {
        script.key(key(session, p));
    }
    script.arg(if which == Which::Unread { "1" } else { "0" });
    script.arg(super::store::PAGE_BYTES);
    script.arg(offset);
    let op = Op {
        ctx,
        url,
        not_done: "the inbox was not read",
    };
    let deadline = deadline.unwrap_or_else(|| default_deadline(ctx));
    if session == ctx.session {
        note(ctx, &op, deadline);
    }
    let reply: RValue = op.run(deadline, |c| script.invoke(c))?;
    let mut it = array(reply).into_iter();
    let upto = it
        .next()
        .as_ref()
        .and_then(int)
        .ok_or_else(|| odd("a listing"))? as u64;
    let more = it.next().as_ref().and_then(int).unwrap_or(0) as usize;
    let rest: Vec<RValue> = it.collect();
    let mut messages = Vec::with_capacity(rest.len() / 4);
    for chunk in rest.chunks(4) {
        let [id, msg, reply, expired] = chunk else {
            return Err(odd("a listing"));
        };
        let id = int(id).ok_or_else(|| odd("a listing"))? as u64;
        let Some(stored) = parse::<Stored>(ctx, msg, &format!("message {id} of {session}")) else {
            continue;
        };
        let reply = parse::<Reply>(ctx, reply, &format!("the reply to {id} of {session}"));
        let is_query = stored.kind == Kind::Query;
        messages.push(Message {
            id,
            from: stored.from,
            at: stored.at,
            kind: stored.kind,
            data_type: stored.data_type,
            data: stored.data,
            question: stored.question,
            expired: is_query.then(|| int(expired) == Some(1)),
            reply: reply.map(|r| r.text),
            read: id <= upto,
        });
    }
    Ok(Listing { messages, more })
}

static REPLY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: ids m q r x ; ARGV: id, the reply as JSON, the wake list's key, its ttl in ms, the
-- token the query must still have ('' for any), '1' to look without answering
local id = ARGV[1]
local msg = redis.call('HGET', KEYS[2], id)
if not msg then
  local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0)
  return {'missing', newest[1] or false}
end
local token = redis.call('HGET', KEYS[3], id)
if not token then return {'share', msg} end
if redis.call('SISMEMBER', KEYS[5], id) == 1 then return {'expired', msg} end
if redis.call('HEXISTS', KEYS[4], id) == 1 then return {'answered', msg} end
if ARGV[5] ~= '' and token ~= ARGV[5] then return {'changed', msg} end
if ARGV[6] == '1' then return {'ok', msg, token} end
redis.call('HSET', KEYS[4], id, ARGV[2])
redis.call('RPUSH', ARGV[3], token)
redis.call('PEXPIRE', ARGV[3], ARGV[4])
return {'ok', msg}
",
    )
});

/// What `reply` found; the store turns each refusal into the file hub's error.
pub enum Replied {
    Ok(Stored),
    Missing { newest: Option<u64> },
    Share(Stored),
    Expired(Stored),
    Answered(Stored),
}

/// `store::reply` on Redis: the answer is saved beside query `id` and its asker woken, unless
/// the query is unknown, a share, expired or answered. An answer with `selected` is checked
/// against the question's options first (a look, then the answer on condition that the query
/// is still the one looked at).
pub fn reply(ctx: &Ctx, url: &RedisUrl, session: &str, id: u64, answer: Answer) -> Result<Replied> {
    let reply = Reply {
        text: answer.text,
        from: session.to_string(),
        at: crate::state::now(),
        nonce: None,
        selected: answer.selected,
    };
    let json = serde_json::to_string(&reply).expect("plain data");
    let op = Op {
        ctx,
        url,
        not_done: "the reply was not sent",
    };
    let invoke = |expect: &str, look: bool| -> Result<(String, Vec<RValue>)> {
        let mut script = REPLY.prepare_invoke();
        for p in ["ids", "m", "q", "r", "x"] {
            script.key(key(session, p));
        }
        script
            .arg(id)
            .arg(&json)
            .arg(key(session, &format!("w:{id}")))
            .arg(WAKE_TTL_MS)
            .arg(expect)
            .arg(if look { "1" } else { "0" });
        let out = array(op.run(default_deadline(ctx), |c| script.invoke(c))?);
        let status = out.first().and_then(text).ok_or_else(|| odd("a reply"))?;
        Ok((status, out))
    };
    let stored_of = |out: &[RValue]| -> Result<Stored> {
        out.get(1)
            .and_then(|v| parse::<Stored>(ctx, v, &format!("message {id} of {session}")))
            .ok_or_else(|| {
                ToolError::new(
                    Code::NotFound,
                    format!("inbox: message {id} could not be read"),
                )
                .with("id", id)
            })
    };
    let mut expect = String::new();
    if reply.selected.is_some() {
        let (status, out) = invoke("", true)?;
        if status == "ok" {
            super::store::check_selected(&stored_of(&out)?, reply.selected.as_deref())?;
            expect = out.get(2).and_then(text).unwrap_or_default();
        }
    }
    let (status, out) = invoke(&expect, false)?;
    match status.as_str() {
        "missing" => Ok(Replied::Missing {
            newest: out.get(1).and_then(int).map(|n| n as u64),
        }),
        // Dropped or reset between the look and the answer: it is gone as far as we know.
        "changed" => Ok(Replied::Missing { newest: None }),
        "ok" => Ok(Replied::Ok(stored_of(&out)?)),
        "share" => Ok(Replied::Share(stored_of(&out)?)),
        "expired" => Ok(Replied::Expired(stored_of(&out)?)),
        _ => Ok(Replied::Answered(stored_of(&out)?)),
    }
}

static REPLY_OF: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: q r ; ARGV: id, token
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return false end
return redis.call('HGET', KEYS[2], ARGV[1])
",
    )
});

/// `store::reply_of` on Redis: the reply to query `id`, if it has come and the query is still
/// the one with this token.
pub fn reply_of(
    ctx: &Ctx,
    url: &RedisUrl,
    target: &str,
    id: u64,
    nonce: u64,
    deadline: Option<Instant>,
) -> Result<Option<Reply>> {
    let mut script = REPLY_OF.prepare_invoke();
    script
        .key(key(target, "q"))
        .key(key(target, "r"))
        .arg(id)
        .arg(nonce.to_string());
    let op = Op {
        ctx,
        url,
        not_done: "the reply was not read",
    };
    let deadline = deadline.unwrap_or_else(|| default_deadline(ctx));
    let v: RValue = op.run(deadline, |c| script.invoke(c))?;
    Ok(
        parse::<Reply>(ctx, &v, &format!("the reply to {id} of {target}")).map(|mut r| {
            r.nonce = Some(nonce);
            r
        }),
    )
}

/// How a wait on the hub ended.
pub enum Waited<T> {
    Found(T),
    TimedOut,
    Cancelled,
}

/// Waits for the reply to query `id` of `target` (the token `nonce`) until `deadline`: a
/// blocking read on the query's wake list, in slices of at most 250 ms.
pub fn await_reply(
    ctx: &Ctx,
    url: &RedisUrl,
    target: &str,
    id: u64,
    nonce: u64,
    deadline: Instant,
) -> Result<Waited<Reply>> {
    let wake = key(target, &format!("w:{id}"));
    let token = nonce.to_string();
    let op = Op {
        ctx,
        url,
        not_done: "the answer was not received",
    };
    loop {
        if ctx.cancelled() {
            return Ok(Waited::Cancelled);
        }
        let Some(left) = remaining(deadline) else {
            return Ok(Waited::TimedOut);
        };
        let slice = left.min(SLICE);
        // The socket may wait the whole remaining time: the server answers the BLPOP at `slice`.
        let popped: Option<(String, String)> = match op.run(deadline, |c| {
            redis::cmd("BLPOP")
                .arg(&wake)
                .arg(format!("{:.3}", slice.as_secs_f64().max(0.001)))
                .query(c)
        }) {
            Ok(p) => p,
            Err(e) if out_of_time(&e, deadline) => return Ok(Waited::TimedOut),
            Err(e) => return Err(e),
        };
        if popped.is_some_and(|(_, t)| t == token) {
            // Ours (a token of another question that had this id before a reset is not).
            if let Some(r) = reply_of(ctx, url, target, id, nonce, Some(deadline + EXPIRE_GRACE))? {
                return Ok(Waited::Found(r));
            }
        }
    }
}

/// A blocking read's last slice ends with the deadline, and so does the socket's timeout: the
/// one that fires first (the server's nil or the socket) ends the wait alike.
fn out_of_time(e: &ToolError, deadline: Instant) -> bool {
    e.code == Code::Timeout && remaining(deadline).is_none_or(|l| l < Duration::from_millis(5))
}

static EXPIRE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: q r x wake ; ARGV: id, token
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  redis.call('DEL', KEYS[4])
  return {'gone'}
end
local r = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[4])
if r then return {'replied', r} end
redis.call('SADD', KEYS[3], ARGV[1])
return {'expired'}
",
    )
});

/// `store::expire` on Redis: marks query `id` expired unless its reply came first (then the
/// reply is returned). Its wake list goes either way.
pub fn expire(
    ctx: &Ctx,
    url: &RedisUrl,
    target: &str,
    id: u64,
    nonce: u64,
) -> Result<Option<Reply>> {
    let mut script = EXPIRE.prepare_invoke();
    for p in ["q", "r", "x"] {
        script.key(key(target, p));
    }
    script
        .key(key(target, &format!("w:{id}")))
        .arg(id)
        .arg(nonce.to_string());
    let op = Op {
        ctx,
        url,
        not_done: "the question was not marked expired",
    };
    let deadline = Instant::now() + EXPIRE_GRACE.min(ctx.lock_wait);
    let out = array(op.run(deadline, |c| script.invoke(c))?);
    if out.first().and_then(text).as_deref() == Some("replied") {
        return Ok(out
            .get(1)
            .and_then(|v| parse::<Reply>(ctx, v, &format!("the reply to {id} of {target}")))
            .map(|mut r| {
                r.nonce = Some(nonce);
                r
            }));
    }
    Ok(None)
}

static FIRST_UNREAD: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS, 3 per session: ids read ev. Returns the index (from 1) of the first session with an
-- unread message, or 0, then every session's last event (where a wait for more begins).
local found = 0
local out = {0}
for i = 0, #KEYS / 3 - 1 do
  if found == 0 then
    local upto = tonumber(redis.call('GET', KEYS[i*3+2]) or '0')
    if redis.call('ZCOUNT', KEYS[i*3+1], '(' .. upto, '+inf') > 0 then found = i + 1 end
  end
  local last = redis.call('XREVRANGE', KEYS[i*3+3], '+', '-', 'COUNT', 1)
  out[#out + 1] = (last[1] and last[1][1]) or '0-0'
end
out[1] = found
return out
",
    )
});

/// `store::first_unread` on Redis: the first of `sessions` with an unread message, and each
/// one's last event.
pub fn first_unread(
    ctx: &Ctx,
    url: &RedisUrl,
    sessions: &[String],
    deadline: Option<Instant>,
) -> Result<(Option<String>, Vec<String>)> {
    let mut script = FIRST_UNREAD.prepare_invoke();
    for s in sessions {
        for p in ["ids", "read", "ev"] {
            script.key(key(s, p));
        }
    }
    let op = Op {
        ctx,
        url,
        not_done: "the inbox was not read",
    };
    let deadline = deadline.unwrap_or_else(|| default_deadline(ctx));
    let out = array(op.run(deadline, |c| script.invoke(c))?);
    let found = out
        .first()
        .and_then(int)
        .ok_or_else(|| odd("a look at inboxes"))?;
    let last: Vec<String> = out[1..]
        .iter()
        .map(|v| text(v).unwrap_or_else(|| "0-0".into()))
        .collect();
    let first = usize::try_from(found - 1)
        .ok()
        .and_then(|i| sessions.get(i).cloned());
    Ok((first, last))
}

/// `store::wait_unread` on Redis: until one of `sessions` has an unread message (its name),
/// `deadline` passes or the call is cancelled. Every delivery adds to its inbox's event stream,
/// so the wait is one blocking `XREAD` on all of them from the events last seen, in slices of
/// at most 250 ms.
pub fn wait_unread(
    ctx: &Ctx,
    url: &RedisUrl,
    sessions: &[String],
    deadline: Instant,
) -> Result<super::wait::Outcome<String>> {
    use super::wait::Outcome;
    let op = Op {
        ctx,
        url,
        not_done: "the inbox was not read",
    };
    let streams: Vec<String> = sessions.iter().map(|s| key(s, "ev")).collect();
    loop {
        let (first, last) = first_unread(ctx, url, sessions, Some(deadline + EXPIRE_GRACE))?;
        if let Some(s) = first {
            return Ok(Outcome::Found(s));
        }
        if ctx.cancelled() {
            return Ok(Outcome::Cancelled);
        }
        let Some(left) = remaining(deadline) else {
            return Ok(Outcome::TimedOut);
        };
        let ms = left.min(SLICE).as_millis().max(1) as u64;
        let got: RValue = match op.run(deadline, |c| {
            redis::cmd("XREAD")
                .arg("COUNT")
                .arg(1)
                .arg("BLOCK")
                .arg(ms)
                .arg("STREAMS")
                .arg(&streams)
                .arg(&last)
                .query(c)
        }) {
            Ok(v) => v,
            Err(e) if out_of_time(&e, deadline) => return Ok(Outcome::TimedOut),
            Err(e) => return Err(e),
        };
        // Something came (or the slice ended): look again.
        let _ = got;
    }
}

/// The sessions the hub knows: session -> the root it last called a hub tool from ("" for a
/// session only written to).
const SESSIONS: &str = "loopr:sessions";

/// Notes the caller's session and root in the registry (one `HSET`).
fn note_by(ctx: &Ctx, op: &Op, deadline: Instant) -> Result<()> {
    let root = ctx.root.display().to_string();
    op.run(deadline, |c| {
        redis::cmd("HSET")
            .arg(SESSIONS)
            .arg(&ctx.session)
            .arg(&root)
            .query::<()>(c)
    })
}

/// `note_by` as bookkeeping: a hub tool's call does not fail for it, it warns (as on a file hub).
fn note(ctx: &Ctx, op: &Op, deadline: Instant) {
    if let Err(e) = note_by(ctx, op, deadline) {
        ctx.warn(format!(
            "the hub could not note where session {} runs: {}",
            ctx.session, e.message
        ));
    }
}

/// `store::note_session` on Redis.
pub fn note_session(ctx: &Ctx, url: &RedisUrl) -> Result<()> {
    let op = Op {
        ctx,
        url,
        not_done: "the session was not noted in the hub",
    };
    note_by(ctx, &op, default_deadline(ctx))
}

/// `store::sessions` on Redis, sorted.
pub fn sessions(ctx: &Ctx, url: &RedisUrl) -> Result<Vec<Known>> {
    let op = Op {
        ctx,
        url,
        not_done: "the hub's sessions were not read",
    };
    let all: Vec<(String, String)> = op.run(default_deadline(ctx), |c| {
        redis::cmd("HGETALL").arg(SESSIONS).query(c)
    })?;
    let mut out: Vec<Known> = all
        .into_iter()
        .map(|(session, root)| Known { session, root })
        .collect();
    out.sort_by(|a, b| a.session.cmp(&b.session));
    Ok(out)
}

/// `store::known` on Redis: the session called a hub tool or was written to.
pub fn known(ctx: &Ctx, url: &RedisUrl, session: &str) -> Result<bool> {
    let op = Op {
        ctx,
        url,
        not_done: "nothing was sent",
    };
    op.run(default_deadline(ctx), |c| {
        redis::cmd("HEXISTS").arg(SESSIONS).arg(session).query(c)
    })
}

// ---------------------------------------------------------------------------------------------
// Artifacts, completion, reset

/// `store::artifact_names` on Redis, sorted.
pub fn artifact_names(ctx: &Ctx, url: &RedisUrl, session: &str, kind: &str) -> Result<Vec<String>> {
    let op = Op {
        ctx,
        url,
        not_done: "the artifacts were not read",
    };
    let k = key(session, &format!("a:{kind}"));
    let mut names: Vec<String> = op.run(default_deadline(ctx), |c| {
        redis::cmd("HKEYS").arg(&k).query(c)
    })?;
    names.sort();
    Ok(names)
}

/// `store::load_artifact` on Redis.
pub fn load_artifact(
    ctx: &Ctx,
    url: &RedisUrl,
    session: &str,
    kind: &str,
    name: &str,
) -> Result<Option<Value>> {
    let op = Op {
        ctx,
        url,
        not_done: "the artifact was not read",
    };
    let k = key(session, &format!("a:{kind}"));
    let v: RValue = op.run(default_deadline(ctx), |c| {
        redis::cmd("HGET").arg(&k).arg(name).query(c)
    })?;
    Ok(parse(ctx, &v, &format!("{kind} `{name}` of {session}")))
}

static SAVE_ARTIFACT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: the kind's hash ; ARGV: name, JSON, '1' to replace
local existed = redis.call('HEXISTS', KEYS[1], ARGV[1])
if existed == 1 and ARGV[3] ~= '1' then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return existed
",
    )
});

/// `store::save_artifact` on Redis: Ok(Some(existed)), or Ok(None) when it exists and
/// `replace` is false (nothing changed).
pub fn save_artifact(
    ctx: &Ctx,
    url: &RedisUrl,
    kind: &str,
    name: &str,
    value: &Value,
    replace: bool,
) -> Result<Option<bool>> {
    let mut script = SAVE_ARTIFACT.prepare_invoke();
    script
        .key(key(&ctx.session, &format!("a:{kind}")))
        .arg(name)
        .arg(serde_json::to_string(value).expect("plain data"))
        .arg(if replace { "1" } else { "0" });
    let op = Op {
        ctx,
        url,
        not_done: "the artifact was not saved",
    };
    note(ctx, &op, default_deadline(ctx));
    let n: i64 = op.run(default_deadline(ctx), |c| script.invoke(c))?;
    Ok(match n {
        -1 => None,
        n => Some(n == 1),
    })
}

/// `store::completion` on Redis.
pub fn completion(ctx: &Ctx, url: &RedisUrl, session: &str) -> Result<Option<Completion>> {
    let op = Op {
        ctx,
        url,
        not_done: "the completion was not read",
    };
    let k = key(session, "done");
    let v: RValue = op.run(default_deadline(ctx), |c| {
        redis::cmd("GET").arg(&k).query(c)
    })?;
    Ok(parse(ctx, &v, &format!("the completion of {session}")))
}

static COMPLETE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: done ; ARGV: the completion as JSON. Returns the first one, or false when this is it.
local first = redis.call('GET', KEYS[1])
if first then return first end
redis.call('SET', KEYS[1], ARGV[1])
return false
",
    )
});

/// `store::complete` on Redis: a second completion is refused with the first.
pub fn complete(
    ctx: &Ctx,
    url: &RedisUrl,
    done: &Completion,
) -> Result<std::result::Result<(), Completion>> {
    let mut script = COMPLETE.prepare_invoke();
    script
        .key(key(&ctx.session, "done"))
        .arg(serde_json::to_string(done).expect("plain data"));
    let op = Op {
        ctx,
        url,
        not_done: "the completion was not recorded",
    };
    note(ctx, &op, default_deadline(ctx));
    let v: RValue = op.run(default_deadline(ctx), |c| script.invoke(c))?;
    match parse::<Completion>(ctx, &v, &format!("the completion of {}", ctx.session)) {
        Some(first) => Ok(Err(first)),
        None => Ok(Ok(())),
    }
}

static REOPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local v = redis.call('GET', KEYS[1])
if v then redis.call('DEL', KEYS[1]) end
return v
",
    )
});

/// `store::reopen` on Redis: clears the completion, returns what it was.
pub fn reopen(ctx: &Ctx, url: &RedisUrl) -> Result<Option<Completion>> {
    let mut script = REOPEN.prepare_invoke();
    script.key(key(&ctx.session, "done"));
    let op = Op {
        ctx,
        url,
        not_done: "the completion was not cleared",
    };
    let v: RValue = op.run(default_deadline(ctx), |c| script.invoke(c))?;
    Ok(parse(
        ctx,
        &v,
        &format!("the completion of {}", ctx.session),
    ))
}

static RESET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
-- KEYS: the inbox's (ids m seq read q r x ev), the artifacts' (3), done. Returns how many of
-- the three parts (inbox, artifacts, completion) were there.
local parts = 0
if redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]) > 0 then
  parts = parts + 1
end
if redis.call('DEL', KEYS[9], KEYS[10], KEYS[11]) > 0 then parts = parts + 1 end
if redis.call('DEL', KEYS[12]) > 0 then parts = parts + 1 end
return parts
",
    )
});

/// `store::reset` on Redis: drops the session's inbox, artifacts and completion at once.
/// (Wake lists of queries still waiting expire on their own.)
pub fn reset(ctx: &Ctx, url: &RedisUrl) -> Result<usize> {
    let mut script = RESET.prepare_invoke();
    for p in ["ids", "m", "seq", "read", "q", "r", "x", "ev"] {
        script.key(key(&ctx.session, p));
    }
    for kind in super::store::KINDS {
        script.key(key(&ctx.session, &format!("a:{kind}")));
    }
    script.key(key(&ctx.session, "done"));
    let op = Op {
        ctx,
        url,
        not_done: "nothing of the session was dropped from the hub",
    };
    let n: i64 = op.run(default_deadline(ctx), |c| script.invoke(c))?;
    Ok(n.max(0) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_a_session_in_braces() {
        assert_eq!(key("exec:phase:1", "m"), "loopr:{exec:phase:1}:m");
        assert_eq!(inbox_keys("a")[7], "loopr:{a}:ev");
    }
}
