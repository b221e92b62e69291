//! What `parse` does to an input before serde sees it, for every tool and every alias alike:
//! integral floats become integers (SPEC 22.4) and `{name, value}` pair lists become the
//! free-form objects they stand for (SPEC 22.2: the strict schemas' form of run's `env`).

use super::{resolve, type_of};
use crate::error::{Result, ToolError};
use serde_json::{Map, Value};

/// JavaScript clients send `2.0` for 2. A number with no fractional part is made an integer,
/// wherever it is: serde then takes it for any integer field (`2.5` still fails there, naming
/// the field), and a float field takes an integer as well, so nothing is lost. Done without the
/// schema so that no integer field, however deeply nested or custom-typed (todo's `task`), can
/// be missed.
pub fn integral_floats(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            if let Some(i) = n.as_f64().and_then(integral) {
                *v = i;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats),
        Value::Object(map) => map.values_mut().for_each(integral_floats),
        _ => {}
    }
}

/// `f` as an integer `Value`, when it is one that u64 or i64 holds exactly.
fn integral(f: f64) -> Option<Value> {
    // 2^64 and -2^63 are exact in f64; `as` saturates, so the bounds are checked first.
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    const I64_MIN: f64 = -9_223_372_036_854_775_808.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (0.0..U64_END).contains(&f) {
        Some(Value::from(f as u64))
    } else if (I64_MIN..0.0).contains(&f) {
        Some(Value::from(f as i64))
    } else {
        None
    }
}

/// Turns each array given where the schema has a free-form object (an `object` whose
/// `additionalProperties` is a schema) into that object: `[{"name": "A", "value": "1"}]` is
/// `{"A": "1"}`. Strict schemas cannot describe such an object (every key must be declared),
/// so they publish the pair list, and the parser takes it in every mode.
pub fn pair_lists(v: &mut Value, schema: &Value, root: &Value, path: &str) -> Result<()> {
    let s = resolve(root, schema);
    match v {
        Value::Array(items) if is_free_form(s) => {
            *v = Value::Object(pairs_to_map(std::mem::take(items), path)?);
        }
        Value::Array(items) => {
            if let Some(item) = s.get("items") {
                for (i, x) in items.iter_mut().enumerate() {
                    pair_lists(x, item, root, &format!("{path}[{i}]"))?;
                }
            }
        }
        Value::Object(map) => {
            let Some(props) = s.get("properties").and_then(Value::as_object) else {
                return Ok(());
            };
            for (k, x) in map.iter_mut() {
                if let Some(p) = props.get(k) {
                    let at = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    pair_lists(x, p, root, &at)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn is_free_form(s: &Value) -> bool {
    type_of(s) == Some("object") && s.get("additionalProperties").is_some_and(Value::is_object)
}

fn pairs_to_map(items: Vec<Value>, path: &str) -> Result<Map<String, Value>> {
    const SHAPE: &str = "a list of {\"name\": NAME, \"value\": VALUE} pairs, or an object";
    let mut out = Map::new();
    for (i, item) in items.into_iter().enumerate() {
        let at = format!("{path}[{i}]");
        let Value::Object(mut pair) = item else {
            return Err(ToolError::invalid(
                &at,
                format!(
                    "field `{at}` is not a {{\"name\", \"value\"}} pair: `{path}` takes {SHAPE}"
                ),
            ));
        };
        if let Some(other) = pair.keys().find(|k| *k != "name" && *k != "value") {
            let field = format!("{at}.{other}");
            return Err(ToolError::invalid(
                &field,
                format!(
                    "unknown field `{other}` in `{at}`; accepted fields: name (string, required), value (required)"
                ),
            ));
        }
        let name = match pair.remove("name") {
            Some(Value::String(n)) => n,
            Some(_) => {
                return Err(ToolError::invalid(
                    &format!("{at}.name"),
                    format!("field `{at}.name` must be a string"),
                ));
            }
            None => {
                return Err(ToolError::invalid(
                    &format!("{at}.name"),
                    format!("missing required field `{at}.name`"),
                ));
            }
        };
        let Some(value) = pair.remove("value") else {
            return Err(ToolError::invalid(
                &format!("{at}.value"),
                format!("missing required field `{at}.value`"),
            ));
        };
        if out.contains_key(&name) {
            return Err(ToolError::invalid(
                &format!("{at}.name"),
                format!("`{path}` names `{name}` twice"),
            )
            .hint("Give each name once."));
        }
        out.insert(name, value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integral_floats_become_integers_and_others_stay() {
        let mut v = json!({"a": 2.0, "b": [3.0, 2.5, -4.0, 1e300], "c": {"d": 0.0}, "e": "2.0"});
        integral_floats(&mut v);
        assert_eq!(
            v,
            json!({"a": 2, "b": [3, 2.5, -4, 1e300], "c": {"d": 0}, "e": "2.0"})
        );
        assert!(v["a"].is_u64() && v["b"][2].is_i64());
        assert_eq!(integral(-0.0), Some(json!(0)));
        assert_eq!(
            integral(18_446_744_073_709_551_615.0),
            None,
            "rounds to 2^64"
        );
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "env": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
                "nested": {"type": "array", "items": {"type": "object", "properties": {
                    "vars": {"type": "object", "additionalProperties": {"type": "string"}}
                }}},
                "list": {"type": "array", "items": {"type": "string"}}
            }
        })
    }

    fn run(mut v: Value) -> Result<Value> {
        let s = schema();
        pair_lists(&mut v, &s, &s, "").map(|()| v)
    }

    #[test]
    fn pair_lists_become_objects_where_the_schema_has_one() {
        let v = run(json!({
            "env": [{"name": "A", "value": "1"}, {"value": "2", "name": "B"}],
            "nested": [{"vars": [{"name": "C", "value": "3"}]}],
            "list": ["x"]
        }))
        .unwrap();
        assert_eq!(
            v,
            json!({"env": {"A": "1", "B": "2"}, "nested": [{"vars": {"C": "3"}}], "list": ["x"]})
        );
        assert_eq!(
            run(json!({"env": {"A": "1"}})).unwrap(),
            json!({"env": {"A": "1"}})
        );
        assert_eq!(run(json!({"env": []})).unwrap(), json!({"env": {}}));
    }

    #[test]
    fn a_bad_pair_names_its_place() {
        let field = |v: Value| run(v).unwrap_err().extra["field"].clone();
        assert_eq!(field(json!({"env": ["A=1"]})), "env[0]");
        assert_eq!(field(json!({"env": [{"name": "A"}]})), "env[0].value");
        assert_eq!(field(json!({"env": [{"value": "1"}]})), "env[0].name");
        assert_eq!(
            field(json!({"env": [{"name": 1, "value": "1"}]})),
            "env[0].name"
        );
        assert_eq!(
            field(json!({"env": [{"name": "A", "value": "1", "extra": 1}]})),
            "env[0].extra"
        );
        assert_eq!(
            field(json!({"env": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]})),
            "env[1].name"
        );
        assert_eq!(
            field(json!({"nested": [{"vars": [{"name": "A"}]}]})),
            "nested[0].vars[0].value"
        );
    }
}
