//! `read` of Jupyter notebooks (SPEC 18.2, 24.2, 24.7) through the binary. The notebooks are
//! written here as nbformat 4 JSON.

use serde_json::{Value, json};
use testkit::Env;

fn notebook(cells: Vec<Value>, minor: u64) -> String {
    serde_json::to_string_pretty(&json!({
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": minor,
    }))
    .unwrap()
}

fn code(id: &str, source: &str, outputs: Vec<Value>) -> Value {
    json!({"cell_type": "code", "id": id, "source": source, "outputs": outputs,
           "execution_count": 1, "metadata": {}})
}

#[test]
fn cells_with_numbered_source_and_outputs() {
    let env = Env::new();
    let nb = notebook(
        vec![
            json!({"cell_type": "markdown", "id": "intro", "source": ["# Title\n", "Some text"], "metadata": {}}),
            code(
                "c1",
                "import math\nprint(math.pi)",
                vec![
                    json!({"output_type": "stream", "name": "stdout", "text": ["3.141592653589793\n"]}),
                    json!({"output_type": "execute_result", "execution_count": 1, "metadata": {},
                           "data": {"text/plain": ["42"], "image/png": "iVBORw0KGgo="}}),
                    json!({"output_type": "display_data", "metadata": {},
                           "data": {"image/png": "iVBORw0KGgo="}}),
                ],
            ),
        ],
        5,
    );
    env.write_file("analysis.ipynb", nb);
    let out = env.call("read", json!({"path": "analysis.ipynb"}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "<cell id=intro type=markdown>\n     1\t# Title\n     2\tSome text\n</cell>\n\
         <cell id=c1 type=code>\n     1\timport math\n     2\tprint(math.pi)\n<output>\n3.141592653589793\n42\n[2 image outputs not shown]\n</output>\n</cell>\n"
    );
    let d = out.data();
    assert_eq!(d["cells"][1]["id"], "c1");
    assert_eq!(d["cells"][1]["cell_type"], "code");
    assert_eq!(d["cells"][1]["source"], "import math\nprint(math.pi)");
    assert_eq!(
        d["cells"][1]["outputs_text"],
        "3.141592653589793\n42\n[2 image outputs not shown]\n"
    );
    assert_eq!(
        (&d["total_cells"], &d["nbformat"], &d["language"]),
        (&json!(2), &json!("4.5"), &json!("python"))
    );
}

#[test]
fn errors_and_tracebacks_are_kept_and_long_outputs_capped() {
    let env = Env::new();
    let chatter = "x".repeat(100);
    let stream: Vec<String> = (0..200).map(|_| format!("{chatter}\n")).collect();
    let nb = notebook(
        vec![code(
            "boom",
            "run()",
            vec![
                json!({"output_type": "stream", "name": "stdout", "text": stream}),
                json!({"output_type": "error", "ename": "ValueError", "evalue": "bad value",
                       "traceback": ["\u{1b}[0;31m---------\u{1b}[0m", "\u{1b}[0;31mValueError\u{1b}[0m: bad value"]}),
            ],
        )],
        5,
    );
    env.write_file("nb.ipynb", nb);
    let out = env.call("read", json!({"path": "nb.ipynb"}));
    out.assert_ok();
    let outputs = out.data()["cells"][0]["outputs_text"].as_str().unwrap();
    assert!(
        outputs.chars().count() <= 5_100,
        "{}",
        outputs.chars().count()
    );
    assert!(
        outputs.contains("… [output truncated: 20200 chars]\n"),
        "{outputs}"
    );
    assert!(
        outputs.ends_with("---------\nValueError: bad value\n"),
        "{outputs}"
    );
    assert!(
        out.output()
            .contains("ValueError: bad value\n</output>\n</cell>\n")
    );
}

#[test]
fn cells_without_ids_are_cell_n_and_offset_limit_count_cells() {
    let env = Env::new();
    let cells: Vec<Value> = (0..5)
        .map(|i| json!({"cell_type": "code", "source": format!("x = {i}"), "outputs": [], "metadata": {}, "execution_count": null}))
        .collect();
    env.write_file("old.ipynb", notebook(cells, 2));
    let out = env.call(
        "read",
        json!({"path": "old.ipynb", "offset": 2, "limit": 2}),
    );
    out.assert_ok();
    assert_eq!(
        out.output(),
        "<cell id=cell-1 type=code>\n     1\tx = 1\n</cell>\n<cell id=cell-2 type=code>\n     1\tx = 2\n</cell>\n\
         (showing cells 2-3 of 5; continue with offset=4)\n"
    );
    let d = out.data();
    assert_eq!(
        (&d["start_cell"], &d["end_cell"], &d["truncated"]),
        (&json!(2), &json!(3), &json!(true))
    );
    assert_eq!(d["cells"].as_array().unwrap().len(), 2);
    // a negative offset is the last cells
    let out = env.call("read", json!({"path": "old.ipynb", "offset": -1}));
    assert_eq!(
        out.output(),
        "<cell id=cell-4 type=code>\n     1\tx = 4\n</cell>\n"
    );
    // past the end
    let out = env.call("read", json!({"path": "old.ipynb", "offset": 9}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        "(offset 9 is past the end: old.ipynb has 5 cells)\n"
    );
}

#[test]
fn a_broken_notebook_is_shown_as_text_with_a_warning() {
    let env = Env::new();
    env.write_file("half.ipynb", "{\"cells\": [\n");
    let out = env.call("read", json!({"path": "half.ipynb"}));
    out.assert_ok();
    assert_eq!(out.output().lines().next(), Some("     1\t{\"cells\": ["));
    let w = out.data()["warnings"][0].as_str().unwrap();
    assert!(
        w.contains("is not an nbformat 4 notebook (not valid JSON"),
        "{w}"
    );
    env.write_file("v3.ipynb", "{\"nbformat\": 3, \"worksheets\": []}\n");
    let out = env.call("read", json!({"path": "v3.ipynb"}));
    assert!(
        out.data()["warnings"][0]
            .as_str()
            .unwrap()
            .contains("(nbformat 3)")
    );
}

#[test]
fn a_notebook_read_is_recorded() {
    let env = Env::new();
    env.write_file("n.ipynb", notebook(vec![], 5));
    let out = env.call("read", json!({"path": "n.ipynb"}));
    assert_eq!(out.output(), "(notebook without cells)\n");
    let s = env.run(&["session"], "");
    assert_eq!(s.data()["reads"][0]["path"], "n.ipynb");
}

#[test]
fn the_output_cap_cuts_between_cells_and_says_where_to_go_on() {
    let env = Env::new();
    let wide = "w".repeat(1900);
    let source: String = (0..30).map(|_| format!("{wide}\n")).collect(); // ~57,000 chars a cell
    let cells: Vec<Value> = (0..3)
        .map(|i| code(&format!("c{i}"), &source, vec![]))
        .collect();
    env.write_file("wide.ipynb", notebook(cells, 5));
    let out = env.call("read", json!({"path": "wide.ipynb"}));
    out.assert_ok();
    let text = out.output();
    assert!(text.chars().count() <= 100_000);
    assert!(
        text.ends_with("(showing cells 1-1 of 3, output limit reached; continue with offset=2)\n"),
        "{}",
        &text[text.len() - 200..]
    );
    assert_eq!(
        (&out.data()["end_cell"], &out.data()["truncated"]),
        (&json!(1), &json!(true))
    );
    // a first cell longer than the whole cap is shown in part, and the reader moves past it
    let huge: String = (0..80).map(|_| format!("{wide}\n")).collect();
    env.write_file(
        "huge.ipynb",
        notebook(
            vec![code("big", &huge, vec![]), code("next", "x", vec![])],
            5,
        ),
    );
    let out = env.call("read", json!({"path": "huge.ipynb"}));
    assert!(out.output().ends_with(
        "(cell 1 is longer than the output limit and was cut; its whole source is in data.cells; continue with offset=2)\n"
    ));
    assert_eq!(
        out.data()["cells"][0]["source"].as_str().unwrap().len(),
        huge.len()
    );
}

/// SPEC 31.4: a notebook's cells are capped (20,000), and its JSON values bounded by its size:
/// read and notebook_edit answer `too_large` with a small peak, never a GB of values.
#[test]
fn a_notebook_of_too_many_cells_or_values_is_too_large() {
    let env = Env::new();
    let cell = r#"{"cell_type":"markdown","metadata":{},"source":[]}"#;
    let many = format!(
        r#"{{"nbformat":4,"nbformat_minor":5,"metadata":{{}},"cells":[{}]}}"#,
        vec![cell; 20_001].join(",")
    );
    env.write_file("many.ipynb", &many);
    let out = env.call("read", serde_json::json!({"path": "many.ipynb"}));
    out.assert_err("too_large");
    // 16 MB of empty arrays in one cell's source: 8 M values were ~400 MB.
    let values = format!(
        r#"{{"nbformat":4,"nbformat_minor":5,"metadata":{{}},"cells":[{{"cell_type":"code","metadata":{{}},"outputs":[],"source":[{}]}}]}}"#,
        vec!["[]"; 4_000_000].join(",")
    );
    env.write_file("values.ipynb", &values);
    let input = env.dir.path().join("input.json");
    std::fs::write(
        &input,
        serde_json::json!({"path": "values.ipynb"}).to_string(),
    )
    .unwrap();
    let (stdout, rss) = env.peak_rss(&["read"], &input);
    assert!(
        stdout.contains("\"too_large\""),
        "{}",
        &stdout[..300.min(stdout.len())]
    );
    if let Some(kib) = rss {
        assert!(kib < 150 * 1024, "peak RSS {} MiB", kib / 1024);
    }
    // notebook_edit too (without the read check, which read's refusal would answer first).
    let out = env.run(
        &["--no-read-check", "notebook_edit"],
        &serde_json::json!({"path": "many.ipynb", "cell_id": "x", "new_source": "x"}).to_string(),
    );
    out.assert_err("too_large");
}
