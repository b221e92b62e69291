//! Every environment variable loopr-tool reads, as one documented table (uv's `uv-static`).
//!
//! A crate of its own, below every other: the engines in `crates/` read variables too (run's
//! runtime reads `PATH` and `HOME`) and must not import the main crate to name them. The table
//! feeds three readers, so they cannot drift apart: the code (`std::env::var(EnvVars::X)`, never
//! a string; a unit test of the main crate greps `src/` and `crates/` for any other), the
//! top-level `--help` ("Environment"), and the test harness, which clears every variable here
//! but the platform's before it runs the binary.

/// What a variable is for, which decides where it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A global option's variable (`--root` / `LOOPR_ROOT`); a flag beats it. Listed in `--help`.
    Option,
    /// A setting with no flag (search's provider and keys, the default places). Listed in
    /// `--help`.
    Setting,
    /// A switch for tests (faults, panics, fuzzing). Not listed in `--help`.
    Test,
    /// The platform's own (`HOME`, `PATH`): read, and passed on to commands. Not listed in
    /// `--help`, and not cleared by the test harness (it sets `HOME` itself and needs `PATH`).
    Platform,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Var {
    pub name: &'static str,
    pub kind: Kind,
    /// The constant's doc comment; its first line is what `--help` shows.
    pub doc: &'static str,
}

impl Var {
    /// The first line of the doc: one line for `--help`.
    pub fn summary(&self) -> &'static str {
        self.doc.lines().next().unwrap_or("").trim()
    }

    /// Whether `--help` lists it.
    pub fn in_help(&self) -> bool {
        matches!(self.kind, Kind::Option | Kind::Setting)
    }

    /// Whether the test harness removes it from the binary's environment.
    pub fn cleared_in_tests(&self) -> bool {
        self.kind != Kind::Platform
    }
}

/// The variables, each a constant whose value is its own name.
pub struct EnvVars;

macro_rules! table {
    ($( $(#[doc = $doc:literal])+ $kind:ident $name:ident; )*) => {
        impl EnvVars {
            $(
                $(#[doc = $doc])+
                pub const $name: &'static str = stringify!($name);
            )*

            /// Every variable above, in this order (the order of `--help`).
            pub const ALL: &'static [Var] = &[
                $(Var { name: stringify!($name), kind: Kind::$kind, doc: concat!($($doc, "\n"),+) },)*
            ];
        }
    };
}

table! {
    /// Sandbox root; relative paths resolve against it (--root)
    Option LOOPR_ROOT;
    /// Scopes read tracking, todos and undo history (--session)
    Option LOOPR_SESSION;
    /// Where state lives (--state-dir)
    Option LOOPR_STATE_DIR;
    /// 1: paths may leave the root (--no-sandbox)
    Option LOOPR_NO_SANDBOX;
    /// 1: write/edit do not require a prior read (--no-read-check)
    Option LOOPR_NO_READ_CHECK;
    /// 1: fetch may reach loopback and private addresses (--allow-private)
    Option LOOPR_FETCH_ALLOW_PRIVATE;
    /// 1: run skips its destructive-command guard (--allow-dangerous)
    Option LOOPR_ALLOW_DANGEROUS;
    /// Run's weakest sandbox: none, workspace-write or read-only (--sandbox)
    Option LOOPR_RUN_SANDBOX;
    /// json or text (--format)
    Option LOOPR_FORMAT;
    /// The catalog file (--config)
    Option LOOPR_CONFIG;
    /// The catalog profile whose tools are offered (--profile)
    Option LOOPR_PROFILE;
    /// 1: offer only tools that change nothing (--read-only)
    Option LOOPR_READ_ONLY;
    /// The permission mode: default, read-only, accept-edits, bypass, ask
    ///
    /// Claude Code's names are taken too: plan, acceptEdits, bypassPermissions.
    Option LOOPR_PERMISSION_MODE;
    /// 1: mcp sends output schemas and structuredContent (mcp --structured)
    Option LOOPR_MCP_STRUCTURED;
    /// Where loops meet: a name or Redis URL (--hub) [default: the repo]
    ///
    /// A Redis URL is redis:// or rediss:// (TLS).
    Option LOOPR_HUB;
    /// 1: a harness's control calls, outside the catalog's offer (--harness)
    Option LOOPR_HARNESS;
    /// The agent: claude-code, codex or gemini-cli (--client)
    ///
    /// Results are sized so that it passes each on whole (SPEC 31.1).
    Option LOOPR_CLIENT;
    /// The Redis hub's password, when its URL does not carry one
    Setting LOOPR_HUB_PASSWORD;
    /// How long a call waits for a lock, in milliseconds [default: 10000]
    Setting LOOPR_LOCK_TIMEOUT_MS;
    /// search's provider: duckduckgo, brave, tavily or searxng
    Setting LOOPR_SEARCH_PROVIDER;
    /// search's address, in place of the provider's own
    Setting LOOPR_SEARCH_ENDPOINT;
    /// search's key for Brave (chooses Brave when no provider is named)
    Setting BRAVE_API_KEY;
    /// search's key for Tavily (chooses Tavily when no provider is named)
    ///
    /// Brave is chosen first when both keys are set.
    Setting TAVILY_API_KEY;
    /// The SearXNG instance search uses under LOOPR_SEARCH_PROVIDER=searxng
    Setting SEARXNG_URL;
    /// The default state directory is $XDG_STATE_HOME/loopr-tool
    Setting XDG_STATE_HOME;
    /// The default catalog is $XDG_CONFIG_HOME/loopr/catalog.toml
    Setting XDG_CONFIG_HOME;
    /// A test switch: 1 or all makes every tool call panic after its input is parsed; a tool's
    /// name makes only that tool's calls panic (SPEC 24.5).
    Test LOOPR_DEBUG_PANIC;
    /// A test switch: STEP:ERRNO[:N] makes the named step fail with ERRNO (or SIGKILL) the
    /// Nth time it runs (fault.rs, SPEC 23.2).
    Test LOOPR_DEBUG_FAIL;
    /// A test switch: 1 makes `inbox wait` poll instead of using inotify.
    Test LOOPR_DEBUG_NO_INOTIFY;
    /// A test switch: an RFC 3339 time taken as now by approvals (SPEC 29).
    Test LOOPR_DEBUG_NOW;
    /// The unit tests' fuzzing: milliseconds per target [default: 1500].
    Test LOOPR_FUZZ_MS;
    /// The unit tests' fuzzing: the random seed.
    Test LOOPR_FUZZ_SEED;
    /// The home directory: the default state and catalog places, `~/` in run's writable roots,
    /// and the places run's guard protects. Read from the environment, never through getpwuid
    /// (a static binary's NSS trap).
    Platform HOME;
    /// Where run looks for a shell named without a path.
    Platform PATH;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constant_is_its_own_name_and_documented() {
        assert_eq!(EnvVars::LOOPR_ROOT, "LOOPR_ROOT");
        let mut names: Vec<&str> = EnvVars::ALL.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            EnvVars::ALL.len(),
            "a variable is listed twice"
        );
        for v in EnvVars::ALL {
            assert!(!v.summary().is_empty(), "{} has no doc", v.name);
            // `--help` gives the name 27 columns and wraps at 100.
            assert!(
                !v.in_help() || v.summary().len() <= 70,
                "{}: shorten its first line",
                v.name
            );
        }
    }
}
