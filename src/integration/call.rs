//! `call` and `batch` (SPEC §14, 16.9, 22.3): tool calls as a harness forwards them, in any
//! of the shapes `shapes` reads, answered with our envelope or the harness's own result block
//! (`--result-format`).
//!
//! A batch is cut into maximal runs of consecutive read-only calls; a run starts once every
//! earlier call has finished and its members run in parallel; every other call runs alone. So
//! a batch means exactly what the same calls made one after another would mean, only faster.

use super::shapes::{self, Call, Rejected, Shape};
use crate::catalog::Admission;
use crate::context::Globals;
use crate::dispatch::{self, Prepared};
use crate::envelope::{Envelope, print_json, print_value};
use crate::error::{Result, ToolError};
use crate::exit_status::ExitStatus;
use crate::input::json;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// Names that are commands, not tools: never callable from inside a call.
const NOT_TOOLS: &[&str] = &["call", "batch", "mcp", "schema"];

/// What `call` and `batch` print for each call (`--result-format`, SPEC 22.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultFormat {
    /// Our envelope plus `id`.
    Envelope,
    /// `{type: "tool_result", tool_use_id, content, is_error}`.
    Anthropic,
    /// `{role: "tool", tool_call_id, content}`; for a Responses call
    /// `{type: "function_call_output", call_id, output}`.
    OpenAi,
}

impl ResultFormat {
    pub const NAMES: [&'static str; 3] = ["envelope", "anthropic", "openai"];

    pub fn parse(s: &str) -> Option<ResultFormat> {
        match s {
            "envelope" => Some(ResultFormat::Envelope),
            "anthropic" => Some(ResultFormat::Anthropic),
            "openai" => Some(ResultFormat::OpenAi),
            _ => None,
        }
    }
}

/// An envelope, the caller's `id` (which comes last in what is printed), and the shape the
/// call came in, which decides the shape of a result block.
pub struct Reply {
    pub env: Envelope,
    id: Option<Value>,
    shape: Shape,
}

impl Reply {
    fn failure(tool: &str, err: ToolError, id: Option<Value>) -> Reply {
        Reply {
            env: Envelope::failure(tool, err, &[]),
            id,
            shape: Shape::Ours,
        }
    }

    fn rejected(tool: &str, r: Rejected) -> Reply {
        Reply {
            shape: r.shape,
            ..Reply::failure(tool, r.err, r.id)
        }
    }

    /// What is printed for this call: the envelope, or the block a harness sends back to its
    /// model (SPEC 22.3, 24.5), whose text is `output`, as the envelope's rule has it, with an
    /// error flagged where the API can.
    fn into_block(self, format: ResultFormat) -> Value {
        if format == ResultFormat::Envelope {
            return self.env.into_value(self.id);
        }
        let id = self.id.unwrap_or(Value::Null);
        let mut env = self.env;
        let images = match &mut env.body {
            crate::envelope::Body::Data { data, .. } if format == ResultFormat::Anthropic => {
                data.take_images()
            }
            _ => vec![],
        };
        let (ok, output) = (env.ok, env.output);
        match (format, self.shape) {
            // Images go after the text as image blocks (SPEC 22.3).
            (ResultFormat::Anthropic, _) if !images.is_empty() => {
                let mut content = vec![json!({"type": "text", "text": output})];
                content.extend(images.into_iter().map(|img| {
                    json!({"type": "image", "source": {"type": "base64", "media_type": img.mime, "data": img.base64}})
                }));
                json!({
                    "type": "tool_result",
                    "tool_use_id": id,
                    "content": content,
                    "is_error": !ok,
                })
            }
            (ResultFormat::Anthropic, _) => json!({
                "type": "tool_result",
                "tool_use_id": id,
                "content": output,
                "is_error": !ok,
            }),
            (_, Shape::Responses) => json!({
                "type": "function_call_output",
                "call_id": id,
                "output": output,
            }),
            _ => json!({
                "role": "tool",
                "tool_call_id": id,
                "content": output,
            }),
        }
    }

    fn write_json(self, out: &mut dyn Write) -> io::Result<()> {
        self.env.write_json(out, self.id)
    }
}

impl Reply {
    /// Prints one reply as `call` prints it.
    pub fn print(self, pretty: bool, status: ExitStatus, format: ResultFormat) -> ExitStatus {
        // Envelopes on one line are streamed (`write_json`): their data may be large.
        if pretty || format != ResultFormat::Envelope {
            return print_value(&self.into_block(format), pretty, status);
        }
        print_json(status, |out| self.write_json(out))
    }
}

/// Writes a batch's replies as one JSON array, each element as soon as it arrives: compact
/// envelopes are streamed as `call` streams them; pretty or reshaped ones are laid out as
/// serde_json lays out an array (two spaces more inside).
pub struct ArrayWriter<W: Write> {
    out: W,
    pretty: bool,
    format: ResultFormat,
    count: usize,
    failed: Option<io::ErrorKind>,
}

impl<W: Write> ArrayWriter<W> {
    pub fn new(out: W, pretty: bool, format: ResultFormat) -> Self {
        ArrayWriter {
            out,
            pretty,
            format,
            count: 0,
            failed: None,
        }
    }

    pub fn push(&mut self, r: Reply) {
        if self.failed.is_some() {
            return;
        }
        let sep: &[u8] = match (self.count, self.pretty) {
            (0, false) => b"[",
            (0, true) => b"[\n  ",
            (_, false) => b",",
            (_, true) => b",\n  ",
        };
        self.count += 1;
        let written = self.out.write_all(sep).and_then(|()| {
            if !self.pretty && self.format == ResultFormat::Envelope {
                return r.write_json(&mut self.out);
            }
            let v = r.into_block(self.format);
            if self.pretty {
                let text = serde_json::to_string_pretty(&v).map_err(io::Error::other)?;
                self.out.write_all(text.replace('\n', "\n  ").as_bytes())
            } else {
                serde_json::to_writer(&mut self.out, &v).map_err(io::Error::other)
            }
        });
        // Results reach a reader as they come, not when a buffer fills.
        self.failed = written
            .and_then(|()| self.out.flush())
            .err()
            .map(|e| e.kind());
    }

    /// Closes the array; `Err` when stdout failed on the way (a closed pipe included).
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(kind) = self.failed {
            return Err(kind.into());
        }
        let end: &[u8] = match (self.count, self.pretty) {
            (0, _) => b"[]\n",
            (_, false) => b"]\n",
            (_, true) => b"\n]\n",
        };
        self.out.write_all(end)?;
        self.out.flush()
    }
}

/// A call made ready: its input translated and parsed once (`dispatch::Prepared`), or the
/// answer of a name that is no tool; with the caller's `id` and the call's shape.
struct Job {
    call: std::result::Result<Box<Prepared>, Envelope>,
    id: Option<Value>,
    shape: Shape,
}

impl Job {
    fn new(g: &Globals, call: Call) -> Job {
        let Call {
            name,
            input,
            id,
            shape,
            approval,
        } = call;
        let found = if NOT_TOOLS.contains(&name.as_str()) {
            Err(g.policy.unknown(&name))
        } else {
            dispatch::find(&g.policy, &name)
        };
        let call = match found {
            Ok(r) => Ok(Box::new(
                r.prepare(
                    &g.policy,
                    input.unwrap_or_else(|| Value::Object(Map::new())),
                )
                .with_approval(approval),
            )),
            Err(e) => Err(Envelope::failure(&name, e, &[])),
        };
        Job { call, id, shape }
    }

    /// Whether the call only looks (a batch runs such calls in parallel).
    fn is_read_only(&self) -> bool {
        self.call.as_ref().is_ok_and(|p| p.is_read_only())
    }

    /// The envelope of the call, with the caller's `id` echoed.
    fn run(self, g: &Globals) -> Reply {
        let env = match self.call {
            Ok(prepared) => prepared.run(g),
            Err(env) => env,
        };
        Reply {
            env,
            id: self.id,
            shape: self.shape,
        }
    }
}

/// One call by name, as `call` runs it: the library's `Toolbox::call` is this too (SPEC 30.1).
pub fn run_named(g: &Globals, name: &str, input: Value) -> Envelope {
    let call = Call {
        name: name.to_string(),
        input: Some(input),
        id: None,
        shape: Shape::Ours,
        approval: None,
    };
    Job::new(g, call).run(g).env
}

/// `call`: stdin holds one call; prints its envelope plus `id`, with that envelope's status.
pub fn call(g: &Globals, stdin: &[u8]) -> (Reply, ExitStatus) {
    let reply = match json::from_slice(stdin) {
        Err(e) => Reply::failure("call", e.into_tool("stdin"), None),
        Ok(p) => match shapes::parse(p.value, p.duplicate) {
            Ok(c) => Job::new(g, c).run(g),
            Err(r) => Reply::rejected("call", r),
        },
    };
    let status = reply.env.exit_status;
    (reply, status)
}

/// The batch's calls parsed, each a job to run or its reply already.
fn batch_slots(g: &Globals, stdin: &[u8]) -> std::result::Result<Vec<Slot>, Box<Reply>> {
    let items = batch_items(stdin).map_err(|e| Box::new(Reply::failure("batch", e, None)))?;
    let slots: Vec<Slot> = items
        .into_iter()
        .map(|item| match item {
            Err(line_error) => Slot::Ready(Reply::failure(
                "batch",
                ToolError::usage(format!("batch: {line_error}")),
                None,
            )),
            Ok(p) => match shapes::parse(p.value, p.duplicate) {
                Ok(c) => {
                    let job = Job::new(g, c);
                    let ro = job.is_read_only();
                    Slot::Pending(job, ro)
                }
                Err(r) => Slot::Ready(Reply::rejected("batch", r)),
            },
        })
        .collect();
    if json::budget_spent() {
        let limit = json::budget(stdin.len());
        return Err(Box::new(Reply::failure(
            "batch",
            ToolError::too_large(
                limit,
                format!(
                    "batch: its {} bytes hold more than {limit} values, calls and their arguments together",
                    stdin.len()
                ),
            )
            .hint("Send the fields each tool takes; split a large batch."),
            None,
        )));
    }
    Ok(slots)
}

/// The calls of a batch: a JSON array, or JSON Lines (one call per non-blank line). Each
/// element is parsed on its own terms: a duplicate key, or a bad line, is that slot's error.
fn batch_items(stdin: &[u8]) -> Result<Vec<std::result::Result<json::Parsed, String>>> {
    let text =
        std::str::from_utf8(stdin).map_err(|_| ToolError::usage("batch: stdin is not UTF-8"))?;
    let trimmed = text.trim_start();
    // Counted before anything is parsed: 60 MB of `[{},{},…]` grew to 24 GB as values.
    let count = if trimmed.starts_with('[') {
        top_level_elements(trimmed.as_bytes())
    } else {
        text.lines().filter(|l| !l.trim().is_empty()).count()
    };
    if count > MAX_BATCH {
        return Err(ToolError::too_large(
            MAX_BATCH,
            format!("batch: {count} calls; a batch holds at most {MAX_BATCH}"),
        )
        .hint("Split the calls into several batches."));
    }
    if trimmed.starts_with('[') {
        return match json::array_from_str(text) {
            Ok(items) => Ok(items.into_iter().map(Ok).collect()),
            Err(e @ json::Error::TooMany { .. }) => Err(e.into_tool("batch")),
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
        match json::from_str(line) {
            Err(e @ json::Error::TooMany { .. }) => return Err(e.into_tool("batch")),
            r => items.push(r.map_err(|e| format!("line {}: {e}", i + 1))),
        }
    }
    if items.is_empty() {
        return Err(ToolError::usage(
            "batch: no calls on stdin (send a JSON array or JSON Lines of calls)",
        ));
    }
    Ok(items)
}

/// The most calls one batch takes (SPEC 23.8).
pub const MAX_BATCH: usize = 10_000;

/// How many elements the JSON array `b` holds at its top level, by a scan that knows strings
/// and nesting (no value is built). Malformed text gives some count; the parser judges it.
fn top_level_elements(b: &[u8]) -> usize {
    let (mut depth, mut count, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    let mut seen_value = false;
    for &c in b {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => {
                in_string = true;
                seen_value |= depth == 1;
            }
            b'[' | b'{' => {
                seen_value |= depth == 1;
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => count += 1,
            c if depth == 1 && !c.is_ascii_whitespace() => seen_value = true,
            _ => {}
        }
    }
    count + usize::from(seen_value)
}

enum Slot {
    Ready(Reply),
    Pending(Job, bool), // the call, and whether it only looks
    Taken,
}

/// `batch`: a bare JSON array of envelopes in input order. Exit 0 when all are ok, 1 when any
/// failed, 2 when the batch itself is unreadable.
/// Receives a batch's replies in call order, each as soon as it and every one before it are
/// done (SPEC 23.8, 24.7), so a long batch holds no finished result and a reader sees the
/// first results while later calls still run.
pub type Sink<'a> = &'a mut (dyn FnMut(Reply) + Send);

/// `batch`: runs the calls, handing each reply to `sink` in order. A batch that cannot be read
/// has no calls to answer: `Err` is its own single reply. `Ok` is the status: 0 when every
/// call succeeded, else 1.
pub fn batch(g: &Globals, stdin: &[u8], sink: Sink) -> std::result::Result<ExitStatus, Box<Reply>> {
    // One value budget for the whole batch, its calls' `arguments` texts included.
    let mut slots = json::one_budget(stdin.len(), || batch_slots(g, stdin))?;
    let out = std::sync::Mutex::new(InOrder {
        next: 0,
        held: std::collections::BTreeMap::new(),
        all_ok: true,
        sink,
    });
    let mut i = 0;
    while i < slots.len() {
        // A maximal run of read-only calls (ready slots do not break it: they need no running).
        let mut j = i;
        while j < slots.len() && !matches!(slots[j], Slot::Pending(_, false)) {
            j += 1;
        }
        let end = if j > i { j } else { i + 1 };
        run_parallel(g, i, &mut slots[i..end], &out);
        i = end;
    }
    let out = out.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(if out.all_ok {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// Replies waiting for the ones before them.
struct InOrder<'a> {
    next: usize,
    held: std::collections::BTreeMap<usize, Reply>,
    all_ok: bool,
    sink: Sink<'a>,
}

impl InOrder<'_> {
    fn put(&mut self, k: usize, reply: Reply) {
        self.all_ok &= reply.env.ok;
        self.held.insert(k, reply);
        while let Some(r) = self.held.remove(&self.next) {
            (self.sink)(r);
            self.next += 1;
        }
    }
}

/// Runs `slots` (the batch's calls from index `first` on) at once: a few scoped worker threads
/// take calls from a shared counter, so no worker waits for a slower sibling before starting
/// the next call.
fn run_parallel(g: &Globals, first: usize, slots: &mut [Slot], out: &std::sync::Mutex<InOrder>) {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let put = |k: usize, r: Reply| {
        out.lock()
            .unwrap_or_else(|e| e.into_inner())
            .put(first + k, r)
    };
    let mut work: Vec<(usize, Mutex<Option<Job>>)> = vec![];
    for (k, slot) in slots.iter_mut().enumerate() {
        match std::mem::replace(slot, Slot::Taken) {
            Slot::Ready(r) => put(k, r),
            Slot::Pending(c, _) => work.push((k, Mutex::new(Some(c)))),
            Slot::Taken => {}
        }
    }
    let width = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .clamp(2, 8)
        .min(work.len());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..width {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((k, call)) = work.get(i) else { break };
                    let job = call
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .take()
                        .expect("each call is taken once");
                    put(*k, job.run(g));
                }
            });
        }
    });
}

#[cfg(test)]
mod count_tests {
    use super::top_level_elements;

    #[test]
    fn counts_top_level_elements_past_strings_and_nesting() {
        assert_eq!(top_level_elements(b"[]"), 0);
        assert_eq!(top_level_elements(b"[ ]"), 0);
        assert_eq!(top_level_elements(b"[{}]"), 1);
        assert_eq!(
            top_level_elements(br#"[{"a": [1, 2]}, {"b": "x,]\"y"}, 3]"#),
            3
        );
    }
}
