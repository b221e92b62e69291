//! The global options (SPEC §2) and the per-call context every tool runs with.

use crate::control::Control;
use crate::envelope::Format;
use crate::error::{Code, Result, ToolError};
use crate::policy::{Lane, Policy, ToolEntry};
use loopr_env_vars::EnvVars;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Global options after flags and environment variables are merged (a flag wins).
#[derive(Debug, Clone)]
pub struct Globals {
    pub root: Option<PathBuf>,
    pub session: Option<String>,
    pub state_dir: Option<PathBuf>,
    pub no_sandbox: bool,
    pub no_read_check: bool,
    pub allow_private: bool,
    pub allow_dangerous: bool,
    /// run's sandbox floor (`--sandbox`, SPEC 23.4, 24.6): `workspace-write` or `read-only`;
    /// None or `none` sets none.
    pub run_sandbox: Option<String>,
    pub format: Format,
    pub pretty: bool,
    /// The catalog's policy (SPEC 19): loaded once per process, shared by every call.
    pub policy: Arc<Policy>,
    /// Where loops meet (`--hub`, `LOOPR_HUB`, SPEC 25.1); None: the catalog's, else the
    /// repository's.
    pub hub: Option<String>,
    /// The harness's own control calls (`--harness`, SPEC 25.3): not bound by the catalog's
    /// offer.
    pub harness: bool,
    /// Who passes results on to the model (`--client`, `LOOPR_CLIENT`, or MCP's `clientInfo`),
    /// when known: results are sized to fit it (SPEC 31.1).
    pub client: Option<crate::caps::Client>,
    /// `--approve ID` (SPEC 29): the approval this invocation's call runs under.
    pub approve: Option<String>,
}

/// What the catalog says about the call being made: the name it was called by, its entry, and
/// whether it changes files (then `paths.read_only` refuses every path it resolves).
#[derive(Debug, Clone, Default)]
pub struct CallPolicy {
    pub name: String,
    pub entry: Option<ToolEntry>,
    pub changes_files: bool,
    /// How hints name other tools for this call's model (SPEC 25.5); dispatch sets it.
    pub namer: Option<crate::offered::Namer>,
    /// The agent whose alias took the call, as a catalog's `dialect` names it.
    pub dialect: Option<&'static str>,
}

impl CallPolicy {
    pub fn lane(&self) -> Lane {
        self.entry.as_ref().map_or(Lane::Net, |e| e.lane())
    }
}

/// Everything a tool call runs with. One per call; not shared between threads.
pub struct Ctx {
    /// The root as given, absolute and lexically normal: paths are shown relative to it.
    pub root: PathBuf,
    /// The root's real path: the sandbox boundary.
    pub root_real: PathBuf,
    pub session: String,
    pub state_dir: PathBuf,
    pub sandbox: bool,
    pub read_check: bool,
    pub allow_private: bool,
    pub allow_dangerous: bool,
    /// run's sandbox floor, as `--sandbox` gave it (checked by the cli).
    pub run_sandbox: Option<String>,
    /// How long a state or file lock may be waited for (SPEC §2.2: 10 s).
    pub lock_wait: Duration,
    /// Cancellation and progress, shared with whoever started the call (mcp).
    pub control: Arc<Control>,
    pub policy: Arc<Policy>,
    /// Set by dispatch before the tool runs.
    pub call: CallPolicy,
    /// `--hub` / `LOOPR_HUB` as given (SPEC 25.1).
    pub hub: Option<String>,
    /// A harness's control call (SPEC 25.3).
    pub harness: bool,
    /// The most characters of a result the client passes on whole (SPEC 31.1): the
    /// catalog's `[client] max_result_chars`, else the client's own limit.
    pub result_chars: Option<usize>,
    /// Where this call's loops meet, found on first use.
    hub_place: std::cell::OnceCell<crate::hub::Hub>,
    /// The path rules compiled for this root, on first use.
    rules: std::cell::OnceCell<Option<Arc<crate::sandbox::rules::Rules>>>,
    /// Paths this call changed (as shown), for post hooks.
    changed: RefCell<Vec<String>>,
    /// The state dir's real path, found on first use.
    state_real: std::cell::OnceCell<PathBuf>,
    /// A handle on the root, opened on first use: every path is resolved beneath it.
    root_handle: std::cell::OnceCell<std::os::fd::OwnedFd>,
    warnings: RefCell<Vec<String>>,
}

/// What a session id is, as errors say it: `:` for seed 000's `exec:phase:1` (SPEC 25.6).
pub const SESSION_ID: &str = "1 to 128 of [A-Za-z0-9._:-], not . or ..";

pub fn valid_session(s: &str) -> bool {
    (1..=128).contains(&s.len())
        && s != "."
        && s != ".."
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(&b))
}

/// The default state dir: `$XDG_STATE_HOME/loopr-tool`, else `~/.local/state/loopr-tool`.
/// `HOME` is read from the environment, never through getpwuid (a static binary's NSS trap).
fn default_state_dir() -> Result<PathBuf> {
    if let Some(x) =
        std::env::var_os(EnvVars::XDG_STATE_HOME).filter(|x| Path::new(x).is_absolute())
    {
        return Ok(PathBuf::from(x).join("loopr-tool"));
    }
    if let Some(home) = std::env::var_os(EnvVars::HOME).filter(|h| Path::new(h).is_absolute()) {
        return Ok(PathBuf::from(home).join(".local/state/loopr-tool"));
    }
    Err(
        ToolError::usage("no state directory: neither XDG_STATE_HOME nor HOME is set")
            .hint("Pass --state-dir DIR or set LOOPR_STATE_DIR."),
    )
}

/// The default state dir, moved out of the root when it lies inside (SPEC 31.4: `--root $HOME`
/// holds `~/.local/state`). Landlock cannot deny inside an allowed tree, so a `run` under
/// `workspace-write` could otherwise rewrite the journal and job records; outside the root it
/// cannot. The place outside is `/var/tmp/loopr-tool-<uid>` (else under `/tmp`), made 0700 and
/// used only while it is a directory of ours, never a link another user put there.
fn out_of(root_real: &Path, default: PathBuf) -> Result<PathBuf> {
    let inside = |p: &Path| {
        crate::sandbox::real::real_path(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .starts_with(root_real)
    };
    if !inside(&default) {
        return Ok(default);
    }
    let uid = rustix::process::geteuid().as_raw();
    let candidates = ["/var/tmp", "/tmp"].map(|t| Path::new(t).join(format!("loopr-tool-{uid}")));
    for dir in candidates.iter().filter(|d| !inside(d)) {
        if own_private_dir(dir, uid) {
            return Ok(dir.join("state"));
        }
    }
    Err(ToolError::usage(format!(
        "the default state directory {} lies inside the root {}, and no private place outside it could be made ({})",
        default.display(),
        root_real.display(),
        candidates.map(|c| c.display().to_string()).join(", ")
    ))
    .hint("Pass --state-dir DIR (or LOOPR_STATE_DIR) naming a directory outside the root."))
}

/// Whether `dir` is (or now is, made 0700) a directory owned by `uid` that nobody else may
/// enter, reached without a link.
fn own_private_dir(dir: &Path, uid: u32) -> bool {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let _ = std::fs::DirBuilder::new().mode(0o700).create(dir);
    std::fs::symlink_metadata(dir)
        .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0)
}

/// `a/./b/../c` → `a/c`, without touching the file system.
pub fn normalize_lexically(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn absolute(p: &Path) -> Result<PathBuf> {
    let cwd = std::env::current_dir()
        .map_err(|e| ToolError::new(Code::IoError, format!("no current directory: {e}")))?;
    Ok(normalize_lexically(&cwd.join(p)))
}

impl Ctx {
    pub fn new(g: &Globals) -> Result<Ctx> {
        Ctx::with_control(g, Arc::new(Control::new()))
    }

    /// A context whose cancellation and progress the caller holds too.
    pub fn with_control(g: &Globals, control: Arc<Control>) -> Result<Ctx> {
        let root_given = match &g.root {
            Some(r) => r.clone(),
            None => PathBuf::from("."),
        };
        let root = absolute(&root_given)?;
        let root_real = std::fs::canonicalize(&root).map_err(|e| {
            ToolError::usage(format!(
                "the root {} cannot be used: {e}",
                root_given.display()
            ))
            .hint("Pass --root DIR (or LOOPR_ROOT) naming an existing directory.")
        })?;
        if !root_real.is_dir() {
            return Err(ToolError::usage(format!(
                "the root {} is not a directory",
                root_given.display()
            )));
        }
        let session = g.session.clone().unwrap_or_else(|| "default".to_string());
        if !valid_session(&session) {
            return Err(ToolError::usage(format!(
                "invalid session id {session:?}: it must be {SESSION_ID}"
            )));
        }
        let state_dir = match &g.state_dir {
            Some(d) => absolute(d)?,
            None => out_of(&root_real, default_state_dir()?)?,
        };
        let lock_wait = std::env::var(EnvVars::LOOPR_LOCK_TIMEOUT_MS)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map(Duration::from_millis)
            .unwrap_or(Duration::from_secs(10));
        Ok(Ctx {
            root,
            root_real,
            session,
            state_dir,
            sandbox: !g.no_sandbox,
            read_check: !g.no_read_check,
            allow_private: g.allow_private,
            allow_dangerous: g.allow_dangerous,
            run_sandbox: g.run_sandbox.clone(),
            lock_wait,
            control,
            policy: g.policy.clone(),
            call: CallPolicy::default(),
            hub: g.hub.clone(),
            harness: g.harness,
            result_chars: g.policy.result_chars(g.client),
            hub_place: std::cell::OnceCell::new(),
            rules: std::cell::OnceCell::new(),
            changed: RefCell::new(Vec::new()),
            state_real: std::cell::OnceCell::new(),
            root_handle: std::cell::OnceCell::new(),
            warnings: RefCell::new(Vec::new()),
        })
    }

    /// Where this call's loops meet (SPEC 25.1), found once per call.
    pub fn hub(&self) -> Result<&crate::hub::Hub> {
        if let Some(h) = self.hub_place.get() {
            return Ok(h);
        }
        let h = crate::hub::locate(self)?;
        Ok(self.hub_place.get_or_init(|| h))
    }

    /// How `tool` (with `action`) is offered to this call's model, if it is (SPEC 25.5): a
    /// hint names it so, and says how to go on without it where it is not.
    pub fn offered(&self, tool: &str, action: Option<&str>) -> Option<crate::offered::Named> {
        match self.call.namer {
            Some(namer) => namer(&self.policy, self.call.dialect, tool, action),
            None => self
                .policy
                .offers(tool)
                .then(|| crate::offered::Named::own(tool)),
        }
    }

    /// A warning that does not stop the tool: it joins `data.warnings` and `output`.
    pub fn warn(&self, w: impl Into<String>) {
        self.warnings.borrow_mut().push(w.into());
    }

    /// The state dir as the kernel sees it (symlinks resolved, a missing tail joined as is):
    /// no tool may reach it (SPEC 23.6).
    pub fn state_real(&self) -> &Path {
        self.state_real.get_or_init(|| {
            crate::sandbox::real::real_path(&self.state_dir)
                .unwrap_or_else(|_| self.state_dir.clone())
        })
    }

    /// The root's handle (SPEC 23.5), opened once per call.
    pub fn root_handle(&self) -> std::io::Result<std::os::fd::BorrowedFd<'_>> {
        use std::os::fd::AsFd;
        if self.root_handle.get().is_none() {
            let fd = crate::sandbox::beneath::open_root(&self.root_real)?;
            let _ = self.root_handle.set(fd);
        }
        Ok(self.root_handle.get().expect("set above").as_fd())
    }

    /// Whether the caller has asked the call to stop (SPEC 22.1).
    pub fn cancelled(&self) -> bool {
        self.control.is_cancelled()
    }

    /// The catalog's path rules for this root, if it has any.
    pub fn rules(&self) -> Option<&crate::sandbox::rules::Rules> {
        self.rules
            .get_or_init(|| {
                crate::sandbox::rules::Rules::new(&self.root_real, &self.policy.catalog.paths)
                    .map(Arc::new)
            })
            .as_deref()
    }

    /// The rules, to hand to the walker's threads.
    pub fn rules_shared(&self) -> Option<Arc<crate::sandbox::rules::Rules>> {
        self.rules();
        self.rules.get().cloned().flatten()
    }

    /// Notes a path this call changed (the change protocol calls it once the change landed).
    pub fn note_changed(&self, shown: String) {
        let mut c = self.changed.borrow_mut();
        if !c.contains(&shown) {
            c.push(shown);
        }
    }

    pub fn changed(&self) -> Vec<String> {
        self.changed.borrow().clone()
    }

    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut self.warnings.borrow_mut())
    }

    /// A path as shown in `output` and `data` (SPEC 16.1): relative to the root, lexically, with
    /// `/` separators and no `./`; `.` for the root; absolute when outside it. `real` is the
    /// resolved path, used when the lexical form leaves the root but the real one does not.
    pub fn show(&self, lexical: &Path, real: Option<&Path>) -> String {
        let lexical = normalize_lexically(lexical);
        for (base, p) in [
            (&self.root, lexical.as_path()),
            (&self.root_real, lexical.as_path()),
        ]
        .into_iter()
        .chain(real.map(|r| (&self.root_real, r)))
        {
            if let Ok(rel) = p.strip_prefix(base) {
                let s = rel.to_string_lossy().into_owned();
                return if s.is_empty() { ".".to_string() } else { s };
            }
        }
        lexical.to_string_lossy().into_owned()
    }
}
