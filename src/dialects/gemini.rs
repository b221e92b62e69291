//! Gemini CLI's tools (SPEC 22.7, 24.7), as `@google/gemini-cli-core` defines them: the names
//! and fields of 0.1.x that the SPEC names (`absolute_path` with a 0-based offset,
//! `search_file_content`, `directory`, `paths`), and the later forms of the same tools where
//! they do not clash (`file_path` + `start_line`/`end_line`, `grep_search`, `dir_path`,
//! `allow_multiple`, `is_background`).

use super::Agent::Gemini;
use super::{Alias, call_tool, count_field, edit_creates, only_fields, rename_in};
use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Result, ToolError};
use crate::tool::Effect;
use serde_json::{Map, Value, json};

const INSTRUCTION: (&str, &str) = (
    "instruction",
    "`instruction` was ignored: the edit is made from old_string and new_string alone",
);

pub static ALIASES: &[Alias] = &[
    Alias::new("read_file", Gemini, "read")
        .claims(|m| {
            ["absolute_path", "start_line", "end_line"]
                .iter()
                .any(|f| m.contains_key(*f))
        })
        .adapt(read_file),
    Alias::new("replace", Gemini, "edit")
        .adapt(replace)
        .ignored(&[INSTRUCTION])
        .route(edit_creates),
    Alias::new("search_file_content", Gemini, "grep")
        .adapt(search_file_content)
        .renames(&[("include", "glob")]),
    Alias::new("grep_search", Gemini, "grep").adapt(grep_search),
    Alias::new("list_directory", Gemini, "tree")
        .claims(|m| {
            ["ignore", "dir_path", "file_filtering_options"]
                .iter()
                .any(|f| m.contains_key(*f))
        })
        .adapt(list_directory)
        .fixed(&[("depth", "1")]),
    Alias::new("run_shell_command", Gemini, "run")
        .renames(&[
            ("directory", "cwd"),
            ("dir_path", "cwd"),
            ("is_background", "background"),
        ])
        .ignored(&[(
            "delay_ms",
            "`delay_ms` was ignored: a background command's output is read with jobs",
        )]),
    Alias::new("web_fetch", Gemini, "fetch")
        .claims(|m| !m.contains_key("url"))
        .call(web_fetch)
        .effect(Effect::Reads),
    Alias::new("read_many_files", Gemini, "read")
        .call(read_many_files)
        .effect(Effect::Reads),
    Alias::new("google_web_search", Gemini, "search"),
];

/// read_file: `absolute_path` with a 0-based `offset` (0.1.x), or `file_path` with 1-based
/// inclusive `start_line`/`end_line` (later versions).
fn read_file(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    rename_in(map, "absolute_path", "path");
    if let Some(off) = count_field(map, "offset")? {
        map.insert("offset".into(), json!(off + 1));
    }
    let start = count_field(map, "start_line")?;
    let end = count_field(map, "end_line")?;
    map.remove("start_line");
    map.remove("end_line");
    if let Some(s) = start {
        if s == 0 {
            return Err(ToolError::invalid(
                "start_line",
                "read_file: `start_line` is 1-based",
            ));
        }
        map.insert("offset".into(), json!(s));
    }
    if let Some(e) = end {
        let from = start.unwrap_or(1);
        if e < from {
            return Err(ToolError::invalid(
                "end_line",
                format!("read_file: end_line {e} is before start_line {from}"),
            ));
        }
        map.insert("limit".into(), json!(e - from + 1));
    }
    Ok(())
}

/// replace: `allow_multiple` (later versions) replaces every occurrence.
fn replace(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    rename_in(map, "allow_multiple", "replace_all");
    Ok(())
}

/// search_file_content: the matching lines, case-insensitively (0.1.x searches with `git grep
/// --ignore-case` or `grep -i`).
fn search_file_content(map: &mut Map<String, Value>, _: &mut Vec<String>) -> Result<()> {
    map.entry("output_mode").or_insert(json!("content"));
    map.entry("-i").or_insert(json!(true));
    Ok(())
}

/// grep_search (later versions): its fields in ours.
fn grep_search(map: &mut Map<String, Value>, warnings: &mut Vec<String>) -> Result<()> {
    rename_in(map, "dir_path", "path");
    rename_in(map, "include_pattern", "glob");
    rename_in(map, "context", "-C");
    rename_in(map, "after", "-A");
    rename_in(map, "before", "-B");
    rename_in(map, "total_max_matches", "head_limit");
    let names_only = map.remove("names_only") == Some(Value::Bool(true));
    map.insert(
        "output_mode".into(),
        json!(if names_only {
            "files_with_matches"
        } else {
            "content"
        }),
    );
    let case_sensitive = map.remove("case_sensitive") == Some(Value::Bool(true));
    map.insert("-i".into(), json!(!case_sensitive));
    for (field, why) in [
        (
            "exclude_pattern",
            "`exclude_pattern` was ignored: filter with a narrower pattern or glob",
        ),
        (
            "max_matches_per_file",
            "`max_matches_per_file` was ignored: head_limit caps the matches of all files",
        ),
    ] {
        if map.remove(field).is_some() {
            warnings.push(why.into());
        }
    }
    Ok(())
}

/// list_directory: `dir_path` (later versions) for `path`; `ignore` names (globs) are left out.
fn list_directory(map: &mut Map<String, Value>, warnings: &mut Vec<String>) -> Result<()> {
    rename_in(map, "dir_path", "path");
    rename_in(map, "ignore", "exclude");
    if let Some(Value::Object(opts)) = map.remove("file_filtering_options") {
        if opts.get("respect_git_ignore") == Some(&Value::Bool(false)) {
            map.insert("no_ignore".into(), json!(true));
        }
        if opts.contains_key("respect_gemini_ignore") {
            warnings.push(
                "`respect_gemini_ignore` was ignored: .geminiignore files are not read".into(),
            );
        }
    }
    Ok(())
}

/// The URLs in a prompt, as Gemini's web_fetch finds them: http(s) words, at most 20.
pub fn urls_in(prompt: &str) -> Vec<String> {
    prompt
        .split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`' | '(' | '['))
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(|w| {
            w.trim_end_matches(['.', ',', ';', ':', ')', ']', '!', '?'])
                .to_string()
        })
        .take(20)
        .collect()
}

/// web_fetch {prompt}: fetches the URLs in the prompt (24.7); the instructions need a model.
fn web_fetch(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(mut map) = input else {
        return call_tool(ctx, "fetch", input);
    };
    let prompt = match map.remove("prompt") {
        Some(Value::String(p)) => p,
        _ => {
            return Err(ToolError::invalid(
                "prompt",
                "web_fetch: field `prompt` (text with up to 20 URLs) is missing",
            ));
        }
    };
    only_fields(&map, "web_fetch", &["prompt"])?;
    let urls = urls_in(&prompt);
    if urls.is_empty() {
        return Err(ToolError::invalid(
            "prompt",
            "web_fetch: the prompt holds no http:// or https:// URL",
        )
        .hint(
            "Put the page's full URL in the prompt, e.g. \"Summarise https://example.com/page\".",
        ));
    }
    ctx.warn("the prompt's instructions were not applied: web_fetch returns the pages themselves");
    if urls.len() == 1 {
        return call_tool(ctx, "fetch", json!({"url": urls[0]}));
    }
    let mut output = String::new();
    let mut pages = vec![];
    let mut fetched = 0;
    for url in &urls {
        match call_tool(ctx, "fetch", json!({"url": url})) {
            Ok(s) => {
                fetched += 1;
                output.push_str(&format!("==> {url} <==\n{}\n", s.output.trim_end()));
                pages.push(json!({"url": url, "data": s.data.into_value(&[])}));
            }
            Err(e) => {
                output.push_str(&format!("==> {url} <==\n{}\n", e.message));
                pages.push(json!({"url": url, "error": e.code.as_str()}));
            }
        }
    }
    if fetched == 0 {
        return Err(ToolError::new(crate::error::Code::NetworkError, output).with("urls", urls));
    }
    Ok(Success::new(output, json!({"pages": pages})))
}

/// read_many_files {paths, include?, exclude?}: paths and globs relative to the root, every
/// file found read as read's `paths` does (at most 100).
fn read_many_files(ctx: &Ctx, input: Value, _: &mut &'static str) -> Result<Success> {
    let Value::Object(map) = input else {
        return call_tool(ctx, "read", input);
    };
    let list = |field: &str| -> Result<Vec<String>> {
        match map.get(field) {
            None | Some(Value::Null) => Ok(vec![]),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    ToolError::invalid(
                        field,
                        format!("read_many_files: `{field}` must be an array of strings"),
                    )
                }),
            Some(_) => Err(ToolError::invalid(
                field,
                format!("read_many_files: `{field}` must be an array of strings"),
            )),
        }
    };
    let mut wanted = list("paths")?;
    wanted.extend(list("include")?);
    let exclude = list("exclude")?;
    // recursive, useDefaultExcludes and file_filtering_options take our walker's own rules:
    // .gitignore, hidden files, never .git.
    only_fields(
        &map,
        "read_many_files",
        &[
            "paths",
            "include",
            "exclude",
            "recursive",
            "useDefaultExcludes",
            "file_filtering_options",
        ],
    )?;
    if wanted.is_empty() {
        return Err(ToolError::invalid(
            "paths",
            "read_many_files: give `paths` (files or globs)",
        ));
    }
    let mut files: Vec<String> = vec![];
    for pattern in &wanted {
        let is_file =
            crate::sandbox::resolve(ctx, "paths", pattern).is_ok_and(|t| t.real.is_file());
        if is_file {
            files.push(pattern.clone());
            continue;
        }
        let found = call_tool(
            ctx,
            "glob",
            json!({"pattern": pattern, "sort": "path", "limit": 1000}),
        )?;
        let data = found.data.into_value(&[]);
        files.extend(
            data["files"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str().map(String::from)),
        );
    }
    let excluded: Vec<_> = exclude
        .iter()
        .map(|g| crate::tools::glob::Pattern::with_case(g, true))
        .collect::<Result<_>>()?;
    files.retain(|f| !excluded.iter().any(|p| p.matcher.is_match(f)));
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    if files.is_empty() {
        return Err(ToolError::new(
            crate::error::Code::NotFound,
            "read_many_files: no file matched the paths given",
        )
        .with("paths", wanted));
    }
    if files.len() > 100 {
        ctx.warn(format!(
            "{} files matched; the first 100 were read",
            files.len()
        ));
        files.truncate(100);
    }
    call_tool(ctx, "read", json!({"paths": files}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_found_in_a_prompt() {
        assert_eq!(
            urls_in("Summarise https://a.test/x, and (http://b.test/y). Not ftp://c"),
            ["https://a.test/x", "http://b.test/y"]
        );
    }

    #[test]
    fn offsets_are_zero_based_and_lines_inclusive() {
        let mut m = json!({"absolute_path": "/r/a", "offset": 0, "limit": 5})
            .as_object()
            .cloned()
            .unwrap();
        read_file(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"path": "/r/a", "offset": 1, "limit": 5})
        );
        let mut m = json!({"file_path": "a", "start_line": 3, "end_line": 4})
            .as_object()
            .cloned()
            .unwrap();
        read_file(&mut m, &mut vec![]).unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"file_path": "a", "offset": 3, "limit": 2})
        );
    }
}
