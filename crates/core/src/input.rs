//! Input parsing (SPEC §1.1, 16.2): stdin JSON, the input types' schemas, and the errors that
//! name the field at fault.
//!
//! The input types are the single source of truth: serde parses them (`deny_unknown_fields`),
//! schemars describes them, and the CLI's flags and the bounds checked here are read off that
//! description. Nothing can drift apart.

use crate::error::{Result, ToolError};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::io::Read;

pub mod json;
pub mod normalize;

/// The largest stdin accepted, JSON or `write`'s raw content (SPEC §1.1).
pub const STDIN_LIMIT: u64 = 64 * 1024 * 1024;

pub fn too_large_stdin() -> ToolError {
    ToolError::too_large(
        STDIN_LIMIT,
        format!("stdin is larger than {STDIN_LIMIT} bytes"),
    )
    .hint("Split the content: write a first part, then edit to add the rest.")
}

/// Reads stdin whole, refusing more than `STDIN_LIMIT` bytes. A terminal reads as empty.
pub fn read_stdin_bytes() -> Result<Vec<u8>> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(Vec::new());
    }
    let mut buf = Vec::new();
    stdin
        .lock()
        .take(STDIN_LIMIT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ToolError::usage(format!("could not read stdin: {e}")))?;
    if buf.len() as u64 > STDIN_LIMIT {
        return Err(too_large_stdin());
    }
    Ok(buf)
}

/// The tool input from stdin: one JSON object; empty or whitespace-only stdin is `{}`.
pub fn parse_stdin_json(bytes: &[u8]) -> Result<Value> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Ok(Value::Object(Map::new()));
    }
    let parsed = json::from_slice(bytes).map_err(|e| match e {
        json::Error::Json(_) => e
            .into_tool("stdin")
            .hint("Send one JSON object on stdin, or give the fields as flags."),
        _ => e.into_tool("stdin"),
    })?;
    if let Some(field) = parsed.duplicate {
        return Err(json::duplicate_key("stdin", &field));
    }
    let v = parsed.value;
    if !v.is_object() {
        return Err(ToolError::usage(format!(
            "stdin must hold one JSON object, not {}",
            kind_of(&v)
        ))
        .hint("Wrap the fields in an object, e.g. {\"path\": \"src/main.rs\"}."));
    }
    Ok(v)
}

pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The JSON Schema of tool `name`'s input type, generated once per process: the CLI, the
/// parser's bounds check and `schema` all ask for it, and generating it is not free.
pub fn cached_schema<T: JsonSchema>(name: &'static str) -> &'static Value {
    use std::sync::Mutex;
    static CACHE: Mutex<Vec<(&'static str, &'static Value)>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, v)) = cache.iter().find(|(n, _)| *n == name) {
        return v;
    }
    // Leaked on purpose: one small value per tool, alive for the whole process anyway.
    let v: &'static Value = Box::leak(Box::new(schema_of::<T>()));
    cache.push((name, v));
    v
}

/// A schemars transform for an input type whose doc comment is for Rust readers (the library's
/// public inputs, SPEC 30.1): the schema a model reads keeps the tool's description alone.
pub fn undocumented(s: &mut schemars::Schema) {
    s.remove("description");
}

/// The JSON Schema of an input type, as a plain JSON value. Subschemas are inlined (schemars'
/// `inline_subschemas`): the schema is self-contained, so `schema` publishes it without
/// resolving `$ref`s, and each field's own description and default sit on the field.
pub fn schema_of<T: JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
    });
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// An explicit `null` for an optional field means absent (SPEC 16.2); for a required field it
/// then reads as missing, which is the right complaint.
pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|_, x| !x.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items
            .iter_mut()
            .filter(|x| x.is_object())
            .for_each(strip_nulls),
        _ => {}
    }
}

/// Parses a tool's input, naming the field at fault in every error.
pub fn parse<T: DeserializeOwned>(tool: &str, mut input: Value, schema: &Value) -> Result<T> {
    if !input.is_object() {
        return Err(ToolError::usage(format!(
            "{tool}: input must be a JSON object, not {}",
            kind_of(&input)
        )));
    }
    strip_nulls(&mut input);
    normalize::integral_floats(&mut input);
    normalize::pair_lists(&mut input, schema, schema, "")?;
    check_bounds(&input, schema)?;
    serde_path_to_error::deserialize::<_, T>(input).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        field_error(tool, &path, &inner, schema)
    })
}

/// Turns serde's message into one that names the field and what is accepted.
fn field_error(tool: &str, path: &str, inner: &str, schema: &Value) -> ToolError {
    let backticked = inner.split('`').nth(1).map(str::to_string);
    let accepted = accepted_fields(schema);
    if inner.starts_with("unknown field") {
        let field = backticked.unwrap_or_default();
        // serde_path_to_error puts the unknown field itself at the end of the path.
        let parent = path
            .strip_suffix(field.as_str())
            .unwrap_or(path)
            .trim_end_matches('.');
        let (nested, accepted) = if parent.is_empty() {
            (String::new(), accepted)
        } else {
            (
                format!(" in `{parent}`"),
                accepted_fields(&sub_schema(schema, parent)),
            )
        };
        let msg = format!("{tool}: unknown field `{field}`{nested}; accepted fields: {accepted}");
        let at = if parent.is_empty() {
            field
        } else {
            format!("{parent}.{field}")
        };
        return ToolError::invalid(&at, msg).hint(format!("Use only these fields: {accepted}."));
    }
    if let Some(rest) = inner.strip_prefix("missing field ") {
        let field = backticked.unwrap_or_else(|| rest.to_string());
        let field = if path == "." || path.is_empty() {
            field
        } else {
            format!("{path}.{field}")
        };
        return ToolError::invalid(&field, format!("{tool}: missing required field `{field}`"))
            .hint(format!("Accepted fields: {accepted}."));
    }
    if inner.starts_with("duplicate field") {
        let field = backticked.unwrap_or_default();
        return ToolError::invalid(
            &field,
            format!("{tool}: field `{field}` is given twice (an alias counts)"),
        )
        .hint("Give each field once.");
    }
    let field = if path == "." {
        String::new()
    } else {
        path.to_string()
    };
    let msg = if field.is_empty() {
        format!("{tool}: {inner}")
    } else {
        format!("{tool}: field `{field}`: {inner}")
    };
    let err = ToolError::usage(msg).hint(format!("Accepted fields: {accepted}."));
    if field.is_empty() {
        err
    } else {
        err.with("field", field)
    }
}

/// The schema of the object at `path` (`edits[0]`, `todos[2].x`), carrying the root's `$defs`
/// so references inside it still resolve.
fn sub_schema(root: &Value, path: &str) -> Value {
    let mut node = root;
    for part in path.split('.') {
        let (name, indexed) = match part.find('[') {
            Some(i) => (&part[..i], true),
            None => (part, false),
        };
        node = resolve(root, &node["properties"][name]);
        if indexed {
            node = resolve(root, &node["items"]);
        }
    }
    let mut sub = node.clone();
    if let (Some(obj), Some(defs)) = (sub.as_object_mut(), root.get("$defs")) {
        obj.insert("$defs".into(), defs.clone());
    }
    sub
}

/// `path (string, required), offset (integer), …` for messages and hints.
pub fn accepted_fields(schema: &Value) -> String {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    fields(schema)
        .iter()
        .map(|f| {
            let req = if required.contains(&f.name.as_str()) {
                ", required"
            } else {
                ""
            };
            format!("{} ({}{req})", f.name, f.kind.word())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks `minimum`/`maximum` of top-level numeric fields, as the schema declares them.
fn check_bounds(input: &Value, schema: &Value) -> Result<()> {
    let (Some(obj), Some(props)) = (input.as_object(), schema["properties"].as_object()) else {
        return Ok(());
    };
    for (name, value) in obj {
        let Some(n) = value.as_f64() else { continue };
        let Some(prop) = props.get(name) else {
            continue;
        };
        let prop = resolve(schema, prop);
        let min = prop.get("minimum").and_then(Value::as_f64);
        let max = prop.get("maximum").and_then(Value::as_f64);
        let below = min.is_some_and(|m| n < m);
        let above = max.is_some_and(|m| n > m);
        if below || above {
            let range = match (min, max) {
                (Some(a), Some(b)) => format!("from {a} to {b}"),
                (Some(a), None) => format!("at least {a}"),
                (None, Some(b)) => format!("at most {b}"),
                (None, None) => unreachable!(),
            };
            return Err(ToolError::invalid(
                name,
                format!("field `{name}` is {value}, out of range: it must be {range}"),
            ));
        }
    }
    Ok(())
}

/// What the command line does with a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Integer,
    Number,
    String,
    /// An array of strings: the flag may repeat, or take one JSON array.
    StringArray,
    /// An object of strings (run's `env`): the flag may repeat as `K=V`, or take one JSON object.
    StringMap,
    /// Anything else takes JSON text.
    Json,
}

impl Kind {
    pub fn word(self) -> &'static str {
        match self {
            Kind::Bool => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::StringArray => "array of strings",
            Kind::StringMap => "object of strings",
            Kind::Json => "JSON",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub kind: Kind,
    pub description: String,
    /// Allowed values of a string enum.
    pub choices: Vec<String>,
    /// The schema's `default`, as JSON text.
    pub default: Option<String>,
    pub required: bool,
}

/// Follows a local `$ref` (schemars may still emit one for a recursive type) and unwraps
/// `Option`'s `anyOf [T, null]`.
fn resolve<'a>(root: &'a Value, prop: &'a Value) -> &'a Value {
    if let Some(r) = prop.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or("");
        if let Some(def) = root.get("$defs").and_then(|d| d.get(name)) {
            return resolve(root, def);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = prop.get(key).and_then(Value::as_array) {
            let non_null: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type") != Some(&Value::from("null")))
                .collect();
            if non_null.len() == 1 {
                return resolve(root, non_null[0]);
            }
        }
    }
    prop
}

fn type_of(prop: &Value) -> Option<&str> {
    match prop.get("type") {
        Some(Value::String(s)) => Some(s),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The values of a string enum: `enum: [...]`, or (for variants with doc comments) `oneOf` of
/// `const`s.
fn string_choices(root: &Value, prop: &Value) -> Vec<String> {
    let strings = |e: &Vec<Value>| -> Vec<String> {
        e.iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    if let Some(e) = prop.get("enum").and_then(Value::as_array) {
        return strings(e);
    }
    let Some(alts) = prop
        .get("oneOf")
        .or_else(|| prop.get("anyOf"))
        .and_then(Value::as_array)
    else {
        return vec![];
    };
    let mut out = vec![];
    for alt in alts.iter().map(|a| resolve(root, a)) {
        match (
            alt.get("const").and_then(Value::as_str),
            alt.get("enum").and_then(Value::as_array),
        ) {
            (Some(c), _) => out.push(c.to_string()),
            (None, Some(e)) => out.extend(strings(e)),
            _ if alt.get("type") == Some(&Value::from("null")) => {}
            _ => return vec![],
        }
    }
    out
}

/// `anyOf [string, array of strings]` (grep's `glob`): on the command line a repeatable flag.
fn string_or_strings(root: &Value, prop: &Value) -> bool {
    let Some(alts) = prop.get("anyOf").and_then(Value::as_array) else {
        return false;
    };
    let mut kinds: Vec<&str> = alts
        .iter()
        .map(|a| resolve(root, a))
        .filter_map(|a| match type_of(a) {
            Some("array") if type_of(resolve(root, &a["items"])) == Some("string") => {
                Some("strings")
            }
            Some("null") => None,
            other => Some(other.unwrap_or("?")),
        })
        .collect();
    kinds.sort_unstable();
    kinds == ["string", "strings"]
}

/// The top-level fields of an input schema, in declaration order.
pub fn fields(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema["properties"].as_object() else {
        return vec![];
    };
    props
        .iter()
        .map(|(name, raw)| {
            let prop = resolve(schema, raw);
            let choices = string_choices(schema, prop);
            let kind = match type_of(prop) {
                Some("boolean") => Kind::Bool,
                Some("integer") => Kind::Integer,
                Some("number") => Kind::Number,
                Some("string") => Kind::String,
                Some("array") if type_of(resolve(schema, &prop["items"])) == Some("string") => {
                    Kind::StringArray
                }
                Some("object")
                    if type_of(resolve(schema, &prop["additionalProperties"]))
                        == Some("string") =>
                {
                    Kind::StringMap
                }
                None if !choices.is_empty() => Kind::String,
                None if string_or_strings(schema, prop) => Kind::StringArray,
                _ => Kind::Json,
            };
            let description = raw
                .get("description")
                .or_else(|| prop.get("description"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let default = raw
                .get("default")
                .or_else(|| prop.get("default"))
                .map(|d| match d {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
            Field {
                default,
                name: name.clone(),
                kind,
                description,
                choices,
                required: required.contains(&name.as_str()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, JsonSchema, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Probe {
        /// The file.
        #[serde(alias = "file_path")]
        path: String,
        #[schemars(range(min = 1))]
        offset: Option<u64>,
        #[schemars(range(min = 1, max = 10))]
        limit: Option<u64>,
        flag: Option<bool>,
        tags: Option<Vec<String>>,
        mode: Option<Mode>,
    }

    #[derive(Deserialize, JsonSchema, Debug)]
    #[serde(rename_all = "snake_case")]
    enum Mode {
        /// Documented variants make schemars emit `oneOf` of `const`s.
        FirstWay,
        /// The other one.
        SecondWay,
    }

    fn run(v: Value) -> Result<Probe> {
        parse::<Probe>("probe", v, &schema_of::<Probe>())
    }

    #[test]
    fn fields_come_from_the_schema() {
        let f = fields(&schema_of::<Probe>());
        let kinds: Vec<(&str, Kind, bool)> = f
            .iter()
            .map(|f| (f.name.as_str(), f.kind, f.required))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("path", Kind::String, true),
                ("offset", Kind::Integer, false),
                ("limit", Kind::Integer, false),
                ("flag", Kind::Bool, false),
                ("tags", Kind::StringArray, false),
                ("mode", Kind::String, false)
            ]
        );
        assert_eq!(f[0].description, "The file.");
        assert_eq!(f[5].choices, ["first_way", "second_way"]);
    }

    #[test]
    fn unknown_field_is_named_with_the_accepted_ones() {
        let e = run(serde_json::json!({"path": "a", "bogus": 1})).unwrap_err();
        assert_eq!(e.extra["field"], "bogus");
        assert!(
            e.message.contains("path (string, required)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn missing_mistyped_duplicate_and_out_of_range_name_the_field() {
        let e = run(serde_json::json!({})).unwrap_err();
        assert_eq!(e.extra["field"], "path");
        let e = run(serde_json::json!({"path": "a", "offset": "x"})).unwrap_err();
        assert_eq!(e.extra["field"], "offset");
        let e = run(serde_json::json!({"path": "a", "file_path": "b"})).unwrap_err();
        assert_eq!(e.extra["field"], "path");
        let e = run(serde_json::json!({"path": "a", "limit": 11})).unwrap_err();
        assert_eq!(e.extra["field"], "limit");
        let e = run(serde_json::json!({"path": "a", "offset": 0})).unwrap_err();
        assert_eq!(e.extra["field"], "offset");
    }

    #[derive(Deserialize, JsonSchema, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        edits: Vec<Inner>,
    }

    #[derive(Deserialize, JsonSchema, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        old_string: String,
    }

    #[test]
    fn a_nested_unknown_field_lists_the_nested_fields() {
        let v = serde_json::json!({"edits": [{"old_string": "a"}, {"old_string": "b", "oops": 1}]});
        let e = parse::<Outer>("probe", v, &schema_of::<Outer>()).unwrap_err();
        assert_eq!(e.extra["field"], "edits[1].oops");
        assert!(e.message.contains("in `edits[1]`"), "{}", e.message);
        assert!(
            e.message
                .ends_with("accepted fields: old_string (string, required)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn null_means_absent() {
        let p = run(serde_json::json!({"path": "a", "offset": null})).unwrap();
        assert!(p.offset.is_none());
        let e = run(serde_json::json!({"path": null})).unwrap_err();
        assert_eq!(e.extra["field"], "path");
    }

    #[test]
    fn stdin_forms() {
        assert_eq!(parse_stdin_json(b"  \n").unwrap(), serde_json::json!({}));
        assert!(parse_stdin_json(b"[1]").is_err());
        assert!(parse_stdin_json(b"{").is_err());
        let e = parse_stdin_json(br#"{"path": "a", "path": "b"}"#).unwrap_err();
        assert_eq!(e.extra["field"], "path");
    }

    #[test]
    fn integral_floats_are_integers_and_a_fraction_names_the_field() {
        let p = run(serde_json::json!({"path": "a", "offset": 2.0, "limit": 10.0})).unwrap();
        assert_eq!((p.offset, p.limit), (Some(2), Some(10)));
        let e = run(serde_json::json!({"path": "a", "offset": 2.5})).unwrap_err();
        assert_eq!(e.extra["field"], "offset");
        let e = run(serde_json::json!({"path": "a", "limit": 11.0})).unwrap_err();
        assert_eq!(e.extra["field"], "limit", "bounds still hold");
    }
}
