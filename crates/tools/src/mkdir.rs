//! `mkdir` (SPEC 18.1, 24.2): a directory with its parents, journaled so `undo` removes what it
//! created (while still empty).

use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::journal::{Before, NewEntry, Op};
use crate::sandbox;
use crate::tool::{Hints, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};

pub struct Mkdir;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The directory to create, with any missing parents.
    #[serde(alias = "dir_path")]
    pub path: String,
}

impl Tool for Mkdir {
    type Input = Input;
    const NAME: &'static str = "mkdir";
    const SUMMARY: &'static str = "Create a directory (and its parents)";
    const DESCRIPTION: &'static str = "Creates a directory and any missing parent directories, inside the root. \
An existing directory is fine (`created: false`); an existing file there is an error. Can be undone (undo removes the directories it created, if they are still empty). \
write creates parent directories by itself: mkdir is for empty directories.";
    const POSITIONALS: &'static [&'static str] = &["path"];
    const EXAMPLES: &'static str = "  loopr-tool mkdir src/new/module";
    const HINTS: Hints = Hints {
        destructive: false,
        idempotent: true,
        ..Hints::DESTRUCTIVE
    };

    fn read_only(_: &Input) -> bool {
        false
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let target = sandbox::resolve(ctx, "path", &input.path)?;
        let shown = target.shown.as_str();
        let locked = change::lock(ctx, &[&target.real])?;
        let missing = missing_dirs(ctx, &target.real, shown)?;
        if missing.is_empty() {
            return Ok(Success::new(
                format!("{shown} already exists\n"),
                json!({"path": shown, "created": false, "directories": 0}),
            ));
        }
        // Journal first (SPEC 24.6): the entry lists what is about to be created.
        let created = missing
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let journaled = change::journal_first(
            ctx,
            vec![
                NewEntry::new(
                    "mkdir",
                    &target.real,
                    shown,
                    Before::Absent,
                    Default::default(),
                )
                .op(Op::Mkdir { created }),
            ],
            &[],
        )?;
        create(&target, &missing).map_err(|e| ToolError::io(&e, shown, "creating"))?;
        if let Some(parent) = missing[0].parent() {
            crate::fsx::sync_dir(parent);
        }
        journaled.landed();
        let n = missing.len();
        drop(locked);
        Ok(Success::new(
            format!(
                "Created {shown} ({n} new director{})\n",
                if n == 1 { "y" } else { "ies" }
            ),
            json!({"path": shown, "created": true, "directories": n}),
        ))
    }
}

/// Creates the missing directories, through the checked handle (SPEC 23.5) when there is one;
/// on failure removes what it made, so the tree is as it was.
fn create(target: &sandbox::Resolved, missing: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    crate::fault::check("mkdir")?;
    let Some(at) = &target.at else {
        let mut made = vec![];
        for d in missing {
            if let Err(e) = std::fs::create_dir(d) {
                for m in made.iter().rev() {
                    let _ = std::fs::remove_dir(m);
                }
                return Err(e);
            }
            made.push(d.clone());
        }
        return Ok(made);
    };
    let (dir, mut made) = at.make_parents()?;
    match rustix::fs::mkdirat(
        &dir,
        at.name.as_os_str(),
        rustix::fs::Mode::from_raw_mode(0o777),
    ) {
        Ok(()) => {
            made.push(at.real.clone());
            Ok(made)
        }
        Err(e) => {
            for m in made.iter().rev() {
                let _ = std::fs::remove_dir(m);
            }
            Err(e.into())
        }
    }
}

/// The directories to create for `real`, outermost first; refuses a file on the way.
fn missing_dirs(ctx: &Ctx, real: &Path, shown: &str) -> Result<Vec<PathBuf>> {
    let mut missing = vec![];
    let mut cur = Some(real);
    while let Some(p) = cur {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => break,
            Ok(_) if p == real => {
                return Err(ToolError::invalid(
                    "path",
                    format!("{shown} exists and is a file, not a directory"),
                )
                .hint("Choose another name, or delete the file first."));
            }
            Ok(_) => {
                return Err(ToolError::new(
                    Code::NotADirectory,
                    format!(
                        "cannot create {shown}: {} is a file, not a directory",
                        ctx.show(p, Some(p))
                    ),
                )
                .with("path", shown));
            }
            // ENOTDIR: a file further up; the walk up finds and names it.
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.kind() == std::io::ErrorKind::NotADirectory =>
            {
                missing.push(p.to_path_buf())
            }
            Err(e) => return Err(ToolError::io(&e, shown, "creating")),
        }
        cur = p.parent();
    }
    missing.reverse();
    Ok(missing)
}
