//! `schema` (SPEC §14, 16.9): the tool definitions a harness hands its model.
//!
//! Input schemas come from the same Rust types the parser uses. They are made self-contained
//! (local `$ref`s inlined) and carry nothing but what a model needs: one flat object of canonical
//! fields, `additionalProperties: false`, required fields, enums, defaults and bounds.

use crate::tool::DynTool;
use serde_json::{Map, Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Anthropic,
    OpenAi,
    Mcp,
}

impl Flavor {
    pub fn parse(s: &str) -> Option<Flavor> {
        match s {
            "anthropic" => Some(Flavor::Anthropic),
            "openai" => Some(Flavor::OpenAi),
            "mcp" => Some(Flavor::Mcp),
            _ => None,
        }
    }
}

/// A tool's input schema as published: `$ref`s inlined, generator noise dropped.
pub fn input_schema(tool: &dyn DynTool) -> Value {
    let raw = tool.input_schema();
    let defs = raw.get("$defs").cloned().unwrap_or(Value::Null);
    let mut clean = simplify(inline(raw, &defs));
    if let Value::Object(m) = &mut clean {
        m.remove("$schema");
        m.remove("$defs");
        m.remove("title");
        m.insert("type".into(), "object".into());
        m.insert("additionalProperties".into(), false.into());
        m.entry("properties").or_insert_with(|| json!({}));
    }
    clean
}

fn inline(v: &Value, defs: &Value) -> Value {
    match v {
        Value::Object(m) => {
            if let Some(name) = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
            {
                let mut target = inline(&defs[name], defs);
                // Keep what the referring site says about itself (its description, default).
                if let Value::Object(t) = &mut target {
                    for (k, x) in m.iter().filter(|(k, _)| k.as_str() != "$ref") {
                        t.insert(k.clone(), inline(x, defs));
                    }
                }
                return target;
            }
            Value::Object(
                m.iter()
                    .map(|(k, x)| (k.clone(), inline(x, defs)))
                    .collect::<Map<_, _>>(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| inline(x, defs)).collect()),
        other => other.clone(),
    }
}

/// What schemars emits for `Option<Enum>` with documented variants is
/// `anyOf [oneOf [{const, description}…], null]`; a model reads a plain `enum` far better.
/// `null` stays accepted by the tool (it means absent); the schema just does not advertise it.
fn simplify(v: Value) -> Value {
    match v {
        Value::Object(mut m) => {
            if let Some(Value::Array(alts)) = m.get("anyOf").cloned() {
                let non_null: Vec<&Value> = alts
                    .iter()
                    .filter(|a| a.get("type") != Some(&json!("null")))
                    .collect();
                if non_null.len() == 1 && alts.len() == 2 {
                    m.remove("anyOf");
                    if let Value::Object(inner) = non_null[0] {
                        for (k, x) in inner {
                            m.entry(k.clone()).or_insert_with(|| x.clone());
                        }
                    }
                }
            }
            if let Some(Value::Array(alts)) = m.get("oneOf").cloned() {
                let consts: Option<Vec<(String, String)>> = alts
                    .iter()
                    .map(|a| {
                        let c = a.get("const")?.as_str()?.to_string();
                        Some((
                            c,
                            a.get("description")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                        ))
                    })
                    .collect();
                if let Some(consts) = consts {
                    m.remove("oneOf");
                    m.insert("type".into(), "string".into());
                    m.insert(
                        "enum".into(),
                        consts
                            .iter()
                            .map(|(c, _)| Value::from(c.as_str()))
                            .collect(),
                    );
                    let listed: Vec<String> = consts
                        .iter()
                        .map(|(c, d)| {
                            if d.is_empty() {
                                format!("`{c}`")
                            } else {
                                format!("`{c}`: {}", d.trim_end_matches('.'))
                            }
                        })
                        .collect();
                    let lead = m
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    let joined = listed.join("; ");
                    let desc = if lead.is_empty() {
                        joined
                    } else {
                        format!("{lead} {joined}")
                    };
                    m.insert("description".into(), desc.into());
                }
            }
            if let Some(Value::String(d)) = m.get_mut("description") {
                *d = unwrap_lines(d);
            }
            Value::Object(m.into_iter().map(|(k, x)| (k, simplify(x))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(simplify).collect()),
        other => other,
    }
}

/// Doc comments wrap at 100 columns; a model should see flowing text (paragraphs kept).
fn unwrap_lines(s: &str) -> String {
    s.split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

pub fn definition(tool: &dyn DynTool, flavor: Flavor) -> Value {
    let (name, description, schema) = (tool.name(), tool.description(), input_schema(tool));
    match flavor {
        Flavor::Anthropic => {
            json!({"name": name, "description": description, "input_schema": schema})
        }
        Flavor::OpenAi => {
            json!({"type": "function", "function": {"name": name, "description": description, "parameters": schema}})
        }
        Flavor::Mcp => {
            let h = tool.hints();
            json!({
                "name": name,
                "description": description,
                "inputSchema": schema,
                "annotations": {
                    "title": tool.summary(),
                    "readOnlyHint": h.read_only,
                    "destructiveHint": h.destructive,
                    "idempotentHint": h.idempotent,
                    "openWorldHint": h.open_world,
                },
            })
        }
    }
}
