//! `grep` with `structural: true` (SPEC 26.4): `pattern` is code with ast-grep's
//! metavariables, matched against syntax trees of the files of `language` (or of each file's own
//! language, by extension). Results have grep's shapes — paths, `path:line:text` lines (a match
//! over k lines gives k items, 16.6) with the match's range, or `path:N` counts.

use super::{Input, OutputMode};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::structural::Patterns;
use crate::symbols::files;
use crate::walk::Options;
use loopr_syntax::structural::Match;
use serde_json::{Value, json};

/// Fields that only regex search has.
fn refuse_regex_fields(input: &Input) -> Result<()> {
    let given = [
        ("-i", input.case_insensitive.is_some()),
        ("multiline", input.multiline.is_some()),
        ("fixed_strings", input.fixed_strings.is_some()),
        ("-A", input.after.is_some()),
        ("-B", input.before.is_some()),
        ("-C", input.context.is_some()),
        ("context", input.seed_context.is_some()),
    ];
    match given.iter().find(|(_, g)| *g) {
        Some((f, _)) => Err(ToolError::invalid(
            f,
            format!("`{f}` is for regex search; a structural search takes none"),
        )),
        None => Ok(()),
    }
}

pub fn run(ctx: &Ctx, input: &Input) -> Result<Success> {
    refuse_regex_fields(input)?;
    let patterns = Patterns::new(&input.pattern, input.language.as_deref())?;
    let opts = Options {
        hidden: input.hidden.unwrap_or(false),
        no_ignore: input.no_ignore.unwrap_or(false),
        overrides: super::build_overrides(ctx, input.glob.as_ref())?,
        types: super::build_types(input.file_type.as_deref())?,
        ..Options::default()
    };
    let visit =
        |_: &files::File, src: &str, found: Vec<Match>| (lines_of(src, &found), found.len());
    let found = patterns.gather(ctx, input.path.as_deref(), opts, &visit)?;
    if found.items.is_empty()
        && let Some(e) = patterns.none_compiled()
    {
        return Err(e);
    }
    for s in &found.skipped {
        ctx.warn(format!("skipped {}: {}", s.path, s.reason));
    }
    Ok(render(input, found.items))
}

/// One item per line of each match: the line's number and text, and the whole match's range.
fn lines_of(src: &str, found: &[Match]) -> Vec<(usize, String, Value)> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out = vec![];
    for m in found {
        let range = json!({
            "start": {"line": m.line, "column": m.column},
            "end": {"line": m.end_line, "column": m.end_column},
        });
        for l in m.line..=m.end_line {
            let text = lines
                .get(l - 1)
                .copied()
                .unwrap_or("")
                .trim_end_matches('\r');
            out.push((l, text.to_string(), range.clone()));
        }
    }
    out
}

type Found = Vec<(String, (Vec<(usize, String, Value)>, usize))>;

fn render(input: &Input, items: Found) -> Success {
    let mode = input.output_mode.unwrap_or_default();
    let head_limit = match input.head_limit {
        Some(0) => usize::MAX,
        Some(n) => n as usize,
        None if mode == OutputMode::Content => 1000,
        None => 250,
    };
    let offset = input.offset.unwrap_or(0) as usize;
    let (entries, data): (Vec<String>, Vec<Value>) = match mode {
        OutputMode::FilesWithMatches => items.iter().map(|(p, _)| (p.clone(), json!(p))).unzip(),
        OutputMode::Count => items
            .iter()
            .map(|(p, (_, n))| (format!("{p}:{n}"), json!({"path": p, "count": n})))
            .unzip(),
        OutputMode::Content => items
            .iter()
            .flat_map(|(p, (lines, _))| {
                lines.iter().map(move |(l, text, range)| {
                    (
                        format!("{p}:{l}:{text}"),
                        json!({"path": p, "line": l, "text": text, "range": range}),
                    )
                })
            })
            .unzip(),
    };
    let total = entries.len();
    let page: Vec<String> = entries.into_iter().skip(offset).take(head_limit).collect();
    let data: Vec<Value> = data.into_iter().skip(offset).take(head_limit).collect();
    let shown = page.len();
    let (output, fit) = crate::caps::fit(&page, crate::caps::GREP, |k| {
        let next = offset + k;
        (next < total).then(|| format!("(showing {k} of {total}; use offset: {next} for more)"))
    });
    let key = match mode {
        OutputMode::FilesWithMatches => "files",
        OutputMode::Count => "counts",
        OutputMode::Content => "matches",
    };
    let mode_name = match mode {
        OutputMode::FilesWithMatches => "files_with_matches",
        OutputMode::Count => "count",
        OutputMode::Content => "content",
    };
    let data: Vec<Value> = data.into_iter().take(fit).collect();
    Success::new(
        output,
        json!({
            "mode": mode_name,
            key: data,
            "total": total,
            "truncated": fit < shown || offset + shown < total,
            "structural": true,
        }),
    )
}
