//! `loopr-tool mcp` as a live server (stdio and `--http`), and driven by clients no one here
//! wrote (the MCP Python SDK, pydantic-ai, the MCP Inspector, and the agents Claude Code, Codex
//! and Gemini CLI), and every alias replayed from its agent's own schema. The clients are
//! installed by `clients` (the agents by bench/agents.py).

mod agent_schemas;
mod agents;
mod clients;
mod http;
mod http_tls;
mod mcp;
mod mcp_behaviour;
mod mcp_client;
mod mcp_inspector;
mod mcp_pydantic_ai;
mod upstream;
