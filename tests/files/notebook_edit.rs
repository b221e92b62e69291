//! notebook_edit (SPEC 18.3, 24.2, 24.7) through the binary: one cell spliced, every other byte
//! as it was, in the file's own style; errors; undo; the NotebookEdit alias.

use serde_json::{Value, json};
use testkit::Env;

/// A notebook as Jupyter writes it: indent 1, sorted keys, non-ASCII kept, trailing newline.
const NB: &str = r##"{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Title é\n",
    "text"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "calc",
   "metadata": {
    "tags": []
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "42\n"
     ]
    }
   ],
   "source": [
    "print(6 * 7)"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "last",
   "metadata": {},
   "outputs": [],
   "source": []
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
"##;

fn setup(content: &str) -> Env {
    let env = Env::new();
    env.write_file("nb.ipynb", content);
    env.call("read", json!({"path": "nb.ipynb"})).assert_ok();
    env
}

fn text(env: &Env) -> String {
    String::from_utf8(env.read_file("nb.ipynb")).unwrap()
}

#[test]
fn replace_changes_that_cell_only_and_clears_its_outputs() {
    let env = setup(NB);
    let out = env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "calc", "new_source": "x = 1\nprint(x)\n"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["cell_id"], "calc");
    let expected = NB.replace(
        r#"   "execution_count": 3,
   "id": "calc",
   "metadata": {
    "tags": []
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "42\n"
     ]
    }
   ],
   "source": [
    "print(6 * 7)"
   ]"#,
        r#"   "execution_count": null,
   "id": "calc",
   "metadata": {
    "tags": []
   },
   "outputs": [],
   "source": [
    "x = 1\n",
    "print(x)\n"
   ]"#,
    );
    assert_ne!(expected, NB);
    assert_eq!(text(&env), expected);
    // the result is still the notebook, and the session knows it: undo takes it back
    let u = env.call("undo", json!({}));
    u.assert_ok();
    assert_eq!(text(&env), NB);
}

#[test]
fn insert_and_delete_keep_every_other_byte() {
    let env = setup(NB);
    let out = env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "intro", "edit_mode": "insert", "cell_type": "markdown", "new_source": "## Part two"}),
    );
    out.assert_ok();
    let id = out.data()["cell_id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 8, "a fresh id (nbformat 4.5)");
    let after = text(&env);
    let v: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(v["cells"].as_array().unwrap().len(), 4);
    assert_eq!(v["cells"][1]["id"], id.as_str());
    assert_eq!(v["cells"][1]["source"], json!(["## Part two"]));
    let inserted = format!(
        "  {{\n   \"cell_type\": \"markdown\",\n   \"id\": \"{id}\",\n   \"metadata\": {{}},\n   \"source\": [\n    \"## Part two\"\n   ]\n  }},\n"
    );
    let first_end = NB.find("  },\n").unwrap() + "  },\n".len();
    assert_eq!(
        after,
        format!("{}{inserted}{}", &NB[..first_end], &NB[first_end..])
    );
    // deleting it again gives the original back, byte for byte
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": id, "edit_mode": "delete"}),
    )
    .assert_ok();
    assert_eq!(text(&env), NB);
    // delete the last cell, then the first
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "last", "edit_mode": "delete"}),
    )
    .assert_ok();
    let last = ",\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"last\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": []\n  }";
    assert!(NB.contains(last));
    assert_eq!(text(&env), NB.replace(last, ""));
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "cell-0", "edit_mode": "delete"}),
    )
    .assert_ok();
    let v: Value = serde_json::from_str(&text(&env)).unwrap();
    assert_eq!(v["cells"][0]["id"], "calc");
    assert_eq!(v["metadata"]["kernelspec"]["name"], "python3");
}

#[test]
fn insert_first_into_an_old_notebook_without_ids_and_an_empty_one() {
    let old = r#"{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": ["a = 1"]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 2
}
"#;
    let env = setup(old);
    let out = env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "edit_mode": "insert", "cell_type": "code", "new_source": "import os"}),
    );
    out.assert_ok();
    assert_eq!(out.data()["cell_id"], "cell-0");
    let v: Value = serde_json::from_str(&text(&env)).unwrap();
    assert!(v["cells"][0].get("id").is_none(), "no ids before 4.5");
    assert_eq!(v["cells"][0]["source"], json!(["import os"]));
    assert_eq!(v["cells"][1]["source"], json!(["a = 1"]));
    // addressed as cell-N
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "cell-1", "new_source": "a = 2"}),
    )
    .assert_ok();
    let v: Value = serde_json::from_str(&text(&env)).unwrap();
    assert_eq!(v["cells"][1]["source"], json!(["a = 2"]));

    let empty =
        "{\n \"cells\": [],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";
    let env = setup(empty);
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "edit_mode": "insert", "cell_type": "markdown", "new_source": "hi"}),
    )
    .assert_ok();
    let t = text(&env);
    assert!(
        t.starts_with("{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n"),
        "{t}"
    );
    assert!(
        t.ends_with("  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"),
        "{t}"
    );
}

#[test]
fn a_notebook_written_with_ascii_escapes_stays_so() {
    let escaped = "{\"cells\": [{\"cell_type\": \"markdown\", \"id\": \"m\", \"metadata\": {}, \"source\": [\"caf\\u00e9\"]}], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}";
    let env = setup(escaped);
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "m", "new_source": "naïve 😀"}),
    )
    .assert_ok();
    let t = text(&env);
    assert!(t.is_ascii(), "{t}");
    assert!(t.contains("na\\u00efve \\ud83d\\ude00"), "{t}");
    let v: Value = serde_json::from_str(&t).unwrap();
    assert_eq!(v["cells"][0]["source"], json!(["naïve 😀"]));
}

#[test]
fn errors_name_the_field_and_change_nothing() {
    let env = setup(NB);
    let out = env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "nope", "new_source": "x"}),
    );
    out.assert_err("invalid_input");
    assert_eq!(out.json["error"]["field"], "cell_id");
    assert!(out.output().contains("intro, calc, last"));
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "edit_mode": "insert", "new_source": "x"}),
    )
    .assert_err("invalid_input");
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "calc"}),
    )
    .assert_err("invalid_input");
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "new_source": "x"}),
    )
    .assert_err("invalid_input");
    env.call(
        "notebook_edit",
        json!({"path": "gone.ipynb", "cell_id": "calc", "new_source": "x"}),
    )
    .assert_err("not_found");
    env.write_file("plain.ipynb", "not json");
    env.call("read", json!({"path": "plain.ipynb"})).assert_ok();
    env.call(
        "notebook_edit",
        json!({"path": "plain.ipynb", "cell_id": "a", "new_source": "x"}),
    )
    .assert_err("invalid_input");
    // a change since the read
    env.write_file("nb.ipynb", NB.replace("Title", "Titre"));
    env.call(
        "notebook_edit",
        json!({"path": "nb.ipynb", "cell_id": "calc", "new_source": "x"}),
    )
    .assert_err("stale_read");
    assert_eq!(text(&env), NB.replace("Title", "Titre"));
    // never read in this session
    let fresh = Env::new();
    fresh.write_file("nb.ipynb", NB);
    fresh
        .call(
            "notebook_edit",
            json!({"path": "nb.ipynb", "cell_id": "calc", "new_source": "x"}),
        )
        .assert_err("not_read");
}

#[test]
fn edit_and_write_leave_notebooks_to_notebook_edit() {
    let env = setup(NB);
    let out = env.call(
        "edit",
        json!({"path": "nb.ipynb", "old_string": "print(6 * 7)", "new_string": "print(7)"}),
    );
    out.assert_err("invalid_input");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("notebook_edit")
    );
    env.call("write", json!({"path": "nb.ipynb", "content": "{}"}))
        .assert_err("invalid_input");
    assert_eq!(text(&env), NB);
}

#[test]
fn claude_codes_notebook_edit_names() {
    let env = setup(NB);
    let out = env.run(
        &["call"],
        &json!({"name": "NotebookEdit", "input": {"notebook_path": env.path("nb.ipynb"), "cell_id": "intro", "new_source": "# New", "cell_type": "markdown", "edit_mode": "replace"}}).to_string(),
    );
    out.assert_ok();
    assert_eq!(out.json["tool"], "notebook_edit");
    let v: Value = serde_json::from_str(&text(&env)).unwrap();
    assert_eq!(v["cells"][0]["source"], json!(["# New"]));
}
