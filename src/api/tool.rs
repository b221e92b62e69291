//! A harness's own tools (SPEC 30.1, seed 002's `registry.register`): a public `Tool` trait,
//! registered on the builder and adapted to the registry's `DynTool`, so `schema`, `call`,
//! `batch` and the catalog offer it as they offer ours.
//!
//! The internal trait keeps its associated consts (names known at compile time, a static
//! registry for the binary); this one takes `&self`, so a harness's tool can hold its own state
//! (a database handle, a client). Each registered tool is adapted once, when the `Toolbox` is
//! built, and kept for the life of the process (the registry hands out `'static` references, as
//! it does for the built-ins): build a `Toolbox` once and share it.

use super::error::{Error, Result};
use crate::context;
use crate::envelope::Success;
use crate::error::{Code, ToolError};
use crate::input;
use crate::tool::{DynTool, Effect, Hints, Parsed};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A tool of the harness's own, called like a built-in.
///
/// Its input is parsed from the call's JSON as ours are (unknown fields refused, the field at
/// fault named in `invalid_input`, explicit `null` meaning absent), its schema comes from
/// `Input`'s `JsonSchema` (field doc comments become the descriptions a model reads), and what
/// `run` returns becomes the envelope's `output` and `data`.
///
/// ```
/// use loopr_tool::{Ctx, Output, Tool};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// struct WordCount;
///
/// #[derive(Deserialize, JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct Input {
///     /// The file whose words to count, relative to the root.
///     path: String,
/// }
///
/// impl Tool for WordCount {
///     type Input = Input;
///     fn name(&self) -> &str {
///         "word_count"
///     }
///     fn description(&self) -> &str {
///         "Counts the words of a text file."
///     }
///     fn read_only(&self) -> bool {
///         true
///     }
///     fn run(&self, ctx: &Ctx, input: Input) -> loopr_tool::Result<Output> {
///         let text = ctx.read_to_string(&input.path)?;
///         let n = text.split_whitespace().count();
///         Ok(Output::new(format!("{n} words")).with_data(serde_json::json!({"words": n})))
///     }
/// }
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The input the tool takes: parsed from the call's JSON, its schema offered to models.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;

    /// The name a model calls it by: 1 to 64 of `A-Z a-z 0-9 _ -`, and not a name loopr-tool
    /// already uses (its tools, their aliases, `call`, `batch`, `mcp`, `schema`, `catalog`).
    fn name(&self) -> &str;

    /// What a model reads about the tool: what it does, its limits, how to use it well.
    fn description(&self) -> &str;

    /// Whether every call only looks (changes nothing): such a tool is offered in read-only
    /// mode (`.read_only(true)`, a profile's `mode = "read-only"`) and runs in parallel with
    /// other reads in a batch. By default a tool may change things.
    fn read_only(&self) -> bool {
        false
    }

    /// Runs one call. `Err` becomes a failed envelope with the error's code, message and hint.
    fn run(&self, ctx: &Ctx, input: Self::Input) -> Result<Output>;
}

/// What a [`Tool`] returns on success: the text for the model and the structured result.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The text a model reads (a line end is added if it lacks one).
    pub output: String,
    /// The structured result for the harness (`data`): a JSON object; `{}` by default.
    pub data: Value,
}

impl Output {
    /// An output with this text and an empty `data` object.
    pub fn new(output: impl Into<String>) -> Output {
        Output {
            output: output.into(),
            data: Value::Object(Map::new()),
        }
    }

    /// The same output with `data` (give an object: warnings are joined to it).
    pub fn with_data(mut self, data: Value) -> Output {
        self.data = data;
        self
    }
}

/// What a [`Tool`]'s call runs with: the root, the session, and paths beneath the root checked
/// as ours are (the sandbox, the catalog's path rules).
pub struct Ctx<'a> {
    inner: &'a context::Ctx,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx")
            .field("root", &self.inner.root)
            .field("session", &self.inner.session)
            .finish_non_exhaustive()
    }
}

/// Largest file `Ctx::read_to_string` reads (edit's own limit, SPEC 7).
const MAX_READ: u64 = 64 * 1024 * 1024;

impl<'a> Ctx<'a> {
    pub(crate) fn new(inner: &'a context::Ctx) -> Ctx<'a> {
        Ctx { inner }
    }

    /// The root: absolute; relative paths resolve against it.
    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    /// The session this call belongs to.
    pub fn session(&self) -> &str {
        &self.inner.session
    }

    /// `path` (relative to the root, or absolute) resolved as our tools resolve an input
    /// path: every link followed, inside the root unless the sandbox is off, and not denied by
    /// the catalog's `[paths]` (nor `read_only` there, for a tool that is not read-only).
    /// Errors are the contract's (`outside_root`, `path_denied`, …), blaming field `path`.
    pub fn resolve(&self, path: &str) -> Result<PathBuf> {
        crate::sandbox::resolve(self.inner, "path", path)
            .map(|r| r.real)
            .map_err(Error::from_internal)
    }

    /// The text of the file at `path` (resolved as [`Ctx::resolve`] does, opened through the
    /// checked directory so a link swapped in meanwhile is refused): `not_found`,
    /// `is_directory`, `too_large` over 64 MiB, `binary_file` when it is not UTF-8.
    pub fn read_to_string(&self, path: &str) -> Result<String> {
        let target =
            crate::sandbox::resolve(self.inner, "path", path).map_err(Error::from_internal)?;
        let shown = target.shown.as_str();
        let io = |e: std::io::Error| Error::from_internal(ToolError::io(&e, shown, "reading"));
        let file = loopr_core::fsx::open_resolved(&target).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if meta.is_dir() {
            return Err(Error::from_internal(ToolError::is_directory(shown)));
        }
        if meta.len() > MAX_READ {
            return Err(Error::from_internal(
                ToolError::new(Code::TooLarge, format!("{shown} is larger than 64 MiB"))
                    .with("path", shown)
                    .with("limit", MAX_READ),
            ));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(MAX_READ + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        String::from_utf8(bytes).map_err(|_| {
            Error::from_internal(
                ToolError::new(Code::BinaryFile, format!("{shown} is not UTF-8 text"))
                    .with("path", shown),
            )
        })
    }

    /// The path as tools show it in `output` and `data`: relative to the root, `/`-separated.
    pub fn show(&self, path: &Path) -> String {
        self.inner.show(path, None)
    }

    /// A warning that does not stop the call: it joins `data.warnings` and the end of
    /// `output`.
    pub fn warn(&self, warning: impl Into<String>) {
        self.inner.warn(warning);
    }

    /// Whether the caller asked the call to stop (an MCP client's cancellation): a long tool
    /// should look now and then and return early.
    pub fn cancelled(&self) -> bool {
        self.inner.cancelled()
    }
}

/// Whether `name` may name a harness's tool: Anthropic's and OpenAI's rule for tool names.
pub(crate) fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A registered tool as the registry sees it.
struct Registered<T: Tool> {
    tool: T,
    name: &'static str,
    summary: &'static str,
    description: &'static str,
    schema: &'static Value,
}

/// Adapts `tool` to the registry; kept for the life of the process (see the module's docs).
pub(crate) fn register<T: Tool>(tool: T) -> &'static dyn DynTool {
    let name: &'static str = Box::leak(tool.name().to_string().into_boxed_str());
    let description: &'static str = Box::leak(tool.description().to_string().into_boxed_str());
    let summary = description
        .split_once(". ")
        .map_or(description, |(first, _)| first)
        .lines()
        .next()
        .unwrap_or("");
    let schema: &'static Value = Box::leak(Box::new(input::schema_of::<T::Input>()));
    Box::leak(Box::new(Registered {
        tool,
        name,
        summary,
        description,
        schema,
    }))
}

impl<T: Tool> DynTool for Registered<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn summary(&self) -> &'static str {
        self.summary
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn positionals(&self) -> &'static [&'static str] {
        &[]
    }
    fn examples(&self) -> &'static str {
        ""
    }
    fn raw_stdin_field(&self) -> Option<&'static str> {
        None
    }
    fn hints(&self) -> Hints {
        if self.tool.read_only() {
            Hints::READ_ONLY
        } else {
            Hints::DESTRUCTIVE
        }
    }
    fn output_cap(&self) -> usize {
        loopr_core::caps::OTHER
    }
    fn input_schema(&self) -> &'static Value {
        self.schema
    }
    fn parse(&self, input: Value) -> crate::error::Result<Parsed> {
        let parsed = input::parse::<T::Input>(self.name, input, self.schema)?;
        let looks = self.tool.read_only();
        let effect = if looks {
            Effect::Reads
        } else {
            Effect::ChangesFiles
        };
        Ok(Parsed::new(self.name, parsed, looks, effect))
    }
    fn run_parsed(&self, ctx: &context::Ctx, input: Parsed) -> crate::error::Result<Success> {
        let parsed = input.downcast::<T::Input>(self.name)?;
        self.tool
            .run(&Ctx::new(ctx), parsed)
            .map(|o| Success::new(o.output, o.data))
            .map_err(Error::into_internal)
    }
}
