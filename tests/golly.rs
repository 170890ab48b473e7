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

use common::{in_ci, rule, run, soup};
use common::REFERENCE;
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
    let ours = crop(&run(
        common::CPU,
        rule("B3/S23"),
        &start,
        gens,
        0,
    ));
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
