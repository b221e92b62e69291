//! `permissions` (SPEC 29): a harness's own calls (`--harness`) that grant allow rules for the
//! session, list what the session holds, and revoke a rule or drop a pending approval. Never
//! offered to a model: a model must not widen its own permissions.

use crate::context::Ctx;
use crate::envelope::Success;
use crate::error::{Code, Result, ToolError};
use crate::policy::approvals;
use crate::tool::{Effect, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

pub struct Permissions;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The rules granted and the approvals pending.
    #[default]
    List,
    /// Grant an allow rule (Claude Code's syntax) for the session.
    Grant,
    /// Revoke a granted rule, or drop a pending approval by its id.
    Revoke,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// `list` (default), `grant` or `revoke`.
    #[schemars(extend("default" = "list"))]
    pub action: Option<Action>,
    /// grant: the allow rule (`Bash(npm test:*)`, `Edit(src/**)`); revoke: a granted rule or a
    /// pending approval's id.
    pub rule: Option<String>,
}

impl Tool for Permissions {
    type Input = Input;
    const NAME: &'static str = "permissions";
    const SUMMARY: &'static str =
        "A harness's call: grant, list or revoke the session's permission rules";
    const DESCRIPTION: &'static str = "A harness's own call (--harness), never offered to a model. `grant` adds an allow rule in Claude Code's syntax (`Bash(npm test:*)`, `Edit(src/**)`, `WebFetch(domain:example.com)`) for this session: calls it matches run without asking where the permission mode would ask (a catalog's ask and deny rules still hold). `list` shows the rules granted and the approvals pending; `revoke` removes a granted rule or drops a pending approval by its id.";
    const POSITIONALS: &'static [&'static str] = &["action", "rule"];
    const EXAMPLES: &'static str = "  loopr-tool --harness permissions grant 'Bash(npm test:*)'\n  loopr-tool --harness permissions list";

    fn read_only(input: &Input) -> bool {
        input.action.unwrap_or_default() == Action::List
    }

    fn effect(input: &Input) -> Effect {
        if Self::read_only(input) {
            Effect::Reads
        } else {
            Effect::Commands
        }
    }

    fn run(ctx: &Ctx, input: Input) -> Result<Success> {
        if !ctx.harness {
            return Err(ToolError::new(
                Code::ToolDisabled,
                "permissions is a harness's call: pass --harness (LOOPR_HARNESS=1); it is never offered to a model",
            )
            .with("tool", "permissions"));
        }
        let action = input.action.unwrap_or_default();
        let rule = || {
            input
                .rule
                .as_deref()
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| {
                    ToolError::invalid(
                        "rule",
                        format!("permissions {}: `rule` is required", word(action)),
                    )
                })
        };
        match action {
            Action::List => list(ctx),
            Action::Grant => {
                let rule = rule()?;
                let added = approvals::grant(ctx, rule)?;
                let output = if added {
                    format!("Granted `{rule}` for session {}\n", ctx.session)
                } else {
                    format!("`{rule}` was granted already for session {}\n", ctx.session)
                };
                Ok(Success::new(
                    output,
                    json!({"session": ctx.session, "rule": rule.trim(), "added": added}),
                ))
            }
            Action::Revoke => {
                let rule = rule()?;
                approvals::revoke(ctx, rule)?;
                Ok(Success::new(
                    format!("Revoked `{}` in session {}\n", rule.trim(), ctx.session),
                    json!({"session": ctx.session, "revoked": rule.trim()}),
                ))
            }
        }
    }
}

fn word(a: Action) -> &'static str {
    match a {
        Action::List => "list",
        Action::Grant => "grant",
        Action::Revoke => "revoke",
    }
}

fn list(ctx: &Ctx) -> Result<Success> {
    let store = approvals::list(ctx)?;
    let mut out = format!("Granted rules ({}):\n", store.granted.len());
    for r in &store.granted {
        out.push_str(&format!("  {r}\n"));
    }
    out.push_str(&format!("Pending approvals ({}):\n", store.pending.len()));
    for p in &store.pending {
        out.push_str(&format!(
            "  {} {} (expires {})\n",
            p.id, p.summary, p.expires_at
        ));
    }
    let pending: Vec<_> = store.pending.iter().map(|p| p.to_value()).collect();
    Ok(Success::new(
        out,
        json!({"session": ctx.session, "granted": store.granted, "pending": pending}),
    ))
}
