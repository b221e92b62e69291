//! Integration commands (SPEC §14): `schema`, `call`, `batch` and `mcp`. They are not tools:
//! they carry tool calls, all through the registry and `dispatch`, without special cases.

pub mod call;
pub mod mcp;
pub mod sched;
pub mod schema;
pub mod shapes;

use crate::context::Globals;
use crate::envelope::{Envelope, Format, print_value};
use crate::error::ToolError;
use crate::exit_status::ExitStatus;
use call::ResultFormat;
use clap::{Arg, ArgAction, ArgMatches, Command};
use loopr_env_vars::EnvVars;
use serde_json::Value;
use std::path::PathBuf;

/// The integration commands, by the word that names each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Schema,
    Call,
    Batch,
    Mcp,
    Catalog,
}

/// An integration command as the command line asks for it, clap's matches read.
#[derive(Debug)]
pub enum Request {
    /// `schema [TOOL…] [--for FLAVOR] [--strict]`
    Schema {
        tools: Vec<String>,
        flavor: schema::Flavor,
        strict: bool,
    },
    /// `call [--result-format F]`: one call on stdin.
    Call { result_format: ResultFormat },
    /// `batch [--result-format F]`: many calls on stdin.
    Batch { result_format: ResultFormat },
    /// `mcp [--structured]` (or `LOOPR_MCP_STRUCTURED`), on stdio or `--http ADDR:PORT`.
    Mcp {
        structured: bool,
        http: Option<mcp::HttpOptions>,
    },
    /// `catalog [--check FILE]`.
    Catalog { check: Option<String> },
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Schema,
        Kind::Call,
        Kind::Batch,
        Kind::Mcp,
        Kind::Catalog,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Schema => "schema",
            Kind::Call => "call",
            Kind::Batch => "batch",
            Kind::Mcp => "mcp",
            Kind::Catalog => "catalog",
        }
    }

    /// The command a word of argv names, if it names one.
    pub fn from_word(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == word)
    }

    /// Its clap command: flags, help and examples.
    pub fn command(self) -> Command {
        match self {
        Kind::Schema => Command::new("schema")
            .about("Print the tool definitions to hand a model (anthropic, openai, openai-responses or mcp format)")
            .arg(Arg::new("tools").num_args(0..).value_name("TOOL").help("Only these tools (default: all)"))
            .arg(
                Arg::new("for")
                    .long("for")
                    .value_name("FLAVOR")
                    .value_parser(schema::Flavor::NAMES)
                    .default_value("anthropic")
                    .help("The shape of the definitions"),
            )
            .arg(
                Arg::new("strict")
                    .long("strict")
                    .action(ArgAction::SetTrue)
                    .help("Schemas valid under OpenAI's strict function calling and Anthropic's strict tool use (every field required, optional ones nullable)"),
            )
            .after_help("Examples:\n  loopr-tool schema --for openai\n  loopr-tool schema read edit --for mcp --pretty\n  loopr-tool schema --strict read edit --for openai-responses"),
        Kind::Call => Command::new("call")
            .about("Run one tool call given on stdin: {\"name\", \"input\", \"id\"?}, a tool_use block, or an OpenAI tool call")
            .arg(result_format())
            .after_help("Examples:\n  echo '{\"name\": \"read\", \"input\": {\"path\": \"README.md\"}, \"id\": \"t1\"}' | loopr-tool call\n  echo '{\"name\": \"Read\", \"input\": {\"file_path\": \"README.md\"}}' | loopr-tool call   (Claude Code's name)\n  echo '{\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"read\", \"input\": {\"path\": \"README.md\"}}' | loopr-tool call --result-format anthropic"),
        Kind::Batch => Command::new("batch")
            .about("Run many tool calls (a JSON array or JSON Lines on stdin); read-only ones in parallel")
            .arg(result_format())
            .after_help("Example:\n  echo '[{\"name\":\"read\",\"input\":{\"path\":\"a.rs\"}},{\"name\":\"read\",\"input\":{\"path\":\"b.rs\"}}]' | loopr-tool batch"),
        Kind::Mcp => Command::new("mcp")
            .about("Serve every tool over the Model Context Protocol on stdio, or over Streamable HTTP with --http")
            .arg(
                Arg::new("structured")
                    .long("structured")
                    .action(clap::ArgAction::SetTrue)
                    .help("Declare an outputSchema per tool and add structuredContent {output, data} to results (env LOOPR_MCP_STRUCTURED=1)"),
            )
            .args(mcp_http_args())
            .after_help("Register with an MCP client, e.g. Claude Code:\n  claude mcp add loopr -- loopr-tool --root /path/to/project mcp\nOver HTTP, with a token:\n  LOOPR_TOKEN=$(openssl rand -hex 32) loopr-tool --root /srv/project mcp --http 127.0.0.1:8808 --token-env LOOPR_TOKEN\n  claude mcp add --transport http loopr http://127.0.0.1:8808/mcp --header \"Authorization: Bearer $LOOPR_TOKEN\""),
        Kind::Catalog => Command::new("catalog")
            .about("Print the effective catalog as TOML (defaults merged, profile applied), or check a catalog file")
            .arg(
                Arg::new("check")
                    .long("check")
                    .value_name("FILE")
                    .help("Check FILE and list every problem as FILE:LINE:COLUMN: message (exit 2 when there is one)"),
            )
            .after_help("Examples:\n  loopr-tool --config examples/catalog.toml --profile plan catalog\n  loopr-tool catalog --check examples/catalog.toml"),
    }
    }

    /// What clap matched for this command, as the request to run.
    pub fn request(self, m: &ArgMatches) -> Request {
        match self {
            Kind::Schema => Request::Schema {
                tools: m
                    .get_many::<String>("tools")
                    .map(|v| v.cloned().collect())
                    .unwrap_or_default(),
                flavor: schema::Flavor::parse(
                    m.get_one::<String>("for")
                        .map_or("anthropic", String::as_str),
                )
                .expect("clap checked the value"),
                strict: m.get_flag("strict"),
            },
            Kind::Call => Request::Call {
                result_format: result_format_of(m),
            },
            Kind::Batch => Request::Batch {
                result_format: result_format_of(m),
            },
            Kind::Mcp => Request::Mcp {
                structured: m.get_flag("structured")
                    || std::env::var(EnvVars::LOOPR_MCP_STRUCTURED)
                        .is_ok_and(|v| v == "1" || v == "true"),
                http: m.get_one::<String>("http").map(|addr| mcp::HttpOptions {
                    addr: addr.clone(),
                    token_env: m.get_one::<String>("token-env").cloned(),
                    no_auth: m.get_flag("no-auth"),
                    session_idle: std::time::Duration::from_secs(
                        *m.get_one::<u64>("session-idle-s").expect("clap's default"),
                    ),
                    allow_hosts: m
                        .get_many::<String>("allow-host")
                        .map(|v| v.cloned().collect())
                        .unwrap_or_default(),
                    tls_cert: m.get_one::<PathBuf>("tls-cert").cloned(),
                    tls_key: m.get_one::<PathBuf>("tls-key").cloned(),
                }),
            },
            Kind::Catalog => Request::Catalog {
                check: m.get_one::<String>("check").cloned(),
            },
        }
    }
}

impl Request {
    /// The command's name (the envelope's `tool` for its own failures).
    pub fn name(&self) -> &'static str {
        match self {
            Request::Schema { .. } => "schema",
            Request::Call { .. } => "call",
            Request::Batch { .. } => "batch",
            Request::Mcp { .. } => "mcp",
            Request::Catalog { .. } => "catalog",
        }
    }
}

/// `catalog` and `catalog --check FILE` (SPEC 19.2, 24.3).
/// `catalog` and `catalog --check FILE` (SPEC 31.2): one envelope in JSON mode, with the
/// effective TOML or every problem in `output`; `--format text` prints exactly `output`.
fn catalog_command(g: &Globals, check: Option<&str>) -> ExitStatus {
    use crate::envelope::Success;
    let Some(file) = check else {
        let root = g.root.clone().unwrap_or_else(|| ".".into());
        let text = crate::catalog::print::effective(&g.policy, &root);
        let data =
            serde_json::json!({"file": g.policy.source.as_ref().map(|f| f.display().to_string())});
        return Envelope::success("catalog", Success::new(text, data), &[])
            .print(g.format, g.pretty);
    };
    let path = std::path::Path::new(file);
    let problems = match crate::catalog::read_file(path) {
        Ok((_, problems)) => problems,
        Err(e) => return Envelope::failure("catalog", e, &[]).print(g.format, g.pretty),
    };
    if problems.is_empty() {
        let data = serde_json::json!({"file": file, "problems": []});
        let done = Success::new(format!("{file}: ok\n"), data);
        return Envelope::success("catalog", done, &[]).print(g.format, g.pretty);
    }
    let mut failed = Envelope::failure(
        "catalog",
        crate::catalog::problems_error(path, &problems),
        &[],
    );
    // Every problem once, as a compiler lists them; the error's message keeps the first.
    failed.output = problems
        .iter()
        .map(|p| format!("{file}:{}:{}: {}\n", p.line, p.column, p.message))
        .collect();
    failed.print(g.format, g.pretty)
}

/// `mcp`'s Streamable HTTP options (SPEC 27.1).
fn mcp_http_args() -> [Arg; 7] {
    [
        Arg::new("http")
            .long("http")
            .value_name("ADDR:PORT")
            .help("Serve over MCP's Streamable HTTP on ADDR:PORT, endpoint /mcp (port 0: any free port, printed on stderr)"),
        Arg::new("token-env")
            .long("token-env")
            .value_name("VAR")
            .requires("http")
            .help("The environment variable holding the bearer token clients must send (required unless --no-auth; removed from the environment of every command run starts)"),
        Arg::new("no-auth")
            .long("no-auth")
            .action(ArgAction::SetTrue)
            .requires("http")
            .help("Serve without a token: accepted only on a loopback address"),
        Arg::new("session-idle-s")
            .long("session-idle-s")
            .value_name("SECONDS")
            .value_parser(clap::value_parser!(u64).range(1..))
            .default_value("1800")
            .help("A session idle this long expires (HTTP)"),
        Arg::new("allow-host")
            .long("allow-host")
            .value_name("NAME")
            .action(ArgAction::Append)
            .requires("http")
            .help("Also accept this Host name (besides loopback names and IP addresses), e.g. a reverse proxy's"),
        Arg::new("tls-cert")
            .long("tls-cert")
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .requires("http")
            .help("Serve HTTPS with this PEM certificate chain (with --tls-key)"),
        Arg::new("tls-key")
            .long("tls-key")
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .requires("http")
            .help("The PEM private key of --tls-cert"),
    ]
}

/// `--result-format` of `call` and `batch` (SPEC 22.3).
fn result_format() -> Arg {
    Arg::new("result-format")
        .long("result-format")
        .value_name("FORMAT")
        .value_parser(ResultFormat::NAMES)
        .default_value("envelope")
        .help("Print the result block the harness sends back (anthropic: tool_result; openai: a tool message, or function_call_output for a Responses call) instead of the envelope")
}

fn result_format_of(m: &ArgMatches) -> ResultFormat {
    m.get_one::<String>("result-format")
        .and_then(|s| ResultFormat::parse(s))
        .unwrap_or(ResultFormat::Envelope)
}

fn stdin_or_fail(name: &str, g: &Globals) -> Result<Vec<u8>, ExitStatus> {
    crate::input::read_stdin_bytes()
        .map_err(|e| Envelope::failure(name, e, &[]).print(g.format, g.pretty))
}

/// Runs an integration command under `g`.
pub fn run(g: &Globals, request: Request) -> ExitStatus {
    if matches!(
        request,
        Request::Call { .. } | Request::Batch { .. } | Request::Mcp { .. }
    ) {
        crate::panic_hook::isolate_panics();
    }
    match request {
        Request::Schema {
            tools: wanted,
            flavor,
            strict,
        } => {
            // Exactly what the catalog offers, under its names (SPEC 19.2).
            let root = g
                .root
                .clone()
                .or_else(|| std::env::current_dir().ok())
                .unwrap_or_default();
            let state = crate::context::Ctx::new(g).ok().map(|c| c.state_dir);
            let offered =
                crate::dispatch::offered_with_upstream(&g.policy, &root, state.as_deref());
            for w in &wanted {
                if !offered.iter().any(|r| r.name() == w.as_str()) {
                    let names: Vec<&str> = offered.iter().map(|r| r.name()).collect();
                    let err = ToolError::usage(format!(
                        "schema: no tool named `{w}` is offered; the tools are: {}",
                        names.join(", ")
                    ));
                    return Envelope::failure("schema", err, &[]).print(g.format, g.pretty);
                }
            }
            let defs: Vec<Value> = offered
                .iter()
                .filter(|r| wanted.is_empty() || wanted.iter().any(|w| w.as_str() == r.name()))
                .map(|r| schema::offered_definition(r, flavor, strict))
                .collect();
            print_value(&Value::Array(defs), g.pretty, ExitStatus::Success)
        }
        Request::Call { result_format } => {
            let stdin = match stdin_or_fail("call", g) {
                Ok(b) => b,
                Err(status) => return status,
            };
            let (reply, status) = call::call(g, &stdin);
            if g.format == Format::Text {
                let env = &reply.env;
                return crate::envelope::print_text(&env.output, env.ok, status);
            }
            reply.print(g.pretty, status, result_format)
        }
        Request::Batch { result_format } => {
            let stdin = match stdin_or_fail("batch", g) {
                Ok(b) => b,
                Err(status) => return status,
            };
            let out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout());
            let mut array = call::ArrayWriter::new(out, g.pretty, result_format);
            let status = {
                let mut sink = |r: call::Reply| array.push(r);
                call::batch(g, &stdin, &mut sink)
            };
            match status {
                // A batch that could not be read has no calls to answer: its own envelope says why.
                Err(reply) => {
                    let status = reply.env.exit_status;
                    reply.print(g.pretty, status, ResultFormat::Envelope)
                }
                // A closed stdout (`| head`) is not an error worth a word: the reader has gone.
                Ok(status) => match array.finish() {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => ExitStatus::Failure,
                    _ => status,
                },
            }
        }
        Request::Mcp {
            structured,
            http: None,
        } => mcp::serve(g, structured),
        Request::Mcp {
            structured,
            http: Some(o),
        } => mcp::serve_http(g, structured, &o),
        Request::Catalog { check } => catalog_command(g, check.as_deref()),
    }
}
