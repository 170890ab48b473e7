//! Cross-checks with Golly's command-line simulator `bgolly`, an independent oracle for the
//! reference engine. New comparisons with other programs belong here.
//!
//! bgolly writes the bounding box of the live cells without its position, so the comparison is
//! of bounding-box crops; a torus-sized RLE is placed by Golly at the torus's top-left corner,
//! as lifelab places it, so the crops agree exactly when the simulations do. B0 rules are left
//! out: on bounded grids Golly 3.3 reports their complement on odd generations.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::REFERENCE;
use common::{in_ci, rule, run, soup};
use lifelab::grid::Grid;
use lifelab::pattern::{self, Format, Pattern};

fn bgolly() -> Option<PathBuf> {
    let found = Command::new("bgolly").arg("-h").output().is_ok();
    if found {
        return Some(PathBuf::from("bgolly"));
    }
    assert!(
        !in_ci(),
        "bgolly is not installed: .ci/run installs it with `apt-get install golly`"
    );
    eprintln!("skipped: bgolly is not installed (apt-get install golly)");
    None
}

fn crop(grid: &Grid) -> Grid {
    match grid.bounding_box() {
        Some(bb) => grid.crop(bb),
        None => Grid::new(0, 0),
    }
}

fn golly_run(bgolly: &PathBuf, rule_text: &str, start: &Grid, gens: u64) -> Grid {
    // Tests run in parallel: each call gets its own folder.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("lifelab-golly-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.rle");
    let output = dir.join("out.rle");
    let mut p = Pattern::new(start.clone());
    let mut r = rule(rule_text);
    r.torus = Some((start.width(), start.height()));
    p.rule = Some(r);
    std::fs::write(&input, pattern::write(&p, Format::Rle)).unwrap();
    let _ = std::fs::remove_file(&output);
    let status = Command::new(bgolly)
        .args(["-q", "-q", "-a", "QuickLife", "-m", &gens.to_string(), "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    assert!(status.status.success(), "bgolly failed: {status:?}");
    let text = std::fs::read_to_string(&output).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    pattern::parse(&text, Format::Rle)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .trimmed()
        .cells
}

#[test]
fn reference_engine_agrees_with_golly_on_soups() {
    let Some(bgolly) = bgolly() else { return };
    let rules = [
        "B3/S23",
        "B36/S23",
        "B3678/S34678",
        "B2/S",
        "B1357/S1357",
        "B3/S12345",
        "B36/S125",
        "B3/S012345678",
        "B35678/S5678",
        "B368/S245",
        "B4678/S35678",
        "B3/S3",
        "B3/S13",
        "B2/S34H",
        "B245/S3H",
        "B3/S23V",
    ];
    let sizes = [(40, 30), (31, 7), (65, 33), (64, 64), (5, 5)];
    let mut compared = 0;
    for (i, r) in rules.iter().enumerate() {
        for (j, &(w, h)) in sizes.iter().enumerate() {
            let start = soup(w, h, 0.45, (i * 10 + j) as u64);
            let gens = 23;
            let ours = crop(&run(REFERENCE, rule(r), &start, gens, 0));
            let golly = golly_run(&bgolly, r, &start, gens);
            assert_eq!(ours, golly, "rule {r} on {w}x{h}, {gens} generations");
            compared += ours.population();
        }
    }
    assert!(compared > 10_000, "the soups should not all have died");
}

#[test]
fn acorn_agrees_with_golly() {
    let Some(bgolly) = bgolly() else { return };
    let start = common::on_torus("acorn", 256, 256);
    let gens = 1000;
    let ours = crop(&run(common::CPU, rule("B3/S23"), &start, gens, 0));
    assert_eq!(ours, golly_run(&bgolly, "B3/S23", &start, gens));
}

#[test]
fn golly_confirms_the_periods_of_the_other_rules_oscillators() {
    // The library's Day & Night, B3/S3 and B3/S13 oscillators: Golly's shape after p
    // generations is the start, and after fewer it is not.
    let Some(bgolly) = bgolly() else { return };
    for (name, period) in [
        ("daynight-plus", 4u64),
        ("b3s3-flipper", 2),
        ("b3s13-flipper", 2),
    ] {
        let p = lifelab::pattern::library::get(name).unwrap();
        let rule_text = p.rule.unwrap().to_string();
        let start = common::on_torus(name, 32, 32);
        let shape = crop(&start);
        for g in 1..=period {
            let after = golly_run(&bgolly, &rule_text, &start, g);
            assert_eq!(after == shape, g == period, "{name} after {g} generations");
        }
    }
}

/// Golly's HashLife on the unbounded plane: the bounding-box crop after `gens` generations.
fn golly_plane(bgolly: &PathBuf, start: &Grid, gens: u64) -> Grid {
    golly_plane_under(bgolly, "B3/S23", "HashLife", start, gens)
}

/// Golly's `algo` on the unbounded plane under `rule_text`.
fn golly_plane_under(
    bgolly: &PathBuf,
    rule_text: &str,
    algo: &str,
    start: &Grid,
    gens: u64,
) -> Grid {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("lifelab-golly-plane-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("in.rle"), dir.join("out.rle"));
    let mut p = Pattern::new(start.clone());
    p.rule = Some(rule(rule_text));
    std::fs::write(&input, pattern::write(&p, Format::Rle)).unwrap();
    let out = Command::new(bgolly)
        .args(["-q", "-q", "-a", algo, "-m", &gens.to_string(), "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success(), "bgolly failed: {out:?}");
    let text = std::fs::read_to_string(&output).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    pattern::parse(&text, Format::Rle).unwrap().trimmed().cells
}

/// Ours on the plane, on `engine`: the bounding-box crop after `gens` generations.
fn ours_plane(engine: &str, start: &Grid, gens: u64) -> Grid {
    ours_plane_under(engine, "B3/S23", start, gens)
}

fn ours_plane_under(engine: &str, rule_text: &str, start: &Grid, gens: u64) -> Grid {
    use lifelab::engine::{Put, Universe};
    let request = lifelab::registry::Request::new(rule(rule_text), Universe::Plane);
    let (mut e, _) = lifelab::registry::create(engine, &request).unwrap();
    e.put(start, (0, 0), Put::Or).unwrap();
    e.step(gens).unwrap();
    match e.bounds().unwrap() {
        Some(b) => e.cells_in(b.rect().unwrap()).unwrap(),
        None => Grid::new(0, 0),
    }
}

#[test]
fn hashlife_and_the_tile_engine_agree_with_golly_on_the_plane() {
    let Some(bgolly) = bgolly() else { return };
    for (name, gens) in [("r-pentomino", 2000), ("acorn", 5206), ("rabbits", 3000)] {
        let start = lifelab::pattern::library::get(name).unwrap().cells;
        let golly = golly_plane(&bgolly, &start, gens);
        assert_eq!(
            ours_plane(common::HASHLIFE, &start, gens),
            golly,
            "{name}, HashLife"
        );
        assert_eq!(
            ours_plane(common::TILES, &start, gens),
            golly,
            "{name}, tiles"
        );
    }
    for seed in 1..=4 {
        let start = soup(20, 20, 0.4, seed);
        let golly = golly_plane(&bgolly, &start, 700);
        assert_eq!(
            ours_plane(common::HASHLIFE, &start, 700),
            golly,
            "soup {seed}"
        );
    }
}

/// B0 rules on the unbounded plane, which Golly emulates: with Smax by the dual rule (what it
/// shows is the complement of the rule's world), without by two rules alternating (odd
/// generations shown as the complement). The tile engine does both, HashLife the first; the
/// crops must be Golly's at odd and even generations.
#[test]
fn b0_rules_on_the_plane_are_emulated_as_golly_does() {
    let Some(bgolly) = bgolly() else { return };
    for (text, smax) in [
        ("B013568/S01", false),
        ("B0123478/S01234678", true),
        ("B03/S23H", false),
        ("B02a/S12-ak8", true),
        ("B01e2-a/S1c23", false),
    ] {
        for seed in 1..=2 {
            let start = soup(16, 12, 0.4, seed);
            for gens in [1, 2, 7, 30] {
                let golly = golly_plane_under(&bgolly, text, "QuickLife", &start, gens);
                let tiles = ours_plane_under(common::TILES, text, &start, gens);
                assert_eq!(
                    tiles, golly,
                    "{text}, soup {seed}, generation {gens}, tiles"
                );
                if smax {
                    let hl = ours_plane_under(common::HASHLIFE, text, &start, gens);
                    assert_eq!(
                        hl, golly,
                        "{text}, soup {seed}, generation {gens}, HashLife"
                    );
                }
            }
        }
    }
}

#[test]
fn macrocell_files_go_both_ways_with_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-golly-mc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let acorn = lifelab::pattern::library::get("acorn").unwrap().cells;
    let mut p = Pattern::new(acorn.clone());
    p.rule = Some(rule("B3/S23"));
    std::fs::write(dir.join("acorn.rle"), pattern::write(&p, Format::Rle)).unwrap();
    // Golly writes acorn at generation 600 as a macrocell file; lifelab reads it.
    let golly_mc = dir.join("golly.mc");
    let out = Command::new(&bgolly)
        .args(["-q", "-q", "-a", "HashLife", "-m", "600", "-o"])
        .arg(&golly_mc)
        .arg(dir.join("acorn.rle"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let loaded = lifelab::session::setup::resolve_pattern(golly_mc.to_str().unwrap()).unwrap();
    assert_eq!(loaded.generation, 600);
    // Kept as its quadtree, which expands to the cells Golly wrote.
    let tiles = loaded.quadtree.unwrap().to_tiles(1 << 30).unwrap();
    let read = tiles.crop(tiles.bounds().unwrap().rect().unwrap());
    assert_eq!(read, ours_plane(common::HASHLIFE, &acorn, 600));

    // lifelab writes it back at generation 600 (the same cells), and Golly reads that.
    let spec = lifelab::session::Spec {
        pattern: Some(golly_mc.display().to_string()),
        plane: true,
        ..Default::default()
    };
    let sim = spec.build().unwrap();
    let (mut e, _) = sim.engine("hashlife", 0, Default::default()).unwrap();
    let ours_mc = dir.join("ours.mc");
    lifelab::session::save::write_engine(e.as_mut(), &Default::default(), &ours_mc).unwrap();
    let back = dir.join("back.rle");
    let out = Command::new(&bgolly)
        .args(["-q", "-q", "-a", "HashLife", "-m", "0", "-o"])
        .arg(&back)
        .arg(&ours_mc)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&back).unwrap();
    assert_eq!(
        pattern::parse(&text, Format::Rle).unwrap().trimmed().cells,
        read
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn golly_reads_and_writes_rings_as_we_do() {
    // Rule 30 on a ring of 11 from one cell: Golly runs `W30:T11,0` and writes the space-time
    // diagram, whose last row is the ring now; lifelab reads that file back as the ring.
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-golly-ring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("w30.rle"),
        "x = 11, y = 1, rule = W30:T11,0\n5bo!\n",
    )
    .unwrap();
    let out = Command::new(&bgolly)
        .args(["-q", "-q", "-m", "7", "-o"])
        .arg(dir.join("golly.rle"))
        .arg(dir.join("w30.rle"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let golly_file = dir.join("golly.rle").display().to_string();
    let golly = lifelab::session::Spec {
        pattern: Some(golly_file),
        ..Default::default()
    }
    .build()
    .unwrap()
    .start_grid()
    .unwrap();
    // Ours, from the same start, written in Golly's notation.
    let ours = lifelab::session::Spec {
        pattern: Some(dir.join("w30.rle").display().to_string()),
        ..Default::default()
    }
    .build()
    .unwrap();
    assert_eq!(ours.universe, lifelab::engine::Universe::torus(11, 1));
    let (mut e, _) = ours.engine("cpu", 7, Default::default()).unwrap();
    e.step(7).unwrap();
    assert_eq!(e.grid().unwrap(), golly);
    let text = lifelab::session::save::text_of(e.as_mut(), &Default::default(), Format::Rle)
        .unwrap()
        .text;
    assert!(text.contains("rule = W30:T11,0"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A pattern file run to `gens` by `lifelab run` with no flag but the file, and by bgolly's
/// `algo`, each writing its cells: lifelab's report, and both results trimmed to their live
/// cells (bitmap and states). `tag` names the output files in `dir`.
fn ours_and_golly(
    bgolly: &PathBuf,
    input: &std::path::Path,
    gens: u64,
    algo: &str,
    dir: &std::path::Path,
    tag: &str,
) -> (serde_json::Value, Cells, Cells) {
    let ours = dir.join(format!("{tag}-{gens}-ours.rle"));
    let theirs = dir.join(format!("{tag}-{gens}-golly.rle"));
    let v = common::cli::json(&[
        "run",
        "--pattern",
        input.to_str().unwrap(),
        "--gens",
        &gens.to_string(),
        "--out",
        ours.to_str().unwrap(),
        "--json",
    ]);
    let out = Command::new(bgolly)
        .args(["-q", "-q", "-a", algo, "-m", &gens.to_string(), "-o"])
        .arg(&theirs)
        .arg(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "bgolly failed: {out:?}");
    let read = |p: &std::path::Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let p = pattern::parse(&text, Format::Rle)
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
            .trimmed();
        (p.cells, p.states)
    };
    (v, read(&ours), read(&theirs))
}

/// bgolly's population of `file` at generation `gens` under `algo` (its last line, `N: P`),
/// with Golly's rules folder for a rule file's rule.
fn golly_population(bgolly: &PathBuf, file: &std::path::Path, algo: &str, gens: u64) -> u64 {
    let out = Command::new(bgolly)
        .args([
            "-a",
            algo,
            "-s",
            "/usr/share/golly/Rules/",
            "-m",
            &gens.to_string(),
        ])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "bgolly failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    last.split(':')
        .nth(1)
        .and_then(|p| p.trim().replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("bgolly's last line is not a population: {last:?}"))
}

/// Live cells, and their states under a rule of more than two.
type Cells = (Grid, Option<Vec<u8>>);

/// A two-state rule on Golly's bounded plane (`:P64,48`) and on its infinite strips (`:P0,20`,
/// `:P20,0`: a bounded plane with one side 0) runs with no flag but the file, on the tile
/// engine, and each file's cells at 100 and 1000 generations are bgolly's. Acorn spills out of
/// the smaller grids at once, so their edges are where it evolves; a soup fills a strip of odd
/// height, and B36/S23's replicators run into its edges.
#[test]
fn a_two_state_rule_on_the_bounded_plane_and_strips_runs_with_auto_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let soup = |rule: &str, w: u32, h: u32, seed: u64| {
        let mut g = Grid::new(w, h);
        g.fill_random(0.35, seed);
        let mut p = Pattern::new(g);
        p.rule = Some(rule.parse().unwrap());
        pattern::rle::write(&p)
    };
    let acorn = |suffix: &str| format!("x = 7, y = 3, rule = B3/S23{suffix}\nbo$3bo$2o2b3o!\n");
    for (name, rle) in [
        ("acorn", acorn(":P64,48")),
        (
            "glider",
            "x = 3, y = 3, rule = B36/S23:P50,50\nbo$2bo$3o!\n".to_string(),
        ),
        ("acorn-wide-strip", acorn(":P0,20")),
        ("acorn-tall-strip", acorn(":P20,0")),
        ("acorn-thin-strip", acorn(":P0,7")),
        ("soup-wide-strip", soup("B36/S23:P0,33", 90, 33, 5)),
        ("soup-tall-strip", soup("B2-a/S12:P21,0", 21, 70, 6)),
        ("soup-bounded", soup("B3/S23:P131,67", 131, 67, 7)),
    ] {
        let input = dir.join(format!("{name}.rle"));
        std::fs::write(&input, rle).unwrap();
        for gens in [100u64, 1000] {
            let (v, ours, golly) = ours_and_golly(&bgolly, &input, gens, "QuickLife", &dir, name);
            assert_eq!(v["engine"], "tiles", "{name}: {v}");
            assert_eq!(ours, golly, "{name} at {gens}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Golly's bounded grids whose edges are joined (`lifealgo::CreateBorderCells`): the shifted
/// torus, both Klein bottles with and without their shift, the cross-surface and the sphere, each
/// from a soup that fills the grid, run by the command line with no flag but the file, against
/// bgolly cell for cell. Odd and even sides, shifts of both signs and beyond the side, a
/// shift Golly ignores (on an odd side), and a Generations rule.
#[test]
fn joined_edges_of_golly_s_bounded_grids_run_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-joined-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grids = [
        (":T12+5,9", 12, 9),
        (":T12-5,9", 12, 9),
        (":T12+17,9", 12, 9),
        (":T12,9+4", 12, 9),
        (":T13,10-3", 13, 10),
        (":K12*,9", 12, 9),
        (":K12,9*", 12, 9),
        (":K12", 12, 12),
        (":K12*+1,9", 12, 9),
        (":K9,12*+1", 9, 12),
        (":K13*+1,9", 13, 9),
        (":C12,9", 12, 9),
        (":C11,13", 11, 13),
        (":S11", 11, 11),
        (":S12", 12, 12),
    ];
    let mut compared = 0;
    for (i, &(suffix, w, h)) in grids.iter().enumerate() {
        for (rule_text, algo) in [
            ("B3/S23", "QuickLife"),
            ("B36/S23", "QuickLife"),
            ("345/2/4", "Generations"),
        ] {
            let start = soup(w, h, 0.45, 100 + i as u64);
            let mut p = Pattern::new(start);
            p.rule = Some(rule(&format!("{rule_text}{suffix}")));
            let input = dir.join(format!("in-{i}-{algo}.rle"));
            std::fs::write(&input, pattern::write(&p, Format::Rle)).unwrap();
            for gens in [30u64, 77] {
                let tag = format!("{i}-{algo}");
                let (v, got, want) = ours_and_golly(&bgolly, &input, gens, algo, &dir, &tag);
                assert_eq!(v["engine"], "reference", "{rule_text}{suffix}: {v}");
                assert_eq!(got, want, "{rule_text}{suffix} at {gens}");
                compared += got.0.population();
            }
        }
    }
    assert!(
        compared > 1000,
        "the soups should not all have died: {compared}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Golly's Generations patterns that repeat, taken off their MCell boards onto the unbounded
/// plane, jump on HashLife over N states (auto's choice for a long run of a Generations rule
/// on the plane) and end as bgolly's Generations algorithm ends them, cell for cell and state
/// for state: Steeplechase (345/2/4, a gun and its targets) and Transers (345/26/5, which grows
/// without end).
#[test]
fn generations_patterns_jump_on_hashlife_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let folder = std::path::Path::new("/usr/share/golly/Patterns/Generations");
    if !folder.is_dir() {
        assert!(
            !in_ci(),
            "Golly's patterns are needed in CI (apt-get install golly)"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("lifelab-gen-hashlife-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, gens) in [("Steeplechase", 100_000u64), ("Transers", 5_000)] {
        let mut p = pattern::load_file(&folder.join(format!("{name}.mcl"))).unwrap();
        p.rule = p.rule.map(|r| r.without_torus());
        p.origin = None;
        let input = dir.join(format!("{name}.rle"));
        std::fs::write(&input, pattern::write(&p, Format::Rle)).unwrap();
        let (v, got, want) = ours_and_golly(&bgolly, &input, gens, "Generations", &dir, name);
        assert_eq!(v["engine"], "rule-hashlife", "{name}: {v}");
        assert!(want.0.population() > 100, "{name}: Golly's pattern died");
        assert_eq!(got, want, "{name} at {gens}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A pattern on one of Golly's bounded grids, saved part way and reopened, goes on as Golly's
/// run of the whole: the file keeps its grid (`:K40*,20`, `:C40,20`, `:S30`, not a torus) and
/// its cells' place (`#CXRLE Pos`), on which the outcome depends. bgolly's populations at 1000.
/// A position that puts live cells beyond the grid is refused, not wrapped.
#[test]
fn a_bounded_grid_saved_and_reopened_goes_on_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let folder = std::path::Path::new("/usr/share/golly/Patterns/Life/Bounded-Grids");
    if !folder.is_dir() {
        assert!(
            !in_ci(),
            "Golly's patterns are needed in CI (apt-get install golly)"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("lifelab-saved-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in [
        "Klein-bottle",
        "cross-surface",
        "sphere",
        "torus-with-shift",
    ] {
        let file = folder.join(format!("{name}.rle"));
        let want = golly_population(&bgolly, &file, "RuleLoader", 1000);
        let saved = dir.join(format!("{name}-300.rle"));
        common::cli::json(&[
            "run",
            "--pattern",
            file.to_str().unwrap(),
            "--gens",
            "300",
            "--out",
            saved.to_str().unwrap(),
            "--json",
        ]);
        let v = common::cli::json(&[
            "run",
            "--pattern",
            saved.to_str().unwrap(),
            "--gens",
            "700",
            "--json",
        ]);
        assert_eq!(v["population"], want, "{name}: {v}");
        assert_eq!(v["universe"]["kind"], "bounded", "{name}: {v}");
    }
    let far = dir.join("far.rle");
    std::fs::write(
        &far,
        "#CXRLE Pos=30,0\nx = 3, y = 1, rule = B3/S23:K20*,10\n3o!\n",
    )
    .unwrap();
    let e = common::cli::json_error(&["run", "--pattern", far.to_str().unwrap(), "--json"]);
    assert!(e.contains("beyond a 20x10 Klein bottle"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Golly's infinite tubes (`:T0,<h>`, wrapped top to bottom and unbounded sideways, and
/// `:T<w>,0`), run by the command line with no flag but the file on the tile engine, against
/// bgolly cell for cell: circumferences below, at and above a tile's 64 (a partial last row of
/// tiles), a soup taller than the pattern placed in it, Life, HighLife, an isotropic
/// non-totalistic rule, and B0 rules, which Golly emulates as on the plane.
#[test]
fn golly_s_infinite_tubes_run_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-tubes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("B3/S23:T0,30", 20, 30),
        ("B3/S23:T37,0", 37, 15),
        ("B36/S23:T0,17", 10, 17),
        ("B3/S23:T0,64", 40, 64),
        ("B3/S23:T65,0", 65, 5),
        ("B3/S23:T0,130", 5, 130),
        ("B3/S23:T0,70", 30, 8),
        ("B2-a/S12:T0,12", 12, 12),
        ("B0123478/S01234678:T0,16", 16, 16),
        ("B0/S8:T0,20", 16, 16),
    ];
    let mut compared = 0;
    for (i, &(rule_text, w, h)) in cases.iter().enumerate() {
        let mut p = Pattern::new(soup(w, h, 0.4, 300 + i as u64));
        p.rule = Some(rule(rule_text));
        let input = dir.join(format!("tube-{i}.rle"));
        std::fs::write(&input, pattern::write(&p, Format::Rle)).unwrap();
        for gens in [50u64, 301] {
            let tag = format!("tube-{i}");
            let (v, got, want) = ours_and_golly(&bgolly, &input, gens, "QuickLife", &dir, &tag);
            assert_eq!(v["engine"], "tiles", "{rule_text}: {v}");
            assert_eq!(v["universe"]["kind"], "tube", "{rule_text}: {v}");
            assert_eq!(got, want, "{rule_text} at {gens}");
            compared += got.0.population();
        }
    }
    assert!(
        compared > 1000,
        "the soups should not all have died: {compared}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tube or a bounded plane saved as a macrocell file part way goes on in bgolly as the whole
/// run does: the file keeps its grid, and its rows are where Golly's HashLife reads them (its
/// root's rows run from 1 - 2^(L-1), one below lifelab's corner). A blinker on the bottom row
/// of a bounded plane tells one row from the next; Golly's own macrocell of it, read back, runs
/// as Golly runs it.
#[test]
fn tubes_and_bounded_planes_saved_as_macrocells_go_on_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-mc-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let golly_population =
        |file: &std::path::Path, algo: &str, gens: u64| golly_population(&bgolly, file, algo, gens);
    let cases = [
        ("tube", "x = 20, y = 30, rule = B3/S23:T0,30\n"),
        (
            "bottom",
            "#CXRLE Pos=-1,4\nx = 3, y = 1, rule = B3/S23:P10,10\n",
        ),
        (
            "top",
            "#CXRLE Pos=-1,-5\nx = 3, y = 1, rule = B3/S23:P10,10\n",
        ),
    ];
    for (i, (name, header)) in cases.into_iter().enumerate() {
        let body = if name == "tube" {
            let p = Pattern::new(soup(20, 30, 0.4, 7 + i as u64));
            let text = pattern::write(&p, Format::Rle);
            text.lines()
                .skip_while(|l| !l.starts_with('x'))
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            "3o!".to_string()
        };
        let input = dir.join(format!("{name}.rle"));
        std::fs::write(&input, format!("{header}{body}\n")).unwrap();
        let saved = dir.join(format!("{name}-20.mc"));
        common::cli::json(&[
            "run",
            "--pattern",
            input.to_str().unwrap(),
            "--gens",
            "20",
            "--out",
            saved.to_str().unwrap(),
            "--json",
        ]);
        for gens in [21u64, 200] {
            let want = golly_population(&input, "QuickLife", gens);
            assert_eq!(
                golly_population(&saved, "HashLife", gens),
                want,
                "{name} at {gens}"
            );
            let ours = common::cli::json(&[
                "run",
                "--pattern",
                saved.to_str().unwrap(),
                "--gens",
                &(gens - 20).to_string(),
                "--json",
            ]);
            assert_eq!(ours["population"], want, "{name} at {gens}: {ours}");
        }
        // Golly's macrocell of the start, read here.
        let golly_mc = dir.join(format!("{name}-golly.mc"));
        let out = Command::new(&bgolly)
            .args(["-q", "-q", "-a", "HashLife", "-m", "0", "-o"])
            .arg(&golly_mc)
            .arg(&input)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let want = golly_population(&input, "QuickLife", 1);
        let ours = common::cli::json(&[
            "run",
            "--pattern",
            golly_mc.to_str().unwrap(),
            "--gens",
            "1",
            "--json",
        ]);
        assert_eq!(
            ours["population"], want,
            "{name}: Golly's macrocell: {ours}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `analyze` follows a pattern on Golly's bounded grids where it is, edges and all, instead of
/// identifying it as an object on a torus of its own: a glider on the bounded plane `:P20,20`
/// hits the corner and settles, and the generation from which it is still is the first at which
/// bgolly's cells equal the next generation's. A glider round a tube (`:T0,20`) never repeats.
#[test]
fn analyze_follows_a_pattern_on_golly_s_bounded_grids_where_it_is() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-analyze-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("corner.rle");
    std::fs::write(&input, "x = 3, y = 3, rule = B3/S23:P20,20\nbo$2bo$3o!\n").unwrap();
    let cells_at = |gens: u64| {
        let out = dir.join(format!("corner-{gens}.rle"));
        let status = Command::new(&bgolly)
            .args(["-q", "-q", "-m", &gens.to_string(), "-o"])
            .arg(&out)
            .arg(&input)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        let text = std::fs::read_to_string(&out).unwrap();
        pattern::parse(&text, Format::Rle).unwrap().trimmed().cells
    };
    let still_from = (0..100u64)
        .find(|&g| cells_at(g) == cells_at(g + 1))
        .expect("Golly's glider settles on the bounded plane");
    let v = common::cli::json(&["analyze", "--pattern", input.to_str().unwrap(), "--json"]);
    assert_eq!(v["kind"], "still", "{v}");
    assert_eq!(v["start"], still_from, "{v}");
    assert_eq!(v["universe"]["kind"], "bounded", "{v}");
    let tube = dir.join("tube.rle");
    std::fs::write(&tube, "x = 3, y = 3, rule = B3/S23:T0,20\nbo$2bo$3o!\n").unwrap();
    let v = common::cli::json(&[
        "analyze",
        "--pattern",
        tube.to_str().unwrap(),
        "--max-gens",
        "2000",
        "--json",
    ]);
    assert_eq!(v["kind"], "unresolved", "{v}");
    assert_eq!(v["universe"]["kind"], "tube", "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A macrocell file on a tube whose cells go more than once round it is refused plainly (its
/// tiles used to be wrapped onto one another, and a tile past a tall tube's width could panic).
#[test]
fn a_file_wider_than_its_tube_is_refused() {
    let dir = std::env::temp_dir().join(format!("lifelab-wide-tube-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plane = dir.join("acorn-1000.mc");
    common::cli::json(&[
        "run",
        "--pattern",
        "acorn",
        "--plane",
        "--gens",
        "1000",
        "--out",
        plane.to_str().unwrap(),
        "--json",
    ]);
    let text = std::fs::read_to_string(&plane).unwrap();
    let tube = dir.join("acorn-on-a-tube.mc");
    std::fs::write(&tube, text.replace("#R B3/S23", "#R B3/S23:T37,0")).unwrap();
    let e = common::cli::json_error(&["run", "--pattern", tube.to_str().unwrap(), "--json"]);
    assert!(
        e.contains("more than once round an infinitely tall tube 37 cells round"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `auto` tries the tile engine and HashLife on a crowded non-totalistic pattern on the plane,
/// and goes on with the one that did less work: Golly's horiship-guns, whose guns' streams of
/// spaceships repeat, on HashLife; pondpuffer-spaceship, whose debris churns, and oscillators,
/// tile by tile, their HashLife stopped in its first stretch (at twice the nodes it may make
/// in its measured one and 1024 more: pondpuffer made 2.6 times, oscillators 10 times,
/// horiship-guns 1.2 times). Through the swap the population is bgolly's. The CPU engines
/// get one thread here: with two, a long first step is a race instead (the test below).
#[test]
fn auto_tries_both_sparse_engines_on_a_crowded_non_totalistic_pattern() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::path::Path::new("/usr/share/golly/Patterns/Non-Totalistic");
    if !common::golly_installed(dir.to_str().unwrap()) {
        return;
    }
    for (file, engine, note) in [
        ("horiship-guns.rle", "hashlife", "HashLife made "),
        ("pondpuffer-spaceship.rle", "tiles", "in its first 16"),
        ("JustFriends/oscillators.rle", "tiles", "in its first 16"),
    ] {
        let path = dir.join(file);
        let v = run_1000_on_threads(&path, 1);
        assert_eq!(v["engine"], engine, "{file}: {v}");
        let said = v["engine_note"].as_str().unwrap_or_default();
        assert!(said.contains(note), "{file}: {v}");
        assert!(!said.contains("raced"), "{file}: {v}");
        // HashLife that won went on from its measured stretch whole.
        assert_eq!(said.contains("more than"), engine == "tiles", "{file}: {v}");
        assert_eq!(
            v["population"].as_u64().unwrap(),
            golly_population(&bgolly, &path, "QuickLife", 1000),
            "{file}"
        );
    }
}

/// `run --json` of `path` to generation 1000 with `threads` for the CPU engines.
fn run_1000_on_threads(path: &std::path::Path, threads: u32) -> serde_json::Value {
    common::cli::json_with(
        &[
            "run",
            "--json",
            "--gens",
            "1000",
            "--pattern",
            path.to_str().unwrap(),
        ],
        &[("RAYON_NUM_THREADS", &threads.to_string())],
    )
}

/// With two threads for the CPU engines, `auto` races the tile engine and HashLife on Golly's
/// non-totalistic patterns on the plane (a long first step: HashLife whole on a second thread,
/// the tile engine here) and goes on with the one that finishes first: the small patterns it
/// would have given HashLife outright, and the crowded ones whose HashLife passes the trial,
/// which now runs on the second thread (oscillators' HashLife does not, and stops there).
/// Either way the population is bgolly's. In process, horiship-guns to 1000 takes the tile
/// engine about 28 ms and HashLife 3 ms, limited-spacefiller 1.5 ms against 6 ms (BENCHMARKS.md,
/// 2026-12-06); only horiship's winner is held, its margin wide enough for a loaded machine.
#[test]
fn auto_races_the_tile_engine_and_hashlife_where_a_second_thread_is_free() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::path::Path::new("/usr/share/golly/Patterns/Non-Totalistic");
    if !common::golly_installed(dir.to_str().unwrap()) {
        return;
    }
    for (file, winner) in [
        ("horiship-guns.rle", Some("hashlife")),
        ("limited-spacefiller.rle", None),
        ("intergalactic-cruise-ship-factory.rle", None),
        ("JustFriends/oscillators.rle", Some("tiles")),
    ] {
        let path = dir.join(file);
        let v = run_1000_on_threads(&path, 2);
        let engine = v["engine"].as_str().unwrap();
        assert!(["tiles", "hashlife"].contains(&engine), "{file}: {v}");
        if let Some(w) = winner {
            assert_eq!(engine, w, "{file}: {v}");
        }
        let said = v["engine_note"].as_str().unwrap_or_default();
        let other = if engine == "tiles" {
            "hashlife"
        } else {
            "tiles"
        };
        let raced = said.contains(&format!(
            "it raced the {other} engine on a second thread and finished first, at generation 1000)"
        ));
        let lost_trial = engine == "tiles" && said.contains("HashLife made more than");
        assert!(raced != lost_trial, "{file}: {v}");
        // horiship-guns' HashLife passed its trial and won; oscillators' lost the trial.
        if file == "horiship-guns.rle" {
            assert!(
                said.contains("HashLife made 1576 new nodes in 16; it raced"),
                "{v}"
            );
        }
        if file.ends_with("oscillators.rle") {
            assert!(lost_trial, "{v}");
        }
        assert_eq!(v["generation"], 1000, "{file}: {v}");
        assert_eq!(
            v["population"].as_u64().unwrap(),
            golly_population(&bgolly, &path, "QuickLife", 1000),
            "{file}"
        );
    }
}

/// Golly's tubes and strips for the rules of more than two states, which the rule-tree engine
/// takes (a Generations rule as its tree): soups of Generations rules, cell for cell against
/// bgolly's Generations algorithm, and Langton's loop, whose colony runs into the edges or round
/// the tube, against bgolly's RuleLoader population.
#[test]
fn multi_state_rules_run_on_tubes_and_strips_as_in_golly() {
    let Some(bgolly) = bgolly() else { return };
    let dir = std::env::temp_dir().join(format!("lifelab-tubes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let soup = |rule: &str, w: u32, h: u32, states: u16, seed: u64| {
        let tiles = common::state_soup((0, 0), (w, h), states, 2, seed);
        let mut rows = Vec::new();
        for y in 0..h as i64 {
            let row: String = (0..w as i64)
                .map(|x| match tiles.state(x, y) {
                    0 => '.',
                    s => (b'A' + s - 1) as char,
                })
                .collect();
            rows.push(row);
        }
        format!("x = {w}, y = {h}, rule = {rule}\n{}!\n", rows.join("$"))
    };
    for (name, rle) in [
        ("tube", soup("345/3/6:T0,40", 40, 40, 6, 1)),
        ("tall-tube", soup("345/3/6:T37,0", 37, 50, 6, 2)),
        ("strip", soup("23/3/4:P0,30", 60, 30, 4, 3)),
        ("tall-strip", soup("2/2/3:P33,0", 33, 40, 3, 4)),
    ] {
        let input = dir.join(format!("{name}.rle"));
        std::fs::write(&input, rle).unwrap();
        for gens in [100u64, 1000] {
            let (v, ours, golly) = ours_and_golly(&bgolly, &input, gens, "Generations", &dir, name);
            assert_eq!(v["engine"], "rule-tree", "{name}: {v}");
            assert_eq!(ours, golly, "{name} at {gens}");
        }
    }
    let loop_file = std::path::Path::new("/usr/share/golly/Patterns/Loops/Langtons-Loops.rle");
    if common::golly_installed("/usr/share/golly/Patterns") {
        let text = std::fs::read_to_string(loop_file).unwrap();
        for suffix in [":T0,40", ":P0,40", ":T30,0", ":P16,0"] {
            let input = dir.join(format!("loop{}.rle", suffix.replace([':', ','], "-")));
            std::fs::write(
                &input,
                text.replace(
                    "rule = Langtons-Loops",
                    &format!("rule = Langtons-Loops{suffix}"),
                ),
            )
            .unwrap();
            for gens in [300u64, 2000] {
                let v = common::cli::json(&[
                    "run",
                    "--json",
                    "--pattern",
                    input.to_str().unwrap(),
                    "--gens",
                    &gens.to_string(),
                ]);
                assert_eq!(
                    v["population"].as_u64().unwrap(),
                    golly_population(&bgolly, &input, "RuleLoader", gens),
                    "Langton's loop on {suffix} at {gens}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
