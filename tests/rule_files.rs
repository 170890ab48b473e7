//! Golly's rule files (`.rule`, with `@TABLE` or `@TREE`): how they are read, where they are
//! found, and that every engine that takes them runs them as Golly does. Expected values come
//! from `bgolly` (Golly 3.3's RuleLoader) and from transitions worked out by hand.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::cli::{json, json_error, lifelab};
use common::in_ci;
use lifelab::engine::{Progress, Universe};
use lifelab::rule::Rule;
use lifelab::rule::loader;

const GOLLY_RULES: &str = "/usr/share/golly/Rules";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn bgolly_found() -> bool {
    let found =
        Command::new("bgolly").arg("-h").output().is_ok() && Path::new(GOLLY_RULES).is_dir();
    assert!(
        found || !in_ci(),
        "bgolly and Golly's rules are needed in CI (apt-get install golly)"
    );
    if !found {
        eprintln!("skipped: bgolly is not installed");
    }
    found
}

/// bgolly's population at generation `gens`, with rule files from `rules`.
fn golly(file: &Path, rules: &Path, gens: u64) -> u64 {
    let rules = format!("{}/", rules.display());
    golly_with(&["-a", "RuleLoader", "-s", &rules], file, gens)
}

/// bgolly's population at generation `gens`, run with `algorithm` (its arguments).
fn golly_with(algorithm: &[&str], file: &Path, gens: u64) -> u64 {
    let out = Command::new("bgolly")
        .args(algorithm)
        .args(["-m", &gens.to_string()])
        .arg(file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    let (g, p) = last
        .split_once(':')
        .unwrap_or_else(|| panic!("bgolly: {text}"));
    assert_eq!(
        g.trim().replace(',', ""),
        gens.to_string(),
        "bgolly: {text}"
    );
    p.trim().replace(',', "").parse().unwrap()
}

/// `run --json` of the pattern file at `path` for `gens` generations, on `auto`'s engine.
fn run_auto(path: &Path, gens: u64) -> serde_json::Value {
    let gens = gens.to_string();
    json(&[
        "run",
        "--json",
        "--gens",
        &gens,
        "--pattern",
        path.to_str().unwrap(),
    ])
}

/// A pattern file as the command line sets it up, with no flag but the file.
fn simulation(file: &Path) -> lifelab::session::setup::Simulation {
    lifelab::session::setup::Spec {
        rule: None,
        pattern: Some(file.display().to_string()),
        random: None,
        seed: 1,
        size: None,
        start: None,
        plane: false,
    }
    .build()
    .unwrap()
}

/// `auto`'s engine and the rule-tree engine, each holding `sim`'s start, for a run of `gens`.
fn auto_and_rule_tree(
    sim: &lifelab::session::setup::Simulation,
    gens: u64,
) -> (
    Box<dyn lifelab::engine::Engine>,
    Box<dyn lifelab::engine::Engine>,
) {
    let engine = |name| sim.engine(name, gens, Default::default()).unwrap().0;
    (engine("auto"), engine("rule-tree"))
}

fn population(args: &[&str]) -> u64 {
    json(args)["population"].as_u64().unwrap()
}

/// A random multi-state soup as RLE: states 1.. as Golly's letters.
fn soup_rle(w: u32, h: u32, states: u16, rule: &str, seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rows = Vec::new();
    for _ in 0..h {
        let mut row = String::new();
        for _ in 0..w {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let s = if x.is_multiple_of(2) {
                0
            } else {
                1 + (x >> 8) % (states as u64 - 1)
            };
            row.push(if s == 0 {
                '.'
            } else {
                (b'A' + s as u8 - 1) as char
            });
        }
        rows.push(row);
    }
    format!("x = {w}, y = {h}, rule = {rule}\n{}!\n", rows.join("$"))
}

#[test]
fn golly_s_table_example_binds_variables_and_rotates() {
    // The example of Golly's help (formats.html): signals 2 and 3 pass alongside a wire 1.
    // `a,0,b,1,c,b` with a, b, c in {2,3}: a cell in state 2 or 3 whose north is 0, whose
    // south is 1 and whose west is 2 or 3 takes its east's state; and so in each rotation.
    let text = "@RULE SignalsTest\n@TABLE\nn_states:4\nneighborhood:vonNeumann\nsymmetries:rotate4\nvar a={2,3}\nvar b={2,3}\nvar c={2,3}\na,0,b,1,c,b\n";
    let rule = loader::load_text(text, "signals.rule").unwrap();
    let tree = &rule.def().tree;
    // The tree's order is N, W, E, S, C.
    let next = |n: u8, w: u8, e: u8, s: u8, c: u8| tree.next(&[n, w, e, s, c]);
    assert_eq!(next(0, 2, 3, 1, 2), 3);
    assert_eq!(next(0, 3, 2, 1, 3), 2);
    // Rotated a quarter turn: north 1... the wire is now to the west, the empty side east.
    // Table C,N,E,S,W = a,0,b,1,c rotated: N<-W, E<-N, S<-E, W<-S gives C=a N=c E=0 S=b W=1.
    assert_eq!(next(2, 1, 0, 3, 2), 3);
    // Not matched: the cell stays as it is.
    assert_eq!(next(0, 2, 3, 0, 2), 2);
    assert_eq!(next(1, 1, 1, 1, 0), 0);
}

#[test]
fn malformed_rule_files_are_refused_with_file_line_and_column() {
    let cases: &[(&str, &str, (usize, usize))] = &[
        (
            "@RULE A\n@TABLE\nn_states:3\nneighborhood:Moore\nsymmetries:none\n0,1,x,0,0,0,0,0,0,1\n",
            "'x' is neither a state nor a variable",
            (6, 5),
        ),
        (
            "@RULE A\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n0,1,0,0,7,1\n",
            "state 7 is out of range",
            (6, 9),
        ),
        (
            "@RULE A\n@TABLE\nn_states:300\n",
            "2 to 256 states",
            (3, 10),
        ),
        (
            "@RULE A\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n0,1,0,0,0,1\n0,1,0,0,0,2\n",
            "contradict",
            (7, 1),
        ),
        (
            "@RULE A\n@TABLE\nn_states:3\nneighborhood:Margolus\n",
            "neighborhood 'Margolus'",
            (4, 14),
        ),
        (
            "@RULE A\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\nvar a={1,2}\n0,1,0,0,0,a\n",
            "not bound",
            (7, 11),
        ),
        (
            "@RULE A\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=2\n1 0 1\n2 0 5\n",
            "node 5 is not defined yet",
            (7, 5),
        ),
        (
            "@RULE A\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=2\n1 0 1\n3 0 0\n",
            "has depth 1",
            (7, 3),
        ),
        // Not digits, and past u32: a node line's numbers are read byte by byte, and anything
        // else goes back to the token-by-token reading, which names it.
        (
            "@RULE A\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=2\n1 0 1\n2 0 x\n",
            "'x' is not a whole number",
            (7, 5),
        ),
        (
            "@RULE A\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=2\n1 0 99999999999\n",
            "'99999999999' is not a whole number",
            (6, 5),
        ),
        (
            "@RULE A\n@COLORS\n1 0 0 255\n",
            "no @TABLE or @TREE",
            (1, 1),
        ),
        // A header after a variable would change what the lines above it meant (state 2 was
        // once read as the variable's set, and state 3 panicked).
        (
            "@RULE A\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:none\nvar a={0,1}\nn_states:4\n3,0,0,0,0,1\n",
            "n_states comes after a variable or transition",
            (7, 1),
        ),
        (
            "@RULE A\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:none\n0,1,0,0,0,1\nneighborhood:Moore\n",
            "neighborhood comes after a variable or transition",
            (7, 1),
        ),
    ];
    for (text, words, (line, column)) in cases {
        let e = loader::load_text(text, "bad.rule").expect_err(text);
        assert!(e.message.contains(words), "{text}: {e}");
        assert_eq!((e.line, e.column), (*line, *column), "{text}: {e}");
        assert_eq!(e.file, "bad.rule");
    }
    // On the command line the error names the file on disk.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Broken.rule"), "@RULE Broken\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:none\n0,1,1,1,0,0,0,0,0,9\n").unwrap();
    let pattern = dir.path().join("p.rle");
    std::fs::write(&pattern, "x = 1, y = 1, rule = Broken\no!\n").unwrap();
    let e = json_error(&[
        "run",
        "--json",
        "--gens",
        "1",
        "--pattern",
        pattern.to_str().unwrap(),
    ]);
    assert!(
        e.contains("Broken.rule:6:19") && e.contains("state 9"),
        "{e}"
    );
}

/// A folder holding `TwoStates.rule`, a von Neumann rule in which a dead cell under a live one
/// is born and nothing dies, and `p.rle`, one cell of it (the pattern's path).
fn two_state_column() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("TwoStates.rule"),
        "@RULE TwoStates\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:none\n0,1,0,0,0,1\n",
    )
    .unwrap();
    let pattern = dir.path().join("p.rle");
    std::fs::write(&pattern, "x = 1, y = 1, rule = TwoStates\no!\n").unwrap();
    (dir, pattern)
}

/// A rule file's rule of two states and range 1 (Banks-I, Banks-III) runs on the two-state
/// engines as its table of the 3x3 block. Here a von Neumann rule in which a dead cell under a
/// live one is born and nothing dies: one cell grows a column downwards, a cell a generation
/// (worked by hand: 6 cells at generation 5), on every engine, the rule-tree's among them; and
/// written back under the rule file's name. (Soups against the reference engine, every
/// neighbourhood: `check::tabled_rules` in the engines' suites.)
#[test]
fn a_two_state_rule_file_runs_on_the_two_state_engines() {
    let (dir, pattern) = two_state_column();
    let out = dir.path().join("out.rle");
    for engine in [
        "hashlife",
        "tiles",
        "cpu",
        "rule-tree",
        "rule-hashlife",
        "auto",
    ] {
        let mut args = vec![
            "run",
            "--json",
            "--gens",
            "5",
            "--engine",
            engine,
            "--pattern",
            pattern.to_str().unwrap(),
        ];
        if engine == "cpu" {
            args.extend(["--size", "16x16"]);
        }
        args.extend(["--out", out.to_str().unwrap()]);
        let v = json(&args);
        assert_eq!(v["population"], 6, "{engine}: {v}");
        let written = std::fs::read_to_string(&out).unwrap();
        assert!(
            written.contains("rule = TwoStates") && written.contains("x = 1, y = 6"),
            "{engine}: {written}"
        );
    }
}

/// A long run of a rule file's pattern of two states goes to HashLife over N states, as
/// Golly's RuleLoader runs it, not to the two-state HashLife, whose 16x16 base memoises a
/// Banks loop's signals less well (Banks-III to 10^6: 15 ms against 20 ms, BENCHMARKS.md).
/// The same column as above, a million generations: `auto` runs it on HashLife over N states,
/// alone (a race with the tile engine only slowed it); and the column is a million and one
/// cells long (worked by hand).
#[test]
fn a_long_run_of_a_two_state_rule_file_goes_to_hashlife_over_n_states() {
    let (_dir, pattern) = two_state_column();
    let v = json(&[
        "run",
        "--json",
        "--gens",
        "1000000",
        "--pattern",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(v["population"], 1_000_001, "{v}");
    assert_eq!(v["engine"], "rule-hashlife", "{v}");
    assert!(v["engine_note"].is_null(), "{v}");
}

/// A rule file's pattern of two states saved as a macrocell is in Golly's multi-state form
/// from every engine (its RuleLoader reads no other: 8x8 leaves were a parse error to it),
/// and bgolly runs it on to its own population: Banks-I and Banks-III to 1000 generations,
/// written, then run by bgolly to 3000, against bgolly's run of the demo to 3000.
#[test]
fn a_two_state_rule_file_s_macrocell_reads_back_in_golly() {
    if !bgolly_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rules = Path::new(GOLLY_RULES);
    for demo in ["Banks-I-demo.rle", "Banks-III-demo.rle"] {
        let source = Path::new("/usr/share/golly/Patterns/Self-Rep/Banks").join(demo);
        let want = golly(&source, rules, 3000);
        for engine in ["hashlife", "tiles", "rule-tree", "rule-hashlife"] {
            let out = dir.path().join(format!("{engine}.mc"));
            let v = json(&[
                "run",
                "--json",
                "--gens",
                "1000",
                "--engine",
                engine,
                "--pattern",
                source.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]);
            assert_eq!(v["generation"], 1000, "{demo} on {engine}: {v}");
            let text = std::fs::read_to_string(&out).unwrap();
            assert!(
                text.contains("\n1 "),
                "{demo} on {engine}: no 2x2 blocks:\n{text}"
            );
            assert_eq!(golly(&out, rules, 3000), want, "{demo} written by {engine}");
        }
    }
}

/// A rule file of two states that gives birth on empty space (B0) is Golly's to run as it
/// stands: the two-state engines, which would run it as a table, refuse it and say why.
#[test]
fn a_two_state_rule_file_with_b0_is_refused_by_the_two_state_engines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("TwoStatesB0.rule"),
        "@RULE TwoStatesB0\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:none\n0,0,0,0,0,1\n",
    )
    .unwrap();
    let pattern = dir.path().join("p.rle");
    std::fs::write(&pattern, "x = 1, y = 1, rule = TwoStatesB0\no!\n").unwrap();
    for engine in ["hashlife", "tiles"] {
        let e = json_error(&[
            "run",
            "--json",
            "--gens",
            "1",
            "--engine",
            engine,
            "--size",
            "64x64",
            "--pattern",
            pattern.to_str().unwrap(),
        ]);
        assert!(
            e.contains("TwoStatesB0 gives birth on empty space (B0)") && e.contains("rule-tree"),
            "{engine}: {e}"
        );
    }
}

/// Random multi-state soups on odd tori, stepped side by side on the reference and the
/// rule-tree engine, compared state for state every generation.
fn engines_agree(rule: Rule, seed: u64) {
    // Odd tori read their tiles' rings cell by cell; a torus of whole tiles and Golly's
    // bounded plane (whose tiles line up, partial or not) read them from the neighbours, and
    // there only the cells next to a move walk the tree.
    let bounded = Universe::Bounded {
        width: 100,
        height: 70,
        edges: lifelab::geometry::Edges::Plane,
    };
    for universe in [
        Universe::torus(67, 45),
        Universe::torus(130, 70),
        Universe::torus(128, 64),
        bounded,
    ] {
        let (w, h) = universe.size().unwrap();
        let tiles = common::state_soup((0, 0), (w, h), rule.states(), 3, seed);
        stepped_alike(rule, universe, &tiles, 24, &format!("on {w}x{h}"));
    }
}

/// The reference and the rule-tree engine from `tiles`, compared state for state every
/// generation for `gens`.
fn stepped_alike(
    rule: Rule,
    universe: Universe,
    tiles: &lifelab::tiles::TileMap,
    gens: u64,
    what: &str,
) {
    let request = lifelab::registry::Request::new(rule, universe);
    let (mut oracle, _) = lifelab::registry::create("reference", &request).unwrap();
    let (mut fast, _) = lifelab::registry::create("rule-tree", &request).unwrap();
    oracle.import(tiles).unwrap();
    fast.import(tiles).unwrap();
    for g in 1..=gens {
        oracle.step(1).unwrap();
        fast.step(1).unwrap();
        assert!(
            oracle.export().unwrap() == fast.export().unwrap(),
            "rule {rule} {what}: the rule-tree engine differs from the reference at generation {g}"
        );
    }
}

/// A Generations rule runs on the rule-tree engine as its tree (where nothing else takes it:
/// Golly's tubes and strips), state for state as on the reference engine: Moore, hexagonal and
/// von Neumann rules, a non-totalistic one, many states.
/// Soups from crowded to sparse that die out in places, on Golly's bounded plane of sides that
/// are not multiples of 64, whose partial tiles still line up with their neighbours: the
/// engine reads their rings from the neighbours' cells. Each generation against the reference.
#[test]
fn the_rule_tree_engine_matches_the_reference_on_soups_that_die_out() {
    let universe = Universe::Bounded {
        width: 190,
        height: 121,
        edges: lifelab::geometry::Edges::Plane,
    };
    // Life as a table: a live cell that dies leaves a hole its neighbours see (a Generations
    // rule's decaying cells count as neither alive nor empty, so their end is not seen).
    let mut life = String::from(
        "@RULE LifeTable\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:permute\n0,1,1,1,0,0,0,0,0,1\n",
    );
    for n in [0, 1, 4, 5, 6, 7, 8] {
        let cells: Vec<&str> = (0..8).map(|k| if k < n { "1" } else { "0" }).collect();
        life.push_str(&format!("1,{},0\n", cells.join(",")));
    }
    let life = Rule {
        kind: lifelab::rule::RuleKind::Loaded(loader::load_text(&life, "LifeTable").unwrap()),
        torus: None,
        bounded: None,
        tube: None,
    };
    let generations = ["23/3/3", "345/3/6", "B2/S/C3"].map(|t| t.parse::<Rule>().unwrap());
    for (i, rule) in std::iter::once(life).chain(generations).enumerate() {
        // From crowded to a few cells a tile, most of which die at once.
        for (seed, one_in) in [9, 40, 150, 400, 1000].into_iter().enumerate() {
            let seed = 40 * i as u64 + seed as u64;
            let tiles = common::state_soup((0, 0), (190, 121), rule.states(), one_in, seed);
            stepped_alike(rule, universe, &tiles, 64, &format!("from soup {seed}"));
        }
    }
}

#[test]
fn the_rule_tree_engine_matches_the_reference_on_generations_rules() {
    for (i, text) in [
        "345/3/6",
        "/2/3",
        "23/3/8",
        "12/2-a/3",
        "2/24/5H",
        "0134/13/4V",
        "B2/S/C3",
        "3467/2/64",
    ]
    .into_iter()
    .enumerate()
    {
        engines_agree(text.parse().unwrap(), 100 + i as u64);
    }
}

#[test]
fn the_rule_tree_engine_matches_the_reference_on_every_rule_file() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    if Path::new(GOLLY_RULES).is_dir() {
        files.extend(
            std::fs::read_dir(GOLLY_RULES)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "rule")),
        );
    } else {
        assert!(
            !in_ci(),
            "Golly's rules folder is needed in CI (apt-get install golly)"
        );
    }
    files.sort();
    assert!(files.len() >= 2);
    for (i, path) in files.iter().enumerate() {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let rule = loader::load_path(path, name).unwrap_or_else(|e| panic!("{e}"));
        engines_agree(
            Rule {
                kind: lifelab::rule::RuleKind::Loaded(rule),
                torus: None,
                bounded: None,
                tube: None,
            },
            i as u64 + 1,
        );
    }
}

#[test]
fn hexagonal_and_one_dimensional_tables_run_as_in_golly() {
    if !bgolly_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rules = data("rules");
    for (rule, w, h, seed) in [
        ("HexParity", 37, 23, 1),
        ("Rule110Rows", 41, 13, 2),
        ("HexParity:T40,30", 37, 23, 3),
        ("Rule110Rows:T45,9", 41, 9, 4),
    ] {
        let file = dir.path().join(format!("soup{seed}.rle"));
        std::fs::write(&file, soup_rle(w, h, 3, rule, seed)).unwrap();
        for gens in [50, 300] {
            let ours = population(&[
                "run",
                "--json",
                "--rules",
                rules.to_str().unwrap(),
                "--gens",
                &gens.to_string(),
                "--pattern",
                file.to_str().unwrap(),
            ]);
            assert_eq!(ours, golly(&file, &rules, gens), "{rule} at {gens}");
        }
    }
}

#[test]
fn a_rule_embedded_after_the_cells_runs_as_golly_runs_its_file() {
    if !bgolly_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rule = "@RULE MyWire\n\n@TABLE\nn_states:4\nneighborhood:Moore\nsymmetries:rotate8\nvar a={0,1,2,3}\nvar b=a\nvar c=a\nvar d=a\nvar e=a\nvar f=a\nvar g=a\nvar h=a\n0,1,a,b,c,d,e,f,g,2\n0,2,2,a,b,c,d,e,f,3\n1,a,b,c,d,e,f,g,h,3\n3,a,b,c,d,e,f,g,h,0\n2,2,a,b,c,d,e,f,g,1\n";
    let cells = "x = 5, y = 3, rule = MyWire\n.A2B$\nA.C.A$\n.3A!\n";
    let embedded = dir.path().join("embedded.rle");
    std::fs::write(&embedded, format!("{cells}{rule}")).unwrap();
    // Golly's bgolly reads the same rule from a rules folder.
    let rules = dir.path().join("rules");
    std::fs::create_dir(&rules).unwrap();
    std::fs::write(rules.join("MyWire.rule"), rule).unwrap();
    let plain = dir.path().join("plain.rle");
    std::fs::write(&plain, cells).unwrap();
    for gens in [10, 37] {
        let ours = population(&[
            "run",
            "--json",
            "--gens",
            &gens.to_string(),
            "--pattern",
            embedded.to_str().unwrap(),
        ]);
        assert_eq!(ours, golly(&plain, &rules, gens), "at {gens}");
    }
}

#[test]
fn rule_files_are_found_in_the_pattern_s_folder_then_the_user_s_then_golly_s() {
    // A lone WireWorld electron head (state 1) becomes a tail (2), then wire (3), then stays
    // wire: population 1 at every generation. A "WireWorld" whose heads stay heads gives 1
    // too, so the test rule sends a head to state 0 instead: population 0.
    let vanish = "@RULE WireWorld\n@TABLE\nn_states:4\nneighborhood:Moore\nsymmetries:none\n1,0,0,0,0,0,0,0,0,0\n";
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("head.rle");
    std::fs::write(&pattern, "x = 1, y = 1, rule = WireWorld\nA!\n").unwrap();
    let run = |extra: &[&str], env: Option<&Path>| -> Result<u64, String> {
        let mut args = vec!["run", "--json", "--gens", "3"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--pattern", pattern.to_str().unwrap()]);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lifelab"));
        cmd.args(&args).env_remove("LIFELAB_RULES");
        if let Some(e) = env {
            cmd.env("LIFELAB_RULES", e);
        }
        let out = cmd.output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["population"]
            .as_u64()
            .ok_or_else(|| v["error"].to_string())
    };
    let user = tempfile::tempdir().unwrap();
    std::fs::write(user.path().join("WireWorld.rule"), vanish).unwrap();
    let user_dir = user.path().to_str().unwrap();
    // --rules and LIFELAB_RULES both come before Golly's folder.
    assert_eq!(run(&["--rules", user_dir], None), Ok(0));
    assert_eq!(run(&[], Some(user.path())), Ok(0));
    if Path::new(GOLLY_RULES).join("WireWorld.rule").is_file() {
        assert_eq!(run(&[], None), Ok(1), "Golly's WireWorld.rule");
    }
    // The pattern's own folder comes first of all.
    std::fs::write(
        dir.path().join("WireWorld.rule"),
        vanish.replace("1,0,0,0,0,0,0,0,0,0", "1,0,0,0,0,0,0,0,0,3"),
    )
    .unwrap();
    assert_eq!(run(&["--rules", user_dir], None), Ok(1));
    // A name found nowhere is refused with the folders searched.
    std::fs::write(&pattern, "x = 1, y = 1, rule = NoSuchRuleAnywhere\nA!\n").unwrap();
    let e = run(&["--rules", user_dir], None).unwrap_err();
    assert!(
        e.contains("NoSuchRuleAnywhere.rule") && e.contains("--rules"),
        "{e}"
    );
}

/// Golly asks its own algorithms before RuleLoader: a Larger than Life string is that rule even
/// beside a rule file of its name, and a rule file stands for a string that no algorithm of
/// Golly's reads, even one that looks like Larger than Life.
#[test]
fn a_rule_golly_s_algorithms_read_is_theirs_whatever_rule_files_exist() {
    let dir = tempfile::tempdir().unwrap();
    let run = |rule: &str| -> u64 {
        // A lone live cell: it counts itself (M1), survives with 0 to 8, and nothing is born.
        let pattern = dir.path().join("one.rle");
        std::fs::write(&pattern, format!("x = 1, y = 1, rule = {rule}\no!\n")).unwrap();
        // A rule file of the same name under which every live cell dies.
        let file = format!(
            "@RULE {rule}\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:none\n1,0,0,0,0,0,0,0,0,0\n"
        );
        std::fs::write(dir.path().join(format!("{rule}.rule")), file).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
            .args(["run", "--json", "--gens", "3", "--pattern"])
            .arg(&pattern)
            .env_remove("LIFELAB_RULES")
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["population"]
            .as_u64()
            .unwrap_or_else(|| panic!("{rule}: {v}"))
    };
    assert_eq!(run("R1,C0,M1,S1..9,B9..9,NM"), 1, "Larger than Life");
    assert_eq!(run("R1,C0,M1,S1..9,B9..9,NQ"), 0, "the rule file");
}

#[test]
fn multi_state_macrocell_files_go_both_ways_with_bgolly() {
    if !bgolly_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let loops = Path::new("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle");
    let rules = Path::new(GOLLY_RULES);
    // Golly writes a macrocell file at generation 100; lifelab reads it and runs 100 more.
    let theirs = dir.path().join("golly.mc");
    let out = Command::new("bgolly")
        .args([
            "-a",
            "RuleLoader",
            "-s",
            "/usr/share/golly/Rules/",
            "-m",
            "100",
            "-o",
        ])
        .arg(&theirs)
        .arg(loops)
        .output()
        .unwrap();
    assert!(out.status.success());
    let at_200 = golly(loops, rules, 200);
    assert_eq!(
        population(&[
            "run",
            "--json",
            "--gens",
            "100",
            "--pattern",
            theirs.to_str().unwrap()
        ]),
        at_200
    );
    // lifelab writes one at generation 100; Golly reads it and runs to 200.
    let ours = dir.path().join("lifelab.mc");
    let out = lifelab(&[
        "run",
        "--json",
        "--gens",
        "100",
        "--out",
        ours.to_str().unwrap(),
        "--pattern",
        loops.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&ours).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("1 ")),
        "written in the multi-state form:\n{text}"
    );
    assert_eq!(golly(&ours, rules, 200), at_200);
    // And an RLE with states, the same way (an RLE starts again at generation 0).
    let rle = dir.path().join("lifelab.rle");
    let out = lifelab(&[
        "run",
        "--json",
        "--gens",
        "100",
        "--out",
        rle.to_str().unwrap(),
        "--pattern",
        loops.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(golly(&rle, rules, 100), at_200);
}

#[test]
fn n_state_hashlife_matches_the_rule_tree_engine_on_the_plane() {
    // The rule-tree engine is held to the reference above; HashLife's jumps of every size
    // (one generation, odd counts, powers of two) must give its cells state for state.
    let mut files: Vec<PathBuf> = std::fs::read_dir(data("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    if Path::new(GOLLY_RULES).is_dir() {
        files.extend(
            std::fs::read_dir(GOLLY_RULES)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "rule")),
        );
    }
    files.sort();
    for (i, path) in files.iter().enumerate() {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let loaded = loader::load_path(path, name).unwrap_or_else(|e| panic!("{e}"));
        let rule = Rule {
            kind: lifelab::rule::RuleKind::Loaded(loaded),
            torus: None,
            bounded: None,
            tube: None,
        };
        if rule.births_from_nothing() {
            continue; // neither engine runs it on the plane
        }
        let tiles = common::state_soup((-25, -20), (50, 40), rule.states(), 4, i as u64 + 7);
        let request = lifelab::registry::Request::new(rule, Universe::Plane);
        let (mut tree, _) = lifelab::registry::create("rule-tree", &request).unwrap();
        let (mut hash, _) = lifelab::registry::create("rule-hashlife", &request).unwrap();
        tree.import(&tiles).unwrap();
        hash.import(&tiles).unwrap();
        for step in [1, 1, 3, 8, 21, 64] {
            tree.step(step).unwrap();
            hash.step(step).unwrap();
            assert_eq!(tree.generation(), hash.generation());
            assert_eq!(
                tree.population().unwrap(),
                hash.population().unwrap(),
                "{name} at {}",
                tree.generation()
            );
            assert!(
                tree.export().unwrap() == hash.export().unwrap(),
                "{name}: HashLife differs from the rule-tree engine at generation {}",
                tree.generation()
            );
            assert_eq!(tree.bounds().unwrap(), hash.bounds().unwrap(), "{name}");
            // Zoomed out, the quadtree's own sampling and the tiles' agree.
            let rect = lifelab::engine::CellRect::new(-64, -48, 128, 96);
            for block in [2, 8] {
                assert_eq!(
                    tree.sample(rect, block).unwrap().values,
                    hash.sample(rect, block).unwrap().values,
                    "{name}: blocks of {block}"
                );
            }
        }
    }
}

#[test]
fn the_library_s_wireworld_diodes_pass_one_way_and_carry_their_rule() {
    // Traced by hand (and by a separate simulator): the top electron, going right, is past the
    // diode at generation 20 with its head at (21, 1); the bottom one, going left, has died
    // at its diode, leaving only conductor on that wire.
    let p = lifelab::pattern::library::get("wireworld-diodes").unwrap();
    let rule = p.rule.unwrap();
    assert_eq!(rule.to_string(), "WireWorld");
    assert_eq!(rule.states(), 4);
    let request = lifelab::registry::Request::new(rule, Universe::Plane);
    let (mut e, _) = lifelab::registry::create("auto", &request).unwrap();
    e.import(&p.to_tiles((0, 0))).unwrap();
    e.step(20).unwrap();
    assert_eq!(e.state(21, 1).unwrap(), 1);
    assert_eq!(e.state(20, 1).unwrap(), 2);
    for x in 0..24 {
        assert_eq!(
            e.state(x, 5).unwrap(),
            if x == 11 { 0 } else { 3 },
            "bottom wire at {x}"
        );
    }
    // The embedded rule is Golly's WireWorld, on every one of the 4^9 neighbourhoods.
    let golly = Path::new(GOLLY_RULES).join("WireWorld.rule");
    if !golly.is_file() {
        assert!(!in_ci(), "Golly's rules are needed in CI");
        return;
    }
    let theirs = loader::load_path(&golly, "WireWorld").unwrap().def();
    let ours = rule.loaded().unwrap().def();
    let mut cells = [0u8; 9];
    for i in 0..4u32.pow(9) {
        let mut v = i;
        for c in cells.iter_mut() {
            *c = (v % 4) as u8;
            v /= 4;
        }
        assert_eq!(
            ours.tree.next(&cells),
            theirs.tree.next(&cells),
            "{cells:?}"
        );
    }
}

/// `auto` runs a stretch of a rule file's pattern on each engine and goes on with the one that
/// did less work. Diffusion-limited aggregation (Golly's Margolus/DLA: particles on random-like
/// walks that never come back to a state they were in) goes on tile by tile, since HashLife
/// would make a new node for nearly every block; a self-replicating loop (Chou and Reggia's,
/// whose copies are all alike) goes on on HashLife. Life on the edge, nearest the threshold
/// (7.5 nodes a generation for each tile, against at most 6), goes on tile by tile: each
/// engine forced, it took 0.13 s tile by tile and 0.80 s on HashLife (BENCHMARKS.md). The note
/// says where HashLife stopped: DLA's in its first stretch (more than twice its allowance and
/// 1024), life on the edge's in its measured one, and the loop's not at all. Either way, and
/// through both swaps, the population is bgolly's.
#[test]
fn auto_runs_a_random_walk_tile_by_tile_and_a_replicating_loop_on_hashlife() {
    if !bgolly_found() {
        return;
    }
    let patterns = Path::new("/usr/share/golly/Patterns");
    for (file, engine, stopped) in [
        (
            "Margolus/DLA.rle",
            "rule-tree",
            Some("new nodes in its first 16"),
        ),
        ("Loops/Chou-Reggia-Loop-2.rle", "rule-hashlife", None),
        (
            "Other-Rules/life-on-the-edge.rle",
            "rule-tree",
            Some("new nodes in 16"),
        ),
    ] {
        let path = patterns.join(file);
        let out = run_auto(&path, 1_000);
        assert_eq!(out["engine"], engine, "{file}: {out}");
        assert!(
            out["engine_reason"]
                .as_str()
                .is_some_and(|r| r.contains("the one that did less work")),
            "{file}: {out}"
        );
        let note = out["engine_note"].as_str().unwrap_or_default();
        match stopped {
            Some(at) => assert!(
                note.contains("HashLife made more than") && note.contains(at),
                "{file}: {out}"
            ),
            None => assert!(
                note.contains("HashLife made") && !note.contains("more than"),
                "{file}: {out}"
            ),
        }
        assert_eq!(
            out["population"].as_u64().unwrap(),
            golly(&path, Path::new(GOLLY_RULES), 1000),
            "{file}"
        );
    }
}

/// A rule file's pattern that covers many tiles runs HashLife's stretches first, and goes on
/// on HashLife without the rule-tree engine's probe where HashLife made no more nodes in its
/// measured stretch than the pattern covers tiles: Devore's replicator (1759 tiles, its tape
/// a repeating block) made some 500 (the probe alone computed 5324 tiles in 8 generations).
/// A small loop (Chou and Reggia's, 4 tiles) keeps the probe. The populations are bgolly's.
#[test]
fn auto_runs_hashlife_first_on_a_rule_file_s_pattern_that_covers_many_tiles() {
    if !bgolly_found() {
        return;
    }
    let patterns = Path::new("/usr/share/golly/Patterns");
    for (file, first) in [
        ("Self-Rep/Devore/Devore-rep.rle", true),
        ("Loops/Chou-Reggia-Loop-1.rle", false),
    ] {
        let path = patterns.join(file);
        let out = run_auto(&path, 1_000);
        assert_eq!(out["engine"], "rule-hashlife", "{file}: {out}");
        let note = out["engine_note"].as_str().unwrap_or_default();
        assert_eq!(
            note.contains("run first on a pattern that covers"),
            first,
            "{file}: {out}"
        );
        assert_eq!(note.contains("probe was not made"), first, "{file}: {out}");
        assert_eq!(
            out["population"].as_u64().unwrap(),
            golly(&path, Path::new(GOLLY_RULES), 1000),
            "{file}"
        );
    }
}

/// HashLife's first stretches start from the cells the pattern was loaded with, not from the
/// rule-tree engine's copy of them; an edit before the first step drops that HashLife, and the
/// trial makes it from the edited cells. Either way, the cells after the run are the rule-tree
/// engine's (itself checked against bgolly above), and the unedited run's population bgolly's.
#[test]
fn hashlife_first_starts_from_the_loaded_cells_and_an_edit_before_the_run_is_kept() {
    if !bgolly_found() {
        return;
    }
    let path = Path::new("/usr/share/golly/Patterns/Self-Rep/Devore/Devore-rep.rle");
    let sim = simulation(path);
    let gens = 600;
    for edit in [None, Some((-700, 40)), Some((3, -2))] {
        let (mut auto, mut tree) = auto_and_rule_tree(&sim, gens);
        if let Some((x, y)) = edit {
            let flipped = !tree.cell(x, y).unwrap();
            auto.set_cell(x, y, flipped).unwrap();
            tree.set_cell(x, y, flipped).unwrap();
        }
        auto.step(gens).unwrap();
        tree.step(gens).unwrap();
        let note = auto.note().unwrap_or_default();
        assert!(
            note.contains("run first on a pattern that covers"),
            "{edit:?}: {note}"
        );
        assert_eq!(auto.name(), "rule-hashlife", "{edit:?}: {note}");
        assert_eq!(auto.generation(), gens);
        assert!(
            auto.export().unwrap() == tree.export().unwrap(),
            "{edit:?}: the cells differ from the rule-tree engine's"
        );
        if edit.is_none() {
            assert_eq!(
                auto.population().unwrap(),
                golly(path, Path::new(GOLLY_RULES), gens)
            );
        }
    }
}

/// A rule-file pattern of many tiles waits in the HashLife made from it until its first step:
/// what reads its cells before that reads HashLife's, and where HashLife's first stretches
/// churn (a sparse random soup of Brian's Brain over 324 tiles: HashLife stops in its first
/// stretch), the rule-tree engine takes HashLife's cells, or takes them before a first step too
/// short for HashLife's stretches. After each step the cells are the rule-tree engine's alone.
#[test]
fn a_large_rule_file_soup_read_before_its_run_and_lost_by_hashlife_goes_on_tile_by_tile() {
    if !bgolly_found() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("lifelab-loaded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("soup.rle");
    // A cell in eight live or dying: under the population past which auto gives HashLife
    // the run outright.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let rows: Vec<String> = (0..1040)
        .map(|_| {
            (0..1040)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match x % 16 {
                        0 => 'A',
                        1 => 'B',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    let rle = format!(
        "x = 1040, y = 1040, rule = BriansBrain\n{}!\n",
        rows.join("$")
    );
    std::fs::write(&file, rle).unwrap();
    let sim = simulation(&file);
    // A long run asked for, so that auto makes its trial; a few generations of it stepped.
    // Its first step takes HashLife's stretches whole (the tile engine goes on from their
    // cells), or is too short for them (the tile engine takes the cells first).
    for steps in [[47, 1, 16], [1, 47, 16]] {
        let (mut auto, mut tree) = auto_and_rule_tree(&sim, 600);
        assert_eq!(auto.population().unwrap(), tree.population().unwrap());
        assert_eq!(auto.bounds().unwrap(), tree.bounds().unwrap());
        for (x, y) in [(0, 0), (-300, 211), (519, -519), (-520, -520), (7, 400)] {
            assert_eq!(
                auto.state(x, y).unwrap(),
                tree.state(x, y).unwrap(),
                "({x}, {y})"
            );
        }
        for step in steps {
            auto.step(step).unwrap();
            tree.step(step).unwrap();
            assert!(
                auto.export().unwrap() == tree.export().unwrap(),
                "{steps:?}, generation {}: the cells differ from the rule-tree engine's",
                tree.generation()
            );
            assert_eq!(auto.generation(), tree.generation());
        }
        let note = auto.note().unwrap_or_default();
        assert_eq!(auto.name(), "rule-tree", "{note}");
        assert!(
            note.starts_with("auto ran it on rule-tree from generation 8 ("),
            "{steps:?}: {note}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A trial the rule-tree engine won is made again later in a long run (at generation 1024,
/// then four times further on each time): Codd's and von Neumann's constructors churn
/// HashLife while they build, and repeat once built. Stepped in pieces, as a window steps a
/// run (where HashLife that loses a trial does not go on: see the next test), Golly's
/// golly-constructor (Hutton32) loses HashLife's trial at generation 8 and at 1032, and wins
/// it at 4168 (before, 10^4 generations took 145 ms tile by tile; HashLife alone, 84 ms).
/// Von Neumann's construction-arm-demo has settled by 1032: the rule-tree engine computes no
/// tile, and HashLife, which needs no new node, goes on. The populations are bgolly's.
#[test]
fn auto_tries_hashlife_again_later_in_a_long_run_that_the_rule_tree_engine_began() {
    if !bgolly_found() {
        return;
    }
    let jvn = Path::new("/usr/share/golly/Patterns/Self-Rep/JvN");
    for (file, notes) in [
        (
            "golly-constructor.rle",
            &[
                "; again at generation 1032:",
                "on rule-hashlife from generation 4168",
            ][..],
        ),
        (
            "construction-arm-demo.rle",
            &["on rule-hashlife from generation 1064 (the rule-tree engine computed no tile"][..],
        ),
    ] {
        let path = jvn.join(file);
        let (mut auto, _) = simulation(&path)
            .engine("auto", 10_000, Default::default())
            .unwrap();
        for _ in 0..10 {
            auto.step(1000).unwrap();
        }
        assert_eq!(auto.name(), "rule-hashlife", "{file}");
        let note = auto.note().unwrap_or_default();
        assert!(
            note.contains("on rule-tree from generation 8") && !note.contains("went on"),
            "{file}: {note}"
        );
        for want in notes {
            assert!(note.contains(want), "{file}: {want:?} in {note}");
        }
        assert_eq!(
            auto.population().unwrap(),
            golly_with(&["-a", "JvN"], &path, 10_000),
            "{file}"
        );
    }
}

/// In a run made in one step, a HashLife that loses its trial goes on in pieces of 16
/// generations, 32, 64..., while it makes fewer nodes a generation piece by piece: Golly's
/// golly-constructor churns HashLife while it builds the Golly logo and repeats once built
/// (to 10^4: 135 ms tile by tile, 65 ms on HashLife alone), and construction-arm-demo settles.
/// Both lose their trial at generation 8 and finish on HashLife, at bgolly's population.
#[test]
fn a_hashlife_that_loses_its_trial_goes_on_while_it_learns_a_constructor() {
    if !bgolly_found() {
        return;
    }
    let jvn = Path::new("/usr/share/golly/Patterns/Self-Rep/JvN");
    for file in ["golly-constructor.rle", "construction-arm-demo.rle"] {
        let path = jvn.join(file);
        let out = run_auto(&path, 10_000);
        assert_eq!(out["engine"], "rule-hashlife", "{file}: {out}");
        let note = out["engine_note"].as_str().unwrap_or_default();
        assert!(
            note.starts_with("auto ran it on rule-tree from generation 8 (")
                && note.contains(
                    "), on rule-hashlife from generation 8 (HashLife, which lost the trial, went on in pieces"
                ),
            "{file}: {out}"
        );
        let population = golly_with(&["-a", "JvN"], &path, 10_000);
        assert_eq!(out["population"].as_u64().unwrap(), population, "{file}");
        // The same in the library, the progress of the step counting each generation once.
        let (mut auto, _) = simulation(&path)
            .engine("auto", 10_000, Default::default())
            .unwrap();
        let progress = Progress::new(10_000);
        assert_eq!(auto.step_with(10_000, &progress).unwrap(), 10_000);
        assert_eq!(progress.get().0, 10_000, "{file}");
        assert_eq!(auto.name(), "rule-hashlife", "{file}");
        assert_eq!(auto.population().unwrap(), population, "{file}");
    }
}

/// A HashLife that loses its trial and goes on stops where it makes as many nodes a generation
/// as the piece before, and more than twice what the trial allowed: Golly's life-on-the-edge
/// grows as a gas, and HashLife makes more nodes a generation the further it goes. The
/// rule-tree engine takes HashLife's cells at the generation it reached and goes on; after
/// 1100 generations the cells are those of the rule-tree engine run alone, and the population
/// is bgolly's.
#[test]
fn a_hashlife_that_goes_on_after_its_trial_hands_a_gas_back_to_the_rule_tree_engine() {
    if !bgolly_found() {
        return;
    }
    let path = Path::new("/usr/share/golly/Patterns/Other-Rules/life-on-the-edge.rle");
    let sim = simulation(path);
    let (mut auto, mut tree) = auto_and_rule_tree(&sim, 1100);
    // HashLife's generations count in the step's progress as it goes, and not twice.
    let progress = Progress::new(1100);
    assert_eq!(auto.step_with(1100, &progress).unwrap(), 1100);
    assert_eq!(progress.get().0, 1100);
    tree.step(1100).unwrap();
    assert_eq!(auto.name(), "rule-tree");
    let note = auto.note().unwrap_or_default();
    assert!(
        note.starts_with("auto ran it on rule-tree from generation 8 (")
            && note.contains("; HashLife went on to generation ")
            && note.contains("and the rule-tree engine took its cells"),
        "{note}"
    );
    assert_eq!(auto.generation(), 1100);
    assert!(
        auto.export().unwrap() == tree.export().unwrap(),
        "the cells differ from the rule-tree engine's"
    );
    assert_eq!(
        auto.population().unwrap(),
        golly(path, Path::new(GOLLY_RULES), 1100)
    );
}

/// HashLife over N states drops its unreachable nodes and memoised results when its store
/// fills (at least 2^16 nodes; `--memory 1` keeps it there): Langton's loops to 3000
/// generations make more than that, and the population is still bgolly's.
#[test]
fn n_state_hashlife_collects_garbage_under_a_small_memory_limit_and_agrees_with_golly() {
    if !bgolly_found() {
        return;
    }
    let path = Path::new("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle");
    let p = path.to_str().unwrap();
    let small = population(&[
        "run",
        "--json",
        "--gens",
        "3000",
        "--engine",
        "rule-hashlife",
        "--memory",
        "1",
        "--pattern",
        p,
    ]);
    assert_eq!(small, golly(path, Path::new(GOLLY_RULES), 3000));
}

/// The library's Langton's loop carries Langton's rule in its file: on every one of the 8^5
/// von Neumann neighbourhoods it is Golly's Langtons-Loops.rule, and the loop itself is Golly's
/// Loops/Langtons-Loops.rle, so its colony's population is bgolly's at the first daughter's
/// separation (generation 151, as in Langton's paper) and long after.
#[test]
fn the_library_s_langtons_loop_carries_langton_s_rule_and_grows_as_in_golly() {
    let p = lifelab::pattern::library::get("langtons-loop").unwrap();
    let rule = p.rule.unwrap();
    assert_eq!(rule.to_string(), "Langtons-Loops");
    assert_eq!(rule.states(), 8);
    // Counted by hand from the file's rows: 61 cells of sheath (state 2, `B`).
    assert_eq!((p.cells.width(), p.cells.height()), (15, 10));
    let mut sheath = 0;
    for y in 0..10 {
        for x in 0..15 {
            sheath += (p.state(x, y) == 2) as u32;
        }
    }
    assert_eq!(sheath, 61, "the sheath's cells");
    if !bgolly_found() {
        return;
    }
    let theirs = loader::load_path(
        &Path::new(GOLLY_RULES).join("Langtons-Loops.rule"),
        "Langtons-Loops",
    )
    .unwrap()
    .def();
    let ours = rule.loaded().unwrap().def();
    let mut cells = [0u8; 5];
    for i in 0..8u32.pow(5) {
        let mut v = i;
        for c in cells.iter_mut() {
            *c = (v % 8) as u8;
            v /= 8;
        }
        assert_eq!(
            ours.tree.next(&cells),
            theirs.tree.next(&cells),
            "{cells:?}"
        );
    }
    let golly_file = Path::new("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle");
    for gens in [151, 1000] {
        let g = gens.to_string();
        assert_eq!(
            population(&["run", "--json", "--pattern", "langtons-loop", "--gens", &g]),
            golly(golly_file, Path::new(GOLLY_RULES), gens),
            "generation {gens}"
        );
    }
}

/// Cells put into HashLife over N states: into an empty universe they go as one quadtree (a
/// pattern being opened), into a live one cell by cell; both as the rule-tree engine has them,
/// for every way of putting.
#[test]
fn cells_put_into_hashlife_over_n_states_are_the_rule_tree_engine_s() {
    use lifelab::engine::Put;
    let path = data("rules").join("HexParity.rule");
    let loaded = loader::load_path(&path, "HexParity").unwrap_or_else(|e| panic!("{e}"));
    let rule = Rule {
        kind: lifelab::rule::RuleKind::Loaded(loaded),
        torus: None,
        bounded: None,
        tube: None,
    };
    let request = lifelab::registry::Request::new(rule, Universe::Plane);
    let mut g = lifelab::grid::Grid::new(37, 23);
    g.fill_random(0.4, 3);
    let mut h = lifelab::grid::Grid::new(19, 29);
    h.fill_random(0.5, 4);
    for how in [Put::Or, Put::Replace, Put::Erase] {
        let (mut tree, _) = lifelab::registry::create("rule-tree", &request).unwrap();
        let (mut hash, _) = lifelab::registry::create("rule-hashlife", &request).unwrap();
        for (cells, at) in [(&g, (-20, -9)), (&h, (3, -30)), (&g, (-5, 2))] {
            tree.put(cells, at, how).unwrap();
            hash.put(cells, at, how).unwrap();
            assert!(
                tree.export().unwrap() == hash.export().unwrap(),
                "{how:?} at {at:?}"
            );
            assert_eq!(tree.population().unwrap(), hash.population().unwrap());
        }
    }
}
