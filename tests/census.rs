//! The soup census against lifelib: its `hashsoup` for every symmetry, and its classifier's
//! objects for each soup, recorded by the commands at the top of each file in
//! tests/data/census (scripts/census/).

use std::collections::BTreeMap;
use std::path::Path;

mod common;

use common::cli::{failure, json, json_error, lifelab};
use lifelab::census::{self, Symmetry, object, soup};
use lifelab::pattern::apgcode::decode;
use lifelab::rule::Rule;

fn data(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/census")
            .join(name),
    )
    .unwrap()
}

#[test]
fn soups_are_lifelibs_cell_for_cell_in_every_symmetry() {
    let text = data("lifelib_soups.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (sym, rest) = line.split_once(' ').unwrap();
        let quote = rest.find('\'').unwrap();
        let end = quote + 1 + rest[quote + 1..].find('\'').unwrap();
        let seed = &rest[quote + 1..end];
        let want: Vec<(i64, i64)> = rest[end + 1..]
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let symmetry: Symmetry = sym.parse().unwrap();
        assert_eq!(soup::hashsoup(seed, symmetry), want, "{sym} {seed:?}");
        checked += 1;
    }
    assert_eq!(checked, 100);
}

/// soup number -> (generation settled, objects with counts).
fn oracle(name: &str) -> BTreeMap<u64, (u64, BTreeMap<String, u64>)> {
    data(name)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace();
            let index = w.next().unwrap().parse().unwrap();
            let settled = w.next().unwrap().parse().unwrap();
            let objects = w
                .map(|o| {
                    let (code, n) = o.split_once('*').unwrap();
                    (code.to_string(), n.parse().unwrap())
                })
                .collect();
            (index, (settled, objects))
        })
        .collect()
}

fn check_against_oracle(symmetry: &str, file: &str, soups: u64) {
    check_rule_against_oracle("B3/S23", symmetry, file, soups)
}

fn check_rule_against_oracle(rule: &str, symmetry: &str, file: &str, soups: u64) {
    check_parsed_rule_against_oracle(Rule::parse(rule).unwrap(), symmetry, file, soups)
}

fn check_parsed_rule_against_oracle(rule: Rule, symmetry: &str, file: &str, soups: u64) {
    let want = oracle(file);
    let symmetry: Symmetry = symmetry.parse().unwrap();
    let mut wrong = Vec::new();
    for index in 0..soups {
        let got = census::one(rule, symmetry, "k_lifelab_", index).unwrap();
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for o in &got.objects {
            // The oracle runs lifelib's classifier without apgsearch's names for growth
            // (detection.h), so linear and chaotic growth are PATHOLOGICAL there.
            let o = if o.starts_with("yl") || o.starts_with("zz_") {
                "PATHOLOGICAL"
            } else {
                o
            };
            *counts.entry(o.to_string()).or_default() += 1;
        }
        let (settled, objects) = &want[&index];
        if (got.settled, &counts) != (*settled, objects) {
            wrong.push(format!(
                "soup {index}: lifelib {settled} {objects:?}\n        lifelab {} {counts:?}",
                got.settled
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} soups differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_thousand_c1_soups_give_lifelibs_objects_and_settling_generations() {
    check_against_oracle("C1", "lifelib_b3s23_C1_k_lifelab_.txt", 1000);
}

#[test]
fn symmetric_and_strip_soups_give_lifelibs_objects() {
    check_against_oracle("D8_1", "lifelib_b3s23_D8_1_k_lifelab_.txt", 300);
    check_against_oracle("C2_4", "lifelib_b3s23_C2_4_k_lifelab_.txt", 300);
    check_against_oracle("1x256", "lifelib_b3s23_1x256_k_lifelab_.txt", 300);
}

#[test]
fn highlife_and_an_isotropic_non_totalistic_rule_give_lifelibs_objects() {
    check_rule_against_oracle("B36/S23", "C1", "lifelib_b36s23_C1_k_lifelab_.txt", 300);
    check_rule_against_oracle(
        "B3/S2-i34q",
        "C1",
        "lifelib_b3s2-i34q_C1_k_lifelab_.txt",
        300,
    );
}

/// A rule file of two states whose table is an isotropic rule of the Moore block is
/// censused as that rule: Life written out as a table (by hand, below) gives lifelib's
/// objects for Life's soups, and its haul is Catagolue's `b3s23`, not the file's name.
#[test]
fn a_rule_file_of_life_is_censused_as_life() {
    let mut table = String::from(
        "@RULE LifeAsATable\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:permute\n0,1,1,1,0,0,0,0,0,1\n",
    );
    for n in [0, 1, 4, 5, 6, 7, 8] {
        let cells: Vec<&str> = (0..8).map(|k| if k < n { "1" } else { "0" }).collect();
        table.push_str(&format!("1,{},0\n", cells.join(",")));
    }
    let loaded = lifelab::rule::loader::load_text(&table, "LifeAsATable").unwrap();
    let rule = Rule {
        kind: lifelab::rule::RuleKind::Loaded(loaded),
        torus: None,
        bounded: None,
        tube: None,
    };
    assert_eq!(census::catagolue_rule(&rule), "b3s23");
    check_parsed_rule_against_oracle(rule, "C1", "lifelib_b3s23_C1_k_lifelab_.txt", 300);
}

/// Catagolue's rule names are lowercase: Life written as a MAP string goes by `b3s23`, and an
/// isotropic non-totalistic rule written as MAP by its Hensel form, not by its base64 lowered.
#[test]
fn a_map_rule_is_named_as_catagolue_names_it() {
    use lifelab::rule::map::{MapNotation, MapRule};
    for (rule, name) in [("B3/S23", "b3s23"), ("B3/S2-i34q", "b3s2-i34q")] {
        let table = Rule::parse(rule).unwrap().block_rule().unwrap();
        let map = MapRule::from_fn(table.neighbourhood, MapNotation::Map, |i| table.next(i));
        let map = Rule::parse(&map.to_string()).unwrap();
        assert!(map.to_string().starts_with("MAP"), "{map}");
        assert_eq!(census::catagolue_rule(&map), name);
    }
}

#[test]
fn every_apgcode_in_a_census_decodes_to_an_object_of_that_period_and_motion() {
    let text = data("lifelib_b3s23_C1_k_lifelab_.txt");
    let table = Rule::life().block_rule().unwrap();
    let mut codes: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split_whitespace().skip(2))
        .map(|o| o.split_once('*').unwrap().0)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    assert!(codes.len() > 20, "{codes:?}");
    for code in codes {
        let (prefix, body) = code.split_once('_').unwrap();
        let cells = decode(body).unwrap();
        let start = object::Patch::from_cells(&cells);
        let c = object::cycle(&start, &table, 1000).unwrap();
        let expect = match &prefix[..2] {
            "xs" => {
                c.period == 1
                    && (c.dx, c.dy) == (0, 0)
                    && prefix[2..] == start.population().to_string()
            }
            "xp" => c.period.to_string() == prefix[2..] && (c.dx, c.dy) == (0, 0),
            "xq" => c.period.to_string() == prefix[2..] && (c.dx, c.dy) != (0, 0),
            _ => false,
        };
        assert!(
            expect,
            "{code}: period {} moving ({}, {})",
            c.period, c.dx, c.dy
        );
        // And the code of what it decodes to is itself.
        assert_eq!(object::apgcode(&c), code);
    }
}

#[test]
fn census_soup_prints_the_soup_as_rle() {
    let out = lifelab(&["census", "soup", "k_test", "0", "--symmetry", "C1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // lifelib's rle_string() for this soup (python-lifelib 2.5.6).
    assert!(text.contains("x = 16, y = 16, rule = B3/S23"), "{text}");
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('x'))
        .collect();
    let pattern = lifelab::pattern::rle::parse(&text).unwrap();
    assert_eq!(pattern.population(), 131, "{body}");
}

#[test]
fn a_census_soup_opens_as_a_pattern() {
    let v = json(&[
        "run",
        "--pattern",
        "census:C1:k_test:0",
        "--plane",
        "--gens",
        "0",
        "--json",
    ]);
    // lifelib's hashsoup("k_test0", "C1") has 131 cells.
    assert_eq!(v["population"], 131, "{v}");
    let err = failure(&["run", "--pattern", "census:C9:k_test:0", "--gens", "0"]);
    assert!(err.contains("unknown symmetry 'C9'"), "{err}");
}

#[test]
fn a_range_gives_the_same_haul_however_it_is_split() {
    let dir = std::env::temp_dir().join(format!("lifelab-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.txt");
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    let merged = dir.join("merged.txt");
    let run = |range: &str, out: &Path| {
        let o = lifelab(&[
            "census",
            "--root",
            "k_lifelab_",
            "--soups",
            range,
            "--haul",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("0..120", &whole);
    run("0..47", &a);
    run("47..120", &b);
    let o = lifelab(&[
        "census",
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--haul",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(read(&merged), read(&whole));
    // The totals are lifelib's for these soups.
    let want = oracle("lifelib_b3s23_C1_k_lifelab_.txt");
    let mut total: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..120 {
        for (k, v) in &want[&i].1 {
            *total.entry(k.clone()).or_default() += v;
        }
    }
    let text = read(&whole);
    for (k, v) in &total {
        assert!(text.contains(&format!("\n{k} {v}\n")), "{k} {v} in\n{text}");
    }
    // Merging a shard twice is refused, naming the file.
    let o = lifelab(&[
        "census",
        "merge",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--haul",
        merged.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a.txt") && err.contains("counted twice"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_census_input_is_refused_with_what_was_wrong() {
    for (args, says) in [
        (
            vec!["census", "soup", "k_x", "0", "--symmetry", "C3"],
            "unknown symmetry 'C3'",
        ),
        (vec!["census", "--rule", "B03/S23", "--soups", "10"], "B0"),
        (vec!["census", "--soups", "0"], "no soups"),
        (vec!["census", "--soups", "9..3"], "9..3"),
        (
            vec!["census", "--rule", "B3/S23:T100,100", "--soups", "1"],
            "unbounded plane",
        ),
        (vec!["census", "--rule", "B3/S23H", "--soups", "1"], "Moore"),
    ] {
        let err = failure(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let err = json_error(&["census", "--json", "--soups", "0"]);
    assert!(err.contains("no soups"), "{err}");
}

/// The objects of an outcome as the oracle files count them.
fn oracle_counts(objects: &[String]) -> BTreeMap<String, u64> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for o in objects {
        let o = if o.starts_with("yl") || o.starts_with("zz_") {
            "PATHOLOGICAL"
        } else {
            o
        };
        *counts.entry(o.to_string()).or_default() += 1;
    }
    counts
}

/// The GPU path (lavapipe in CI) carries each soup through its first generations in its own
/// square and the CPU finishes it from there: every soup's outcome is the CPU path's and its
/// objects and settling generation are lifelib's. Squares from 64 cells (most soups reach the
/// edge and are handed on mid-way) to 512 (most settle on the GPU), a generation budget that
/// stops soups between dispatches, strips too wide for the smallest square, and the rule
/// families the census runs (B/S and isotropic non-totalistic).
#[test]
fn the_gpu_path_gives_every_soup_the_cpus_outcome_and_lifelibs_objects() {
    use census::settle::{Settler, Stage};
    use census::{GpuPath, classify::Classifier, gpu::GpuSoups};
    if !common::gpu_available() {
        return;
    }
    let ctx = lifelab::gpu::shared_context().unwrap();
    let cases = [
        (
            "B3/S23",
            "C1",
            "lifelib_b3s23_C1_k_lifelab_.txt",
            0..240,
            64,
            32_768,
        ),
        (
            "B3/S23",
            "C1",
            "lifelib_b3s23_C1_k_lifelab_.txt",
            240..480,
            96,
            32_768,
        ),
        (
            "B3/S23",
            "C1",
            "lifelib_b3s23_C1_k_lifelab_.txt",
            480..640,
            512,
            32_768,
        ),
        (
            "B3/S23",
            "C1",
            "lifelib_b3s23_C1_k_lifelab_.txt",
            640..700,
            512,
            700,
        ),
        (
            "B3/S23",
            "D8_1",
            "lifelib_b3s23_D8_1_k_lifelab_.txt",
            0..80,
            96,
            32_768,
        ),
        (
            "B3/S23",
            "1x256",
            "lifelib_b3s23_1x256_k_lifelab_.txt",
            0..40,
            64,
            32_768,
        ),
        (
            "B3/S23",
            "1x256",
            "lifelib_b3s23_1x256_k_lifelab_.txt",
            40..80,
            512,
            32_768,
        ),
        (
            "B36/S23",
            "C1",
            "lifelib_b36s23_C1_k_lifelab_.txt",
            0..100,
            128,
            32_768,
        ),
        (
            "B3/S2-i34q",
            "C1",
            "lifelib_b3s2-i34q_C1_k_lifelab_.txt",
            0..100,
            128,
            32_768,
        ),
    ];
    for (rule_text, sym, file, range, side, generations) in cases {
        let what = format!("{rule_text} {sym} soups {range:?}, squares of {side}");
        let want = oracle(file);
        let rule = Rule::parse(rule_text).unwrap();
        let symmetry: Symmetry = sym.parse().unwrap();
        let table = census::census_table(&rule).unwrap();
        let path = GpuPath {
            side,
            // Several batches, the last one short.
            batch: 64,
            generations,
        };
        let gpu = GpuSoups::new(ctx, &table, path).unwrap();
        let soups: Vec<_> = range
            .clone()
            .map(|i| soup::hashsoup(&format!("k_lifelab_{i}"), symmetry))
            .collect();
        let starts = gpu.run(&soups).unwrap();
        assert_eq!(starts.len(), soups.len(), "{what}");
        let mut settler = Settler::new(Classifier::new(rule, table));
        let mut wrong = Vec::new();
        for (start, index) in starts.iter().zip(range.clone()) {
            let cpu = census::one(rule, symmetry, "k_lifelab_", index).unwrap();
            let got = settler.resume(index, start).unwrap();
            if got != cpu {
                wrong.push(format!(
                    "soup {index} (from generation {} {:?}): GPU path {} {:?}\n    CPU {} {:?}",
                    start.generation,
                    start.stage,
                    got.settled,
                    got.objects,
                    cpu.settled,
                    cpu.objects
                ));
            }
            let (settled, objects) = &want[&index];
            assert_eq!(
                (got.settled, oracle_counts(&got.objects)),
                (*settled, objects.clone()),
                "{what}: soup {index} against lifelib"
            );
        }
        assert!(
            wrong.is_empty(),
            "{what}: {} soups differ:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
        // The GPU did carry them: how far depends on the square.
        let carried = starts.iter().filter(|s| s.generation > 0).count();
        let settled = starts
            .iter()
            .filter(|s| matches!(s.stage, Stage::Settled(_)))
            .count();
        let handed = starts
            .iter()
            .filter(|s| s.generation > 0 && matches!(s.stage, Stage::Stabilising(_)))
            .count();
        match (sym, side) {
            ("1x256", 64) => assert_eq!(carried, 0, "{what}: a 256-wide strip fits no 64 square"),
            (_, 512) if generations > 700 => {
                assert!(
                    settled * 10 >= soups.len() * 7,
                    "{what}: {settled} settled on the GPU"
                )
            }
            (_, 512) => assert!(
                handed > 0 && settled > 0,
                "{what}: {handed} handed on at the budget"
            ),
            _ => assert!(
                carried == soups.len() && handed > 0,
                "{what}: {carried} carried, {handed} handed on from the edge"
            ),
        }
    }
}

/// `census --gpu` writes the haul the CPU does, and refuses a square it cannot use.
#[test]
fn census_on_the_gpu_path_writes_the_cpus_haul() {
    if !common::gpu_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("lifelab-census-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cpu, gpu) = (dir.join("cpu.txt"), dir.join("gpu.txt"));
    let base = [
        "census",
        "--soups",
        "100..220",
        "--root",
        "k_lifelab_",
        "--haul",
    ];
    let c = json(&[&base[..], &[cpu.to_str().unwrap(), "--json"]].concat());
    let g = json(
        &[
            &base[..],
            &[
                gpu.to_str().unwrap(),
                "--json",
                "--gpu",
                "--square",
                "96",
                "--batch",
                "50",
            ],
        ]
        .concat(),
    );
    assert!(c["gpu"].is_null(), "{c}");
    assert!(g["gpu"].is_string(), "{g}");
    assert_eq!(g["gpu_path"]["on_cpu"], 0, "{g}");
    assert!(
        g["gpu_path"]["generations"].as_u64().unwrap() > 120 * 100,
        "{g}"
    );
    let body = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("@VERSION"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&gpu), body(&cpu));
    let err = failure(&[
        "census",
        "--soups",
        "5",
        "--gpu",
        "--square",
        "80",
        "--haul",
        gpu.to_str().unwrap(),
    ]);
    assert!(err.contains("multiple of 32"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The haul apgluxe itself writes for soups 0 to 9,999 of b3s23/C1 (recorded by
/// scripts/census/record_apgluxe.sh from apgluxe v4.2-ll1.2 and the lifelib it ships): lifelab's
/// census has the same number of objects, the same table in the same order, and the same
/// sample soups for every object.
#[test]
fn ten_thousand_soups_give_apgluxes_own_haul() {
    let dir = std::env::temp_dir().join(format!("lifelab-census-apgluxe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let haul = dir.join("haul.txt");
    let o = lifelab(&[
        "census",
        "--root",
        "k_lifelab_",
        "--soups",
        "10000",
        "--haul",
        haul.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // From @NUM_SOUPS to the end of the sample soups (apgluxe writes no more; lifelab adds
    // its soup ranges and longest-lived soups after them).
    let body = |text: &str| -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.starts_with("@NUM_SOUPS"))
            .take_while(|l| !l.starts_with("@SOUP_RANGES"))
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    };
    let want = body(&data("apgluxe_b3s23_C1_k_lifelab_10000.txt"));
    let got = body(&std::fs::read_to_string(&haul).unwrap());
    assert!(want.len() > 40, "{want:?}");
    assert_eq!(got, want);
    std::fs::remove_dir_all(&dir).ok();
}
