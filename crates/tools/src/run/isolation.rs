//! What a run's `sandbox`, `sandbox_fallback` and `network` become (SPEC 23.4, 24.6, 24.7): the
//! mode after the `--sandbox` floor, whether the kernel can enforce it, the private TMPDIR of
//! `workspace-write`, and `data.sandbox`.

use super::confine::{self, Confinement, Mode};
use crate::context::Ctx;
use crate::error::{Code, Result, ToolError};
use loopr_env_vars::EnvVars;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::PathBuf;

/// `sandbox_fallback`: what to do where the kernel cannot enforce `sandbox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// Run without the file-system sandbox (a warning says so).
    None,
}

/// The run's isolation, decided before anything starts.
pub struct Isolation {
    pub mode: Mode,
    /// Landlock will hold the command to `mode`.
    pub enforced: bool,
    pub network_none: bool,
    /// `workspace-write`'s private temporary directory, given as TMPDIR; removed at the end.
    pub tmpdir: Option<PathBuf>,
    /// What `workspace-write` may write besides the root for a linked worktree's commits
    /// (SPEC 25.7): `data.sandbox.writable`.
    pub added: Vec<PathBuf>,
}

/// The floor set by `--sandbox` / `LOOPR_RUN_SANDBOX` (the cli checked its spelling).
fn floor(ctx: &Ctx) -> Mode {
    let given = given_floor(ctx);
    // The catalog's `[run]`, profile and tool `sandbox` are floors too; the strongest holds.
    let catalog = ctx
        .policy
        .sandbox_floors(ctx.call.entry.as_ref())
        .filter_map(Mode::parse)
        .max();
    given.max(catalog.unwrap_or_default())
}

/// The `--sandbox` floor alone: the floor under a catalog hook's own `sandbox` (SPEC 31.4),
/// whatever floor the tool it wraps has.
pub fn given_floor(ctx: &Ctx) -> Mode {
    ctx.run_sandbox
        .as_deref()
        .and_then(Mode::parse)
        .unwrap_or_default()
}

/// `[run] writable_roots` (SPEC 24.7): more directories `workspace-write` may write (a
/// toolchain's cache); relative ones are under the root, `~/` is HOME.
fn writable_roots(ctx: &Ctx) -> Vec<PathBuf> {
    let home = std::env::var_os(EnvVars::HOME).map(PathBuf::from);
    ctx.policy
        .catalog
        .run
        .writable_roots
        .iter()
        .filter_map(|w| match (w.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => Some(h.join(rest)),
            (Some(_), None) => None,
            (None, _) => Some(ctx.root_real.join(w)),
        })
        .collect()
}

/// `workspace-write` grants the root (and `[run] writable_roots`) whole: Landlock cannot deny a
/// directory inside an allowed tree again. A state dir inside one of them would be writable
/// by the command, which could forge the journal and job records (SPEC 31.4), so such a run is
/// refused. The default state dir is kept out of the root (context.rs); only one named inside
/// it, or a writable root that holds it, gets here.
fn state_not_writable(ctx: &Ctx) -> Result<()> {
    let state = ctx.state_real();
    let real = |p: PathBuf| crate::sandbox::real_path(&p).unwrap_or(p);
    let holder = std::iter::once(ctx.root_real.clone())
        .chain(writable_roots(ctx).into_iter().map(real))
        .find(|w| state.starts_with(w));
    let Some(holder) = holder else {
        return Ok(());
    };
    Err(ToolError::new(
        Code::SandboxUnavailable,
        format!(
            "sandbox \"workspace-write\" cannot keep the command out of loopr-tool's state directory {}: it lies inside {}, which the command may write; the command was not run",
            state.display(),
            holder.display()
        ),
    )
    .with("mode", Mode::WorkspaceWrite.name())
    .hint("Run loopr-tool with --state-dir (or LOOPR_STATE_DIR) outside the root and the writable roots, or ask for sandbox \"read-only\"."))
}

impl Isolation {
    pub fn decide(
        ctx: &Ctx,
        asked: Option<Mode>,
        fallback: Option<Fallback>,
        network_none: bool,
    ) -> Result<Isolation> {
        Isolation::decide_under(ctx, floor(ctx), asked, fallback, network_none)
    }

    /// As `decide`, under a given floor.
    pub fn decide_under(
        ctx: &Ctx,
        floor: Mode,
        asked: Option<Mode>,
        fallback: Option<Fallback>,
        network_none: bool,
    ) -> Result<Isolation> {
        if let Some(a) = asked.filter(|&a| a < floor) {
            return Err(ToolError::invalid(
                "sandbox",
                format!(
                    "sandbox \"{}\" is weaker than \"{}\", the floor this loopr-tool was started with (--sandbox / LOOPR_RUN_SANDBOX, or the catalog's sandbox)",
                    a.name(),
                    floor.name()
                ),
            )
            .hint(format!(
                "Leave `sandbox` out (the floor \"{}\" applies) or ask for a stronger one.",
                floor.name()
            )));
        }
        if floor != Mode::None && fallback.is_some() {
            return Err(ToolError::invalid(
                "sandbox_fallback",
                format!(
                    "sandbox_fallback is not allowed: this loopr-tool was started with the sandbox floor \"{}\", which no call may run without",
                    floor.name()
                ),
            )
            .hint("Leave sandbox_fallback out; where the kernel cannot enforce the sandbox the call fails with sandbox_unavailable."));
        }
        let mode = asked.unwrap_or(floor);
        if mode == Mode::WorkspaceWrite {
            state_not_writable(ctx)?;
        }
        let abi = if mode == Mode::None {
            None
        } else {
            confine::landlock_abi()
        };
        if mode != Mode::None && abi.is_none() {
            if fallback.is_none() {
                return Err(ToolError::new(
                    Code::SandboxUnavailable,
                    format!(
                        "sandbox \"{}\" cannot be enforced here: this kernel offers no Landlock (Linux 5.13 or later with Landlock enabled); the command was not run",
                        mode.name()
                    ),
                )
                .with("mode", mode.name())
                .hint("Run it where Landlock is available, or pass sandbox_fallback: \"none\" to run it without the file-system sandbox if that is acceptable."));
            }
            ctx.warn(format!(
                "the kernel cannot enforce sandbox \"{}\" (no Landlock): the command ran without it, as sandbox_fallback \"none\" allowed",
                mode.name()
            ));
        }
        if abi.is_some_and(|v| v < 3) {
            ctx.warn(format!(
                "this kernel's Landlock (ABI {}) cannot stop a command from truncating existing files outside the writable directories",
                abi.unwrap_or(0)
            ));
        }
        let tmpdir = if mode == Mode::WorkspaceWrite {
            let made = tempfile::Builder::new()
                .prefix("loopr-run-")
                .tempdir()
                .map_err(|e| {
                    ToolError::new(
                        Code::IoError,
                        format!("could not make the run's private TMPDIR: {e}"),
                    )
                })?;
            Some(made.keep())
        } else {
            None
        };
        let added = if mode == Mode::WorkspaceWrite {
            super::worktree::writable(&ctx.root_real)
        } else {
            vec![]
        };
        Ok(Isolation {
            mode,
            enforced: abi.is_some(),
            network_none,
            tmpdir,
            added,
        })
    }

    /// What the shell's process enters (confine.rs).
    pub fn confinement(&self, ctx: &Ctx) -> Confinement {
        let fs = self.enforced.then(|| {
            let writable = match self.mode {
                Mode::WorkspaceWrite => std::iter::once(ctx.root_real.clone())
                    .chain(self.tmpdir.clone())
                    .chain(writable_roots(ctx))
                    .chain(self.added.iter().cloned())
                    .collect(),
                _ => vec![],
            };
            (self.mode, writable)
        });
        Confinement {
            network_none: self.network_none,
            fs,
        }
    }

    /// `data.sandbox` (SPEC 24.6).
    pub fn data(&self) -> Value {
        let mut data = json!({
            "mode": self.mode.name(),
            "enforced_by": if self.enforced { "landlock" } else { "none" },
            "network": if self.network_none { "none" } else { "inherit" },
        });
        if !self.added.is_empty() {
            data["writable"] = json!(self.added);
        }
        data
    }
}

/// Removes a run's private TMPDIR once the command is over.
pub fn remove_tmpdir(dir: Option<&PathBuf>) {
    if let Some(d) = dir {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Why a command was not started, as the error the caller sees.
pub fn refused(r: super::keeper::Refusal) -> ToolError {
    match r.mode {
        Some(mode) => {
            let hint = if mode == "network:none" {
                "network: none needs user and network namespaces (unshare); where the OS forbids them, run without network: none only if network access is acceptable."
            } else {
                "Run it where Landlock is available, or pass sandbox_fallback: \"none\" to run it without the file-system sandbox if that is acceptable."
            };
            ToolError::new(
                Code::SandboxUnavailable,
                format!(
                    "could not start the command with {}: {}; the command was not run",
                    if mode == "network:none" {
                        "network: none".to_string()
                    } else {
                        format!("sandbox \"{mode}\"")
                    },
                    r.message
                ),
            )
            .with("mode", mode)
            .hint(hint)
        }
        None => ToolError::new(Code::IoError, r.message),
    }
}
