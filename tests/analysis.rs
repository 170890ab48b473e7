//! Pattern analysis: identification of the library's still lifes, oscillators, spaceships and
//! gun; methuselah lifespans; whole-torus period detection (with an injected hash collision);
//! GPU and CPU agreement; the `analyze` command. New analysis tests belong here.

mod common;

use std::process::Command;

use common::{CPU, GPU, TILES, rule, soup};
use lifelab::analysis::{self, Kind, PeriodReport, TorusFate};
use lifelab::engine::{Census, Engine, EngineResult, Progress, Universe};
use lifelab::grid::Grid;
use lifelab::pattern::library;
use lifelab::rule::Rule;

fn cells(name: &str) -> Grid {
    library::get(name).unwrap().trimmed().cells
}

fn identify(name: &str) -> analysis::Identity {
    let p = library::get(name).unwrap();
    let r = p
        .rule
        .unwrap_or_else(lifelab::rule::Rule::life)
        .without_torus();
    analysis::identify(r, &p.trimmed().cells, 2000).unwrap()
}

/// The whole torus's fate on the engine `name`, confirmations on the CPU engine.
fn period_of(
    name: &str,
    r: Rule,
    start: &Grid,
    max: u64,
    key: &dyn Fn(&Census) -> u64,
) -> PeriodReport {
    let mut e = common::engine(name, r, start, 0);
    let empty = Grid::new(start.width(), start.height());
    let replay = || -> EngineResult<Box<dyn Engine>> { Ok(common::engine(CPU, r, &empty, 0)) };
    analysis::find_period(e.as_mut(), &replay, max, key, &Progress::default()).unwrap()
}

/// A lifespan on a `side` torus, on the engine `name`.
fn lifespan_on(
    name: &str,
    c: &Grid,
    side: u32,
    max_gens: u64,
    settle: u64,
) -> analysis::LifespanReport {
    let make = || -> EngineResult<Box<dyn Engine>> {
        let request = lifelab::registry::Request::new(rule("B3/S23"), Universe::torus(side, side));
        Ok(lifelab::registry::create(name, &request)?.0)
    };
    analysis::lifespan(
        rule("B3/S23"),
        c,
        max_gens,
        settle,
        &make,
        &Progress::default(),
    )
    .unwrap()
}

#[test]
fn library_oscillators_and_still_lifes_have_their_periods() {
    // Periods from SPEC 1.4 and LifeWiki; the B3/S3 and B3/S13 flippers worked by hand (each
    // is its own mirror image after one generation, and back after two).
    let cases = [
        ("block", Kind::Still, 1),
        ("beehive", Kind::Still, 1),
        ("blinker", Kind::Oscillator, 2),
        ("toad", Kind::Oscillator, 2),
        ("beacon", Kind::Oscillator, 2),
        ("pulsar", Kind::Oscillator, 3),
        ("pentadecathlon", Kind::Oscillator, 15),
        ("b3s3-flipper", Kind::Oscillator, 2),
        ("b3s13-flipper", Kind::Oscillator, 2),
    ];
    for (name, kind, period) in cases {
        let id = identify(name);
        assert_eq!((id.kind, id.period), (kind, Some(period)), "{name}");
        assert_eq!(id.displacement, Some((0, 0)), "{name}");
        assert!(id.name.is_some(), "{name} should be recognised");
    }
}

#[test]
fn spaceships_have_their_periods_and_speeds() {
    // The glider flies (1,1) every 4 generations; the three ships 2 cells orthogonally.
    let g = identify("glider");
    assert_eq!(
        (g.kind, g.period, g.displacement),
        (Kind::Spaceship, Some(4), Some((1, 1)))
    );
    assert!(g.speed.as_deref().unwrap().starts_with("(1,1)c/4"));
    assert_eq!(g.name.as_deref(), Some("Glider"));
    for name in ["lwss", "mwss", "hwss"] {
        let s = identify(name);
        assert_eq!((s.kind, s.period), (Kind::Spaceship, Some(4)), "{name}");
        let (dx, dy) = s.displacement.unwrap();
        assert_eq!(dx.abs() + dy.abs(), 2, "{name} moves 2 cells");
        assert!(dx == 0 || dy == 0, "{name} moves orthogonally");
        assert!(
            s.speed.as_deref().unwrap().contains("c/2 orthogonal"),
            "{name}"
        );
    }
}

#[test]
fn the_gosper_gun_has_period_30_and_emits_gliders() {
    let id = identify("gosper-glider-gun");
    assert_eq!(id.kind, Kind::Gun);
    assert_eq!(id.period, Some(30));
    assert_eq!(id.emits.as_deref(), Some("a glider every 30 generations"));
    assert_eq!(id.name.as_deref(), Some("Gosper glider gun"));
}

#[test]
fn diehard_dies_at_130() {
    let id = identify("diehard");
    assert_eq!((id.kind, id.start), (Kind::Dies, 130));
}

fn lifespan_of(name: &str, max_gens: u64) -> analysis::Lifespan {
    let c = cells(name);
    let side = analysis::roomy_side(&c, max_gens);
    lifespan_on(TILES, &c, side, max_gens, 1000)
        .result
        .unwrap_or_else(|| panic!("{name} did not stabilise"))
}

#[test]
fn methuselahs_r_pentomino_and_acorn() {
    // SPEC 1.4 and LifeWiki: the R-pentomino stabilises at 1103 with 116 cells (6 gliders
    // escaping), acorn at 5206 with 633 (13 gliders).
    let r = lifespan_of("r-pentomino", 3000);
    assert_eq!((r.lifespan, r.final_population, r.escaping), (1103, 116, 6));
    let a = lifespan_of("acorn", 8000);
    assert_eq!(
        (a.lifespan, a.final_population, a.escaping),
        (5206, 633, 13)
    );
}

#[test]
fn methuselahs_rabbits_and_bunnies() {
    // The Life Lexicon (shipped with Golly): rabbits "stabilizes at time 17331", and its
    // parent bunnies at 17332. (SPEC 1.4 gives 17332 for rabbits: that is bunnies' figure.)
    assert_eq!(lifespan_of("rabbits", 19_000).lifespan, 17331);
    assert_eq!(lifespan_of("bunnies", 19_000).lifespan, 17332);
}

#[test]
fn replicator_seeds_stand_in_eight_copies_at_powers_of_two() {
    // B1357/S1357 is next = XOR of the 8 neighbours: linear over GF(2), so the 2^k-th power
    // of the step is the XOR of the 8 neighbour shifts scaled by 2^k.
    let seed = cells("replicator-seed");
    let mut torus = Grid::new(128, 128);
    torus.paste(&seed, 60, 60);
    let k = 16i64;
    let mut want = Grid::new(128, 128);
    for (dx, dy) in lifelab::rule::Neighbourhood::Moore.offsets() {
        let shifted = torus.translated(*dx as i64 * k, *dy as i64 * k);
        for (x, y) in shifted.alive_cells() {
            want.set(x, y, !want.get(x, y));
        }
    }
    let got = common::run(CPU, rule("Replicator"), &torus, k as u64, 0);
    assert_eq!(got, want);
}

#[test]
fn an_injected_hash_collision_does_not_give_a_false_period() {
    let r = rule("B3/S23");
    let start = soup(48, 40, 0.35, 12);
    let honest = period_of(CPU, r, &start, 3000, &|c| c.hash);
    assert!(
        matches!(honest.fate, TorusFate::Repeats { .. }),
        "{:?}",
        honest.fate
    );
    // A hash that is the same for every state: every generation with an equal population is a
    // candidate, and each must be refused by the full comparison.
    let colliding = period_of(CPU, r, &start, 3000, &|_| 42);
    assert_eq!(colliding.fate, honest.fate);
    assert!(colliding.collisions > 0);
    assert_eq!(colliding.history, honest.history);
}

#[test]
fn still_lifes_and_death_on_the_whole_torus() {
    // A block repeats at once; diehard dies at 130.
    let mut g = Grid::new(32, 32);
    g.paste(&cells("block"), 10, 10);
    let r = period_of(CPU, rule("B3/S23"), &g, 100, &|c| c.hash);
    assert_eq!(
        r.fate,
        TorusFate::Repeats {
            start: 0,
            period: 1
        }
    );
    let mut g = Grid::new(64, 64);
    g.paste(&cells("diehard"), 28, 30);
    let r = period_of(CPU, rule("B3/S23"), &g, 300, &|c| c.hash);
    assert_eq!(r.fate, TorusFate::Dies { generation: 130 });
    assert_eq!(r.history.len(), 131);
}

#[test]
fn gpu_and_cpu_give_the_same_analysis() {
    if !common::gpu_available() {
        return;
    }
    for (i, (text, w, h)) in [
        ("B3/S23", 48u32, 40u32),
        ("B36/S23", 33, 65),
        ("B2/S34H", 40, 40),
    ]
    .iter()
    .enumerate()
    {
        let r = rule(text);
        let start = soup(*w, *h, 0.35, 20 + i as u64);
        let fate = |kind| period_of(kind, r, &start, 2000, &|c| c.hash);
        let (cpu, gpu) = (fate(CPU), fate(GPU));
        assert_eq!(cpu.fate, gpu.fate, "{text}");
        assert_eq!(cpu.history, gpu.history, "{text}");
    }
    // The methuselah pass too, on a torus the GPU handles quickly: with a settling margin of
    // 500 generations the six gliders travel under 500 cells, inside half of 2048.
    let c = cells("r-pentomino");
    let run = |kind| lifespan_on(kind, &c, 2048, 2500, 500);
    let (cpu, gpu) = (run(CPU), run(GPU));
    assert_eq!(cpu.history, gpu.history);
    let (c, g) = (cpu.result.unwrap(), gpu.result.unwrap());
    assert_eq!(
        (c.lifespan, c.final_population),
        (g.lifespan, g.final_population)
    );
    assert_eq!((g.lifespan, g.final_population), (1103, 116));
}

#[test]
fn analyze_command_reports_acorn_and_writes_the_history() {
    let dir = std::env::temp_dir().join(format!("lifelab-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("acorn.csv");
    let csv_path = csv.display().to_string();
    let out = common::cli::lifelab(&[
        "analyze",
        "--pattern",
        "acorn",
        "--engine",
        "cpu",
        // The dense engine runs a torus roomy enough for the search: 16384² for 20,000.
        "--max-gens",
        "20000",
        "--json",
        "--history",
        &csv_path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lifespan"], 5206);
    assert_eq!(v["final_population"], 633);
    assert_eq!(v["kind"], "methuselah");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("generation,population"));
    assert_eq!(lines.next(), Some("0,7"));
    assert!(text.lines().any(|l| l == "5206,633"));

    let out = common::cli::lifelab(&["analyze", "--pattern", "glider", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "spaceship");
    assert_eq!(v["period"], 4);
    assert_eq!(v["displacement"], serde_json::json!([1, 1]));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn known_objects_are_named_by_their_apgcodes() {
    // Catagolue's and LifeWiki's canonical names.
    for (name, code) in [
        ("block", "xs4_33"),
        ("beehive", "xs6_696"),
        ("blinker", "xp2_7"),
        ("glider", "xq4_153"),
        ("hwss", "xq4_27deee6"),
        ("pentadecathlon", "xp15_4r4z4r4"),
    ] {
        assert_eq!(identify(name).apgcode.as_deref(), Some(code), "{name}");
    }
}

#[test]
fn analyze_acorn_runs_on_the_sparse_engine_and_gives_its_apgcode_for_ships() {
    let out = common::cli::lifelab(&["analyze", "--pattern", "acorn", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["lifespan"].clone(), v["final_population"].clone()),
        (5206.into(), 633.into())
    );
    assert_eq!(v["engine"], "tiles", "{v}");
    let out = common::cli::lifelab(&["analyze", "--pattern", "glider", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["apgcode"], "xq4_153");
}

#[test]
fn under_b0_an_empty_torus_is_not_death() {
    // The cases of issue 17, each checked by a run: B0/S8 on 5x1 goes 0, 5, 5 (a still life
    // from generation 2); a B03/S23 soup is a period-2 oscillator from 31; a block under B0/S
    // alternates 4, 48, 4, 48 on 8x8.
    let analyze = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
            .arg("analyze")
            .args(args)
            .args(["--engine", "cpu", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = analyze(&[
        "--random", "0.19", "--seed", "3133", "--size", "5x1", "--rule", "B0/S8",
    ]);
    assert_eq!(
        (v["kind"].clone(), v["start"].clone()),
        ("still".into(), 2.into())
    );
    let v = analyze(&[
        "--random", "0.6", "--seed", "3896", "--size", "5x8", "--rule", "B03/S23",
    ]);
    assert_eq!(
        (v["kind"].clone(), v["period"].clone(), v["start"].clone()),
        ("oscillator".into(), 2.into(), 31.into())
    );
    let v = analyze(&["--pattern", "block", "--size", "8x8", "--rule", "B0/S"]);
    assert_eq!(
        (v["kind"].clone(), v["period"].clone()),
        ("oscillator".into(), 2.into())
    );
    // The same runs, on the reference engine.
    let r = rule("B0/S");
    let mut g = Grid::new(8, 8);
    g.paste(&cells("block"), 3, 3);
    let pops: Vec<u64> = (0..4)
        .map(|n| common::run(common::REFERENCE, r, &g, n, 0).population())
        .collect();
    assert_eq!(pops, [4, 48, 4, 48]);
}

/// The number after `key` in `text` (commas allowed), if any.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let rest = &text[text.find(key)? + key.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

#[test]
fn golly_methuselahs_are_analysed_on_the_plane_as_their_finders_counted_them() {
    // Issue 23: `analyze FILE` finds a methuselah's lifespan on the unbounded plane, with no
    // torus size. The expected values are the files' own comments (Dean Hickerson's list, as
    // Golly ships it): "Runs for N gens", "Final pop = P" (the first phase) and, where given,
    // "Gliders = G".
    const DIR: &str = "/usr/share/golly/Patterns/Life/Methuselahs";
    if !common::golly_installed(DIR) {
        return;
    }
    let mut checked = 0;
    for name in [
        "iwona",
        "justyna",
        "lidka-predecessor",
        "blom",
        "natural-LWSS",
        "temp-pulsars-big-s",
        "rabbits-relation-17423",
        "rabbits-relation-17465",
    ] {
        let path = format!("{DIR}/{name}.rle");
        let text = std::fs::read_to_string(&path).unwrap();
        let lifespan = number_after(&text, "Runs for").unwrap();
        let final_pop = number_after(&text, "Final pop = ")
            .or_else(|| number_after(&text, "Final pops = "))
            .unwrap();
        let v = common::cli::json(&["analyze", "--pattern", &path, "--json"]);
        assert_eq!(v["universe"]["kind"], "plane", "{name}: {v}");
        assert_eq!(v["kind"], "methuselah", "{name}: {v}");
        assert_eq!(v["lifespan"], lifespan, "{name}");
        assert_eq!(v["final_population"], final_pop, "{name}");
        if let Some(gliders) = number_after(&text, "Gliders = ") {
            assert_eq!(v["escaping_spaceships"], gliders, "{name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
    // A torus asked for is kept: the same file on --size 512 says so.
    let path = format!("{DIR}/rabbits-relation-17465.rle");
    let v = common::cli::json(&[
        "analyze",
        "--pattern",
        &path,
        "--size",
        "512",
        "--max-gens",
        "2000",
        "--json",
    ]);
    assert_eq!(v["universe"]["kind"], "torus", "{v}");
    assert_eq!(v["universe"]["width"], 512, "{v}");
}

/// `analyze` counts what a methuselah leaves on the plane as apgsearch's census does, named.
/// The R-pentomino's final census is LifeWiki's (and Conway's group's): at 1103, 8 blocks,
/// 6 gliders, 4 beehives, 4 blinkers, a boat, a loaf and a ship. Acorn's 13 gliders are
/// LifeWiki's too, and its objects' cells add up to its population of 633.
#[test]
fn analyze_gives_a_methuselah_s_final_census_on_the_plane() {
    let count = |v: &serde_json::Value, code: &str| {
        v["final_census"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["apgcode"] == code)
            .map_or(0, |o| o["count"].as_u64().unwrap())
    };
    let v = common::cli::json(&["analyze", "--pattern", "r-pentomino", "--plane", "--json"]);
    assert_eq!(v["lifespan"], 1103, "{v}");
    let named: Vec<(String, u64)> = v["final_census"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("block", 8),
        ("glider", 6),
        ("beehive", 4),
        ("blinker", 4),
        ("boat", 1),
        ("loaf", 1),
        ("ship", 1),
    ];
    let mut got = named.clone();
    got.sort();
    let mut want: Vec<(String, u64)> = want.iter().map(|(n, c)| (n.to_string(), *c)).collect();
    want.sort();
    assert_eq!(got, want, "{v}");
    // Catagolue's codes for the commonest objects.
    assert_eq!(count(&v, "xs4_33"), 8);
    assert_eq!(count(&v, "xq4_153"), 6);
    assert_eq!(count(&v, "xs6_696"), 4);
    assert_eq!(count(&v, "xp2_7"), 4);

    let v = common::cli::json(&["analyze", "--pattern", "acorn", "--plane", "--json"]);
    assert_eq!(count(&v, "xq4_153"), 13, "{v}");
    let cells: u64 = v["final_census"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            // A still life's or a glider's code says its cells: the digits after `_` in base
            // 32 are its columns' bits (extended Wechsler); an oscillator's phase-0 as well.
            let code = o["apgcode"].as_str().unwrap();
            let wechsler = code.split('_').nth(1).unwrap();
            let pop: u64 = wechsler
                .chars()
                .filter_map(|c| c.to_digit(32))
                .map(|d| d.count_ones() as u64)
                .sum();
            pop * o["count"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(cells, 633, "{v}");
}
