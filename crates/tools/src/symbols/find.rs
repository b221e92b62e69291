//! `symbols` `definition` and `references`: a walk of `scope` that parses only the files holding
//! the name (a byte search first, as `rg -w` would), then asks each tree.

use super::cache::{self, TagCache};
use super::files::{self, Gathered, Job};
use super::{Name, show_line, skipped};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use crate::sandbox;
use loopr_syntax::tags::{self, Kind};
use loopr_syntax::{Lang, refs};
use serde_json::{Value, json};
use std::path::Path;

pub struct Query<'a> {
    pub name: &'a Name,
    /// The paths the call named: ranking context.
    pub context: &'a [String],
    pub scope: Option<&'a str>,
    pub kinds: Option<&'a [Kind]>,
    pub limit: usize,
}

struct Def {
    lang: Lang,
    name: String,
    qualified: String,
    kind: Kind,
    line: usize,
    end_line: usize,
    signature: String,
}

/// Same file first, then same directory, then by path (SPEC 26.2).
fn rank(context: &[String], path: &str) -> u8 {
    let dir = |p: &str| Path::new(p).parent().map(Path::to_path_buf);
    if context.iter().any(|c| c == path) {
        0
    } else if context.iter().any(|c| dir(c) == dir(path)) {
        1
    } else {
        2
    }
}

/// The context paths as the walk shows paths (relative to the root).
fn shown_context(ctx: &Ctx, paths: &[String]) -> Result<Vec<String>> {
    paths
        .iter()
        .map(|p| sandbox::resolve(ctx, "path", p).map(|r| r.shown))
        .collect()
}

/// The files of `scope` that hold the name, each visited, ranked (same file, same directory,
/// then by path), with the count of all they gave.
fn search<T: Send>(
    ctx: &Ctx,
    q: &Query,
    visit: &(dyn Fn(&files::File) -> Option<Vec<T>> + Sync),
    cached: Option<&files::Cached<Vec<T>>>,
) -> Result<(Gathered<Vec<T>>, usize)> {
    let job = Job {
        needle: Some(q.name.ident.as_bytes()),
        lang: None,
        visit,
        cached,
    };
    let mut found = files::scope(ctx, q.scope, &job)?;
    let context = shown_context(ctx, q.context)?;
    // A stable sort keeps the path order within each rank.
    found.items.sort_by_key(|(p, _)| rank(&context, p));
    let total = found.items.iter().map(|(_, v)| v.len()).sum();
    Ok((found, total))
}

/// The definitions among a file's cached tags that the query names.
fn matching(q: &Query, lang: Lang, defs: &[cache::Def]) -> Vec<Def> {
    defs.iter()
        .filter(|d| q.name.matches(&d.name, d.parent.as_deref()))
        .filter(|d| q.kinds.is_none_or(|k| k.contains(&d.kind)))
        .map(|d| Def {
            lang,
            qualified: match &d.parent {
                Some(p) => format!("{p}{}{}", lang.joiner(), d.name),
                None => d.name.clone(),
            },
            name: d.name.clone(),
            kind: d.kind,
            line: d.line,
            end_line: d.end_line,
            signature: d.signature.clone(),
        })
        .collect()
}

/// Through the tag cache that `map` fills too: a file whose content was seen before is not
/// parsed again (a cached file without the definition gives an empty list).
pub fn definitions(ctx: &Ctx, q: &Query) -> Result<Success> {
    let cache = TagCache::open(ctx);
    let visit = |f: &files::File| {
        let defs = matching(q, f.lang, &cache.make(f).defs);
        (!defs.is_empty()).then_some(defs)
    };
    let cached = |lang: Lang, src: &[u8]| Some(matching(q, lang, &cache.load(lang, src)?.defs));
    let (found, total) = search(ctx, q, &visit, Some(&cached))?;
    let mut lines = vec![match total {
        0 => format!(
            "No definition of {} found (by name, syntactic; {} files parsed, others from the tag cache).",
            q.name.given, found.parsed
        ),
        n => format!(
            "{n} definition{} of {} (by name, syntactic):",
            if n == 1 { "" } else { "s" },
            q.name.given
        ),
    }];
    let mut data = vec![];
    for (path, defs) in &found.items {
        for d in defs {
            if data.len() == q.limit {
                break;
            }
            lines.push(format!(
                "{path}:{}-{} {} {}: {}",
                d.line,
                d.end_line,
                d.kind.name(),
                d.qualified,
                show_line(&d.signature)
            ));
            data.push(json!({
                "path": path,
                "language": d.lang.name(),
                "name": d.name,
                "qualified": d.qualified,
                "kind": d.kind.name(),
                "line": d.line,
                "end_line": d.end_line,
                "signature": d.signature,
            }));
        }
    }
    finish(
        lines,
        total,
        data.len(),
        "definitions",
        &found.skipped,
        |shown| json!({"definitions": data, "total": total, "shown": shown, "files_parsed": found.parsed, "syntactic": true}),
    )
}

struct Use {
    line: usize,
    column: usize,
    text: String,
    definition: bool,
}

pub fn references(ctx: &Ctx, q: &Query) -> Result<Success> {
    let visit = |f: &files::File| {
        let uses = refs::find(f.tree, f.src, &q.name.ident);
        if uses.is_empty() {
            return None;
        }
        let defs: Vec<usize> = tags::symbols(f.lang, f.tree, f.src)
            .into_iter()
            .filter(|s| s.name == q.name.ident)
            .map(|s| s.name_at)
            .collect();
        let uses: Vec<Use> = uses
            .into_iter()
            .map(|r| Use {
                definition: defs.contains(&r.at),
                line: r.line,
                column: r.column,
                text: r.text,
            })
            .collect();
        Some(uses)
    };
    let (found, total) = search(ctx, q, &visit, None)?;
    let qualified = if q.name.qualifier.is_some() {
        format!(" (every `{}`, whatever its qualifier)", q.name.ident)
    } else {
        String::new()
    };
    let mut lines = vec![format!(
        "{total} references to {}{qualified} in {} files, matched by name (syntactic: same-named members are not told apart; macros and dynamic calls may hide some):",
        q.name.given,
        found.items.len()
    )];
    let mut data = vec![];
    for (path, uses) in &found.items {
        if data.len() == q.limit {
            break;
        }
        lines.push(path.clone());
        for u in uses {
            if data.len() == q.limit {
                break;
            }
            let mark = if u.definition { "  (definition)" } else { "" };
            lines.push(format!("  {}: {}{mark}", u.line, show_line(&u.text)));
            data.push(json!({
                "path": path,
                "line": u.line,
                "column": u.column,
                "text": u.text,
                "definition": u.definition,
            }));
        }
    }
    finish(
        lines,
        total,
        data.len(),
        "references",
        &found.skipped,
        |shown| json!({"references": data, "total": total, "shown": shown, "files": found.items.len(), "syntactic": true}),
    )
}

/// The output cut to its cap, with a trailer for what was not shown, and the data with the
/// skipped files.
fn finish(
    mut lines: Vec<String>,
    total: usize,
    shown: usize,
    what: &str,
    skipped_files: &[files::Skipped],
    data: impl FnOnce(usize) -> Value,
) -> Result<Success> {
    let (skipped_data, skipped_lines) = skipped(skipped_files);
    lines.extend(skipped_lines);
    let more = total - shown;
    let (output, _) = crate::caps::fit(&lines, crate::caps::OTHER, |k| {
        let cut = lines.len() - k;
        (more > 0 || cut > 0).then(|| {
            format!("({more} more {what} not shown: raise limit, or narrow with scope or kinds; {cut} lines cut)")
        })
    });
    let mut data = data(shown);
    data["skipped"] = skipped_data;
    Ok(Success::new(output, data))
}
