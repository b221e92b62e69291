//! `rewrite` (SPEC 26.4): every match of a structural pattern replaced by a template with the
//! same metavariables, across files, all or nothing — the files land through apply_patch's
//! commit, one journal entry each, so `undo` takes them back one by one.
//!
//! Before anything is written: a metavariable the template uses that the pattern does not bind
//! is `invalid_input` naming it (ast-grep writes an empty string there and exits 0), and a
//! pattern that does not parse as code of its language is `invalid_input` with the position.
//! The matches are found again under the files' locks, so a file changed since the walk is
//! rewritten as it now is.

use crate::apply_patch::{self, Action, Planned};
use crate::change;
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::grep::Globs;
use crate::sandbox;
use crate::structural::Patterns;
use crate::symbols::files;
use crate::syntax_check;
use crate::tool::{Hints, Tool};
use crate::walk::Options;
use loopr_syntax::{Lang, structural};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

pub struct Rewrite;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Code with metavariables to find: `$X` one node, `$$$X` any number (ast-grep's syntax).
    pub pattern: String,
    /// The replacement, using the pattern's metavariables (`$X`, `$$$X`).
    pub rewrite: String,
    /// A file or directory to rewrite in (default: the root).
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// Only files matching this glob ("src/**/*.ts"), or an array of globs.
    pub glob: Option<Globs>,
    /// The language of the pattern and the files (rust, python, javascript, typescript, tsx,
    /// go, java, c, cpp); default each file's own, by extension.
    pub language: Option<String>,
    /// Show what would change without writing.
    #[schemars(extend("default" = false))]
    pub dry_run: Option<bool>,
}

impl Tool for Rewrite {
    type Input = Input;
    const NAME: &'static str = "rewrite";
    const SUMMARY: &'static str =
        "Replace every match of a structural (syntax-tree) pattern across files";
    const DESCRIPTION: &'static str = "Structural search and replace (ast-grep's patterns, tree-sitter grammars built in): every match of `pattern` — code with metavariables, `$X` one node, `$$$X` any number — is replaced by `rewrite`, where the same metavariables stand for what they matched. \
Searches `path` (a file or directory, default the root), filtered by `glob`, in files of `language` or of each file's own language. \
All or nothing across files: if any file cannot be written, none is; each file is journaled, so `undo` takes them back. `dry_run` shows the diff only. \
A metavariable in `rewrite` that `pattern` does not bind, or a pattern that is not valid code of the language, is refused before anything is written. Each changed file is syntax-checked (data.files[].syntax).";
    const HINTS: Hints = Hints::DESTRUCTIVE;
    const EXAMPLES: &'static str = "  echo '{\"pattern\": \"console.log($$$A)\", \"rewrite\": \"logger.debug($$$A)\", \"glob\": \"src/**/*.ts\", \"dry_run\": true}' | loopr-tool rewrite";

    fn read_only(input: &Input) -> bool {
        input.dry_run == Some(true)
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        let patterns = Patterns::new(&input.pattern, input.language.as_deref())?;
        let found = gather(ctx, &input, &patterns)?;
        refuse_unbound(&patterns, &input.rewrite)?;
        if found.items.is_empty() {
            if let Some(e) = patterns.none_compiled() {
                return Err(e);
            }
            return Ok(Success::new(
                format!(
                    "No matches of the pattern ({} files parsed); nothing changed.\n",
                    found.parsed
                ),
                json!({"files": [], "total": 0, "dry_run": input.dry_run == Some(true)}),
            ));
        }
        for s in &found.skipped {
            ctx.warn(format!("skipped {}: {}", s.path, s.reason));
        }
        let changed = land(ctx, &input, &patterns, &found.items)?;
        Ok(report(&changed, input.dry_run == Some(true)))
    }
}

/// The files with matches: path, language and count (nothing is written yet).
fn gather(ctx: &Ctx, input: &Input, patterns: &Patterns) -> Result<files::Gathered<(Lang, usize)>> {
    let opts = Options {
        overrides: crate::grep::build_overrides(ctx, input.glob.as_ref())?,
        ..Options::default()
    };
    let visit = |f: &files::File, _: &str, found: Vec<structural::Match>| (f.lang, found.len());
    patterns.gather(ctx, input.path.as_deref(), opts, &visit)
}

fn refuse_unbound(patterns: &Patterns, rewrite: &str) -> Result<()> {
    for c in patterns.all() {
        let unbound = structural::unbound(&c, rewrite);
        if let Some(first) = unbound.first() {
            return Err(ToolError::invalid(
                "rewrite",
                format!(
                    "{} in `rewrite` {} not bound by `pattern` (it would be replaced by nothing); nothing was changed",
                    unbound.join(", "),
                    if unbound.len() == 1 { "is" } else { "are" }
                ),
            )
            .with("metavariable", first.as_str())
            .hint("Use only the metavariables the pattern names, or add them to the pattern."));
        }
    }
    Ok(())
}

/// One file the rewrite changes.
struct Changed {
    shown: String,
    count: usize,
    syntax: Option<loopr_syntax::check::Report>,
    diff: String,
}

/// Under the files' locks: each file read again, checked fresh (when this session has read
/// it), rewritten, and (unless `dry_run`) all landed at once.
fn land(
    ctx: &Ctx,
    input: &Input,
    patterns: &Patterns,
    items: &[(String, (Lang, usize))],
) -> Result<Vec<Changed>> {
    let mut targets = Vec::with_capacity(items.len());
    for (shown, _) in items {
        targets.push(sandbox::resolve(ctx, "path", shown)?);
    }
    let reals: Vec<&std::path::Path> = targets.iter().map(|t| t.real.as_path()).collect();
    let locked = change::lock(ctx, &reals)?;
    let mut planned = vec![];
    let mut changed = vec![];
    for (target, (_, (lang, _))) in targets.iter().zip(items) {
        let shown = target.shown.as_str();
        let meta = crate::write::check_writable(&target.real, shown)?.ok_or_else(|| {
            ToolError::not_found(shown, format!("{shown} was removed while the rewrite ran"))
        })?;
        let current = locked.read(target, meta)?;
        let known = locked.has_record(&target.real);
        if known {
            locked.fresh(target, &current)?;
        }
        let (Ok(src), Some(c)) = (std::str::from_utf8(&current.bytes), patterns.get(*lang)) else {
            continue;
        };
        let Ok((new, count)) = structural::rewrite(&c, src, None, &input.rewrite) else {
            continue;
        };
        if count == 0 || new == src {
            continue;
        }
        changed.push(Changed {
            shown: shown.to_string(),
            count,
            syntax: syntax_check::check(shown, Some(src.as_bytes()), new.as_bytes()),
            diff: loopr_matcher::diff::unified(src, &new, shown),
        });
        let old_text = src.to_string();
        planned.push(Planned {
            action: Action::Update,
            target: target.clone(),
            from: None,
            before: Some((current.bytes, current.meta)),
            replaced: None,
            after: Some(new.clone().into_bytes()),
            old_text,
            new_text: new,
            changed: vec![],
            rungs: vec![],
            known,
        });
    }
    if input.dry_run != Some(true) && !planned.is_empty() {
        if ctx.cancelled() {
            return Err(ToolError::cancelled("rewrite"));
        }
        apply_patch::commit(ctx, "rewrite", &planned)?;
    }
    drop(locked);
    Ok(changed)
}

fn report(changed: &[Changed], dry_run: bool) -> Success {
    let total: usize = changed.iter().map(|c| c.count).sum();
    let verb = if dry_run { "Would rewrite" } else { "Rewrote" };
    let mut lines = vec![format!(
        "{verb} {total} match{} in {} file{}:",
        if total == 1 { "" } else { "es" },
        changed.len(),
        if changed.len() == 1 { "" } else { "s" }
    )];
    let mut files = vec![];
    let mut diff = String::new();
    for c in changed {
        lines.push(format!("M {} ({})", c.shown, c.count));
        diff.push_str(&c.diff);
        let mut f = json!({"path": c.shown, "replacements": c.count});
        if let Some(r) = &c.syntax {
            f["syntax"] = syntax_check::data(r);
        }
        files.push(f);
    }
    for c in changed {
        if let Some(l) = c
            .syntax
            .as_ref()
            .and_then(|r| syntax_check::line(&c.shown, r))
        {
            lines.push(l);
        }
    }
    if dry_run {
        lines.extend(diff.lines().map(str::to_string));
    }
    let (output, _) = crate::caps::fit(&lines, crate::caps::OTHER, |k| {
        (k < lines.len()).then(|| "(cut; data.diff holds every change)".to_string())
    });
    let data: Value = json!({"files": files, "total": total, "diff": diff, "dry_run": dry_run});
    Success::new(output, data)
}
