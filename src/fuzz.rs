//! Fuzz targets for what takes hostile input (SPEC 23.3), run by `cargo test` for a short,
//! fixed time each.
//!
//! Mutation fuzzing without coverage guidance: cargo-fuzz and libFuzzer need a nightly
//! toolchain and a library target, and CI runs stable. Each target starts from its committed
//! seed corpus (`fuzz/seeds/TARGET/`), mutates it with a seeded PRNG (flips, inserts, deletes,
//! splices, JSON and shell tokens) for `LOOPR_FUZZ_MS` milliseconds (default 1,500), and calls
//! the code under test directly. A panic is a failure that names the input, written to
//! `fuzz/crashes/TARGET-HASH`; moved to `fuzz/regressions/TARGET/` it is replayed by every run.
//! The seed is fixed (override: `LOOPR_FUZZ_SEED`), so a run is reproducible.

use loopr_env_vars::EnvVars;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// xorshift64*: small, fast, and enough to drive mutations.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Tokens worth inserting: JSON structure and edge numbers, escapes, shell syntax, HTTP/URL
/// pieces, terminal escapes.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b":",
    b",",
    b"null",
    b"true",
    b"-0",
    b"1e309",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"0.5",
    b"\\u0000",
    b"\\ud800",
    b"\xff",
    b"\xc3",
    b"\n",
    b"\r\n",
    b"\0",
    b"$(",
    b"`",
    b"|",
    b"&&",
    b";",
    b"<(",
    b">",
    b"'",
    b"${",
    b"rm -rf /",
    b"../",
    b"~/",
    b"*",
    b"{{",
    b"\x1b[31m",
    b"\x1b]0;",
    b"\x08",
    b"\r",
    b"\"path\"",
    b"\"tool\"",
    b"\"input\"",
    b"\"command\"",
    b"\"jsonrpc\":\"2.0\"",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    for _ in 0..=rng.below(4) {
        let len = input.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(len + 1);
                input.insert(i, rng.next() as u8);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = rng.below((len - i).min(16) + 1);
                input.drain(i..i + n);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = rng.below((len - i).min(32) + 1);
                let piece = input[i..i + n].to_vec();
                let at = rng.below(input.len() + 1);
                input.splice(at..at, piece);
            }
            4 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let i = rng.below(other.len());
                    let n = rng.below(other.len() - i + 1);
                    let at = rng.below(input.len() + 1);
                    input.splice(at..at, other[i..i + n].iter().copied());
                }
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(len + 1);
                input.splice(at..at, t.iter().copied());
            }
        }
    }
    input.truncate(64 * 1024);
}

fn files(dir: &Path) -> Vec<Vec<u8>> {
    let mut v: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| Some((e.path(), std::fs::read(e.path()).ok()?)))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v.into_iter().map(|(_, b)| b).collect()
}

/// Runs `target` over its regressions, its seeds, then mutations for the time budget.
pub(crate) fn fuzz(target: &str, check: impl Fn(&[u8])) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let seeds = files(&here.join("seeds").join(target));
    assert!(!seeds.is_empty(), "fuzz/seeds/{target}/ holds no seed");
    let run = |input: &[u8]| {
        if catch_unwind(AssertUnwindSafe(|| check(input))).is_err() {
            let dir = here.join("crashes");
            let _ = std::fs::create_dir_all(&dir);
            let name = format!("{target}-{:016x}", xxhash_rust::xxh3::xxh3_64(input));
            let _ = std::fs::write(dir.join(&name), input);
            panic!(
                "fuzz target {target} panicked on fuzz/crashes/{name}: {:?}",
                String::from_utf8_lossy(&input[..input.len().min(300)])
            );
        }
    };
    for r in files(&here.join("regressions").join(target)) {
        run(&r);
    }
    for s in &seeds {
        run(s);
    }
    let ms = std::env::var(EnvVars::LOOPR_FUZZ_MS)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let seed = std::env::var(EnvVars::LOOPR_FUZZ_SEED)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_1007_u64);
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_millis(ms);
    let mut n = 0u64;
    while Instant::now() < deadline {
        let mut input = seeds[rng.below(seeds.len())].clone();
        mutate(&mut rng, &mut input, &seeds);
        run(&input);
        n += 1;
    }
    eprintln!("fuzz {target}: {n} inputs");
}

/// Every tool's input parser, and every alias's translation in front of it: parsing never
/// panics, whatever the JSON.
#[test]
fn fuzz_tool_inputs() {
    let mut names: Vec<&str> = crate::tools::TOOLS.iter().map(|t| t.name()).collect();
    names.extend(crate::dialects::all().map(|a| a.name));
    fuzz("tool_input", |bytes| {
        let Ok(parsed) = crate::input::json::from_slice(bytes) else {
            return;
        };
        for name in &names {
            if let Some(r) = crate::dispatch::unrestricted(name) {
                let _ = r.is_read_only(&parsed.value);
                let _ = r.effect(&parsed.value);
            }
        }
    });
}

/// The call shapes harnesses send (`call`, `batch`, function-call objects).
#[test]
fn fuzz_call_shapes() {
    fuzz("call_shapes", |bytes| {
        if let Ok(p) = crate::input::json::from_slice(bytes) {
            let _ = crate::integration::shapes::parse(p.value, p.duplicate);
        }
    });
}

/// run's guard: lexing and judging any command text.
#[test]
fn fuzz_run_guard() {
    use crate::tools::run::guard;
    let places = guard::Places {
        root: "/work/root".into(),
        cwd: "/work/root/sub".into(),
        homes: vec!["/home/u".into()],
    };
    fuzz("run_guard", |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let _ = guard::check(&text, &places);
    });
}

/// run's output cleaner (terminal escapes, carriage returns, invalid UTF-8), fed in pieces.
#[test]
fn fuzz_run_output_cleaner() {
    fuzz("run_output", |bytes| {
        let cut = bytes.len() / 3;
        let _ = crate::tools::run::clean::clean_reads(&[&bytes[..cut], &bytes[cut..]]);
    });
}

/// mcp's framing: newline-delimited frames of any bytes, each parsed as a message.
#[test]
fn fuzz_mcp_frames() {
    fuzz("mcp_frames", |bytes| {
        for frame in crate::integration::mcp::frames_of(bytes) {
            let _ = crate::input::json::from_slice(&frame);
        }
    });
}

/// fetch's URL and address policy: any text parsed as a URL, then judged (never a panic; a
/// private address never passes).
#[test]
fn fuzz_url_policy() {
    fuzz("url_policy", |bytes| {
        let text = String::from_utf8_lossy(bytes);
        if let Ok(url) = url::Url::parse(&text) {
            let _ = loopr_web::policy::check_url(&url, false);
        }
    });
}

/// apply_patch's parser (Codex's format, leniently read): any text.
/// The syntax engine (SPEC 26.1, 23.8): any bytes, in every language, parse within the bounds
/// (or are refused as too deep), and the walks over the tree — definitions, identifiers, the
/// error count, a structural pattern made of the same bytes — never panic or overflow.
#[test]
fn fuzz_syntax_parse() {
    use loopr_syntax::{Lang, check, refs, structural, tags};
    fuzz("syntax", |bytes| {
        for lang in Lang::ALL {
            if let Ok(tree) = loopr_syntax::parse(lang, bytes) {
                assert!(!loopr_syntax::depth_exceeds(&tree, loopr_syntax::MAX_DEPTH));
                let _ = tags::symbols(lang, &tree, bytes);
                let _ = tags::imports(lang, &tree, bytes);
                let _ = refs::identifiers(&tree, bytes, &[]);
                let _ = check::count(&tree);
            }
        }
        let text = String::from_utf8_lossy(bytes);
        if let Ok(c) = structural::compile(Lang::JavaScript, &text) {
            let _ = structural::find(&c, "f(a, b); g(1);\n", None);
            let _ = structural::unbound(&c, &text);
        }
    });
}

#[test]
fn fuzz_apply_patch_parser() {
    fuzz("apply_patch", |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let _ = crate::tools::apply_patch::parse::parse(&text);
        let _ = crate::tools::apply_patch::parse::looks_like_unified_diff(&text);
    });
}

/// fetch's nesting bound (SPEC 31.4): any page, rewritten, parses no deeper than the bound
/// allows, and converts in every mode without a panic.
#[test]
fn fuzz_html_nesting() {
    use crate::tools::fetch::{Mode, convert, nesting};
    let url = url::Url::parse("https://example.org/a/b.html").unwrap();
    let control = std::sync::Arc::new(crate::control::Control::new());
    fuzz("html_nesting", |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let flat = nesting::flatten(&text, &|| false).expect("never stopped");
        let doc = scraper::Html::parse_document(&flat);
        let deepest = doc
            .tree
            .nodes()
            .map(|n| n.ancestors().count())
            .max()
            .unwrap_or(0);
        // html5ever adds a tbody to each table (4 elements where the pass counts 3), and the
        // document, html and body above it all.
        assert!(
            deepest <= nesting::MAX_DEPTH * 4 / 3 + 8,
            "{deepest} deep after the nesting bound"
        );
        for mode in [Mode::Markdown, Mode::Text] {
            let _ = convert::html(&text, &url, mode, None, &control);
        }
    });
}

/// read's PDF content interpreter: any content stream, drawn by a page and by a form that
/// draws itself, never panics and stays within its operator budget.
#[test]
fn fuzz_pdf_content() {
    use lopdf::{Document, Object, Stream, dictionary};
    fuzz("pdf_content", |bytes| {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let xobjects = doc.new_object_id();
        let resources = doc.add_object(dictionary! {
            "Font" => dictionary! {"F1" => font}, "XObject" => xobjects,
        });
        let form = doc.add_object(Stream::new(
            dictionary! {"Type" => "XObject", "Subtype" => "Form", "Resources" => resources},
            bytes.to_vec(),
        ));
        doc.objects
            .insert(xobjects, Object::Dictionary(dictionary! {"X1" => form}));
        let content = doc.add_object(Stream::new(dictionary! {}, bytes.to_vec()));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content, "Resources" => resources,
        });
        doc.objects.insert(
            pages_id,
            Object::Dictionary(
                dictionary! {"Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1},
            ),
        );
        let control = crate::control::Control::new();
        let mut budget = crate::tools::read::pdf_text::Budget::new(&control);
        let _ = crate::tools::read::pdf_text::page_text(&doc, page, &mut budget);
    });
}
