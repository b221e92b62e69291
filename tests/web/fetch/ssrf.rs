//! The blocked cases end to end. A wrong implementation must not be able to send traffic
//! anywhere: the cases run only against loopback spellings (a listener counts connections, so
//! "refused before any connection" is checked, not assumed), or inside a network namespace this
//! test makes itself (`unshare -rnm`), where `lo` carries a documentation address standing in
//! for a public host and a private address standing in for an internal one, and nothing else
//! exists. The address policy itself is unit-tested over the whole matrix in src/tools/fetch/policy.rs.

use super::server::{Server, html, redirect, reply};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use testkit::Env;

#[test]
fn loopback_spellings_are_refused_before_any_connection() {
    let env = Env::new();
    let s = Server::start(|_| html("<p>secret</p>"));
    // The same port on ::1, where the platform has IPv6, so a leak there would be seen too.
    let s6 = Server::start_on(&format!("[::1]:{}", s.port), |_| html("<p>secret</p>")).ok();
    if s6.is_none() {
        eprintln!("no IPv6 loopback here: [::1] spellings are checked without a listener");
    }
    let p = s.port;
    for host in [
        "127.0.0.1".to_string(),
        "127.0.0.2".into(),
        "localhost".into(),
        "LOCALHOST.".into(),
        "app.localhost".into(),
        "2130706433".into(),
        "0x7f.1".into(),
        "0x7f000001".into(),
        "0177.0.0.1".into(),
        "0177.1".into(),
        "127.1".into(),
        "127.000.000.001".into(),
        "0".into(),
        "0.0.0.0".into(),
        "[::]".into(),
        "[::1]".into(),
        "[0:0:0:0:0:0:0:1]".into(),
        "[::ffff:127.0.0.1]".into(),
        "[::ffff:7f00:1]".into(),
        "[::127.0.0.1]".into(),
        "[64:ff9b::127.0.0.1]".into(),
        "%31%32%37.0.0.1".into(),
    ] {
        for scheme in ["http", "https"] {
            let url = format!("{scheme}://{host}:{p}/x");
            let out = env.run(&["fetch", &url], "");
            out.assert_err("blocked_url");
            let blocked = out.json["error"]["url"].as_str().unwrap();
            assert!(blocked.starts_with(scheme), "{url}: {blocked}");
            assert!(out.output().contains("--allow-private"), "{}", out.output());
        }
    }
    assert_eq!(s.connections(), 0, "a blocked fetch connected to 127.0.0.1");
    assert_eq!(
        s6.map_or(0, |s| s.connections()),
        0,
        "a blocked fetch connected to ::1"
    );
    // The same server is reachable once private addresses are allowed: the refusals above were
    // the policy, not an unreachable port.
    let out = env.run(
        &[
            "--allow-private",
            "fetch",
            &format!("http://localhost:{p}/x"),
        ],
        "",
    );
    assert_eq!(out.output(), "secret\n");
}

#[test]
fn other_schemes_are_blocked() {
    let env = Env::new();
    for url in [
        "file:///etc/passwd",
        "ftp://203.0.113.1/",
        "gopher://203.0.113.1/",
        "data:text/plain,hi",
        "javascript:alert(1)",
    ] {
        let out = env.run(&["--allow-private", "fetch", url], "");
        out.assert_err("blocked_url");
        assert!(
            out.output().contains("only http and https"),
            "{}",
            out.output()
        );
    }
}

/// The server inside the namespace (run by `inside_a_network_namespace` as a child of this test
/// binary). Ignored in normal runs; without FETCH_NS_DIR it does nothing.
#[test]
#[ignore]
fn namespace_server() {
    let Some(dir) = std::env::var_os("FETCH_NS_DIR") else {
        return;
    };
    let dir = Path::new(&dir).to_path_buf();
    let server = Server::start_on("0.0.0.0:8080", |r| match r.path.as_str() {
        "/ok" => html("<title>Stand-in</title><p>public page</p>"),
        "/secret" => html("<p>internal secret</p>"),
        "/to-loopback" => redirect(302, "http://127.0.0.1:8080/secret"),
        "/to-localhost" => redirect(302, "http://localhost:8080/secret"),
        "/to-inside-name" => redirect(302, "http://inside.test:8080/secret"),
        "/to-private" => redirect(302, "http://10.0.0.1:8080/secret"),
        "/to-mapped" => redirect(301, "http://[::ffff:10.0.0.1]:8080/secret"),
        "/to-decimal" => redirect(303, "http://167772161:8080/secret"),
        "/to-metadata" => redirect(307, "http://169.254.169.254/latest/meta-data/"),
        "/to-public" => redirect(302, "http://stand-in.test:8080/ok"),
        _ => reply(404, "text/plain", "no"),
    })
    .expect("bind 0.0.0.0:8080 in the namespace");
    std::fs::write(dir.join("ready"), "").unwrap();
    let start = Instant::now();
    while !dir.join("stop").exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let log: String = server
        .requests()
        .iter()
        .map(|r| format!("{} {}\n", r.local.ip(), r.path))
        .collect();
    std::fs::write(dir.join("server.log"), log).unwrap();
}

/// `unshare` (util-linux) and `ip` (iproute2), and a kernel that lets this user make the
/// namespaces.
fn namespaces_available() -> bool {
    Command::new("unshare")
        .args(["-rnm", "ip", "link", "set", "lo", "up"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The fetches run inside the namespace: name, then arguments.
const CASES: &[(&str, &[&str])] = &[
    ("public", &["fetch", "http://203.0.113.1:8080/ok"]),
    ("public_name", &["fetch", "http://stand-in.test:8080/ok"]),
    (
        "redirect_public",
        &["fetch", "http://203.0.113.1:8080/to-public"],
    ),
    (
        "redirect_loopback",
        &["fetch", "http://203.0.113.1:8080/to-loopback"],
    ),
    (
        "redirect_localhost",
        &["fetch", "http://stand-in.test:8080/to-localhost"],
    ),
    (
        "redirect_inside_name",
        &["fetch", "http://203.0.113.1:8080/to-inside-name"],
    ),
    (
        "redirect_private",
        &["fetch", "http://203.0.113.1:8080/to-private"],
    ),
    (
        "redirect_mapped",
        &["fetch", "http://203.0.113.1:8080/to-mapped"],
    ),
    (
        "redirect_decimal",
        &["fetch", "http://203.0.113.1:8080/to-decimal"],
    ),
    (
        "redirect_metadata",
        &["fetch", "http://203.0.113.1:8080/to-metadata"],
    ),
    (
        "name_to_loopback",
        &["fetch", "http://inside.test:8080/secret"],
    ),
    (
        "name_to_private",
        &["fetch", "http://private.test:8080/secret"],
    ),
    ("private", &["fetch", "http://10.0.0.1:8080/secret"]),
    (
        "private_decimal",
        &["fetch", "http://167772161:8080/secret"],
    ),
    ("private_172", &["fetch", "http://172.16.0.1:8080/"]),
    ("private_192", &["fetch", "http://192.168.0.1:8080/"]),
    (
        "metadata",
        &["fetch", "http://169.254.169.254/latest/meta-data/"],
    ),
    (
        "metadata_hex",
        &["fetch", "http://0xa9fea9fe/latest/meta-data/"],
    ),
    ("cgnat", &["fetch", "http://100.64.0.1/"]),
    ("broadcast", &["fetch", "http://255.255.255.255/"]),
    ("multicast", &["fetch", "http://224.0.0.1/"]),
    ("ula", &["fetch", "http://[fd00::1]:8080/"]),
    ("link_local6", &["fetch", "http://[fe80::1]:8080/"]),
    ("multicast6", &["fetch", "http://[ff02::1]:8080/"]),
    ("nat64_private", &["fetch", "http://[64:ff9b::a00:1]:8080/"]),
    (
        "mapped_private",
        &["fetch", "http://[::ffff:10.0.0.1]:8080/secret"],
    ),
    (
        "allowed_private",
        &["--allow-private", "fetch", "http://10.0.0.1:8080/secret"],
    ),
];

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

#[test]
fn inside_a_network_namespace() {
    if !namespaces_available() {
        eprintln!(
            "SKIPPED: `unshare -rnm` is not available here, so the namespace cases cannot run"
        );
        return;
    }
    let env = Env::new();
    let dir = env.dir.path().join("ns");
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(
        dir.join("hosts"),
        "127.0.0.1 localhost\n::1 localhost\n203.0.113.1 stand-in.test\n127.0.0.1 inside.test\n10.0.0.1 private.test\n",
    )
    .unwrap();
    std::fs::write(dir.join("resolv.conf"), "").unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut script = format!(
        "set -e\n\
         unset LOOPR_FETCH_ALLOW_PRIVATE http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY\n\
         ip link set lo up\n\
         ip addr add 203.0.113.1/32 dev lo\n\
         ip addr add 10.0.0.1/32 dev lo\n\
         mount --bind {d}/hosts /etc/hosts\n\
         mount --bind {d}/resolv.conf /etc/resolv.conf\n\
         FETCH_NS_DIR={d} {exe} --ignored --exact fetch::ssrf::namespace_server --nocapture --test-threads=1 >{d}/server.out 2>&1 &\n\
         i=0; while [ ! -e {d}/ready ]; do i=$((i+1)); [ $i -gt 400 ] && exit 97; sleep 0.05; done\n",
        d = quote(&dir),
        exe = quote(&exe),
    );
    for (name, args) in CASES {
        let args: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        script.push_str(&format!(
            "LOOPR_STATE_DIR={s} {bin} {args} >{d}/out/{name}.json 2>&1 || true\n",
            s = quote(&env.state),
            bin = quote(&testkit::bin()),
            args = args.join(" "),
            d = quote(&dir),
        ));
    }
    script.push_str(&format!("touch {d}/stop\nwait\n", d = quote(&dir)));
    let run = Command::new("unshare")
        .args(["-rnm", "sh", "-c", &script])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "namespace script failed ({:?}):\n{}\n{}\nserver: {}",
        run.status,
        String::from_utf8_lossy(&run.stderr),
        String::from_utf8_lossy(&run.stdout),
        std::fs::read_to_string(dir.join("server.out")).unwrap_or_default()
    );
    let result = |name: &str| -> Value {
        let text = std::fs::read_to_string(dir.join("out").join(format!("{name}.json"))).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("{name}: {text}"))
    };
    // The stand-in public host answers, by address and by name: the setup works, so the
    // refusals below are the policy's doing.
    for name in ["public", "public_name", "redirect_public"] {
        let r = result(name);
        assert_eq!(r["ok"], true, "{name}: {r}");
        assert_eq!(r["output"], "public page\n", "{name}");
    }
    assert_eq!(
        result("redirect_public")["data"]["redirects"][0],
        "http://203.0.113.1:8080/to-public"
    );
    let blocked = [
        (
            "redirect_loopback",
            "http://127.0.0.1:8080/secret",
            "127.0.0.1 is a loopback",
        ),
        (
            "redirect_localhost",
            "http://localhost:8080/secret",
            "localhost always names this host",
        ),
        (
            "redirect_inside_name",
            "http://inside.test:8080/secret",
            "127.0.0.1 is a loopback",
        ),
        (
            "redirect_private",
            "http://10.0.0.1:8080/secret",
            "10.0.0.1 is a private",
        ),
        (
            "redirect_mapped",
            "http://[::ffff:a00:1]:8080/secret",
            "carries the IPv4 address 10.0.0.1",
        ),
        (
            "redirect_decimal",
            "http://10.0.0.1:8080/secret",
            "10.0.0.1 is a private",
        ),
        (
            "redirect_metadata",
            "http://169.254.169.254/latest/meta-data/",
            "cloud metadata",
        ),
        (
            "name_to_loopback",
            "http://inside.test:8080/secret",
            "127.0.0.1 is a loopback",
        ),
        (
            "name_to_private",
            "http://private.test:8080/secret",
            "10.0.0.1 is a private",
        ),
        ("private", "http://10.0.0.1:8080/secret", "private"),
        ("private_decimal", "http://10.0.0.1:8080/secret", "private"),
        ("private_172", "http://172.16.0.1:8080/", "private"),
        ("private_192", "http://192.168.0.1:8080/", "private"),
        (
            "metadata",
            "http://169.254.169.254/latest/meta-data/",
            "link-local",
        ),
        (
            "metadata_hex",
            "http://169.254.169.254/latest/meta-data/",
            "link-local",
        ),
        ("cgnat", "http://100.64.0.1/", "carrier-grade NAT"),
        ("broadcast", "http://255.255.255.255/", "broadcast"),
        ("multicast", "http://224.0.0.1/", "multicast"),
        ("ula", "http://[fd00::1]:8080/", "unique local"),
        ("link_local6", "http://[fe80::1]:8080/", "link-local"),
        ("multicast6", "http://[ff02::1]:8080/", "multicast"),
        (
            "nat64_private",
            "http://[64:ff9b::a00:1]:8080/",
            "carries the IPv4 address 10.0.0.1",
        ),
        (
            "mapped_private",
            "http://[::ffff:a00:1]:8080/secret",
            "carries the IPv4 address 10.0.0.1",
        ),
    ];
    for (name, url, why) in blocked {
        let r = result(name);
        assert_eq!(r["error"]["code"], "blocked_url", "{name}: {r}");
        assert_eq!(r["error"]["url"], url, "{name}");
        assert!(
            r["output"].as_str().unwrap().contains(why),
            "{name}: {}",
            r["output"]
        );
    }
    // With --allow-private the stand-in private host is reached: it was really there.
    assert_eq!(result("allowed_private")["output"], "internal secret\n");
    // And it was reached only then: no blocked case opened a request to it, or to loopback.
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap();
    let secrets: Vec<&str> = log.lines().filter(|l| l.ends_with(" /secret")).collect();
    assert_eq!(secrets, ["10.0.0.1 /secret"], "server log:\n{log}");
    assert!(
        !log.lines().any(|l| l.starts_with("127.")),
        "server log:\n{log}"
    );
    assert!(
        log.contains("203.0.113.1 /to-loopback"),
        "the redirecting hop was served: {log}"
    );
}
