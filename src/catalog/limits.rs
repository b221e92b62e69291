//! A catalog entry's limits applied to one call (SPEC 19.2, 24.3, 24.7): `timeout_ms` as the
//! whole call's budget (a walk, a fetch, a lock wait), or as the default of a command's own
//! timeout for run-like tools; `max_output_bytes` as a cap on `output` in UTF-8 bytes.

use super::ToolEntry;
use crate::control::Control;
use crate::envelope::{Envelope, Success};
use crate::error::{Code, Result, ToolError};
use serde_json::Value;
use std::time::Duration;

/// Whether a tool's `timeout_ms` is its command's (run, command tools) rather than the call's.
pub fn run_like(tool: &str) -> bool {
    matches!(tool, "run" | super::COMMAND_TOOL)
}

/// Before the call is parsed: a tool that has a `timeout_ms` field of its own gets the catalog's
/// as its default (clamped to what its schema allows).
pub fn fill_defaults(entry: &ToolEntry, schema: &Value, input: &mut Value) {
    let Some(ms) = entry.timeout_ms else { return };
    let own = schema.pointer("/properties/timeout_ms");
    if let (Some(own), Some(obj)) = (own, input.as_object_mut())
        && obj.get("timeout_ms").is_none_or(Value::is_null)
    {
        let max = own
            .get("maximum")
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX);
        obj.insert("timeout_ms".into(), ms.min(max).into());
    }
}

/// When the call starts: every tool but a run-like one gets a deadline over the whole call.
pub fn start(entry: &ToolEntry, tool: &str, control: &Control) {
    if let Some(ms) = entry.timeout_ms
        && !run_like(tool)
    {
        control.set_deadline(Duration::from_millis(ms));
    }
}

/// After the call: a call its deadline stopped answers `timeout`, with what it had found in
/// `data` marked `truncated` (SPEC 19.2). A lock wait cut short by the deadline is a timeout
/// too (24.7).
pub fn settle(
    result: Result<Success>,
    entry: &ToolEntry,
    tool: &str,
    control: &Control,
) -> Result<Success> {
    let Some(ms) = entry.timeout_ms.filter(|_| !run_like(tool)) else {
        return result;
    };
    let out_of_time = control.remaining() == Some(Duration::ZERO);
    let stopped = control.timed_out() && !control.client_cancelled();
    let lock = matches!(&result, Err(e) if e.code == Code::LockTimeout) && out_of_time;
    if !stopped && !lock {
        return result;
    }
    let (so_far, data) = match result {
        Ok(s) => {
            let mut data = s.data.into_value(&[]);
            if let Value::Object(m) = &mut data {
                m.insert("truncated".into(), true.into());
            }
            (s.output, Some(data))
        }
        Err(e) => (String::new(), e.data),
    };
    let mut message =
        format!("{tool} ran out of its time limit ({ms} ms, set by the catalog) and stopped");
    if lock {
        message.push_str(" while waiting for a lock");
    }
    if !so_far.trim().is_empty() {
        message.push_str("; what it had found so far:\n");
        message.push_str(so_far.trim_end());
    }
    let mut err = ToolError::new(Code::Timeout, message)
        .with("timeout_ms", ms)
        .hint(
            "Narrow the call (a smaller path, a more specific pattern) so it fits the time limit.",
        );
    if let Some(d) = data {
        err = err.data(d);
    }
    Err(err)
}

/// Cuts `env.output` to `max` UTF-8 bytes after the last whole line that fits, with a trailer
/// line that says so (16.1's rules, in bytes); a success's `data.truncated` becomes true.
pub fn cap_output(env: &mut Envelope, max: u64) {
    let max = usize::try_from(max).unwrap_or(usize::MAX);
    if env.output.len() <= max {
        return;
    }
    let total = env.output.len();
    let trailer = format!(
        "[output cut to {max} of {total} bytes by the catalog's max_output_bytes; narrow the call to see the rest]\n"
    );
    cut(env, max, &trailer);
}

/// Cuts `env.output` to `max` characters, whole lines, for the client that passes results on
/// (`who`, SPEC 31.1): a tool that pages sizes itself under this and is never cut here.
pub fn cap_chars(env: &mut Envelope, max: usize, who: &str) {
    let Some((bytes, _)) = env.output.char_indices().nth(max) else {
        return; // `max` characters or fewer
    };
    let trailer = format!(
        "[output cut to the {max} characters {who} passes on whole; narrow the call to see the rest]\n"
    );
    cut(env, bytes, &trailer);
}

/// `env.output` cut to `max` bytes after the last whole line that fits, then `trailer`.
fn cut(env: &mut Envelope, max: usize, trailer: &str) {
    let room = max.saturating_sub(trailer.len());
    let mut keep = env.output[..floor_boundary(&env.output, room)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    if keep == 0 {
        // Not one whole line fits: cut inside the first, at a character boundary.
        keep = floor_boundary(&env.output, room.saturating_sub(1));
    }
    let mut out = env.output[..keep].to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(trailer);
    env.output = out;
    env.mark_truncated();
}

fn floor_boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_counts_bytes_and_keeps_whole_lines() {
        let text: String = (0..50).map(|i| format!("line é {i}\n")).collect();
        let mut env = Envelope::success("x", Success::new(text, serde_json::json!({})), &[]);
        cap_output(&mut env, 200);
        assert!(env.output.len() <= 200, "{}", env.output.len());
        assert!(env.output.starts_with("line é 0\n"));
        assert!(env.output.ends_with("narrow the call to see the rest]\n"));
        let body = env.output.lines().count() - 1;
        assert!(
            env.output
                .lines()
                .take(body)
                .all(|l| l.starts_with("line é "))
        );
    }
}
