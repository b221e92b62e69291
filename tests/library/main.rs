//! The library as a harness uses it (SPEC 30.1). This is a crate of its own: it sees only
//! `loopr_tool::…`'s public paths, so it compiles against exactly the names the SPEC lists.

mod api;
mod custom_tool;
mod parity;
mod threads;
mod typed;

use loopr_tool::Toolbox;
use std::path::PathBuf;

/// A scratch project: a root with files in it, a state dir beside it, and an empty catalog
/// (so no catalog of the machine's user applies).
pub struct Scratch {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub state: PathBuf,
    pub config: PathBuf,
}

#[allow(clippy::new_without_default)]
impl Scratch {
    pub fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let (root, state, config) = (
            base.join("root"),
            base.join("state"),
            base.join("catalog.toml"),
        );
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(&config, "").unwrap();
        Scratch {
            dir,
            root,
            state,
            config,
        }
    }

    pub fn write(&self, rel: &str, content: &str) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).unwrap()
    }

    /// The settings every test starts from.
    pub fn builder(&self) -> loopr_tool::ToolboxBuilder {
        Toolbox::builder()
            .helper(testkit::bin())
            .root(&self.root)
            .state_dir(&self.state)
            .config(&self.config)
    }

    pub fn toolbox(&self) -> Toolbox {
        self.builder().build().unwrap()
    }

    /// A catalog with `text`, used by the next `builder()`.
    pub fn catalog(&self, text: &str) {
        std::fs::write(&self.config, text).unwrap();
    }
}
