//! What persists between calls: the state store and session, state the tools cannot forge,
//! todo, loops that work together, and faults at each step of a change.

use testkit::Env;
use testkit::redis::RedisServer;

/// Each test here runs twice (SPEC 25.2: a file hub and a Redis hub are interchangeable): as
/// `NAME::file_hub`, on the default file hub, and as `NAME::redis_hub`, with `LOOPR_HUB` naming a
/// `redis-server` of its own on a free loopback port (skipped, saying so, without one).
macro_rules! on_both_hubs {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn file_hub() {
                super::$name(&testkit::Env::new());
            }
            #[test]
            fn redis_hub() {
                if let Some((env, _server)) = crate::redis_env() {
                    super::$name(&env);
                }
            }
        }
    )*};
}

/// Every kept message of `session`'s inbox, all pages of `inbox all` (1 MiB a call, SPEC 31.4),
/// each page checked to have warned of nothing corrupt.
pub fn every_message(env: &Env, session: &str) -> Vec<serde_json::Value> {
    let mut out = vec![];
    let mut offset = 0;
    loop {
        let page = env.call_in(
            session,
            "inbox",
            serde_json::json!({"action": "all", "offset": offset}),
        );
        page.assert_ok();
        assert!(
            page.json["data"].get("warnings").is_none(),
            "nothing was corrupt: {}",
            page.output()
        );
        out.extend(page.data()["messages"].as_array().unwrap().iter().cloned());
        match page.data().get("next_offset").and_then(|n| n.as_u64()) {
            Some(n) => offset = n as usize,
            None => return out,
        }
    }
}

/// An env whose calls meet in a fresh Redis hub, with the server (stopped when dropped).
pub fn redis_env() -> Option<(Env, RedisServer)> {
    let server = RedisServer::start()?;
    Some((Env::new().with_var("LOOPR_HUB", server.url()), server))
}

mod faults;
mod hub;
mod hub_redis;
mod loops;
mod state;
mod state_forgery;
mod state_never_a_path;
mod todo;
