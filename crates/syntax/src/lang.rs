//! The built-in languages (SPEC 26.1): which grammar a file takes, by extension, then by
//! shebang; `.h` is C unless the file holds C++ syntax.

use std::path::Path;
use tree_sitter::Language;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
}

impl Lang {
    pub const ALL: [Lang; 9] = [
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Go,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
    ];

    /// The name `language` takes (SPEC 26.7).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::C => "c",
            Lang::Cpp => "cpp",
        }
    }

    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The grammar: static data in the binary, paged in when first used.
    pub fn grammar(self) -> Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }

    /// How qualified names join (SPEC 26.7): `::` for Rust and C++, `.` for the others.
    pub fn joiner(self) -> &'static str {
        match self {
            Lang::Rust | Lang::Cpp => "::",
            _ => ".",
        }
    }

    /// By extension alone; `.h` says C here (see `detect`).
    pub fn by_extension(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?;
        Some(match ext {
            "rs" => Lang::Rust,
            "py" | "pyi" | "pyw" => Lang::Python,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" | "inl" => {
                Lang::Cpp
            }
            _ => return None,
        })
    }

    /// By a `#!` line: the interpreter's name, through `env`.
    pub fn by_shebang(src: &[u8]) -> Option<Lang> {
        let rest = src.strip_prefix(b"#!")?;
        let line = rest.split(|&b| b == b'\n').next()?;
        let line = std::str::from_utf8(line).ok()?;
        let mut words = line.split_whitespace();
        let mut prog = words.next()?.rsplit('/').next()?;
        if prog == "env" {
            prog = words.find(|w| !w.starts_with('-'))?;
        }
        let prog = prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        Some(match prog {
            "python" | "pypy" => Lang::Python,
            "node" | "nodejs" => Lang::JavaScript,
            "deno" | "ts-node" | "bun" | "tsx" => Lang::TypeScript,
            _ => return None,
        })
    }

    /// The language of a file: its extension, then its shebang; a `.h` that parses with fewer
    /// errors as C++ than as C is C++.
    pub fn detect(path: &Path, src: &[u8]) -> Option<Lang> {
        let lang = Lang::by_extension(path).or_else(|| {
            // Only files without an extension of their own are looked into.
            path.extension().is_none().then(|| Lang::by_shebang(src))?
        })?;
        if lang == Lang::C && path.extension().is_some_and(|e| e == "h") && holds_cpp(src) {
            return Some(Lang::Cpp);
        }
        Some(lang)
    }
}

/// Whether a header holds C++ syntax: its C++ parse has no more errors than its C parse and
/// holds nodes only C++ has. Fewer errors alone would not do: C parses `class A { public: … }`
/// without an error, as an old-style function with a label.
fn holds_cpp(src: &[u8]) -> bool {
    const WORDS: [&[u8]; 6] = [
        b"class ",
        b"namespace ",
        b"template",
        b"public:",
        b"::",
        b"virtual ",
    ];
    const CPP_ONLY: [&str; 7] = [
        "class_specifier",
        "namespace_definition",
        "template_declaration",
        "access_specifier",
        "qualified_identifier",
        "reference_declarator",
        "virtual",
    ];
    let hinted = WORDS.iter().any(|w| memchr::memmem::find(src, w).is_some());
    if !hinted || src.len() as u64 > crate::MAX_BYTES {
        return false;
    }
    let (Ok(c), Ok(cpp)) = (crate::parse(Lang::C, src), crate::parse(Lang::Cpp, src)) else {
        return false;
    };
    if crate::check::count(&cpp) > crate::check::count(&c) {
        return false;
    }
    let mut found = false;
    crate::walk(&cpp, |n, _| {
        found |= CPP_ONLY.contains(&n.kind());
        !found
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_with_cpp_syntax_is_cpp() {
        let cpp = b"class Widget {\n public:\n  int size;\n};\n";
        assert_eq!(Lang::detect(Path::new("a.h"), cpp), Some(Lang::Cpp));
        let c = b"struct point { int x; };\nint origin_x(void);\n";
        assert_eq!(Lang::detect(Path::new("a.h"), c), Some(Lang::C));
    }
}
