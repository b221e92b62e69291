//! Approvals and granted rules (SPEC 29), kept in the session's state: loopr-tool is called
//! once per call, so an approval is a round trip. A call that needs one is answered with a
//! pending approval; the harness asks the person and calls again with its id (used once, for
//! that exact input, within 10 minutes), or grants a rule for the session.
//!
//! One file, `permissions.json`, read and written under the session's state lock like the rest
//! of the state (0600, replaced atomically).

use super::permissions::{self, Rule};
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use crate::state::{self, StateLock};
use loopr_env_vars::EnvVars;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The state file.
pub const FILE: &str = "permissions.json";
/// How long an approval may wait to be used.
pub const TTL_SECS: u64 = 600;

/// What the session holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Store {
    /// Allow rules granted for the session, as written.
    #[serde(default)]
    pub granted: Vec<String>,
    #[serde(default)]
    pub pending: Vec<Pending>,
}

/// An approval asked for and not yet used.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub id: String,
    /// The name called.
    pub tool: String,
    pub summary: String,
    /// The input as given: the approval is for exactly this.
    pub input: Value,
    pub expires_at: String,
    /// `expires_at` in Unix seconds.
    pub expires: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

impl Pending {
    /// `error.approval` (SPEC 29): `{id, tool, summary, input, expires_at, diff?}`.
    pub fn to_value(&self) -> Value {
        let mut v = serde_json::json!({
            "id": self.id,
            "tool": self.tool,
            "summary": self.summary,
            "input": self.input,
            "expires_at": self.expires_at,
        });
        if let Some(d) = &self.diff {
            v["diff"] = Value::from(d.as_str());
        }
        v
    }
}

/// Now, or `LOOPR_DEBUG_NOW` (an RFC 3339 time) for tests.
pub fn now() -> Result<SystemTime> {
    let Some(given) = std::env::var_os(EnvVars::LOOPR_DEBUG_NOW) else {
        return Ok(SystemTime::now());
    };
    let text = given.to_string_lossy();
    parse_rfc3339(&text)
        .map(|s| UNIX_EPOCH + Duration::from_secs(s))
        .ok_or_else(|| {
            ToolError::usage(format!(
                "LOOPR_DEBUG_NOW={text:?} is not an RFC 3339 time (2026-01-02T03:04:05Z)"
            ))
        })
}

fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` as Unix seconds.
pub fn parse_rfc3339(s: &str) -> Option<u64> {
    let s = s.trim();
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' || !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        o if o.len() == 6 && matches!(&o[..1], "+" | "-") && &o[3..4] == ":" => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            sign * (o[1..3].parse::<i64>().ok()? * 3600 + o[4..6].parse::<i64>().ok()? * 60)
        }
        _ => return None,
    };
    // Howard Hinnant's days-from-civil.
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + h * 3600 + mi * 60 + se - offset).ok()
}

fn load(lock: &StateLock) -> Result<Store> {
    lock.load(FILE)
}

fn save(lock: &StateLock, store: &Store) -> Result<()> {
    lock.save(FILE, store, false)
}

/// The session's store with expired approvals left out.
pub fn list(ctx: &Ctx) -> Result<Store> {
    let lock = StateLock::acquire(ctx)?;
    let mut store = load(&lock)?;
    let now = secs(now()?);
    store.pending.retain(|p| p.expires > now);
    Ok(store)
}

/// The session's granted rules, parsed (a rule that no longer parses is skipped).
pub fn granted(ctx: &Ctx) -> Result<Vec<Rule>> {
    let store = load(&StateLock::acquire(ctx)?)?;
    Ok(store
        .granted
        .iter()
        .filter_map(|r| permissions::parse(r).ok())
        .collect())
}

/// Records a pending approval for `tool` with `input` and returns it.
pub fn request(
    ctx: &Ctx,
    tool: &str,
    input: &Value,
    summary: String,
    diff: Option<String>,
) -> Result<Pending> {
    let now = now()?;
    let lock = StateLock::acquire(ctx)?;
    let mut store = load(&lock)?;
    store.pending.retain(|p| p.expires > secs(now));
    // The same call asked again gets the approval already pending for it.
    if let Some(p) = store
        .pending
        .iter()
        .find(|p| p.tool == tool && &p.input == input)
    {
        return Ok(p.clone());
    }
    let expires = secs(now) + TTL_SECS;
    let seed = format!(
        "{}\0{tool}\0{input}\0{:?}\0{}",
        ctx.session,
        SystemTime::now(),
        std::process::id()
    );
    let id = format!("ap-{:016x}", xxhash_rust::xxh3::xxh3_64(seed.as_bytes()));
    let pending = Pending {
        id,
        tool: tool.to_string(),
        summary,
        input: input.clone(),
        expires_at: state::rfc3339(UNIX_EPOCH + Duration::from_secs(expires)),
        expires,
        diff,
    };
    store.pending.push(pending.clone());
    save(&lock, &store)?;
    Ok(pending)
}

/// Why an approval given with a call could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    Unknown,
    Expired,
    OtherCall,
}

impl Refused {
    pub fn says(&self, id: &str) -> String {
        match self {
            Refused::Unknown => {
                format!("approval {id} is not pending in this session (unknown, or already used)")
            }
            Refused::Expired => format!("approval {id} has expired"),
            Refused::OtherCall => format!("approval {id} is for another call or another input"),
        }
    }
}

/// Uses approval `id` for this exact call: removed whatever the answer, so it is used once.
pub fn take(
    ctx: &Ctx,
    id: &str,
    tool: &str,
    input: &Value,
) -> Result<std::result::Result<(), Refused>> {
    let now = secs(now()?);
    let lock = StateLock::acquire(ctx)?;
    let mut store = load(&lock)?;
    let Some(i) = store.pending.iter().position(|p| p.id == id) else {
        return Ok(Err(Refused::Unknown));
    };
    let p = store.pending[i].clone();
    if p.tool != tool || &p.input != input {
        // Left pending: the harness may still make the call it was asked for.
        return Ok(Err(Refused::OtherCall));
    }
    store.pending.remove(i);
    store.pending.retain(|p| p.expires > now);
    save(&lock, &store)?;
    if p.expires <= now {
        return Ok(Err(Refused::Expired));
    }
    Ok(Ok(()))
}

/// Grants an allow rule for the session; false when it was granted already.
pub fn grant(ctx: &Ctx, rule: &str) -> Result<bool> {
    let rule = permissions::parse(rule)
        .map_err(|e| ToolError::invalid("rule", format!("permissions: {e}")))?;
    let lock = StateLock::acquire(ctx)?;
    let mut store = load(&lock)?;
    if store.granted.contains(&rule.text) {
        return Ok(false);
    }
    store.granted.push(rule.text);
    save(&lock, &store)?;
    Ok(true)
}

/// Revokes a granted rule or drops a pending approval (by its id).
pub fn revoke(ctx: &Ctx, what: &str) -> Result<()> {
    let lock = StateLock::acquire(ctx)?;
    let mut store = load(&lock)?;
    let what = what.trim();
    let (rules, pending) = (store.granted.len(), store.pending.len());
    store.granted.retain(|r| r != what);
    store.pending.retain(|p| p.id != what);
    if (rules, pending) == (store.granted.len(), store.pending.len()) {
        return Err(ToolError::new(
            Code::NotFound,
            format!("permissions: `{what}` is neither a granted rule nor a pending approval of session {}", ctx.session),
        )
        .with("rule", what)
        .hint("`permissions list` shows what the session holds."));
    }
    save(&lock, &store)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_reads_what_state_writes() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2000-02-29T00:00:00.123Z"), Some(951_782_400));
        assert_eq!(
            parse_rfc3339("2026-11-22T01:02:03+01:00"),
            Some(1_795_305_600 + 3_723 - 3600)
        );
        let t = UNIX_EPOCH + Duration::from_secs(1_795_305_600);
        assert_eq!(parse_rfc3339(&state::rfc3339(t)), Some(1_795_305_600));
        assert_eq!(parse_rfc3339("yesterday"), None);
        assert_eq!(parse_rfc3339("2026-13-01T00:00:00Z"), None);
    }
}
