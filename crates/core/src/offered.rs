//! How a hint names a tool (SPEC 25.5): a message that points the model at a tool or a field
//! names it as this call's model was offered it — the catalog key, or an agent's own tool and
//! field names (`BashOutput` with `bash_id`) — and a tool that is not offered is not named.
//! The names are the dialects' (a layer above): dispatch gives each call the function that
//! knows them; without it (the library's direct calls) our own names stand where offered.

use crate::policy::Policy;

/// A tool (and action) as this call's model has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The name the model calls.
    pub name: String,
    /// The name fixes the action (`BashOutput` is `jobs` action `output`): it is not said.
    pub action_fixed: bool,
    /// Our field → theirs, where they differ.
    pub fields: Vec<(String, String)>,
    /// Fields whose numbers count lines from 0 under this name (Claude Code's Read `offset`).
    pub from_zero: Vec<String>,
}

/// Finds how `tool` (with `action`) is offered to the model of this call: the policy, the
/// agent whose alias took the call (`claude`, `codex`, `gemini`, `seed`; none for our own
/// names), the tool and the action.
pub type Namer = fn(&Policy, Option<&str>, &str, Option<&str>) -> Option<Named>;

impl Named {
    /// One of our tools under its own name.
    pub fn own(tool: &str) -> Named {
        Named {
            name: tool.to_string(),
            action_fixed: false,
            fields: vec![],
            from_zero: vec![],
        }
    }

    /// Our field `ours` as the model knows it.
    pub fn field<'a>(&'a self, ours: &'a str) -> &'a str {
        self.fields
            .iter()
            .find(|(o, _)| o == ours)
            .map_or(ours, |(_, t)| t.as_str())
    }

    /// A line number for field `ours` as the model gives it (1-based ours, 0-based theirs).
    pub fn line(&self, ours: &str, n: u64) -> u64 {
        if self.from_zero.iter().any(|f| f == ours) {
            n.saturating_sub(1)
        } else {
            n
        }
    }

    /// The call as a hint says it: `jobs action "output", id "2"` or `BashOutput bash_id "2"`.
    pub fn call(&self, action: Option<&str>, args: &[(&str, &str)]) -> String {
        let mut parts: Vec<String> = vec![];
        if let Some(a) = action.filter(|_| !self.action_fixed) {
            parts.push(format!("action \"{a}\""));
        }
        for (field, value) in args {
            parts.push(format!("{} \"{value}\"", self.field(field)));
        }
        if parts.is_empty() {
            self.name.clone()
        } else {
            format!("{} {}", self.name, parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_said_in_the_names_the_model_has() {
        assert_eq!(
            Named::own("jobs").call(Some("output"), &[("id", "2")]),
            "jobs action \"output\", id \"2\""
        );
        let theirs = Named {
            name: "BashOutput".into(),
            action_fixed: true,
            fields: vec![("id".into(), "bash_id".into())],
            from_zero: vec![],
        };
        assert_eq!(
            theirs.call(Some("output"), &[("id", "2")]),
            "BashOutput bash_id \"2\""
        );
    }
}
