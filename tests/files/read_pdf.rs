//! `read` of PDFs (SPEC 18.2, 24.2, 24.7) through the binary. The PDFs are built here with
//! lopdf, page by page, from content-stream operations.

use lopdf::content::{Content, Operation};
use lopdf::{
    Document, EncryptionState, EncryptionVersion, Object, Permissions, Stream, dictionary,
};
use serde_json::json;
use testkit::Env;

fn op(name: &str, args: Vec<Object>) -> Operation {
    Operation::new(name, args)
}

fn s(text: &str) -> Object {
    Object::string_literal(text)
}

/// A page's text as lines, each placed 14 points under the last with `Td`.
fn text_page(lines: &[&str]) -> Vec<Operation> {
    let mut ops = vec![
        op("BT", vec![]),
        op("Tf", vec!["F1".into(), 12.into()]),
        op("Td", vec![72.into(), 720.into()]),
    ];
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            ops.push(op("Td", vec![0.into(), (-14).into()]));
        }
        ops.push(op("Tj", vec![s(l)]));
    }
    ops.push(op("ET", vec![]));
    ops
}

/// A PDF whose pages draw `pages`' operations, with Helvetica as /F1 and `form` as /X1.
fn build(pages: Vec<Vec<Operation>>, form: Option<Vec<Operation>>) -> Document {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let mut xobjects = lopdf::Dictionary::new();
    if let Some(ops) = form {
        let content = Content { operations: ops }.encode().unwrap();
        let form = Stream::new(
            dictionary! {"Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()]},
            content,
        );
        xobjects.set("X1", doc.add_object(form));
    }
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! {"F1" => font},
        "XObject" => xobjects,
    });
    let mut kids = vec![];
    for ops in pages {
        let content = Content { operations: ops }.encode().unwrap();
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => pages_id});
    doc.trailer.set("Root", catalog);
    doc
}

fn save(mut doc: Document) -> Vec<u8> {
    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// `n` pages, page k saying "page k" and "second line of k".
fn numbered(n: usize) -> Vec<u8> {
    let pages = (1..=n)
        .map(|k| {
            let first = format!("page {k}");
            let second = format!("second line of {k}");
            text_page(&[&first, &second])
        })
        .collect();
    save(build(pages, None))
}

#[test]
fn each_page_as_a_block_of_lines() {
    let env = Env::new();
    env.write_file("doc.pdf", numbered(3));
    let out = env.call("read", json!({"path": "doc.pdf"}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "--- page 1 ---\npage 1\nsecond line of 1\n--- page 2 ---\npage 2\nsecond line of 2\n--- page 3 ---\npage 3\nsecond line of 3\n"
    );
    assert_eq!(
        out.data()["pdf"],
        json!({"pages_total": 3, "pages_shown": "1-3"})
    );
    assert_eq!(out.data()["truncated"], false);
}

#[test]
fn pages_chooses_and_the_default_is_the_first_20() {
    let env = Env::new();
    env.write_file("long.pdf", numbered(25));
    let out = env.call("read", json!({"path": "long.pdf"}));
    let text = out.output();
    assert!(text.contains("--- page 20 ---\npage 20\n"));
    assert!(!text.contains("--- page 21 ---"));
    assert!(
        text.ends_with("(showing pages 1-20 of 25; continue with pages=\"21-25\")\n"),
        "{text}"
    );
    assert_eq!(out.data()["pdf"]["pages_shown"], "1-20");
    assert_eq!(out.data()["truncated"], true);
    let out = env.call("read", json!({"path": "long.pdf", "pages": "7"}));
    assert!(out.output().starts_with("--- page 7 ---\npage 7\nsecond line of 7\n(showing page 7 of 25; continue with pages=\"8-25\")"));
    assert_eq!(out.data()["pdf"]["pages_shown"], "7");
    // an end past the last page stops at the last page
    let out = env.call("read", json!({"path": "long.pdf", "pages": "24-99"}));
    out.assert_ok();
    assert_eq!(out.data()["pdf"]["pages_shown"], "24-25");
    assert!(out.output().ends_with("second line of 25\n"));
}

#[test]
fn bad_pages_are_invalid_input() {
    let env = Env::new();
    env.write_file("doc.pdf", numbered(3));
    env.write_file("a.txt", "x\n");
    for (input, says) in [
        (json!({"path": "doc.pdf", "pages": "abc"}), "is not a page"),
        (json!({"path": "doc.pdf", "pages": "0"}), "numbered from 1"),
        (
            json!({"path": "doc.pdf", "pages": "3-1"}),
            "ends before it starts",
        ),
        (
            json!({"path": "doc.pdf", "pages": "9"}),
            "doc.pdf has 3 pages",
        ),
        (
            json!({"path": "a.txt", "pages": "1"}),
            "`pages` is for PDF files",
        ),
    ] {
        let out = env.call("read", input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], "pages", "{input}");
        assert!(out.output().contains(says), "{input}: {}", out.output());
    }
}

#[test]
fn offset_limit_and_line_range_are_refused_for_a_pdf() {
    let env = Env::new();
    env.write_file("doc.pdf", numbered(2));
    for (input, field) in [
        (json!({"path": "doc.pdf", "offset": 2}), "offset"),
        (json!({"path": "doc.pdf", "limit": 5}), "limit"),
        (json!({"path": "doc.pdf", "offset": -5}), "offset"),
        (
            json!({"path": "doc.pdf", "line_range": [1, 3]}),
            "line_range",
        ),
    ] {
        let out = env.call("read", input.clone());
        out.assert_err("invalid_input");
        assert_eq!(out.json["error"]["field"], field, "{input}");
        assert!(
            out.json["error"]["hint"]
                .as_str()
                .unwrap()
                .contains("pages")
        );
    }
}

fn encrypted(user_password: &str) -> Vec<u8> {
    let mut doc = build(vec![text_page(&["secret text"])], None);
    doc.trailer.set(
        "ID",
        vec![
            Object::string_literal(b"0123456789abcdef".to_vec()),
            Object::string_literal(b"0123456789abcdef".to_vec()),
        ],
    );
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).unwrap();
    doc.encrypt(&state).unwrap();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[test]
fn a_pdf_that_needs_a_password_is_unsupported_file() {
    let env = Env::new();
    env.write_file("locked.pdf", encrypted("secret"));
    let out = env.call("read", json!({"path": "locked.pdf"}));
    out.assert_err("unsupported_file");
    assert!(
        out.output().contains("encrypted PDF that needs a password"),
        "{}",
        out.output()
    );
    assert_eq!(out.json["error"]["path"], "locked.pdf");
    // encrypted with an empty user password (permissions only): opened as any viewer opens it
    env.write_file("open.pdf", encrypted(""));
    let out = env.call("read", json!({"path": "open.pdf"}));
    out.assert_ok();
    assert_eq!(out.output(), "--- page 1 ---\nsecret text\n");
}

#[test]
fn a_pdf_without_text_is_unsupported_file() {
    let env = Env::new();
    // a page that only draws a rectangle: what a scan looks like to a text extractor
    let drawing = vec![
        op("re", vec![10.into(), 10.into(), 100.into(), 100.into()]),
        op("f", vec![]),
    ];
    env.write_file(
        "scan.pdf",
        save(build(vec![drawing.clone(), drawing], None)),
    );
    let out = env.call("read", json!({"path": "scan.pdf"}));
    out.assert_err("unsupported_file");
    assert!(
        out.output()
            .contains("has no text on pages 1-2 of 2: a scanned or image-only PDF"),
        "{}",
        out.output()
    );
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("pdftoppm")
    );
}

#[test]
fn a_damaged_pdf_is_unsupported_file() {
    let env = Env::new();
    env.write_file("bad.pdf", "%PDF-1.7\nthis is not a PDF body\n");
    let out = env.call("read", json!({"path": "bad.pdf"}));
    out.assert_err("unsupported_file");
    assert!(
        out.output().contains("could not be parsed"),
        "{}",
        out.output()
    );
    // a script that mentions the header is still text
    env.write_file("gen.py", "# writes '%PDF-1.7' files\n");
    let out = env.call("read", json!({"path": "gen.py"}));
    assert_eq!(out.output(), "     1\t# writes '%PDF-1.7' files\n");
}

#[test]
fn words_lines_and_forms_are_laid_out() {
    let env = Env::new();
    let page = vec![
        op("BT", vec![]),
        op("Tf", vec!["F1".into(), 10.into()]),
        op(
            "Tm",
            vec![
                1.into(),
                0.into(),
                0.into(),
                1.into(),
                50.into(),
                746.into(),
            ],
        ),
        // kerning inside a word, then a word gap, in one TJ
        op(
            "TJ",
            vec![Object::Array(vec![
                s("Ke"),
                (-20).into(),
                s("rned"),
                (-600).into(),
                s("words"),
            ])],
        ),
        // ' moves to the next line (leading 12)
        op("TL", vec![12.into()]),
        op("'", vec![s("next line")]),
        // a jump right on the same line is a gap
        op("Td", vec![200.into(), 0.into()]),
        op("Tj", vec![s("far")]),
        op("ET", vec![]),
        op("Do", vec!["X1".into()]),
    ];
    let form = text_page(&["from a form"]);
    env.write_file("layout.pdf", save(build(vec![page], Some(form))));
    let out = env.call("read", json!({"path": "layout.pdf"}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "--- page 1 ---\nKerned words\nnext line far\nfrom a form\n"
    );
}

#[test]
fn a_pdf_read_is_recorded_and_pdfs_mix_with_paths() {
    let env = Env::new();
    env.write_file("doc.pdf", numbered(1));
    env.write_file("a.txt", "a\n");
    let out = env.call("read", json!({"paths": ["doc.pdf", "a.txt"]}));
    out.assert_ok();
    assert!(
        out.output()
            .starts_with("==> doc.pdf <==\n--- page 1 ---\npage 1\n")
    );
    assert_eq!(out.data()["files"][0]["pdf"]["pages_total"], 1);
    env.call("write", json!({"path": "doc.pdf", "content": "gone"}))
        .assert_ok();
}

#[test]
fn the_output_cap_cuts_inside_a_page_and_says_where_to_go_on() {
    let env = Env::new();
    let wide = "w".repeat(1900);
    let lines: Vec<&str> = (0..40).map(|_| wide.as_str()).collect();
    let pages = (0..3).map(|_| text_page(&lines)).collect();
    env.write_file("big.pdf", save(build(pages, None)));
    let out = env.call("read", json!({"path": "big.pdf"}));
    out.assert_ok();
    let text = out.output();
    assert!(text.chars().count() <= 100_000);
    assert!(
        text.ends_with("(output limit reached in page 2 of 3; continue with pages=\"2-3\")\n"),
        "{}",
        &text[text.len() - 200..]
    );
    assert_eq!(out.data()["pdf"]["pages_shown"], "1-2");
    assert_eq!(out.data()["truncated"], true);
}

#[test]
fn a_pdf_without_pages_is_unsupported_file() {
    let env = Env::new();
    env.write_file("empty.pdf", save(build(vec![], None)));
    let out = env.call("read", json!({"path": "empty.pdf"}));
    out.assert_err("unsupported_file");
    assert!(
        out.output().contains("is a PDF without pages"),
        "{}",
        out.output()
    );
}

/// SPEC 31.4: `k` forms that each show a word and draw all `k` (themselves included) through
/// one shared resource dictionary; the page draws them all. Drawn along every path 8 deep,
/// that was ~k⁸ forms (a 2 KB file: 42 s of CPU).
fn forms_drawing_forms(k: usize) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let xobjects_id = doc.new_object_id();
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! {"F1" => font},
        "XObject" => xobjects_id,
    });
    let draw_all: Vec<Operation> = (0..k)
        .map(|i| op("Do", vec![Object::Name(format!("X{i}").into_bytes())]))
        .collect();
    let mut shows = text_page(&["w"]);
    shows.extend(draw_all.iter().cloned());
    let mut xobjects = lopdf::Dictionary::new();
    for i in 0..k {
        let form = Stream::new(
            dictionary! {"Type" => "XObject", "Subtype" => "Form", "Resources" => resources,
            "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()]},
            Content {
                operations: shows.clone(),
            }
            .encode()
            .unwrap(),
        );
        xobjects.set(format!("X{i}"), doc.add_object(form));
    }
    doc.objects
        .insert(xobjects_id, Object::Dictionary(xobjects));
    let content = Content {
        operations: draw_all,
    }
    .encode()
    .unwrap();
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id, "Resources" => resources,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => pages_id});
    doc.trailer.set("Root", catalog);
    save(doc)
}

/// One page whose content stream is `n` operators (compressed, a few KB a million), with a
/// word at the start.
fn many_operators(n: usize) -> Vec<u8> {
    let mut content = b"BT /F1 12 Tf 72 720 Td (start) Tj ET\n".to_vec();
    content.extend(b"n\n".repeat(n));
    let mut doc = build(vec![vec![]], None);
    let page = *doc.get_pages().get(&1).unwrap();
    let id = doc.add_object(Stream::new(dictionary! {}, content));
    doc.get_object_mut(page)
        .unwrap()
        .as_dict_mut()
        .unwrap()
        .set("Contents", id);
    save(doc)
}

/// `read` killed after `secs` seconds.
fn read_within(env: &Env, args: &[&str], input: serde_json::Value, secs: u64) -> testkit::Out {
    let mut c = env.cmd();
    c.args(args)
        .arg("read")
        .write_stdin(input.to_string())
        .timeout(std::time::Duration::from_secs(secs));
    testkit::finish(c)
}

#[test]
fn forms_drawing_each_other_are_drawn_once_per_page_and_pair() {
    let env = Env::new();
    let pdf = forms_drawing_forms(10);
    assert!(pdf.len() < 4096, "a small file: {} bytes", pdf.len());
    env.write_file("forms.pdf", pdf);
    let t = std::time::Instant::now();
    let out = read_within(&env, &[], json!({"path": "forms.pdf"}), 60);
    out.assert_ok();
    // Each of the 10 forms drawn from the page and from each of the others: 10 + 10×9 words
    // at most, never 10⁸.
    let words = out.output().matches('w').count();
    assert!(
        (10..=110).contains(&words),
        "{words} words\n{}",
        out.output()
    );
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

#[test]
fn a_page_of_millions_of_operators_is_cut_and_stays_small() {
    let env = Env::new();
    let pdf = many_operators(3_000_000);
    assert!(pdf.len() < 64 * 1024, "{} bytes", pdf.len());
    env.write_file("ops.pdf", &pdf);
    let input = env.dir.path().join("input.json");
    std::fs::write(&input, json!({"path": "ops.pdf"}).to_string()).unwrap();
    let t = std::time::Instant::now();
    let (stdout, rss) = env.peak_rss(&["read"], &input);
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(out["ok"], true, "{stdout}");
    let text = out["output"].as_str().unwrap();
    assert!(text.contains("start"), "{text}");
    assert!(
        text.contains("(the rest of this page was not read: it draws more than 1000000 operators"),
        "{text}"
    );
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    if let Some(kib) = rss {
        // The 16 MiB of content, the document and the binary (was 1.8 GB).
        assert!(kib < 64 * 1024, "peak RSS {} MiB", kib / 1024);
    }
}

#[test]
fn pages_past_a_hundred_are_left_to_the_next_call() {
    let env = Env::new();
    env.write_file("long.pdf", numbered(130));
    let out = env.call("read", json!({"path": "long.pdf", "pages": "1-130"}));
    out.assert_ok();
    let pdf = &out.data()["pdf"];
    assert_eq!(pdf["pages_total"], 130);
    // The output cap may stop it sooner; never later than page 100.
    let shown = pdf["pages_shown"].as_str().unwrap();
    let last: u32 = shown.rsplit('-').next().unwrap().parse().unwrap();
    assert!(last <= 100, "{shown}");
    assert!(!out.output().contains("--- page 101 ---"));
    assert_eq!(out.data()["truncated"], true);
}

/// A catalog `timeout_ms` stops a PDF's content between operators.
#[test]
fn a_catalog_timeout_stops_a_long_pdf() {
    let env = Env::new();
    env.write_file("ops.pdf", many_operators(3_000_000));
    let catalog = env.dir.path().join("catalog.toml");
    std::fs::write(&catalog, "[tools.read]\ntimeout_ms = 200\n").unwrap();
    let t = std::time::Instant::now();
    let out = read_within(
        &env,
        &["--config", catalog.to_str().unwrap()],
        json!({"path": "ops.pdf"}),
        60,
    );
    out.assert_err("timeout");
    assert!(t.elapsed().as_millis() < 1200, "{:?}", t.elapsed());
}
