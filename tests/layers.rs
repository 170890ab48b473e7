//! The import arrows of `src/`, read from its `crate::` and `super::` paths as a reviewer would
//! read them: they point down only. The app reaches the simulation through the session and
//! GPU buffers through `ViewSource`; the engines know nothing above them; no two files need
//! each other; clap stays in the command line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file's module path: `src/gpu/life.rs` is `gpu::life`, `src/engine/mod.rs` is `engine`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file without its unit tests (which may reach anywhere) and its comments.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b::c` path in `code`, as its segments.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut segments = Vec::new();
        let mut s = rest;
        loop {
            let n = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            if n == 0 {
                break;
            }
            segments.push(s[..n].to_string());
            if s[n..].starts_with("::") {
                s = &s[n + 2..];
            } else {
                break;
            }
        }
        out.push(segments);
    }
    out
}

struct Graph {
    /// module -> the modules it names.
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    /// module -> every path it names (for the rules on what a layer may reach).
    paths: BTreeMap<Vec<String>, Vec<Vec<String>>>,
    /// module -> its code.
    code: BTreeMap<Vec<String>, String>,
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let resolve = |parts: &[String]| -> Option<Vec<String>> {
        (1..=parts.len())
            .rev()
            .map(|k| parts[..k].to_vec())
            .find(|m| modules.contains(m))
    };
    let mut g = Graph {
        edges: BTreeMap::new(),
        paths: BTreeMap::new(),
        code: BTreeMap::new(),
    };
    for f in &files {
        let me = module_of(&src, f);
        let code = code_of(f);
        let mut targets = BTreeSet::new();
        let paths = crate_paths(&code);
        for p in &paths {
            if let Some(t) = resolve(p).filter(|t| *t != me) {
                targets.insert(t);
            }
        }
        // `super::x` from a.rs in folder m is m::x (or m).
        let parent = &me[..me.len().saturating_sub(1)];
        let mut rest = code.as_str();
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + "super::".len()..];
            let n = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let mut sibling = parent.to_vec();
            sibling.push(rest[..n].to_string());
            let t = if modules.contains(&sibling) {
                sibling
            } else {
                parent.to_vec()
            };
            if t != me && modules.contains(&t) {
                targets.insert(t);
            }
        }
        g.edges.insert(me.clone(), targets);
        g.paths.insert(me.clone(), paths);
        g.code.insert(me, code);
    }
    g
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_two_files_need_each_other() {
    let g = graph();
    // The reading sees the arrows there are (else an empty graph would pass).
    let has = |a: &[&str], b: &[&str]| {
        let a: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        let b: Vec<String> = b.iter().map(|s| s.to_string()).collect();
        g.edges.get(&a).is_some_and(|t| t.contains(&b))
    };
    assert!(has(&["app", "apply"], &["session", "setup"]));
    assert!(has(&["gpu", "life"], &["engine"]));
    assert!(has(&["gpu", "life"], &["gpu", "census"]));
    // Tarjan's strongly connected components.
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        cycles: Vec<Vec<String>>,
    }
    fn strong<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        let g = s.g;
        for w in g.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                strong(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(name(w));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.cycles.push(comp);
            }
        }
    }
    let mut s = State {
        g: &g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        cycles: Vec::new(),
    };
    for v in g.edges.keys() {
        if !s.index.contains_key(v) {
            strong(&mut s, v);
        }
    }
    assert!(
        s.cycles.is_empty(),
        "files that need each other: {:?}",
        s.cycles
    );
}

/// What a module under `layer` names that it must not.
fn reaching(g: &Graph, layer: &[&str], forbidden: &[&[&str]]) -> Vec<String> {
    let mut bad = Vec::new();
    for (m, paths) in &g.paths {
        if !layer.iter().any(|l| m.first().is_some_and(|f| f == l)) {
            continue;
        }
        for p in paths {
            for f in forbidden {
                if p.len() >= f.len() && p.iter().zip(f.iter()).all(|(a, b)| a == b) {
                    bad.push(format!("{} names crate::{}", name(m), p.join("::")));
                }
            }
        }
    }
    bad
}

#[test]
fn the_app_reaches_the_simulation_only_through_the_session() {
    let g = graph();
    let bad = reaching(
        &g,
        &["app"],
        &[
            &["cpu"],
            &["registry"],
            &["gpu", "life"],
            &["gpu", "tiles"],
            &["gpu", "tabled"],
            &["gpu", "elementary"],
            &["gpu", "census"],
            &["gpu", "grid"],
            &["cli"],
        ],
    );
    assert!(bad.is_empty(), "{bad:#?}");
    for (m, code) in &g.code {
        if m.first().is_some_and(|f| f == "app" || f == "session") {
            assert!(
                !code.contains("as_any") && !code.contains("downcast"),
                "{} downcasts",
                name(m)
            );
        }
        if m.first().is_some_and(|f| f == "app") {
            // The session's reads that wait for the piece in progress are named `*_now`;
            // the app has no way to the engine's lock itself.
            assert!(
                !code.contains("with_engine") && !code.contains("try_engine"),
                "{} takes the engine's lock",
                name(m)
            );
        }
    }
}

#[test]
fn the_engines_know_nothing_above_them() {
    let g = graph();
    let above: &[&[&str]] = &[
        &["session"],
        &["cli"],
        &["app"],
        &["registry"],
        &["analysis"],
        &["check"],
    ];
    let bad = reaching(
        &g,
        &[
            "engine", "cpu", "gpu", "tiles", "grid", "geometry", "rule", "pattern",
        ],
        above,
    );
    assert!(bad.is_empty(), "{bad:#?}");
    // The layers below the engine seam do not name it either.
    let bad = reaching(
        &g,
        &["tiles", "grid", "geometry", "rule", "pattern"],
        &[&["engine"], &["cpu"], &["gpu"]],
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn clap_stays_in_the_command_line() {
    let g = graph();
    for (m, code) in &g.code {
        let cli = m.first().is_some_and(|f| f == "cli" || f == "main");
        assert!(cli || !code.contains("clap::"), "{} derives clap", name(m));
    }
}
