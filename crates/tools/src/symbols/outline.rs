//! `symbols` `outline`: each definition on one line, indented by nesting, with its lines, kind
//! and signature. A 2,000-line file's outline is a small fraction of its read (one line per
//! definition, signatures only; bench/symbols.sh measures it).

use super::files::{self, Job};
use super::{show_line, skipped};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::Result;
use loopr_syntax::Lang;
use loopr_syntax::tags::{self, Kind, Symbol};
use serde_json::{Value, json};

struct Outline {
    lang: Lang,
    symbols: Vec<Symbol>,
}

pub fn run(
    ctx: &Ctx,
    paths: &[String],
    kinds: Option<&[Kind]>,
    depth: usize,
    limit: usize,
) -> Result<Success> {
    let visit = |f: &files::File| {
        let symbols = tags::symbols(f.lang, f.tree, f.src)
            .into_iter()
            .filter(|s| s.depth < depth && kinds.is_none_or(|k| k.contains(&s.kind)))
            .collect();
        Some(Outline {
            lang: f.lang,
            symbols,
        })
    };
    let job = Job {
        needle: None,
        lang: None,
        visit: &visit,
        cached: None,
    };
    let mut all = vec![];
    for p in paths {
        all.push(files::named(ctx, p, &job)?);
    }
    let found = files::merge(all);
    let headers = found.items.len() > 1 || paths.len() > 1 || is_dir(ctx, paths);
    let total: usize = found.items.iter().map(|(_, o)| o.symbols.len()).sum();
    let mut lines = vec![];
    let mut data_files = vec![];
    let mut shown = 0usize;
    for (path, o) in &found.items {
        if headers {
            lines.push(format!("{path} ({})", o.lang.name()));
        }
        let mut entries = vec![];
        for s in &o.symbols {
            if shown == limit {
                break;
            }
            shown += 1;
            let indent = "  ".repeat(s.depth + usize::from(headers));
            lines.push(format!(
                "{indent}{}-{} {}{}",
                s.line,
                s.end_line,
                kind_word(s),
                show_line(&s.signature)
            ));
            entries.push(entry(s));
        }
        data_files.push(json!({"path": path, "language": o.lang.name(), "symbols": entries}));
    }
    if found.items.is_empty() && found.skipped.is_empty() {
        lines.push("No files of a language built in were found.".to_string());
    } else if total == 0 && found.skipped.is_empty() {
        lines.push("(no definitions)".to_string());
    }
    let (skipped_data, skipped_lines) = skipped(&found.skipped);
    lines.extend(skipped_lines);
    let more = total - shown;
    let (output, _) = crate::caps::fit(&lines, crate::caps::OTHER, |k| {
        let cut = lines.len() - k;
        (more > 0 || cut > 0).then(|| {
            format!(
                "({} more definitions: raise limit, or narrow with kinds or depth)",
                more + cut
            )
        })
    });
    let data = json!({
        "files": data_files,
        "total": total,
        "shown": shown,
        "syntactic": true,
        "skipped": skipped_data,
    });
    Ok(Success::new(output, data))
}

fn entry(s: &Symbol) -> Value {
    json!({
        "name": s.name,
        "kind": s.kind.name(),
        "line": s.line,
        "end_line": s.end_line,
        "parent": s.parent,
        "signature": s.signature,
    })
}

fn is_dir(ctx: &Ctx, paths: &[String]) -> bool {
    paths
        .iter()
        .any(|p| crate::walk::base(ctx, Some(p)).is_ok_and(|b| b.kind == crate::walk::Kind::Dir))
}

/// The kind before a signature, unless the signature says it (`class A`, `struct S`).
fn kind_word(s: &Symbol) -> String {
    let kind = s.kind.name();
    if s.signature.split_whitespace().any(|w| w == kind) {
        String::new()
    } else {
        format!("{kind} ")
    }
}
