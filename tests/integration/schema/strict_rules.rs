//! The strict-schema rules of both providers, written from their documentation, as a check that
//! every `schema --strict` input schema must pass (SPEC 22.2, 24.5). `violations` walks a schema
//! and lists every place that breaks a rule; an empty list means both APIs take it.
//!
//! OpenAI: Structured Outputs, "Supported schemas"
//! (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), the subset a
//! function with `strict: true` must keep to
//! (https://platform.openai.com/docs/guides/function-calling#strict-mode):
//! - O1 the root is an object, never `anyOf`;
//! - O2 every property is listed in `required` (an optional one is a union with `null`);
//! - O3 `additionalProperties: false` is set on every object;
//! - O4 the types are string, number, integer, boolean, object, array and null (for optional
//!   fields), combined only by `enum`, `const` and `anyOf`; `allOf`, `not`, `if`/`then`/`else`,
//!   `dependentRequired`, `dependentSchemas`, `patternProperties`, `propertyNames`,
//!   `unevaluated*`, `min/maxProperties`, `contains`, `uniqueItems` are not supported;
//! - O5 at most 5000 properties and 10 levels of nesting, at most 1000 enum values, at most
//!   120,000 characters of property names, enum and const values;
//! - O6 `default` is refused ("'default' is not permitted").
//!
//! Anthropic: Structured outputs, "JSON Schema limitations"
//! (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations),
//! which strict tool use applies to `input_schema`
//! (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use):
//! - A1 `additionalProperties` must be `false` on objects;
//! - A2 no numerical constraints (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//!   `multipleOf`), no string constraints (`minLength`, `maxLength`), no array constraint
//!   beyond a `minItems` of 0 or 1 (so no `maxItems`);
//! - A3 no recursive schemas and no external `$ref`; `enum` values are not objects or arrays;
//! - A4 `format` only from a short list (SPEC 22.2 goes further: no `format` at all);
//! - A5 the SDK's strict helper refuses type arrays (`["string", "null"]`, SPEC 22.2), so an
//!   optional field is `anyOf: [X, {"type": "null"}]`.
//!
//! What both accept is the intersection, so the check admits only these keywords: `type`,
//! `description`, `properties`, `required`, `additionalProperties`, `items`, `anyOf`, `enum`,
//! `const`, and `minItems` of 0 or 1. A schema with no `$ref` cannot be recursive (A3).
//!
//! The keyword lists are written out here again on purpose, not shared with the transform in
//! `src/integration/schema/strict.rs`: a checker reading the transform's own list would pass
//! whatever the transform does.

use serde_json::Value;

const KEYWORDS: [&str; 10] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "minItems",
];
const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "object", "array", "null",
];
const MAX_DEPTH: usize = 10;
const MAX_PROPERTIES: usize = 5000;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_STRING_CHARS: usize = 120_000;

#[derive(Default)]
struct Totals {
    properties: usize,
    enum_values: usize,
    chars: usize,
}

/// Every rule `schema` breaks, as `path: what` lines.
pub fn violations(schema: &Value) -> Vec<String> {
    let mut out = vec![];
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push("$: the root must be an object (O1)".to_string());
    }
    if schema.get("anyOf").is_some() {
        out.push("$: the root must not be anyOf (O1)".to_string());
    }
    let mut totals = Totals::default();
    walk(schema, "$", 0, &mut totals, &mut out);
    if totals.properties > MAX_PROPERTIES {
        out.push(format!(
            "$: {} properties, over {MAX_PROPERTIES} (O5)",
            totals.properties
        ));
    }
    if totals.enum_values > MAX_ENUM_VALUES {
        out.push(format!(
            "$: {} enum values, over {MAX_ENUM_VALUES} (O5)",
            totals.enum_values
        ));
    }
    if totals.chars > MAX_STRING_CHARS {
        out.push(format!(
            "$: {} characters of names and values, over {MAX_STRING_CHARS} (O5)",
            totals.chars
        ));
    }
    out
}

fn walk(node: &Value, at: &str, depth: usize, totals: &mut Totals, out: &mut Vec<String>) {
    let Some(m) = node.as_object() else {
        out.push(format!("{at}: a schema must be an object, not {node}"));
        return;
    };
    for k in m.keys().filter(|k| !KEYWORDS.contains(&k.as_str())) {
        let rule = match k.as_str() {
            "default" => "O6, SPEC 22.2",
            "format" => "A4, SPEC 22.2",
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "A2",
            "minLength" | "maxLength" | "maxItems" => "A2",
            "$ref" | "$defs" | "definitions" => "A3: the published schemas are self-contained",
            _ => "O4",
        };
        out.push(format!("{at}: keyword `{k}` is not allowed ({rule})"));
    }
    match m.get("type") {
        None if !(m.contains_key("anyOf") || m.contains_key("enum") || m.contains_key("const")) => {
            out.push(format!(
                "{at}: no `type` (an untyped schema is not strict, O4)"
            ));
        }
        None => {}
        Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
        Some(Value::Array(_)) => {
            out.push(format!(
                "{at}: a type array; use anyOf with one type each (A5)"
            ));
        }
        Some(other) => out.push(format!("{at}: unknown type {other} (O4)")),
    }
    if let Some(n) = m.get("minItems").and_then(Value::as_u64).filter(|n| *n > 1) {
        out.push(format!("{at}: minItems {n}; only 0 or 1 (A2)"));
    }
    if let Some(values) = m.get("enum") {
        match values.as_array() {
            Some(vs) => {
                totals.enum_values += vs.len();
                for v in vs {
                    match v {
                        Value::Array(_) | Value::Object(_) => {
                            out.push(format!("{at}: enum value {v} is not a scalar (A3)"));
                        }
                        Value::String(s) => totals.chars += s.chars().count(),
                        _ => {}
                    }
                }
            }
            None => out.push(format!("{at}: enum is not an array")),
        }
    }
    if let Some(Value::String(c)) = m.get("const") {
        totals.chars += c.chars().count();
    }
    let is_object = m.get("type").and_then(Value::as_str) == Some("object");
    if is_object {
        object_rules(m, at, depth, totals, out);
    } else if m.contains_key("properties") || m.contains_key("additionalProperties") {
        out.push(format!(
            "{at}: object keywords on a schema whose type is not object"
        ));
    }
    if let Some(items) = m.get("items") {
        walk(items, &format!("{at}.items"), depth, totals, out);
    }
    if let Some(alts) = m.get("anyOf") {
        match alts.as_array() {
            Some(alts) if !alts.is_empty() => {
                for (i, a) in alts.iter().enumerate() {
                    walk(a, &format!("{at}.anyOf[{i}]"), depth, totals, out);
                }
            }
            _ => out.push(format!("{at}: anyOf must be a non-empty array")),
        }
    }
}

fn object_rules(
    m: &serde_json::Map<String, Value>,
    at: &str,
    depth: usize,
    totals: &mut Totals,
    out: &mut Vec<String>,
) {
    if depth + 1 > MAX_DEPTH {
        out.push(format!("{at}: nested deeper than {MAX_DEPTH} objects (O5)"));
    }
    if m.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(format!("{at}: additionalProperties must be false (O3, A1)"));
    }
    let Some(props) = m.get("properties").and_then(Value::as_object) else {
        out.push(format!("{at}: an object without properties"));
        return;
    };
    let required: Vec<&str> = match m.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        None => vec![],
        Some(other) => {
            out.push(format!("{at}: required is not an array: {other}"));
            vec![]
        }
    };
    for r in &required {
        if !props.contains_key(*r) {
            out.push(format!("{at}: `{r}` is required but not a property"));
        }
    }
    totals.properties += props.len();
    for (name, p) in props {
        totals.chars += name.chars().count();
        if !required.contains(&name.as_str()) {
            out.push(format!("{at}.{name}: not listed in required (O2)"));
        }
        walk(p, &format!("{at}.{name}"), depth + 1, totals, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn first(schema: Value) -> String {
        violations(&schema).into_iter().next().unwrap_or_default()
    }

    fn object(props: Value, required: Value) -> Value {
        json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
    }

    #[test]
    fn a_strict_schema_passes() {
        let s = object(
            json!({
                "a": {"type": "string", "description": "A."},
                "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "c": {"anyOf": [{"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["x", "y"]}}, {"type": "null"}]},
                "d": object(json!({"e": {"type": "boolean"}}), json!(["e"]))
            }),
            json!(["a", "b", "c", "d"]),
        );
        assert_eq!(violations(&s), Vec::<String>::new());
    }

    #[test]
    fn each_rule_is_caught() {
        let one = |p: Value| first(object(json!({"p": p}), json!(["p"])));
        assert!(first(json!({"type": "array", "items": {"type": "string"}})).contains("(O1)"));
        assert!(first(json!({"anyOf": [object(json!({}), json!([]))]})).contains("(O1)"));
        assert!(
            first(object(json!({"p": {"type": "string"}}), json!([]))).contains("required (O2)")
        );
        assert!(
            first(json!({"type": "object", "properties": {}, "required": []}))
                .contains("additionalProperties must be false")
        );
        let free =
            json!({"type": "object", "properties": {}, "additionalProperties": {"type": "string"}});
        assert!(one(free).contains("additionalProperties must be false"));
        assert!(one(json!({"type": ["string", "null"]})).contains("type array"));
        assert!(one(json!({"type": "integer", "default": 1})).contains("`default`"));
        assert!(one(json!({"type": "string", "format": "uri"})).contains("`format`"));
        for k in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "maxItems",
        ] {
            assert!(
                one(json!({"type": "integer", k: 1})).contains(&format!("`{k}`")),
                "{k}"
            );
        }
        assert!(one(json!({"type": "array", "minItems": 2})).contains("minItems 2"));
        assert!(one(json!({"$ref": "#/$defs/X"})).contains("`$ref`"));
        assert!(one(json!({"oneOf": [{"type": "string"}]})).contains("`oneOf`"));
        assert!(one(json!({"allOf": [{"type": "string"}]})).contains("`allOf`"));
        assert!(one(json!({"type": "string", "pattern": "^a"})).contains("`pattern`"));
        assert!(one(json!({})).contains("no `type`"));
        assert!(one(json!({"type": "date"})).contains("unknown type"));
        assert!(one(json!({"enum": [{"a": 1}]})).contains("not a scalar"));
        assert!(one(json!(true)).contains("must be an object"));
        assert!(first(object(json!({}), json!(["ghost"]))).contains("not a property"));
    }

    #[test]
    fn nesting_and_size_limits_are_caught() {
        let mut deep = object(json!({}), json!([]));
        for _ in 0..MAX_DEPTH {
            deep = object(json!({"n": deep}), json!(["n"]));
        }
        assert!(violations(&deep).iter().any(|v| v.contains("deeper than")));
        let values: Vec<String> = (0..=MAX_ENUM_VALUES).map(|i| format!("v{i}")).collect();
        let many = object(
            json!({"e": {"type": "string", "enum": values}}),
            json!(["e"]),
        );
        assert!(violations(&many).iter().any(|v| v.contains("enum values")));
    }
}
