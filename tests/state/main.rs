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
