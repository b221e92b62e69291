//! bench/library.py's in-process side (SPEC 30.1): the same `read` of one unchanged file
//! through `Toolbox::call`, WARMUP times untimed, then N times timed one by one; prints the
//! median, the 10th and 90th percentiles in microseconds as one JSON line.
//!
//!     cargo run --release --example bench_read -- ROOT STATE FILE [N] [WARMUP]

use loopr_tool::Toolbox;
use serde_json::json;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    loopr_tool::helper_main();
    let mut args = std::env::args().skip(1);
    let usage = "usage: bench_read ROOT STATE FILE [N] [WARMUP]";
    let root = args.next().ok_or(usage)?;
    let state = args.next().ok_or(usage)?;
    let file = args.next().ok_or(usage)?;
    let n: usize = args.next().map_or(Ok(2000), |s| s.parse())?;
    let warmup: usize = args.next().map_or(Ok(200), |s| s.parse())?;
    let tools = Toolbox::builder()
        .root(root)
        .state_dir(state)
        .session("bench-library")
        .build()?;
    let input = json!({ "path": file });
    for _ in 0..warmup {
        let env = tools.call("read", input.clone());
        assert!(env.ok, "{}", env.output);
    }
    let mut micros = Vec::with_capacity(n);
    for _ in 0..n {
        let input = input.clone();
        let t = Instant::now();
        let env = tools.call("read", input);
        micros.push(t.elapsed().as_secs_f64() * 1e6);
        assert!(env.ok);
    }
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    println!(
        "{}",
        json!({"n": n, "median_us": at(0.5), "p10_us": at(0.1), "p90_us": at(0.9)})
    );
    Ok(())
}
