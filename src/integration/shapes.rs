//! The shapes a call may come in (SPEC 22.3, 24.5): whatever a harness has in hand, forwarded
//! unchanged. Ours `{name, input, id?}` or `{tool, input, id?}`; an Anthropic `tool_use` block;
//! a Chat Completions tool call, whose `arguments` is JSON text; a Responses `function_call`,
//! whose `call_id` is the id (its `id` and `status` are the API's bookkeeping, not ours).
//!
//! Each shape has its own fields and any other is refused, as a tool's input would be: a field
//! the harness meant something by must never be dropped silently.

use crate::error::ToolError;
use crate::input::{self, json};
use serde_json::{Map, Value};

/// Where a call came from, so its result can be sent back in the same dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Ours,
    ToolUse,
    ChatCompletions,
    Responses,
}

impl Shape {
    fn what(self) -> &'static str {
        match self {
            Shape::Ours => "a call",
            Shape::ToolUse => "an Anthropic tool_use block",
            Shape::ChatCompletions => "a Chat Completions tool call",
            Shape::Responses => "a Responses function_call",
        }
    }

    /// The fields of the shape, required ones marked, for messages.
    fn fields(self) -> &'static str {
        match self {
            Shape::Ours => "name (or tool, required), input, id, approval",
            Shape::ToolUse => "type, id, name, input (all required)",
            Shape::ChatCompletions => {
                "id, type, function (all required); function: name, arguments (both required)"
            }
            Shape::Responses => "type, call_id, name, arguments (required), id, status",
        }
    }

    fn allowed(self) -> &'static [&'static str] {
        match self {
            Shape::Ours => &["name", "tool", "input", "id", "approval"],
            Shape::ToolUse => &["type", "id", "name", "input"],
            Shape::ChatCompletions => &["id", "type", "function"],
            Shape::Responses => &["type", "call_id", "name", "arguments", "id", "status"],
        }
    }
}

/// One call, whatever shape it came in.
#[derive(Debug)]
pub struct Call {
    pub name: String,
    pub input: Option<Value>,
    /// What the result must carry back: `id`, or a Responses call's `call_id`.
    pub id: Option<Value>,
    pub shape: Shape,
    /// The approval the call runs under (SPEC 29), ours only.
    pub approval: Option<String>,
}

/// A call that could not be read, with what could be told of it: its id and shape still
/// decide how its error is answered.
#[derive(Debug)]
pub struct Rejected {
    pub id: Option<Value>,
    pub shape: Shape,
    pub err: ToolError,
}

const SHAPES: &str = "{\"name\": TOOL, \"input\": {...}, \"id\"?: ID}, {\"tool\": TOOL, \"input\": {...}}, \
an Anthropic tool_use block, a Chat Completions tool call or a Responses function_call";

/// Reads one call. `duplicate` is the path of a key the JSON text gave twice (`json::Parsed`).
pub fn parse(v: Value, duplicate: Option<String>) -> Result<Call, Rejected> {
    let Value::Object(mut obj) = v else {
        let err = ToolError::usage(format!(
            "a call must be a JSON object, not {}",
            input::kind_of(&v)
        ))
        .hint(format!("A call is one of: {SHAPES}."));
        return Err(Rejected {
            id: None,
            shape: Shape::Ours,
            err,
        });
    };
    let shape = match shape_of(&obj) {
        Ok(s) => s,
        Err(err) => {
            let id = obj.get("id").cloned();
            return Err(Rejected {
                id,
                shape: Shape::Ours,
                err,
            });
        }
    };
    let id_key = if shape == Shape::Responses {
        "call_id"
    } else {
        "id"
    };
    let id = obj.get(id_key).cloned();
    let reject = |err: ToolError| Rejected {
        id: id.clone(),
        shape,
        err: err.hint(format!(
            "{} has the fields {}.",
            capital(shape.what()),
            shape.fields()
        )),
    };
    if let Some(dup) = duplicate {
        // Its own hint ("give each field once") says more than the list of fields would.
        return Err(Rejected {
            id,
            shape,
            err: json::duplicate_key("call", &dup),
        });
    }
    if let Some(k) = obj.keys().find(|k| !shape.allowed().contains(&k.as_str())) {
        return Err(reject(ToolError::invalid(
            k,
            format!(
                "call: unknown field `{k}` in {}; accepted fields: {}",
                shape.what(),
                shape.fields()
            ),
        )));
    }
    let approval = match obj.remove("approval") {
        None | Some(Value::Null) => None,
        Some(Value::String(a)) => Some(a),
        Some(other) => {
            return Err(reject(ToolError::invalid(
                "approval",
                format!(
                    "call: `approval` must be the id an approval_required answer gave (a string), not {}",
                    input::kind_of(&other)
                ),
            )));
        }
    };
    let (name, input) = name_and_input(shape, &mut obj).map_err(reject)?;
    Ok(Call {
        name,
        input,
        id,
        shape,
        approval,
    })
}

fn name_and_input(
    shape: Shape,
    obj: &mut Map<String, Value>,
) -> Result<(String, Option<Value>), ToolError> {
    match shape {
        Shape::Ours => ours(obj),
        Shape::ToolUse => {
            required(obj, "id", shape)?;
            required(obj, "input", shape)?;
            let name = name_field(obj, "name", shape)?;
            Ok((name, obj.remove("input")))
        }
        Shape::ChatCompletions => {
            required(obj, "id", shape)?;
            chat_function(obj.remove("function"))
        }
        Shape::Responses => {
            required(obj, "call_id", shape)?;
            let name = name_field(obj, "name", shape)?;
            let input = arguments(obj.remove("arguments"), "arguments")?;
            Ok((name, Some(input)))
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn shape_of(obj: &Map<String, Value>) -> Result<Shape, ToolError> {
    match obj.get("type") {
        None => Ok(Shape::Ours),
        Some(Value::String(t)) if t == "tool_use" => Ok(Shape::ToolUse),
        Some(Value::String(t)) if t == "function" => Ok(Shape::ChatCompletions),
        Some(Value::String(t)) if t == "function_call" => Ok(Shape::Responses),
        Some(other) => Err(ToolError::invalid(
            "type",
            format!(
                "call: `type` {other} is not a call's: `tool_use` (Anthropic), `function` (Chat \
                 Completions) or `function_call` (Responses); our own calls have no `type`"
            ),
        )
        .hint(format!("A call is one of: {SHAPES}."))),
    }
}

fn required(obj: &Map<String, Value>, field: &str, shape: Shape) -> Result<(), ToolError> {
    if obj.get(field).is_none_or(Value::is_null) {
        return Err(ToolError::invalid(
            field,
            format!("call: missing required field `{field}` in {}", shape.what()),
        ));
    }
    Ok(())
}

fn name_field(
    obj: &mut Map<String, Value>,
    field: &str,
    shape: Shape,
) -> Result<String, ToolError> {
    match obj.remove(field) {
        Some(Value::String(n)) => Ok(n),
        None | Some(Value::Null) => Err(ToolError::invalid(
            field,
            format!("call: missing required field `{field}` in {}", shape.what()),
        )),
        Some(other) => Err(ToolError::invalid(
            field,
            format!(
                "call: `{field}` must be a tool name (a string), not {}",
                input::kind_of(&other)
            ),
        )),
    }
}

/// `{name, input, id?}` or `{tool, input, id?}`.
fn ours(obj: &mut Map<String, Value>) -> Result<(String, Option<Value>), ToolError> {
    let key = match (obj.contains_key("name"), obj.contains_key("tool")) {
        (true, true) => {
            return Err(ToolError::invalid(
                "tool",
                "call: give the tool's `name` or `tool`, not both",
            ));
        }
        (false, true) => "tool",
        _ => "name",
    };
    let name = name_field(obj, key, Shape::Ours)?;
    Ok((name, obj.remove("input")))
}

/// A Chat Completions call's `function: {name, arguments}`.
fn chat_function(function: Option<Value>) -> Result<(String, Option<Value>), ToolError> {
    let mut f = match function {
        Some(Value::Object(f)) => f,
        None | Some(Value::Null) => {
            return Err(ToolError::invalid(
                "function",
                "call: missing required field `function` in a Chat Completions tool call",
            ));
        }
        Some(other) => {
            return Err(ToolError::invalid(
                "function",
                format!(
                    "call: `function` must be an object {{name, arguments}}, not {}",
                    input::kind_of(&other)
                ),
            ));
        }
    };
    if let Some(k) = f.keys().find(|k| *k != "name" && *k != "arguments") {
        let field = format!("function.{k}");
        return Err(ToolError::invalid(
            &field,
            format!("call: unknown field `{field}`; `function` has the fields name, arguments"),
        ));
    }
    let name = name_field(&mut f, "name", Shape::ChatCompletions)
        .map_err(|e| renamed(e, "function.name"))?;
    let input = arguments(f.remove("arguments"), "function.arguments")?;
    Ok((name, Some(input)))
}

/// Points an error made for `name` at its full place (`function.name`).
fn renamed(mut e: ToolError, field: &str) -> ToolError {
    e.extra.insert("field".into(), field.into());
    e
}

/// `arguments`: the tool input as JSON text, as both OpenAI APIs send it. An object is taken as
/// it is too (some OpenAI-compatible servers send one); anything else is refused.
fn arguments(raw: Option<Value>, field: &str) -> Result<Value, ToolError> {
    let text = match raw {
        Some(Value::String(t)) => t,
        Some(v @ Value::Object(_)) => return Ok(v),
        None | Some(Value::Null) => {
            return Err(ToolError::invalid(
                field,
                format!("call: missing required field `{field}` (the input as JSON text)"),
            ));
        }
        Some(other) => {
            return Err(ToolError::invalid(
                field,
                format!(
                    "call: `{field}` must be the input as JSON text, not {}",
                    input::kind_of(&other)
                ),
            ));
        }
    };
    let parsed = json::from_str(&text).map_err(|e| {
        ToolError::invalid(field, format!("call: `{field}` is not valid JSON: {e}"))
    })?;
    if let Some(dup) = parsed.duplicate {
        return Err(renamed(
            json::duplicate_key("call", &format!("{field}.{dup}")),
            &format!("{field}.{dup}"),
        ));
    }
    if !parsed.value.is_object() {
        return Err(ToolError::invalid(
            field,
            format!(
                "call: `{field}` must hold a JSON object (the tool's input), not {}",
                input::kind_of(&parsed.value)
            ),
        ));
    }
    Ok(parsed.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(v: Value) -> Call {
        parse(v, None).unwrap()
    }

    fn field(v: Value) -> String {
        let r = parse(v, None).unwrap_err();
        r.err.extra["field"].as_str().unwrap_or("").to_string()
    }

    #[test]
    fn every_shape_gives_name_input_and_id() {
        let c = ok(json!({"name": "read", "input": {"path": "a"}, "id": 1}));
        assert_eq!(
            (c.name.as_str(), c.id, c.shape),
            ("read", Some(json!(1)), Shape::Ours)
        );
        let c = ok(json!({"tool": "read", "input": {"path": "a"}}));
        assert_eq!(
            (c.name.as_str(), c.input),
            ("read", Some(json!({"path": "a"})))
        );
        let c = ok(json!({"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}));
        assert_eq!((c.id, c.shape), (Some(json!("toolu_1")), Shape::ToolUse));
        let c = ok(json!({"id": "call_1", "type": "function",
            "function": {"name": "read", "arguments": "{\"path\": \"a\"}"}}));
        assert_eq!(c.input, Some(json!({"path": "a"})));
        assert_eq!(c.shape, Shape::ChatCompletions);
        let c = ok(
            json!({"type": "function_call", "id": "fc_1", "call_id": "call_2",
            "name": "read", "arguments": "{}", "status": "completed"}),
        );
        assert_eq!((c.id, c.shape), (Some(json!("call_2")), Shape::Responses));
    }

    #[test]
    fn each_bad_field_is_named() {
        let chat = |function: Value| json!({"type": "function", "id": "c", "function": function});
        let cases = [
            (json!({"input": {}}), "name"),
            (json!({"name": "read", "tool": "read"}), "tool"),
            (json!({"name": 3}), "name"),
            (json!({"name": "read", "extra": 1}), "extra"),
            (json!({"type": "text", "text": "hi"}), "type"),
            (json!({"type": 5, "name": "read"}), "type"),
            (
                json!({"type": "tool_use", "name": "read", "input": {}}),
                "id",
            ),
            (
                json!({"type": "tool_use", "id": "t", "name": "read"}),
                "input",
            ),
            (json!({"type": "function", "id": "c"}), "function"),
            (chat(json!("read")), "function"),
            (
                chat(json!({"name": "read", "arguments": "{}", "x": 1})),
                "function.x",
            ),
            (chat(json!({"arguments": "{}"})), "function.name"),
            (
                chat(json!({"name": "read", "arguments": "[1]"})),
                "function.arguments",
            ),
            (
                chat(json!({"name": "read", "arguments": "nope"})),
                "function.arguments",
            ),
            (
                chat(json!({"name": "read", "arguments": "\"{}\""})),
                "function.arguments",
            ),
            (
                chat(json!({"name": "read", "arguments": "{\"a\": 1, \"a\": 2}"})),
                "function.arguments.a",
            ),
            (
                json!({"type": "function_call", "call_id": "c", "name": "read", "arguments": 5}),
                "arguments",
            ),
            (
                json!({"type": "function_call", "call_id": "c", "name": "read"}),
                "arguments",
            ),
            (
                json!({"type": "function_call", "name": "read", "arguments": "{}"}),
                "call_id",
            ),
        ];
        for (call, want) in cases {
            assert_eq!(field(call.clone()), want, "{call}");
        }
    }

    #[test]
    fn a_rejected_call_keeps_its_id_and_shape() {
        let r = parse(
            json!({"type": "function_call", "call_id": "c9", "name": "read", "arguments": "x"}),
            None,
        )
        .unwrap_err();
        assert_eq!((r.id, r.shape), (Some(json!("c9")), Shape::Responses));
        let r = parse(
            json!({"name": "read", "input": {}, "id": 4}),
            Some("input.path".into()),
        )
        .unwrap_err();
        assert_eq!(r.id, Some(json!(4)));
        assert_eq!(r.err.extra["field"], "input.path");
        assert_eq!(r.err.hint.as_deref(), Some("Give each field once."));
    }
}
