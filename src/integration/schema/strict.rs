//! `schema --strict` (SPEC 22.2, 24.5): input schemas valid under OpenAI's strict function
//! calling and Anthropic's strict tool use at once. Both constrain the model's sampling to the
//! schema, so each accepts only a subset of JSON Schema; the rules are listed with their
//! sources in `tests/integration/schema/strict_rules.rs`, which checks every schema made here.
//!
//! Starting from the published non-strict schema (no nulls, no type arrays, plain enums):
//! - a free-form object (run's `env`) cannot be strict, since every key must be declared: it
//!   becomes a list of `{name, value}` pairs, which the parser also takes;
//! - keywords either provider refuses go (`default`, `format`, `not`, numeric and length
//!   bounds, `maxItems`, `minItems` over 1); a dropped default is said in the description, and
//!   the parser still enforces every bound;
//! - a field that takes any JSON (share's `data`) cannot be strict either: it becomes a
//!   JSON-encoded string (24.7), which the parser also takes;
//! - every property is required, an optional one as `anyOf [X, {type: null}]` (null means
//!   absent to the parser), and every object has `additionalProperties: false`.

use schemars::Schema;
use schemars::transform::{RecursiveTransform, Transform};
use serde_json::{Map, Value, json};

pub fn strict(mut s: Schema) -> Schema {
    RecursiveTransform(pairs_for_free_form).transform(&mut s);
    RecursiveTransform(json_text_for_any).transform(&mut s);
    RecursiveTransform(drop_refused_keywords).transform(&mut s);
    RecursiveTransform(every_property_required).transform(&mut s);
    s
}

fn pairs_for_free_form(s: &mut Schema) {
    let Some(m) = s.as_object_mut() else { return };
    if m.get("type").and_then(Value::as_str) != Some("object") {
        return;
    }
    let Some(value) = m.remove("additionalProperties") else {
        return;
    };
    if !value.is_object() {
        m.insert("additionalProperties".into(), value);
        return;
    }
    m.insert("type".into(), "array".into());
    m.insert(
        "items".into(),
        json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "value": value},
            "required": ["name", "value"],
            "additionalProperties": false,
        }),
    );
    let lead = m.get("description").and_then(Value::as_str).unwrap_or("");
    let desc = format!("{lead} A list of {{name, value}} pairs.");
    m.insert("description".into(), desc.trim_start().into());
}

/// Keywords that give a schema a shape; a property with none of them takes any JSON.
const SHAPED: [&str; 9] = [
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "properties",
    "items",
];

/// Whether a property takes any JSON value: no shaping keyword at all, or an `anyOf` of bare
/// types that includes free-form objects and arrays (share's `data`), which strict mode cannot
/// say (every object's keys must be declared).
fn takes_any_json(prop: &Value) -> bool {
    match prop {
        Value::Bool(b) => *b,
        Value::Object(p) => match p.get("anyOf").and_then(Value::as_array) {
            Some(alts) => {
                let bare: Option<Vec<&str>> = alts
                    .iter()
                    .map(|a| match a.as_object() {
                        Some(o) if o.len() == 1 => o.get("type").and_then(Value::as_str),
                        _ => None,
                    })
                    .collect();
                bare.is_some_and(|t| t.contains(&"object") && t.contains(&"array"))
            }
            None => !SHAPED.iter().any(|k| p.contains_key(*k)),
        },
        _ => false,
    }
}

fn json_text_for_any(s: &mut Schema) {
    let Some(Value::Object(props)) = s.as_object_mut().and_then(|m| m.get_mut("properties")) else {
        return;
    };
    for prop in props.values_mut() {
        if !takes_any_json(prop) {
            continue;
        }
        let lead = prop
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        let desc = format!("{lead} Give it as JSON text (a JSON-encoded string).");
        *prop = json!({"type": "string", "description": desc.trim_start()});
    }
}

/// Anthropic refuses numeric bounds, string lengths, `maxItems` and a `minItems` over 1;
/// OpenAI refuses `default` and `not` (read's `offset` is "not 0"); neither needs schemars'
/// integer-width `format`s (already gone).
const REFUSED: [&str; 10] = [
    "default",
    "not",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
];

fn drop_refused_keywords(s: &mut Schema) {
    let Some(m) = s.as_object_mut() else { return };
    if let Some(d) = m.get("default").cloned() {
        note_default(m, &d);
    }
    for k in REFUSED {
        m.remove(k);
    }
    m.remove("maxItems");
    if m.get("minItems")
        .and_then(Value::as_u64)
        .is_some_and(|n| n > 1)
    {
        m.remove("minItems");
    }
}

/// A strict schema cannot carry a default, so the description says it, unless it already does.
fn note_default(m: &mut Map<String, Value>, default: &Value) {
    let lead = m.get("description").and_then(Value::as_str).unwrap_or("");
    if lead.to_ascii_lowercase().contains("default") {
        return;
    }
    let shown = match default {
        Value::String(s) => format!("`{s}`"),
        other => other.to_string(),
    };
    let desc = format!("{lead} Default: {shown}.");
    m.insert("description".into(), desc.trim_start().into());
}

fn every_property_required(s: &mut Schema) {
    let Some(m) = s.as_object_mut() else { return };
    if !m.get("properties").is_some_and(Value::is_object) {
        if m.get("type").and_then(Value::as_str) == Some("object") {
            m.insert("additionalProperties".into(), false.into());
        }
        return;
    }
    let required: Vec<Value> = m
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let Some(Value::Object(props)) = m.get_mut("properties") else {
        return;
    };
    let mut all = vec![];
    for (name, prop) in props.iter_mut() {
        if !required.iter().any(|r| r == name) {
            *prop = nullable(std::mem::take(prop));
        }
        all.push(Value::String(name.clone()));
    }
    m.insert("required".into(), Value::Array(all));
    m.insert("additionalProperties".into(), false.into());
}

/// `X` as `anyOf [X, {type: null}]`, its description kept beside the `anyOf` where a model reads
/// it; an `anyOf` already there just gains the null alternative.
fn nullable(prop: Value) -> Value {
    let Value::Object(mut x) = prop else {
        return prop;
    };
    let description = x.remove("description");
    let alts = match x.remove("anyOf") {
        Some(Value::Array(mut alts)) if x.is_empty() => {
            alts.push(json!({"type": "null"}));
            alts
        }
        Some(any_of) => {
            x.insert("anyOf".into(), any_of);
            vec![Value::Object(x), json!({"type": "null"})]
        }
        None => vec![Value::Object(x), json!({"type": "null"})],
    };
    let mut out = Map::new();
    if let Some(d) = description {
        out.insert("description".into(), d);
    }
    out.insert("anyOf".into(), Value::Array(alts));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict_of(v: Value) -> Value {
        strict(Schema::try_from(v).unwrap()).to_value()
    }

    #[test]
    fn optional_fields_become_required_and_nullable() {
        let v = strict_of(json!({
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "offset": {"type": "integer", "minimum": 1, "default": 1, "description": "First line."},
                "glob": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "maxItems": 3}]},
                "mode": {"type": "string", "enum": ["a", "b"], "default": "a", "description": "The default mode is a."}
            },
            "required": ["path"],
            "additionalProperties": false
        }));
        assert_eq!(v["required"], json!(["path", "offset", "glob", "mode"]));
        assert_eq!(v["properties"]["path"], json!({"type": "string"}));
        assert_eq!(
            v["properties"]["offset"],
            json!({"description": "First line. Default: 1.", "anyOf": [{"type": "integer"}, {"type": "null"}]})
        );
        assert_eq!(
            v["properties"]["glob"],
            json!({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]})
        );
        assert_eq!(
            v["properties"]["mode"]["description"], "The default mode is a.",
            "a description that states the default is left alone"
        );
    }

    #[test]
    fn a_free_form_object_becomes_a_pair_list() {
        let v = strict_of(json!({
            "type": "object",
            "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Variables."}},
            "additionalProperties": false
        }));
        let env = &v["properties"]["env"];
        assert_eq!(
            env["description"],
            "Variables. A list of {name, value} pairs."
        );
        assert_eq!(
            env["anyOf"][0]["items"],
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}, "value": {"type": "string"}},
                "required": ["name", "value"],
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn any_json_becomes_json_text() {
        let v = strict_of(json!({
            "type": "object",
            "properties": {
                "data": {"description": "Anything."},
                "more": {"anyOf": [{"type": "object"}, {"type": "array"}, {"type": "string"}]},
                "n": {"type": "integer"},
                "s": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
            },
            "required": ["data"],
            "additionalProperties": false
        }));
        assert_eq!(
            v["properties"]["data"],
            json!({"type": "string", "description": "Anything. Give it as JSON text (a JSON-encoded string)."})
        );
        assert_eq!(v["properties"]["more"]["anyOf"][0]["type"], "string");
        assert_eq!(v["properties"]["n"]["anyOf"][0]["type"], "integer");
        assert_eq!(
            v["properties"]["s"]["anyOf"][1]["items"]["type"], "string",
            "a string-or-strings field keeps its shape"
        );
    }

    #[test]
    fn min_items_of_one_stays_and_more_goes() {
        let v = strict_of(json!({"type": "array", "minItems": 1}));
        assert_eq!(v["minItems"], 1);
        let v = strict_of(json!({"type": "array", "minItems": 2}));
        assert!(v.get("minItems").is_none());
    }
}
