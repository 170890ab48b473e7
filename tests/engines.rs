//! The CPU engines: known behaviour from the literature on the reference engine, and the fast
//! engine bit for bit against the reference. New tests of how automata evolve on the CPU belong
//! here; GPU engine tests belong in `gpu.rs`, and cross-checks with Golly in `golly.rs`.

mod common;

use common::{CPU, REFERENCE};
use common::{assert_matches_reference, on_torus, rule, run, soup};
use lifelab::grid::Grid;
use lifelab::rule::{Neighbourhood, named};

/// True when the pattern returns after exactly `p` generations and not sooner.
fn has_period(name: &str, p: u64) -> bool {
    let start = on_torus(name, 64, 64);
    let mut e = lifelab::cpu::ReferenceEngine::new(rule("B3/S23"), &start, 0);
    for k in 1..=p {
        e.step_once();
        let g = lifelab::engine::Engine::grid(&mut e).unwrap();
        if (g == start) != (k == p) {
            return false;
        }
    }
    true
}

#[test]
fn oscillator_periods_from_the_literature() {
    for (name, p) in [
        ("blinker", 2),
        ("toad", 2),
        ("beacon", 2),
        ("pulsar", 3),
        ("pentadecathlon", 15),
    ] {
        assert!(has_period(name, p), "{name} should have period {p}");
    }
    for still in ["block", "beehive"] {
        assert!(has_period(still, 1), "{still} is a still life");
    }
}

#[test]
fn spaceships_move_as_the_literature_says() {
    // Glider: period 4, one cell diagonally (this orientation flies down and right).
    let start = on_torus("glider", 32, 32);
    let after = run(REFERENCE, rule("B3/S23"), &start, 4, 0);
    assert_eq!(after, start.translated(1, 1));
    for k in 1..4 {
        let g = run(REFERENCE, rule("B3/S23"), &start, k, 0);
        assert!((-2..=2).all(|dx| (-2..=2).all(|dy| g != start.translated(dx, dy))));
    }
    // LWSS, MWSS, HWSS: period 4, two cells orthogonally.
    for name in ["lwss", "mwss", "hwss"] {
        let start = on_torus(name, 40, 40);
        let after = run(REFERENCE, rule("B3/S23"), &start, 4, 0);
        let moved = [(2, 0), (-2, 0), (0, 2), (0, -2)]
            .into_iter()
            .find(|&(dx, dy)| after == start.translated(dx, dy));
        assert!(
            moved.is_some(),
            "{name} did not move 2 cells in 4 generations"
        );
        for k in 1..4 {
            let g = run(REFERENCE, rule("B3/S23"), &start, k, 0);
            assert!(g != start, "{name} repeats after {k}");
        }
    }
}

#[test]
fn diehard_dies_at_130() {
    let start = on_torus("diehard", 64, 64);
    let g129 = run(CPU, rule("B3/S23"), &start, 129, 0);
    assert!(g129.population() > 0, "diehard is alive at 129");
    let g130 = run(CPU, rule("B3/S23"), &g129, 1, 0);
    assert_eq!(g130.population(), 0, "diehard is dead at 130");
}

#[test]
fn acorn_has_633_cells_at_5206_on_4096_and_2048_tori() {
    for side in [4096, 2048] {
        let start = on_torus("acorn", side, side);
        assert_eq!(start.population(), 7, "acorn is 7 cells at generation 0");
        let end = run(CPU, rule("B3/S23"), &start, 5206, 0);
        assert_eq!(end.population(), 633, "acorn at 5206 on {side}x{side}");
    }
}

#[test]
fn r_pentomino_has_116_cells_at_1103() {
    // Its six gliders travel at most 1103/4 < 280 cells from the centre: 1024 is big enough.
    let start = on_torus("r-pentomino", 1024, 1024);
    let end = run(CPU, rule("B3/S23"), &start, 1103, 0);
    assert_eq!(end.population(), 116);
}

#[test]
fn rule_90_draws_pascals_triangle_mod_2() {
    let (width, gens) = (129u32, 64u32);
    let mut row = Grid::new(width, 1);
    row.set(64, 0, true);
    let mut e = lifelab::cpu::ReferenceEngine::new(rule("W90"), &row, 0);
    for t in 1..=gens {
        e.step_once();
        let g = lifelab::engine::Engine::grid(&mut e).unwrap();
        for x in 0..width {
            let k = x as i64 - 64;
            // Cell k of row t is C(t, (t+k)/2) mod 2, which by Lucas' theorem is odd exactly
            // when the bits of m = (t+k)/2 are a subset of t's.
            let expected = k.abs() <= t as i64 && (t as i64 + k) % 2 == 0 && {
                let m = ((t as i64 + k) / 2) as u32;
                m & t == m
            };
            assert_eq!(g.get(x, 0), expected, "row {t}, cell {k}");
        }
    }
}

#[test]
fn rings_and_tori_of_width_one_wrap_onto_themselves() {
    // On a 1-cell ring a cell is its own left and right neighbour: rule 110 maps 111 to 0.
    let mut one = Grid::new(1, 1);
    one.set(0, 0, true);
    assert_eq!(run(REFERENCE, rule("W110"), &one, 1, 0).population(), 0);
    // On a 1x1 torus a live cell sees itself 8 times: B3/S8 keeps it, B3/S23 kills it.
    assert_eq!(run(REFERENCE, rule("B3/S8"), &one, 1, 0).population(), 1);
    assert_eq!(run(REFERENCE, rule("B3/S23"), &one, 1, 0).population(), 0);
}

#[test]
fn b0_rules_work_on_a_torus() {
    // B0/S: every dead cell is born, every live one dies; an empty torus becomes full.
    let empty = Grid::new(37, 5);
    let full = run(REFERENCE, rule("B0/S"), &empty, 1, 0);
    assert_eq!(full.population(), 37 * 5);
    assert_eq!(run(REFERENCE, rule("B0/S"), &full, 1, 0).population(), 0);
    assert_matches_reference(CPU, rule("B0/S"), &empty, 4, 0);
}

#[test]
fn stochastic_birth_happens_at_the_stated_rate() {
    // B2(1/3)/S12H: among dead cells with exactly 2 live hex neighbours, about a third are born.
    let r = rule("B2(1/3)/S12H");
    let start = soup(400, 400, 0.25, 9);
    let next = run(REFERENCE, r, &start, 1, 42);
    let (mut candidates, mut born) = (0u32, 0u32);
    for y in 0..400 {
        for x in 0..400 {
            if start.get(x, y) {
                continue;
            }
            let n = Neighbourhood::Hexagonal
                .offsets()
                .iter()
                .filter(|&&(dx, dy)| start.get_wrapped(x as i64 + dx as i64, y as i64 + dy as i64))
                .count();
            if n == 2 {
                candidates += 1;
                born += next.get(x, y) as u32;
            }
        }
    }
    let rate = born as f64 / candidates as f64;
    assert!(candidates > 20_000);
    assert!((rate - 1.0 / 3.0).abs() < 0.015, "birth rate {rate}");
    // The same seed gives the same run; another seed a different one.
    assert_eq!(
        run(REFERENCE, r, &start, 3, 42),
        run(REFERENCE, r, &start, 3, 42)
    );
    assert_ne!(
        run(REFERENCE, r, &start, 3, 42),
        run(REFERENCE, r, &start, 3, 43)
    );
}

/// Sizes that catch wrap-around mistakes: 1 and 2, not multiples of 32 or 64, and just past.
const ODD_SIZES: [(u32, u32); 12] = [
    (1, 1),
    (1, 7),
    (7, 1),
    (2, 3),
    (31, 7),
    (33, 65),
    (63, 2),
    (64, 3),
    (65, 5),
    (127, 4),
    (128, 9),
    (200, 17),
];

#[test]
fn fast_engine_matches_reference_on_every_named_rule_and_odd_size() {
    for (name, r) in named::all() {
        for (i, &(w, h)) in ODD_SIZES.iter().enumerate() {
            let g = soup(w, h, 0.4, i as u64);
            assert_matches_reference(CPU, r.into(), &g, 12, 0);
        }
        let _ = name;
    }
}

#[test]
fn fast_engine_matches_reference_on_hex_von_neumann_stochastic_and_b0_rules() {
    let rules = [
        "B2/S34H",
        "B2/S H",
        "B0/S23H",
        "B245/S3H",
        "B3/S23V",
        "B1/S1V",
        "B0/S4V",
        "B2(1/3)/S12H",
        "B2(1/6)3/S23H",
        "B3/S2(1/2)3",
        "B0(1/5)3/S23",
        "B0/S8",
        "B0123/S",
        "B0/S012345678",
    ];
    for r in rules {
        for (i, &(w, h)) in ODD_SIZES.iter().enumerate() {
            let g = soup(w, h, 0.35, 100 + i as u64);
            assert_matches_reference(CPU, rule(r), &g, 10, 7);
        }
    }
}

/// Rules of the 3x3 block (non-totalistic, MAP of each neighbourhood, B0 among them, Golly's 2D
/// Wolfram) through the dense engine's circuit.
#[test]
fn fast_engine_matches_reference_on_non_totalistic_and_map_rules() {
    let rules = lifelab::check::tabled_rules();
    for r in rules {
        for (i, &(w, h)) in ODD_SIZES.iter().enumerate() {
            let g = soup(w, h, 0.35, 300 + i as u64);
            assert_matches_reference(CPU, r, &g, 10, 7);
        }
    }
}

#[test]
fn fast_engine_matches_reference_on_all_256_elementary_rules() {
    for n in 0..=255 {
        for (i, w) in [1u32, 2, 31, 64, 65, 130].into_iter().enumerate() {
            let g = soup(w, 2, 0.5, n as u64 * 10 + i as u64);
            assert_matches_reference(CPU, rule(&format!("W{n}")), &g, 8, 0);
        }
    }
}

#[test]
fn fast_engine_matches_reference_on_large_soups_across_threads() {
    // Large enough for the parallel path, with a width that is not a multiple of 64.
    for r in ["B3/S23", "B36/S23", "B2/S34H", "B2(1/3)/S12H"] {
        let g = soup(301, 260, 0.5, 5);
        assert_matches_reference(CPU, rule(r), &g, 4, 3);
    }
}

#[test]
fn random_life_like_rules_match_reference() {
    // A deterministic sweep over rule space, B0 rules included.
    let mut state = 0x1234_5678_9abc_def0u64;
    for i in 0..60 {
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let nb = ["", "H", "V"][(next() % 3) as usize];
        let max = [8, 6, 4][["", "H", "V"].iter().position(|s| *s == nb).unwrap()];
        let mut b = String::new();
        let mut s = String::new();
        for n in 0..=max {
            if next() % 2 == 0 {
                b.push_str(&n.to_string());
            }
            if next() % 2 == 0 {
                s.push_str(&n.to_string());
            }
        }
        let r = rule(&format!("B{b}/S{s}{nb}"));
        let (w, h) = ODD_SIZES[i % ODD_SIZES.len()];
        assert_matches_reference(CPU, r, &soup(w, h, 0.45, i as u64), 6, 1);
    }
}
