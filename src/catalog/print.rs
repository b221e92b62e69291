//! `loopr-tool catalog` (SPEC 19.2, 24.7): the effective catalog as TOML — the exposed tools
//! with their limits (defaults merged, profile applied), the rules and hooks — and `catalog
//! --check FILE`, every problem of one file as `FILE:LINE:COLUMN: message`. Never a tool: it is
//! not offered to a model, and a search key is printed as `<set>`.

use super::{Lane, Policy, project};
use serde_json::{Map, Value, json};
use std::path::Path;

/// The effective catalog as TOML text.
pub fn effective(policy: &Policy, root: &Path) -> String {
    let cat = &policy.catalog;
    let mut head = String::from("# The effective catalog");
    match (&policy.source, &policy.ignored) {
        (Some(f), _) => head.push_str(&format!(": {}", f.display())),
        (None, Some(f)) => head.push_str(&format!(
            ": built-in defaults ({} lies inside the root and is used only when named with --config)",
            f.display()
        )),
        (None, None) => head.push_str(": built-in defaults (no catalog file)"),
    }
    head.push('\n');
    if let Some(p) = &policy.profile {
        head.push_str(&format!("# profile: {p}\n"));
    }
    let mode = serde_json::to_value(policy.mode).unwrap_or_default();
    head.push_str(&format!("# mode: {}\n", mode.as_str().unwrap_or("default")));
    let mut tools = Map::new();
    for e in policy.exposed() {
        let mut t = Map::new();
        let entry = e.entry.clone().unwrap_or_default();
        let lane = entry.lane.unwrap_or(Lane::Net);
        t.insert(
            "lane".into(),
            serde_json::to_value(lane).unwrap_or_default(),
        );
        if let Some(n) = entry.timeout_ms {
            t.insert("timeout_ms".into(), n.into());
        }
        if let Some(n) = entry.max_output_bytes {
            t.insert("max_output_bytes".into(), n.into());
        }
        if let Some(d) = &entry.description {
            t.insert("description".into(), d.clone().into());
        }
        if e.tool == super::COMMAND_TOOL {
            let cmd = entry
                .command
                .clone()
                .or_else(|| project::command(&e.name, &cat.project, root).map(|c| c.0));
            if let Some(c) = cmd {
                t.insert("command".into(), c.into());
            }
        }
        if let Some(s) = &entry.sandbox {
            t.insert("sandbox".into(), s.clone().into());
        }
        tools.insert(e.name.clone(), Value::Object(t));
    }
    let mut doc = Map::new();
    doc.insert("tools".into(), Value::Object(tools));
    let strs = |v: &[String]| Value::from(v.to_vec());
    let mut put = |name: &str, table: Map<String, Value>| {
        if !table.is_empty() {
            doc.insert(name.into(), Value::Object(table));
        }
    };
    let mut paths = Map::new();
    if !cat.paths.deny.is_empty() {
        paths.insert("deny".into(), strs(&cat.paths.deny));
    }
    if !cat.paths.read_only.is_empty() {
        paths.insert("read_only".into(), strs(&cat.paths.read_only));
    }
    put("paths", paths);
    let mut run = Map::new();
    if let Some(s) = &cat.run.sandbox {
        run.insert("sandbox".into(), s.clone().into());
    }
    if !cat.run.writable_roots.is_empty() {
        run.insert("writable_roots".into(), strs(&cat.run.writable_roots));
    }
    put("run", run);
    let mut hooks = Map::new();
    for (when, list) in [
        ("pre", &cat.hooks.pre),
        ("post", &cat.hooks.post),
        ("post_failure", &cat.hooks.post_failure),
    ] {
        if list.is_empty() {
            continue;
        }
        let items: Vec<Value> = list
            .iter()
            .map(|h| {
                let mut m = Map::new();
                if !h.tools.is_empty() {
                    m.insert("tools".into(), strs(&h.tools));
                }
                if let Some(x) = &h.matcher {
                    m.insert("matcher".into(), x.clone().into());
                }
                if !h.files.is_empty() {
                    m.insert("files".into(), strs(&h.files));
                }
                m.insert("command".into(), h.command.clone().into());
                if let Some(n) = h.timeout_ms {
                    m.insert("timeout_ms".into(), n.into());
                }
                if let Some(s) = &h.sandbox {
                    m.insert("sandbox".into(), s.clone().into());
                }
                Value::Object(m)
            })
            .collect();
        hooks.insert(when.into(), Value::Array(items));
    }
    put("hooks", hooks);
    let mut permissions = Map::new();
    let rules = &cat.permissions;
    for (k, list) in [
        ("allow", &rules.allow),
        ("ask", &rules.ask),
        ("deny", &rules.deny),
    ] {
        if !list.is_empty() {
            let texts: Vec<Value> = list.iter().map(|r| r.text.clone().into()).collect();
            permissions.insert(k.into(), Value::Array(texts));
        }
    }
    put("permissions", permissions);
    let mut search = Map::new();
    if let Some(p) = &cat.search.provider {
        search.insert("provider".into(), p.clone().into());
    }
    if let Some(e) = &cat.search.endpoint {
        // Never a password in it (SPEC 31.4).
        let shown = crate::tools::search::provider::redact_userinfo(e);
        search.insert("endpoint".into(), shown.into());
    }
    if cat.search.api_key.is_some() {
        // Never the value (24.7).
        search.insert("api_key".into(), json!("<set>"));
    }
    put("search", search);
    let mut proj = Map::new();
    for (k, v) in [
        ("build", &cat.project.build),
        ("test", &cat.project.test),
        ("validate", &cat.project.validate),
    ] {
        if let Some(c) = v {
            proj.insert(k.into(), c.clone().into());
        }
    }
    put("project", proj);
    let mut client = Map::new();
    if let Some(n) = cat.client.max_result_chars {
        client.insert("max_result_chars".into(), n.into());
    }
    put("client", client);
    let body = toml::to_string(&Value::Object(doc)).unwrap_or_else(|e| format!("# {e}\n"));
    format!("{head}\n{body}")
}
