//! The `Tool` abstraction and the object-safe face the registry holds.
//!
//! A tool is a unit struct with a typed input (serde + schemars) and a `run`. Everything that
//! dispatches — the CLI today, `call`, `batch` and `mcp` later — goes through `DynTool`, which
//! parses a JSON object into the input type, checks the bounds its schema declares, and runs it.
//! So a new tool is one file and one line in `tools::TOOLS`.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::input;
use loopr_env_vars::EnvVars;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::any::Any;

/// What a client may assume about a tool's effects (MCP tool annotations).
#[derive(Debug, Clone, Copy)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

impl Hints {
    /// Looks, never changes anything.
    pub const READ_ONLY: Hints = Hints {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    /// May replace or remove what is there.
    pub const DESTRUCTIVE: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
    };
}

/// What a call does, for the order `mcp` keeps between calls in flight (SPEC 24.7): a call that
/// reads starts at once unless a call that changes files is still pending before it; a call that
/// changes files or runs a command starts after every earlier such call has finished; a call
/// that talks to other loops holds nothing back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Looks only (read, glob, grep, tree, fetch, jobs list/output/wait, todo list, session show).
    Reads,
    /// Changes files under the root (write, edit, undo).
    ChangesFiles,
    /// Runs a command or changes the session's own state (run, jobs kill, todo changes,
    /// session clear/reset): kept in order, but reads need not wait for it.
    Commands,
    /// Talks to other loops or hands them something (query, share, inbox reply, complete_task,
    /// create_plan/spec/phase): holds nothing back — a query may wait minutes for its answer,
    /// and the call that gives that answer, or any other, must not queue behind it. It waits,
    /// as a read does, for earlier file changes: "I wrote x, please review" is sent after x is.
    Talks,
}

pub trait Tool: Sync + 'static {
    type Input: DeserializeOwned + JsonSchema + Send;

    /// The canonical name: the subcommand and the `tool` of the envelope.
    const NAME: &'static str;
    /// One line for `loopr-tool --help`.
    const SUMMARY: &'static str;
    /// What a model needs to use the tool well: what it does, its limits, the rules that save
    /// failed calls.
    const DESCRIPTION: &'static str;
    /// Fields that may also be given positionally on the command line, in order.
    const POSITIONALS: &'static [&'static str] = &[];
    /// Examples for `--help` (a JSON-on-stdin one and a flags one).
    const EXAMPLES: &'static str = "";
    /// A field that, when the others come from the command line, is read raw from stdin
    /// (`write PATH` takes its content so: SPEC 16.2).
    const RAW_STDIN_FIELD: Option<&'static str> = None;
    /// Effects, for MCP clients; the safe assumption unless the tool says otherwise.
    const HINTS: Hints = Hints::DESTRUCTIVE;
    /// The most characters `output` can hold (SPEC 4), announced to MCP clients so they hand
    /// the model the whole text instead of a file (24.5).
    const OUTPUT_CAP: usize = crate::caps::OTHER;

    /// Whether this call only looks (batch may run such calls in parallel).
    fn read_only(input: &Self::Input) -> bool;

    /// What this call does, for mcp's scheduling; by default a call that is not read-only
    /// changes files (the safe assumption: reads wait for it).
    fn effect(input: &Self::Input) -> Effect {
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::ChangesFiles
        }
    }

    fn run(ctx: &Ctx, input: Self::Input) -> Result<Success>;
}

/// The registry's view of a tool: no generic input type.
pub trait DynTool: Sync {
    fn name(&self) -> &'static str;
    fn summary(&self) -> &'static str;
    fn description(&self) -> &'static str;
    fn positionals(&self) -> &'static [&'static str];
    fn examples(&self) -> &'static str;
    fn raw_stdin_field(&self) -> Option<&'static str>;
    fn hints(&self) -> Hints;
    fn output_cap(&self) -> usize;
    /// The JSON Schema of the input, from the same type the parser uses (made once per process).
    fn input_schema(&self) -> &'static Value;
    /// Parses a JSON input into the tool's own input type, once: what a scheduler asks of the
    /// call (its effect) and what runs it both come from this value.
    fn parse(&self, input: Value) -> Result<Parsed>;
    /// Runs a call on an input this tool parsed.
    fn run_parsed(&self, ctx: &Ctx, input: Parsed) -> Result<Success>;
    /// Parses and runs.
    fn call(&self, ctx: &Ctx, input: Value) -> Result<Success> {
        let parsed = self.parse(input)?;
        self.run_parsed(ctx, parsed)
    }
}

/// A tool's input, parsed: the typed value (behind `Any`, as the registry has no generic type),
/// with what the call does, read from it when it was parsed.
pub struct Parsed {
    tool: &'static str,
    input: Box<dyn Any + Send>,
    /// `Tool::read_only` of the input.
    pub read_only: bool,
    /// `Tool::effect` of the input.
    pub effect: Effect,
}

impl Parsed {
    /// An input parsed by `tool`, for a `DynTool` made outside this crate (the library's
    /// registered tools, SPEC 30.1): what it only looks at and what it does, as `Tool` says.
    pub fn new<I: Any + Send>(
        tool: &'static str,
        input: I,
        read_only: bool,
        effect: Effect,
    ) -> Parsed {
        Parsed {
            tool,
            input: Box::new(input),
            read_only,
            effect,
        }
    }

    /// The input, when it is an `I`; else an `internal_error` naming the tool that parsed it.
    pub fn downcast<I: Any>(self, by: &str) -> Result<I> {
        let tool = self.tool;
        self.input.downcast::<I>().map(|b| *b).map_err(|_| {
            crate::error::ToolError::internal(format!("{by}: handed an input parsed by {tool}"))
        })
    }
}

impl<T: Tool> DynTool for T {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn summary(&self) -> &'static str {
        T::SUMMARY
    }
    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }
    fn positionals(&self) -> &'static [&'static str] {
        T::POSITIONALS
    }
    fn examples(&self) -> &'static str {
        T::EXAMPLES
    }
    fn raw_stdin_field(&self) -> Option<&'static str> {
        T::RAW_STDIN_FIELD
    }
    fn hints(&self) -> Hints {
        T::HINTS
    }
    fn output_cap(&self) -> usize {
        T::OUTPUT_CAP
    }
    fn input_schema(&self) -> &'static Value {
        input::cached_schema::<T::Input>(T::NAME)
    }
    fn parse(&self, input: Value) -> Result<Parsed> {
        PARSES.with(|n| n.set(n.get() + 1));
        let parsed = input::parse::<T::Input>(T::NAME, input, self.input_schema())?;
        Ok(Parsed {
            tool: T::NAME,
            read_only: T::read_only(&parsed),
            effect: T::effect(&parsed),
            input: Box::new(parsed),
        })
    }
    fn run_parsed(&self, ctx: &Ctx, input: Parsed) -> Result<Success> {
        let Ok(parsed) = input.input.downcast::<T::Input>() else {
            return Err(crate::error::ToolError::internal(format!(
                "{}: handed an input parsed by {}",
                T::NAME,
                input.tool
            )));
        };
        debug_panic(T::NAME);
        T::run(ctx, *parsed)
    }
}

thread_local! {
    /// How many inputs this thread has parsed into a tool's type (dispatch's tests count them:
    /// one parse per call, SPEC 30.2). Always counted, since the tests are in a crate above
    /// this one; an increment of a thread-local costs about a nanosecond.
    #[doc(hidden)]
    pub static PARSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// `LOOPR_DEBUG_PANIC` (a test switch, SPEC 24.5): `1` or `all` makes every tool call panic after
/// its input is parsed; a tool's name makes only that tool's calls panic.
fn debug_panic(tool: &str) {
    if let Some(v) = std::env::var_os(EnvVars::LOOPR_DEBUG_PANIC)
        && (v == "1" || v == "all" || v == tool)
    {
        panic!("LOOPR_DEBUG_PANIC is set: {tool} panics on purpose to test panic isolation");
    }
}

/// A JSON input parsed as tool `T` parses it (for a call that runs a tool's function other
/// than `run`: an agent's alias with a meaning of its own).
pub fn parse_input<T: Tool>(input: Value) -> Result<T::Input> {
    input::parse::<T::Input>(T::NAME, input, input::cached_schema::<T::Input>(T::NAME))
}
