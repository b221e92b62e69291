//! The protocol envelope (SPEC §1.2) and how it is printed.
//!
//! One JSON object on one line: `ok`, `tool`, `output`, then `data` or `error`. Warnings join
//! `data.warnings` and the end of `output`. With `--format text` only `output` is printed (on
//! stderr for a failure).

use crate::error::ToolError;
use crate::exit_status::ExitStatus;
use serde_json::{Map, Value};
use std::io::{self, BufWriter, Write};

/// A tool's structured result. Most tools build a `Value`; a tool whose result can be large
/// (grep's matches with head_limit 0) keeps its own compact structs and serialises them straight
/// onto stdout, so the result never exists as a `Value` tree, nor twice.
///
/// Not `Serialize`: its generic method cannot sit behind `dyn`, and every entry point needs only
/// these two forms of it.
pub trait Data: Send {
    /// Compact JSON, with `warnings` joined as `data.warnings`.
    fn write_json(self: Box<Self>, out: &mut dyn Write, warnings: &[String]) -> io::Result<()>;
    /// The same as a `Value`: for `--pretty`, whose indentation must continue the envelope's.
    fn into_value(self: Box<Self>, warnings: &[String]) -> Value;
    /// Takes out the images the result carries (`data.image`, and each `data.files[i].image`
    /// of a many-file read, with `mime` and `base64`, SPEC 18.2), for protocols that send them
    /// as image blocks of their own (mcp, 22.1): the base64 then leaves `data`, which keeps the
    /// images' other fields (24.7).
    fn take_images(&mut self) -> Vec<Image> {
        vec![]
    }
}

/// An image for a protocol's image block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub mime: String,
    pub base64: String,
}

/// The image `holder.image`, its base64 taken out.
fn take_image_of(holder: &mut Value) -> Option<Image> {
    let image = holder.get_mut("image")?.as_object_mut()?;
    let mime = image.get("mime")?.as_str()?.to_string();
    image.get("base64")?.as_str()?;
    let Some(Value::String(base64)) = image.remove("base64") else {
        return None;
    };
    Some(Image { mime, base64 })
}

impl Data for Value {
    fn take_images(&mut self) -> Vec<Image> {
        let mut all: Vec<Image> = take_image_of(self).into_iter().collect();
        if let Some(files) = self.get_mut("files").and_then(Value::as_array_mut) {
            all.extend(files.iter_mut().filter_map(take_image_of));
        }
        all
    }

    fn write_json(self: Box<Self>, out: &mut dyn Write, warnings: &[String]) -> io::Result<()> {
        Ok(serde_json::to_writer(out, &self.into_value(warnings))?)
    }

    fn into_value(self: Box<Self>, warnings: &[String]) -> Value {
        let mut data = *self;
        if let Value::Object(map) = &mut data
            && !warnings.is_empty()
        {
            let list = map
                .entry("warnings")
                .or_insert_with(|| Value::Array(vec![]));
            if let Value::Array(items) = list {
                items.extend(warnings.iter().cloned().map(Value::String));
            }
        }
        data
    }
}

/// What a tool hands back on success: the text for the model and the structured result.
pub struct Success {
    pub output: String,
    pub data: Box<dyn Data>,
}

impl Success {
    pub fn new(output: String, data: Value) -> Self {
        Success {
            output,
            data: Box::new(data),
        }
    }

    /// A result that serialises itself (see `Data`).
    pub fn with_data(output: String, data: impl Data + 'static) -> Self {
        Success {
            output,
            data: Box::new(data),
        }
    }
}

impl std::fmt::Debug for Success {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Success")
            .field("output", &self.output)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Text,
}

/// Makes `s` a run of lines each ending in `\n` (SPEC 16.1); empty stays empty.
pub fn terminate_lines(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The envelope of a finished tool call, before printing.
pub struct Envelope {
    pub ok: bool,
    pub tool: String,
    pub output: String,
    pub body: Body,
    pub exit_status: ExitStatus,
}

pub enum Body {
    /// Success: the data, and the warnings still to join it.
    Data {
        data: Box<dyn Data>,
        warnings: Vec<String>,
    },
    /// Failure: `error`, and `data` where the tool gives some (warnings already joined).
    Error { error: Value, data: Option<Value> },
}

impl Envelope {
    /// Changes `data` as a JSON object (a result that streams itself is made a `Value` first):
    /// the catalog's caps and post hooks add to it.
    pub fn edit_data(&mut self, f: impl FnOnce(&mut Map<String, Value>)) {
        match &mut self.body {
            Body::Data { data, .. } => {
                let taken = std::mem::replace(data, Box::new(Value::Null));
                let mut v = taken.into_value(&[]);
                if let Value::Object(m) = &mut v {
                    f(m);
                }
                *data = Box::new(v);
            }
            Body::Error { data, .. } => {
                if let Value::Object(m) = data.get_or_insert_with(|| Value::Object(Map::new())) {
                    f(m);
                }
            }
        }
    }

    /// `data.truncated` becomes true (the output was cut after the tool made it).
    pub fn mark_truncated(&mut self) {
        self.edit_data(|m| {
            m.insert("truncated".into(), true.into());
        });
    }

    pub fn success(tool: &str, success: Success, warnings: &[String]) -> Envelope {
        let mut output = terminate_lines(success.output);
        for w in warnings {
            output.push_str("Warning: ");
            output.push_str(w);
            output.push('\n');
        }
        Envelope {
            ok: true,
            tool: tool.to_string(),
            output,
            body: Body::Data {
                data: success.data,
                warnings: warnings.to_vec(),
            },
            exit_status: ExitStatus::Success,
        }
    }

    pub fn failure(tool: &str, err: ToolError, warnings: &[String]) -> Envelope {
        let mut output = err.message.clone();
        output.push('\n');
        if let Some(h) = &err.hint {
            output.push_str("Hint: ");
            output.push_str(h);
            output.push('\n');
        }
        for w in warnings {
            output.push_str("Warning: ");
            output.push_str(w);
            output.push('\n');
        }
        let mut error = Map::new();
        error.insert("code".into(), err.code.as_str().into());
        error.insert("message".into(), err.message.clone().into());
        if let Some(h) = err.hint {
            error.insert("hint".into(), h.into());
        }
        for (k, v) in err.extra {
            error.insert(k, v);
        }
        let mut data = err.data;
        if !warnings.is_empty() {
            let d = data.get_or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(map) = d {
                map.insert(
                    "warnings".into(),
                    warnings.iter().cloned().map(Value::String).collect(),
                );
            }
        }
        Envelope {
            ok: false,
            tool: tool.to_string(),
            output,
            body: Body::Error {
                error: Value::Object(error),
                data,
            },
            exit_status: err.code.exit_status(),
        }
    }

    /// The envelope as a `Value`, `id` (call's and batch's) last.
    pub fn into_value(self, id: Option<Value>) -> Value {
        let mut m = Map::new();
        m.insert("ok".into(), self.ok.into());
        m.insert("tool".into(), self.tool.into());
        m.insert("output".into(), self.output.into());
        match self.body {
            Body::Data { data, warnings } => {
                m.insert("data".into(), data.into_value(&warnings));
            }
            Body::Error { error, data } => {
                if let Some(d) = data {
                    m.insert("data".into(), d);
                }
                m.insert("error".into(), error);
            }
        }
        if let Some(id) = id {
            m.insert("id".into(), id);
        }
        Value::Object(m)
    }

    /// The same bytes `into_value` would serialise to, written as they are made: the data may
    /// be far larger than everything else here.
    pub fn write_json(self, out: &mut dyn Write, id: Option<Value>) -> io::Result<()> {
        write!(out, "{{\"ok\":{},\"tool\":", self.ok)?;
        serde_json::to_writer(&mut *out, &self.tool)?;
        out.write_all(b",\"output\":")?;
        serde_json::to_writer(&mut *out, &self.output)?;
        match self.body {
            Body::Data { data, warnings } => {
                out.write_all(b",\"data\":")?;
                data.write_json(out, &warnings)?;
            }
            Body::Error { error, data } => {
                if let Some(d) = data {
                    out.write_all(b",\"data\":")?;
                    serde_json::to_writer(&mut *out, &d)?;
                }
                out.write_all(b",\"error\":")?;
                serde_json::to_writer(&mut *out, &error)?;
            }
        }
        if let Some(id) = id {
            out.write_all(b",\"id\":")?;
            serde_json::to_writer(&mut *out, &id)?;
        }
        out.write_all(b"}")
    }

    /// Prints the envelope and returns the exit status.
    pub fn print(self, format: Format, pretty: bool) -> ExitStatus {
        let status = self.exit_status;
        match format {
            Format::Text => print_text(&self.output, self.ok, status),
            Format::Json if pretty => print_value(&self.into_value(None), true, status),
            Format::Json => print_json(status, |out| self.write_json(out, None)),
        }
    }
}

/// Prints one JSON value on one line (or indented) and returns `status`.
pub fn print_value(v: &Value, pretty: bool, status: ExitStatus) -> ExitStatus {
    print_json(status, |out| {
        if pretty {
            serde_json::to_writer_pretty(out, v)?;
        } else {
            serde_json::to_writer(out, v)?;
        }
        Ok(())
    })
}

/// Prints what `write` writes, then a newline, and returns `status`. A closed stdout (`| head`)
/// is not an error worth a word: the reader has gone.
pub fn print_json(
    status: ExitStatus,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> ExitStatus {
    // Large blocks: stdout's own buffer is a LineWriter of 1 KiB, a write call per KiB.
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let written = write(&mut out)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(_) => ExitStatus::Failure,
    }
}

/// `--format text`: `output` alone, on stdout for success and on stderr for a failure.
pub fn print_text(output: &str, ok: bool, status: ExitStatus) -> ExitStatus {
    let written = if ok {
        let mut out = io::stdout().lock();
        out.write_all(output.as_bytes()).and_then(|_| out.flush())
    } else {
        io::stderr().write_all(output.as_bytes())
    };
    match written {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(_) => ExitStatus::Failure,
    }
}
