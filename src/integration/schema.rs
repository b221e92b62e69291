//! `schema` (SPEC §14, 16.9, 22.2, 24.5): the tool definitions a harness hands its model.
//!
//! Input schemas come from the same Rust types the parser uses: schemars generates them with
//! `inline_subschemas` (so there are no `$ref`s to resolve; see `input::schema_of`), and what is
//! published is that schema run through schemars `Transform`s. The transforms run here, on the
//! generated `Schema`, rather than as generator settings, because the parser and the CLI read
//! the same cached schema and need what the published one leaves out (`null`, bounds).
//!
//! What schemars cannot do itself, and so is written as a transform here: dropping `null` from
//! an optional field (schemars 1.x has no `option_add_null_type` switch any more: `Option<T>`
//! always gets `[T, "null"]` or `anyOf [T, null]`), turning documented enum variants (`oneOf`
//! of `const`s) into one `enum`, splitting type arrays, and everything strict mode needs
//! (`strict.rs`).

mod strict;

use crate::tool::DynTool;
use schemars::Schema;
use schemars::transform::{RecursiveTransform, Transform};
use serde_json::{Map, Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Anthropic,
    OpenAi,
    OpenAiResponses,
    Mcp,
}

impl Flavor {
    pub const NAMES: [&'static str; 4] = ["anthropic", "openai", "openai-responses", "mcp"];

    pub fn parse(s: &str) -> Option<Flavor> {
        match s {
            "anthropic" => Some(Flavor::Anthropic),
            "openai" => Some(Flavor::OpenAi),
            "openai-responses" => Some(Flavor::OpenAiResponses),
            "mcp" => Some(Flavor::Mcp),
            _ => None,
        }
    }
}

/// A tool's input schema as published without `--strict`: self-contained, optional fields with
/// a single type (SPEC 22.2: Anthropic's SDK strict helper rejects type arrays), documented
/// enums as plain `enum`s, defaults and bounds kept.
pub fn input_schema(tool: &dyn DynTool) -> Value {
    published(tool.input_schema()).to_value()
}

/// The same input as `--strict` publishes it: valid under OpenAI's strict function calling and
/// Anthropic's strict tool use (see `strict.rs`).
pub fn strict_input_schema(tool: &dyn DynTool) -> Value {
    strict::strict(published(tool.input_schema())).to_value()
}

fn published(generated: &Value) -> Schema {
    let mut s = Schema::try_from(generated.clone()).expect("an input schema is a JSON object");
    RecursiveTransform(drop_null).transform(&mut s);
    RecursiveTransform(split_type_arrays).transform(&mut s);
    RecursiveTransform(consts_to_enum).transform(&mut s);
    RecursiveTransform(tidy).transform(&mut s);
    let root = s.ensure_object();
    for noise in ["$schema", "$defs", "title"] {
        root.remove(noise);
    }
    root.insert("type".into(), "object".into());
    root.insert("additionalProperties".into(), false.into());
    root.entry("properties").or_insert_with(|| json!({}));
    s
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
}

/// `Option<T>`'s null is not advertised: `null` still means absent to the parser (SPEC 16.2),
/// but a schema that offers it invites a model to send it. `[T, "null"]` becomes `T`, a null
/// enum value goes, and `anyOf [T, {type: null}]` becomes `T` (T's keywords first, the field's
/// own description and default kept).
fn drop_null(s: &mut Schema) {
    let Some(obj) = s.as_object_mut() else { return };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(alts)) = obj.get_mut(key) else {
            continue;
        };
        alts.retain(|a| !is_null_schema(a));
        if let [Value::Object(_)] = alts.as_slice() {
            let Some(Value::Object(mut merged)) = alts.pop() else {
                unreachable!("matched one object")
            };
            obj.remove(key);
            for (k, v) in std::mem::take(obj) {
                merged.insert(k, v);
            }
            *obj = merged;
        }
    }
}

/// `type: ["string", "integer"]` (todo's `task`) becomes `anyOf [{type: string}, {type:
/// integer}]`: one type per schema, the form both providers' strict modes and Anthropic's SDK
/// helper accept.
fn split_type_arrays(s: &mut Schema) {
    let Some(obj) = s.as_object_mut() else { return };
    if let Some(Value::Array(types)) = obj.get("type")
        && types.len() > 1
    {
        let alts: Vec<Value> = types.iter().map(|t| json!({"type": t})).collect();
        obj.remove("type");
        obj.insert("anyOf".into(), Value::Array(alts));
    }
}

/// What schemars emits for an enum with documented variants is `oneOf [{const, description}…]`;
/// a model reads a plain `enum` far better, with the variants' descriptions in the field's.
fn consts_to_enum(s: &mut Schema) {
    let Some(m) = s.as_object_mut() else { return };
    let Some(Value::Array(alts)) = m.get("oneOf") else {
        return;
    };
    let consts: Option<Vec<(String, String)>> = alts
        .iter()
        .map(|a| {
            let c = a.get("const")?.as_str()?.to_string();
            let d = a.get("description").and_then(Value::as_str).unwrap_or("");
            Some((c, d.to_string()))
        })
        .collect();
    let Some(consts) = consts else { return };
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
    let lead = m.get("description").and_then(Value::as_str).unwrap_or("");
    let joined = listed.join("; ");
    let desc = if lead.is_empty() {
        joined
    } else {
        format!("{lead} {joined}")
    };
    m.insert("description".into(), desc.into());
}

/// schemars' `format`s here are integer widths (`uint64`), no JSON Schema format and nothing a
/// model needs; strict mode allows none. Doc comments wrap at 100 columns; a model should see
/// flowing text (paragraphs kept).
fn tidy(s: &mut Schema) {
    let Some(m) = s.as_object_mut() else { return };
    m.remove("format");
    if let Some(Value::String(d)) = m.get_mut("description") {
        *d = unwrap_lines(d);
    }
}

fn unwrap_lines(s: &str) -> String {
    s.split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A tool's definition in `flavor`, strict or not. Strict definitions say so where each API
/// looks: OpenAI's `function.strict` (Chat Completions) or `strict` (Responses), Anthropic's
/// tool-level `strict`. MCP has no such flag; its strict schemas are just the strict form.
pub fn definition_in(tool: &dyn DynTool, flavor: Flavor, strict: bool) -> Value {
    let schema = if strict {
        strict_input_schema(tool)
    } else {
        input_schema(tool)
    };
    definition_with(tool, schema, flavor, strict)
}

/// A tool's definition in `flavor` with `schema` as its input schema.
fn definition_with(tool: &dyn DynTool, schema: Value, flavor: Flavor, strict: bool) -> Value {
    let (name, description) = (tool.name(), tool.description());
    match flavor {
        Flavor::Anthropic => named(name, description, "input_schema", schema, strict),
        Flavor::OpenAi => json!({
            "type": "function",
            "function": named(name, description, "parameters", schema, strict),
        }),
        // Always says `strict`: the Responses API takes a missing `strict` as true and then
        // rewrites a non-strict schema (every optional field made required).
        Flavor::OpenAiResponses => json!({
            "type": "function",
            "name": name,
            "description": description,
            "parameters": schema,
            "strict": strict,
        }),
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

/// The definition of a name the catalog offers: the tool's, under the catalog's name and with
/// its description (SPEC 19.2). An alias key offers its agent's own schema, so the model sees
/// that agent's field names (24.7).
pub fn offered_definition(r: &crate::dispatch::Resolved, flavor: Flavor, strict: bool) -> Value {
    if let Some(t) = r.upstream() {
        // An upstream server's own schema, as it gave it (not made strict: it is theirs).
        let mut def = definition_with(r.tool, t.input_schema, flavor, false);
        rename(&mut def, flavor, r.name(), &r.description());
        if flavor == Flavor::Mcp {
            def["annotations"]["title"] = t.name.into();
        }
        return def;
    }
    let theirs = match r.alias {
        Some(a) if r.pinned => crate::dialects::schema_for(a),
        Some(_) => crate::dialects::schema_of(r.name()),
        None => None,
    }
    .map(|s| published(&s));
    let mut def = match theirs {
        Some(s) if strict => definition_with(r.tool, strict::strict(s).to_value(), flavor, true),
        Some(s) => definition_with(r.tool, s.to_value(), flavor, false),
        None => definition_in(r.tool, flavor, strict),
    };
    rename(&mut def, flavor, r.name(), &r.description());
    def
}

/// Puts `name` and `description` where `flavor` keeps them.
pub fn rename(def: &mut Value, flavor: Flavor, name: &str, description: &str) {
    let at = match flavor {
        Flavor::OpenAi => &mut def["function"],
        _ => def,
    };
    at["name"] = name.into();
    at["description"] = description.into();
}

/// `{name, description, <schema_key>: schema}`, and `strict: true` when strict: an absent
/// `strict` is false to Anthropic and Chat Completions, so a non-strict definition stays as
/// it always was.
fn named(name: &str, description: &str, schema_key: &str, schema: Value, strict: bool) -> Value {
    let mut d = Map::new();
    d.insert("name".into(), name.into());
    d.insert("description".into(), description.into());
    d.insert(schema_key.into(), schema);
    if strict {
        d.insert("strict".into(), true.into());
    }
    Value::Object(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(t: fn(&mut Schema), v: Value) -> Value {
        let mut s = Schema::try_from(v).unwrap();
        RecursiveTransform(t).transform(&mut s);
        s.to_value()
    }

    #[test]
    fn null_is_dropped_in_every_form_schemars_writes_it() {
        assert_eq!(
            run(
                drop_null,
                json!({"type": ["integer", "null"], "minimum": 1})
            ),
            json!({"type": "integer", "minimum": 1})
        );
        assert_eq!(
            run(
                drop_null,
                json!({"type": ["string", "null"], "enum": ["a", "b", null]})
            ),
            json!({"type": "string", "enum": ["a", "b"]})
        );
        // The referring field's description wins over the type's own; keys of T come first.
        assert_eq!(
            run(
                drop_null,
                json!({"description": "field", "anyOf": [{"type": "object", "description": "type"}, {"type": "null"}]})
            ),
            json!({"type": "object", "description": "field"})
        );
        // Two real alternatives stay alternatives.
        assert_eq!(
            run(
                drop_null,
                json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "array"}]}, {"type": "null"}]})
            ),
            json!({"anyOf": [{"type": "string"}, {"type": "array"}]})
        );
    }

    #[test]
    fn type_arrays_split_and_documented_variants_become_an_enum() {
        assert_eq!(
            run(split_type_arrays, json!({"type": ["string", "integer"]})),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        );
        let v = run(
            consts_to_enum,
            json!({"description": "Mode.", "oneOf": [
                {"type": "string", "const": "a", "description": "First."},
                {"type": "string", "const": "b"}
            ]}),
        );
        assert_eq!(v["enum"], json!(["a", "b"]));
        assert_eq!(v["type"], "string");
        assert_eq!(v["description"], "Mode. `a`: First; `b`");
    }
}
