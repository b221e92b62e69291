//! JSON text to a `Value`, noticing duplicate keys (SPEC 16.2, 24.6).
//!
//! serde_json's `Value` keeps the last of two equal keys without a word, so
//! `{"path": "a", "path": "b"}` would quietly read `b`. This builds the same `Value` through a
//! visitor that remembers where the first duplicate was instead of failing at once: a batch
//! parses all its elements in one pass and must fail only the element that holds it.

use crate::error::ToolError;
use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A parsed document and the path of its first duplicate key (`path`, `input.path`,
/// `edits[1].old_string`), if any.
#[derive(Debug)]
pub struct Parsed {
    pub value: Value,
    pub duplicate: Option<String>,
}

/// Why a text did not become a value.
#[derive(Debug)]
pub enum Error {
    Json(serde_json::Error),
    /// More values than `budget` allows for the text's size (SPEC 23.8: parsing costs at most a
    /// small multiple of the input; 60 MB of `[{},{},…]` once grew to 24 GB as values).
    TooMany {
        bytes: usize,
        limit: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::Json(e) => e.fmt(f),
            Error::TooMany { bytes, limit } => write!(
                f,
                "{bytes} bytes of JSON hold more than {limit} values, more than is parsed for input of this size"
            ),
        }
    }
}

impl Error {
    /// The error a caller answers with: `too_large` for too many values, else a usage error
    /// saying `what` is not valid JSON.
    pub fn into_tool(self, what: &str) -> ToolError {
        match self {
            Error::Json(e) => ToolError::usage(format!("{what} is not valid JSON: {e}")),
            Error::TooMany { limit, .. } => ToolError::too_large(limit, format!("{what}: {self}"))
                .hint("Send the fields the tool takes; a large text belongs in one string field."),
        }
    }
}

/// How many values a text of `bytes` may hold. A value costs 32–64 bytes in memory, and a
/// growing array may hold twice the room it uses, so this keeps a refused input's peak under
/// 16 MB plus twice its size, text included (SPEC 24.6). Real inputs stay far below it: a
/// 10,000-call batch of edits is about 70,000 values.
pub fn budget(bytes: usize) -> u64 {
    131_072 + bytes as u64 / 128
}

thread_local! {
    /// Values still allowed in the parse running on this thread.
    static LEFT: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
    /// Inside `one_budget`: its limit, which every parse on this thread spends from.
    static SHARED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with one value budget, that of `bytes`, for every parse inside it (SPEC 31.4): a
/// batch's JSON Lines and the `arguments` texts of its calls together, not a budget each. Each
/// had its own, and 10,000 calls of small `arguments` texts grew to 2.3 GB.
pub fn one_budget<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    let limit = budget(bytes);
    let left = LEFT.with(|l| l.replace(limit));
    let shared = SHARED.with(|s| s.replace(Some(limit)));
    let r = f();
    SHARED.with(|s| s.set(shared));
    LEFT.with(|l| l.set(left));
    r
}

/// Whether the budget of the running `one_budget` is all spent.
pub fn budget_spent() -> bool {
    SHARED.with(|s| s.get()).is_some() && LEFT.with(|l| l.get()) == 0
}

/// Counts one value against the budget.
fn spend<E: de::Error>() -> Result<(), E> {
    LEFT.with(|left| match left.get() {
        0 => Err(E::custom(TOO_MANY)),
        n => {
            left.set(n - 1);
            Ok(())
        }
    })
}

const TOO_MANY: &str = "loopr: too many values";

fn with_budget<T>(bytes: usize, parse: impl FnOnce() -> serde_json::Result<T>) -> Result<T, Error> {
    with_limit(bytes, budget(bytes), parse)
}

fn with_limit<T>(
    bytes: usize,
    own: u64,
    parse: impl FnOnce() -> serde_json::Result<T>,
) -> Result<T, Error> {
    let (limit, r, exhausted) = match SHARED.with(|s| s.get()) {
        Some(limit) => {
            let r = parse();
            (limit, r, LEFT.with(|l| l.get()) == 0)
        }
        None => {
            let limit = own;
            let before = LEFT.with(|l| l.replace(limit));
            let r = parse();
            (limit, r, LEFT.with(|l| l.replace(before)) == 0)
        }
    };
    r.map_err(|e| {
        if exhausted && e.to_string().starts_with(TOO_MANY) {
            Error::TooMany { bytes, limit }
        } else {
            Error::Json(e)
        }
    })
}

pub fn from_slice(bytes: &[u8]) -> Result<Parsed, Error> {
    let Node(value, duplicate) = with_budget(bytes.len(), || serde_json::from_slice(bytes))?;
    Ok(Parsed { value, duplicate })
}

/// A file's JSON (a notebook) with a budget of its own: `per_value` bytes of text a value,
/// besides the first 131,072 (SPEC 31.4: a file is not a tool input, but its values are bounded
/// by its size all the same).
pub fn file_value(bytes: &[u8], per_value: u64) -> Result<Value, Error> {
    let limit = 131_072 + bytes.len() as u64 / per_value.max(1);
    let Node(value, _) = with_limit(bytes.len(), limit, || serde_json::from_slice(bytes))?;
    Ok(value)
}

pub fn from_str(text: &str) -> Result<Parsed, Error> {
    from_slice(text.as_bytes())
}

/// Parses an array whose elements are judged one by one: each comes with its own duplicate.
pub fn array_from_str(text: &str) -> Result<Vec<Parsed>, Error> {
    let nodes: Vec<Node> = with_budget(text.len(), || serde_json::from_str(text))?;
    Ok(nodes
        .into_iter()
        .map(|Node(value, duplicate)| Parsed { value, duplicate })
        .collect())
}

/// `invalid_input` for a key given twice in one JSON object (SPEC 16.2, 24.6).
pub fn duplicate_key(what: &str, field: &str) -> ToolError {
    ToolError::invalid(field, format!("{what}: field `{field}` is given twice"))
        .hint("Give each field once.")
}

/// A value and the relative path of the first duplicate key inside it.
struct Node(Value, Option<String>);

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

/// `key` then the path inside its value: `a.b`, `a[0]`.
fn under_key(key: &str, inner: &str) -> String {
    if inner.starts_with('[') {
        format!("{key}{inner}")
    } else {
        format!("{key}.{inner}")
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::Bool(b), None))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::from(n), None))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::from(n), None))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::from(n), None))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::String(s.to_string()), None))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::String(s), None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        spend::<E>()?;
        Ok(Node(Value::Null, None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        spend::<A::Error>()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        let mut duplicate = None;
        while let Some(Node(v, inner)) = seq.next_element()? {
            if duplicate.is_none() {
                duplicate = inner.map(|p| under_key(&format!("[{}]", items.len()), &p));
            }
            items.push(v);
        }
        Ok(Node(Value::Array(items), duplicate))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        spend::<A::Error>()?;
        let mut out = Map::new();
        let mut duplicate = None;
        while let Some(key) = map.next_key::<String>()? {
            let Node(v, inner) = map.next_value()?;
            if duplicate.is_none() {
                duplicate = if out.contains_key(&key) {
                    Some(key.clone())
                } else {
                    inner.map(|p| under_key(&key, &p))
                };
            }
            out.insert(key, v);
        }
        Ok(Node(Value::Object(out), duplicate))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dup(text: &str) -> Option<String> {
        from_str(text).unwrap().duplicate
    }

    #[test]
    fn the_value_is_what_serde_json_makes() {
        let text = r#"{"a": [1, -2, 2.5, "x", null, true, {"b": {}}], "c": "\u00e9"}"#;
        let ours = from_str(text).unwrap();
        assert_eq!(ours.value, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(ours.duplicate, None);
    }

    #[test]
    fn the_first_duplicate_is_named_by_its_path() {
        assert_eq!(
            dup(r#"{"path": "a", "path": "b"}"#).as_deref(),
            Some("path")
        );
        assert_eq!(
            dup(r#"{"input": {"path": "a", "path": "b"}}"#).as_deref(),
            Some("input.path")
        );
        assert_eq!(
            dup(r#"{"edits": [{}, {"x": 1, "x": 2}], "z": 1, "z": 2}"#).as_deref(),
            Some("edits[1].x")
        );
        assert_eq!(dup(r#"[[{"k": 1, "k": 1}]]"#).as_deref(), Some("[0][0].k"));
        // The same key in two different objects is no duplicate.
        assert_eq!(dup(r#"[{"k": 1}, {"k": 2}]"#), None);
    }

    #[test]
    fn an_array_is_judged_element_by_element() {
        let items = array_from_str(r#"[{"a": 1}, {"a": 1, "a": 2}, {"b": 3}]"#).unwrap();
        let dups: Vec<Option<&str>> = items.iter().map(|p| p.duplicate.as_deref()).collect();
        assert_eq!(dups, [None, Some("a"), None]);
        assert_eq!(items[1].value, json!({"a": 2}));
        assert!(array_from_str(r#"{"a": 1}"#).is_err(), "not an array");
    }

    #[test]
    fn values_past_the_budget_stop_the_parse() {
        let n = 200_000;
        let text = format!("[{}0]", "0,".repeat(n));
        // 2 bytes a value: over the budget for this size.
        assert!(budget(text.len()) < n as u64);
        assert!(matches!(from_str(&text), Err(Error::TooMany { .. })));
        // The same count of values in a text large enough for them is parsed.
        let roomy = text.clone() + &" ".repeat(128 * n);
        assert!(budget(roomy.len()) > n as u64);
        assert!(from_str(&roomy).is_ok());
        // And the budget is per parse: the next one starts afresh.
        assert!(from_str("[1, 2, 3]").is_ok());
    }

    #[test]
    fn nesting_is_bounded_by_serde_json_recursion_limit() {
        let deep = "[".repeat(100_000);
        assert!(from_str(&deep).is_err(), "an error, not a stack overflow");
    }
}
