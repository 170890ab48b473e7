//! Golly's rule files: `.rule` files with a `@TABLE` or a `@TREE`, as Golly's RuleLoader
//! algorithm runs them, with up to 256 states.
//!
//! A loaded rule is a [`LoadedRule`], a small handle into a store of the session's loaded
//! rules, so that a [`Rule`](super::Rule) stays a plain value. Every rule compiles to one
//! [`RuleTree`], which every engine walks.
//!
//! A rule name is looked for as Golly looks for it, as `<name>.rule`:
//! 1. in the folder of the pattern being read, and an `@RULE` embedded in that pattern;
//! 2. among the rules this session has loaded;
//! 3. in the user's folders: `--rules DIR`, then each folder of `LIFELAB_RULES` (separated
//!    by `:`);
//! 4. in Golly's own rules folder, `/usr/share/golly/Rules` and the like, when it exists.
//!
//! `JvN29`, `Nobili32` and `Hutton32`, which Golly runs with its JvN algorithm, are built in
//! ([`jvn`]) and come before any file.

mod file;
pub mod jvn;
pub mod table;
pub mod tree;

use crate::rule::map::MapRule;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, RwLock};

pub use tree::{RuleTree, Shape};

/// What is wrong with a rule file, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct FileError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl FileError {
    pub fn new(file: &str, line: usize, column: usize, message: String) -> Self {
        Self {
            file: file.to_string(),
            line,
            column,
            message,
        }
    }
}

/// A rule read from a rule file: its name, its tree and its colours.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleDef {
    pub name: String,
    pub states: u16,
    /// Shared with the engines that walk it (HashLife over N states keeps it by this handle).
    pub tree: Arc<RuleTree>,
    /// The rule as a table of the 3x3 block, where it is one (`RuleTree::block_rule`): the
    /// two-state engines run it as they run a MAP rule.
    pub block: Option<MapRule>,
    /// The colour of each state (state 0 first).
    pub colours: Vec<[u8; 3]>,
    /// Whether the file has icons (lifelab draws the colours).
    pub has_icons: bool,
    /// Where it came from: a file's path, or a pattern that embeds it.
    pub source: String,
}

/// A loaded rule: a handle into the session's store. Equal handles are the same rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoadedRule {
    id: u32,
    pub states: u16,
}

impl LoadedRule {
    /// The rule itself.
    pub fn def(self) -> Arc<RuleDef> {
        STORE.read().unwrap_or_else(|e| e.into_inner()).defs[self.id as usize].clone()
    }

    pub fn name(self) -> String {
        self.def().name.clone()
    }

    pub fn shape(self) -> Shape {
        self.def().tree.shape
    }
}

impl fmt::Display for LoadedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.def().name)
    }
}

#[derive(Default)]
struct Store {
    defs: Vec<Arc<RuleDef>>,
    /// The rule each name stands for now: the last one loaded under it.
    by_name: HashMap<String, u32>,
    /// Files already read, with the length and time they had.
    by_path: HashMap<PathBuf, (u64, Option<std::time::SystemTime>, u32)>,
}

static STORE: LazyLock<RwLock<Store>> = LazyLock::new(Default::default);
static USER_DIRS: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());

thread_local! {
    /// The folders of the patterns being read on this thread, innermost last.
    static FOLDERS: RefCell<Vec<PathBuf>> = const { RefCell::new(Vec::new()) };
    /// Rules embedded in the patterns being read: they come before any file.
    static EMBEDDED: RefCell<Vec<(String, LoadedRule)>> = const { RefCell::new(Vec::new()) };
}

/// Golly's own rules folders, where a Golly install keeps them.
pub const SYSTEM_DIRS: [&str; 2] = ["/usr/share/golly/Rules", "/usr/local/share/golly/Rules"];

/// Sets the user's rules folders (`--rules DIR`), searched before `LIFELAB_RULES`.
pub fn set_user_dirs(dirs: Vec<PathBuf>) {
    *USER_DIRS.write().unwrap_or_else(|e| e.into_inner()) = dirs;
}

/// Runs `f` with `dir` searched first for rule files: the folder of the pattern being read.
pub fn in_folder<T>(dir: &Path, f: impl FnOnce() -> T) -> T {
    FOLDERS.with(|s| s.borrow_mut().push(dir.to_path_buf()));
    let out = f();
    FOLDERS.with(|s| s.borrow_mut().pop());
    out
}

/// Runs `f` with `rule`, embedded in the pattern being read, standing for its name first.
pub fn with_embedded<T>(rule: LoadedRule, f: impl FnOnce() -> T) -> T {
    EMBEDDED.with(|s| s.borrow_mut().push((rule.name(), rule)));
    let out = f();
    EMBEDDED.with(|s| s.borrow_mut().pop());
    out
}

/// Every folder searched after the pattern's and the session's rules, in order.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = USER_DIRS.read().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(v) = std::env::var_os("LIFELAB_RULES") {
        dirs.extend(std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()));
    }
    dirs.extend(SYSTEM_DIRS.iter().map(PathBuf::from).filter(|p| p.is_dir()));
    dirs
}

/// The file name Golly looks for: the name with `/` and `\` made `_`, and `.rule`.
fn file_name(name: &str) -> String {
    format!("{}.rule", name.replace(['/', '\\'], "_"))
}

/// The rule a name stands for: `Ok(None)` when no rule file of that name is found, an error
/// naming the file, line and column when one is found but is malformed.
pub fn resolve(name: &str) -> Result<Option<LoadedRule>, FileError> {
    let embedded = EMBEDDED.with(|s| {
        s.borrow()
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|e| e.1)
    });
    if embedded.is_some() {
        return Ok(embedded);
    }
    // Von Neumann's automata are Golly's JvN algorithm, not rule files.
    if let Some(rule) = jvn::builtin(name) {
        return Ok(Some(rule));
    }
    let folder = FOLDERS.with(|s| s.borrow().last().cloned());
    if let Some(dir) = folder
        && let Some(path) = find_in(&dir, name)
    {
        return load_path(&path, name).map(Some);
    }
    if let Some(rule) = loaded(name) {
        return Ok(Some(rule));
    }
    for dir in search_dirs() {
        if let Some(path) = find_in(&dir, name) {
            return load_path(&path, name).map(Some);
        }
    }
    Ok(None)
}

/// The rule the session loaded last under this name.
pub fn loaded(name: &str) -> Option<LoadedRule> {
    let store = STORE.read().unwrap_or_else(|e| e.into_inner());
    store.by_name.get(name).map(|&id| LoadedRule {
        id,
        states: store.defs[id as usize].states,
    })
}

/// `<name>.rule` in `dir`: the exact name, else one that differs only in case.
fn find_in(dir: &Path, name: &str) -> Option<PathBuf> {
    let wanted = file_name(name);
    let exact = dir.join(&wanted);
    if exact.is_file() {
        return Some(exact);
    }
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|f| f.to_str())
                .is_some_and(|f| f.eq_ignore_ascii_case(&wanted))
                && p.is_file()
        })
}

/// Loads a rule file (once: a file read before and unchanged since is not read again).
pub fn load_path(path: &Path, name: &str) -> Result<LoadedRule, FileError> {
    let label = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| FileError::new(&label, 1, 1, e.to_string()))?;
    let stamp = (meta.len(), meta.modified().ok());
    {
        let store = STORE.read().unwrap_or_else(|e| e.into_inner());
        if let Some(&(len, time, id)) = store.by_path.get(path)
            && (len, time) == stamp
        {
            drop(store);
            let mut store = STORE.write().unwrap_or_else(|e| e.into_inner());
            let states = store.defs[id as usize].states;
            let def_name = store.defs[id as usize].name.clone();
            store.by_name.insert(def_name, id);
            store.by_name.insert(name.to_string(), id);
            return Ok(LoadedRule { id, states });
        }
    }
    const MAX_RULE_FILE: u64 = 64 << 20;
    if meta.len() > MAX_RULE_FILE {
        return Err(FileError::new(
            &label,
            1,
            1,
            format!(
                "the rule file is {} bytes, more than the {MAX_RULE_FILE} a rule file may be",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| FileError::new(&label, 1, 1, e.to_string()))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = good.len() - good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        FileError::new(
            &label,
            line,
            column,
            format!("byte 0x{:02x} is not UTF-8 text", bytes[e.valid_up_to()]),
        )
    })?;
    let def = file::parse(text, &label, 1, name)?;
    let rule = register(def, Some(name));
    let mut store = STORE.write().unwrap_or_else(|e| e.into_inner());
    store
        .by_path
        .insert(path.to_path_buf(), (stamp.0, stamp.1, rule.id));
    Ok(rule)
}

/// Reads the `@RULE` text a pattern embeds after its cells (Golly 3.3 allows it), from line
/// `first_line` of `file`, and makes its name stand for it.
pub fn load_embedded(text: &str, file: &str, first_line: usize) -> Result<LoadedRule, FileError> {
    let def = file::parse(text, file, first_line, "")?;
    if def.name.is_empty() {
        return Err(FileError::new(
            file,
            first_line,
            1,
            "an embedded rule starts with '@RULE name'".into(),
        ));
    }
    Ok(register(def, None))
}

/// Reads rule-file text (a `.rule` file's contents) and makes its name stand for it.
pub fn load_text(text: &str, label: &str) -> Result<LoadedRule, FileError> {
    load_embedded(text, label, 1)
}

/// Adds a rule to the store (an equal one already there is reused) under its name, and
/// under `alias` too (the name it was asked for).
fn register(def: RuleDef, alias: Option<&str>) -> LoadedRule {
    let mut store = STORE.write().unwrap_or_else(|e| e.into_inner());
    let states = def.states;
    let id = match store
        .defs
        .iter()
        .position(|d| d.name == def.name && d.tree == def.tree && d.colours == def.colours)
    {
        Some(i) => i as u32,
        None => {
            store.defs.push(Arc::new(def));
            store.defs.len() as u32 - 1
        }
    };
    let name = store.defs[id as usize].name.clone();
    store.by_name.insert(name, id);
    if let Some(a) = alias {
        store.by_name.insert(a.to_string(), id);
    }
    LoadedRule { id, states }
}
