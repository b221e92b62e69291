//! `call` and `batch` (SPEC §14, 16.9): tool calls as a harness forwards them.
//!
//! A batch is cut into maximal runs of consecutive read-only calls; a run starts once every
//! earlier call has finished and its members run in parallel; every other call runs alone. So
//! a batch means exactly what the same calls made one after another would mean, only faster.

use crate::context::Globals;
use crate::dispatch;
use crate::envelope::{Envelope, print_json, print_value};
use crate::error::{Result, ToolError};
use crate::input::json;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::io::{self, Write};

/// One call: `{"name": TOOL, "input": {...}, "id"?: ID}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub name: String,
    #[serde(default)]
    pub input: Option<Value>,
    #[serde(default)]
    pub id: Option<Value>,
}

/// Names that are commands, not tools: never callable from inside a call.
const NOT_TOOLS: &[&str] = &["call", "batch", "mcp", "schema"];

/// Reads one call; `duplicate` is the path of a key its JSON text gave twice (SPEC 24.6).
fn parse_call(
    v: Value,
    duplicate: Option<String>,
) -> std::result::Result<Call, (Option<Value>, ToolError)> {
    let id = v.get("id").cloned();
    if let Some(dup) = duplicate {
        return Err((id, json::duplicate_key("call", &dup)));
    }
    if !v.is_object() {
        return Err((
            None,
            ToolError::usage("a call must be a JSON object: {\"name\": TOOL, \"input\": {...}}"),
        ));
    }
    serde_json::from_value::<Call>(v).map_err(|e| {
        let err = ToolError::usage(format!("bad call: {e}"))
            .hint("A call is {\"name\": TOOL, \"input\": {...}, \"id\": optional}.");
        (id, err)
    })
}

/// An envelope and the caller's `id`, which comes last in what is printed.
pub struct Reply {
    pub env: Envelope,
    id: Option<Value>,
}

impl Reply {
    fn failure(tool: &str, err: ToolError, id: Option<Value>) -> Reply {
        Reply {
            env: Envelope::failure(tool, err, &[]),
            id,
        }
    }

    fn into_value(self) -> Value {
        self.env.into_value(self.id)
    }

    fn write_json(self, out: &mut dyn Write) -> io::Result<()> {
        self.env.write_json(out, self.id)
    }
}

/// What `call` and `batch` print: one envelope, or a bare array of them.
#[allow(clippy::large_enum_variant)] // one per process: boxing would buy nothing
pub enum Printed {
    One(Reply),
    Many(Vec<Reply>),
}

impl Printed {
    pub fn print(self, pretty: bool, status: i32) -> i32 {
        if pretty {
            let v = match self {
                Printed::One(r) => r.into_value(),
                Printed::Many(rs) => Value::Array(rs.into_iter().map(Reply::into_value).collect()),
            };
            return print_value(&v, true, status);
        }
        print_json(status, |out| match self {
            Printed::One(r) => r.write_json(out),
            Printed::Many(rs) => {
                out.write_all(b"[")?;
                for (i, r) in rs.into_iter().enumerate() {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    r.write_json(out)?;
                }
                out.write_all(b"]")
            }
        })
    }
}

/// The envelope of one call, with the caller's `id` echoed.
fn reply_to(g: &Globals, call: Call) -> Reply {
    let Call { name, input, id } = call;
    let env = match dispatch::lookup(&name).filter(|_| !NOT_TOOLS.contains(&name.as_str())) {
        Some(r) => r.run(g, input.unwrap_or_else(|| Value::Object(Map::new()))),
        None => Envelope::failure(&name, dispatch::unknown_tool(&name), &[]),
    };
    Reply { env, id }
}

/// `call`: stdin holds one call; prints its envelope plus `id`, with that envelope's status.
pub fn call(g: &Globals, stdin: &[u8]) -> (Reply, i32) {
    let parsed = json::from_slice(stdin)
        .map_err(|e| {
            (
                None,
                ToolError::usage(format!("stdin is not valid JSON: {e}")),
            )
        })
        .and_then(|p| parse_call(p.value, p.duplicate));
    let reply = match parsed {
        Ok(c) => reply_to(g, c),
        Err((id, e)) => Reply::failure("call", e, id),
    };
    let status = reply.env.exit_status;
    (reply, status)
}

/// The calls of a batch: a JSON array, or JSON Lines (one call per non-blank line). Each
/// element is parsed on its own terms: a duplicate key, or a bad line, is that slot's error.
fn batch_items(stdin: &[u8]) -> Result<Vec<std::result::Result<json::Parsed, String>>> {
    let text =
        std::str::from_utf8(stdin).map_err(|_| ToolError::usage("batch: stdin is not UTF-8"))?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return match json::array_from_str(text) {
            Ok(items) => Ok(items.into_iter().map(Ok).collect()),
            Err(e) => Err(ToolError::usage(format!(
                "batch: stdin starts with `[` but is not a JSON array of calls: {e}"
            ))),
        };
    }
    let mut items = vec![];
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        items.push(json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1)));
    }
    if items.is_empty() {
        return Err(ToolError::usage(
            "batch: no calls on stdin (send a JSON array or JSON Lines of calls)",
        ));
    }
    Ok(items)
}

enum Slot {
    Ready(Reply),
    Pending(Call, bool), // the call, and whether it only looks
    Taken,
}

/// `batch`: a bare JSON array of envelopes in input order. Exit 0 when all are ok, 1 when any
/// failed, 2 when the batch itself is unreadable.
pub fn batch(g: &Globals, stdin: &[u8]) -> (Printed, i32) {
    let items = match batch_items(stdin) {
        Ok(items) => items,
        Err(e) => {
            let reply = Reply::failure("batch", e, None);
            let status = reply.env.exit_status;
            return (Printed::One(reply), status);
        }
    };
    let mut slots: Vec<Slot> = items
        .into_iter()
        .map(|item| match item {
            Err(line_error) => Slot::Ready(Reply::failure(
                "batch",
                ToolError::usage(format!("batch: {line_error}")),
                None,
            )),
            Ok(p) => match parse_call(p.value, p.duplicate) {
                Ok(c) => {
                    let ro = dispatch::lookup(&c.name)
                        .filter(|_| !NOT_TOOLS.contains(&c.name.as_str()))
                        .is_some_and(|r| {
                            r.is_read_only(c.input.as_ref().unwrap_or(&Value::Object(Map::new())))
                        });
                    Slot::Pending(c, ro)
                }
                Err((id, e)) => Slot::Ready(Reply::failure("batch", e, id)),
            },
        })
        .collect();

    let mut results: Vec<Option<Reply>> = slots.iter().map(|_| None).collect();
    let mut i = 0;
    while i < slots.len() {
        // A maximal run of read-only calls (ready slots do not break it: they need no running).
        let mut j = i;
        while j < slots.len() && !matches!(slots[j], Slot::Pending(_, false)) {
            j += 1;
        }
        if j > i {
            run_parallel(g, &mut slots[i..j], &mut results[i..j]);
            i = j;
        } else {
            run_parallel(g, &mut slots[i..=i], &mut results[i..=i]);
            i += 1;
        }
    }
    let replies: Vec<Reply> = results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Reply::failure("batch", ToolError::internal("a call was never run"), None)
            })
        })
        .collect();
    let all_ok = replies.iter().all(|r| r.env.ok);
    (Printed::Many(replies), if all_ok { 0 } else { 1 })
}

/// Runs `slots` at once: a few scoped worker threads take calls from a shared counter, so no
/// worker waits for a slower sibling before starting the next call.
fn run_parallel(g: &Globals, slots: &mut [Slot], results: &mut [Option<Reply>]) {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut work: Vec<(usize, Mutex<Option<Call>>)> = vec![];
    for (k, slot) in slots.iter_mut().enumerate() {
        match std::mem::replace(slot, Slot::Taken) {
            Slot::Ready(r) => results[k] = Some(r),
            Slot::Pending(c, _) => work.push((k, Mutex::new(Some(c)))),
            Slot::Taken => {}
        }
    }
    let width = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .clamp(2, 8)
        .min(work.len());
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Reply)>> = Mutex::new(Vec::with_capacity(work.len()));
    std::thread::scope(|s| {
        for _ in 0..width {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((k, call)) = work.get(i) else { break };
                    let call = call
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .take()
                        .expect("each call is taken once");
                    let reply = reply_to(g, call);
                    done.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((*k, reply));
                }
            });
        }
    });
    for (k, r) in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        results[k] = Some(r);
    }
}
