//! Golly's Generations rules: the notations as Golly, LifeViewer and Catagolue write them (the
//! canonical form is Golly's, checked by hand against its Help page and `getrule`), a few
//! generations worked out by hand, multi-state RLE and MCell cells, and the generations
//! engine against the reference engine cell for cell (every state) on random soups of many
//! states, on odd tori, the bounded plane and the unbounded plane. Whole files against
//! `bgolly` are in `golly_collection.rs` (Golly's Generations folder).

mod common;

use lifelab::engine::{Engine, Universe};
use lifelab::pattern::{self, Format};
use lifelab::registry::{self, Request};
use lifelab::rule::{Neighbourhood, Rule, RuleKind};
use lifelab::tiles::TileMap;

fn generations(text: &str) -> lifelab::rule::GenerationsRule {
    match Rule::parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .kind
    {
        RuleKind::Generations(g) => g,
        other => panic!("{text} is not a Generations rule: {other:?}"),
    }
}

#[test]
fn every_notation_golly_reads_is_the_same_rule_printed_survival_first() {
    // Star Wars and LivingOnTheEdge, from Golly's Help and Patterns.
    for text in [
        "345/3/6",
        "B3/S345/C6",
        "B3/S345/6",
        "S345/B3/6",
        "g6b3s345",
        "b3/s345/c6",
    ] {
        let g = generations(text);
        assert_eq!(g.states, 6, "{text}");
        assert_eq!(
            g.table.totalistic(),
            Some((vec![3], vec![3, 4, 5])),
            "{text}"
        );
        assert_eq!(Rule::parse(text).unwrap().to_string(), "345/3/6", "{text}");
    }
    // Brian's Brain: nothing survives.
    let brain = generations("/2/3");
    assert_eq!(brain.table.totalistic(), Some((vec![2], vec![])));
    assert_eq!(Rule::parse("B2/S/C3").unwrap().to_string(), "/2/3");
    // Neighbourhoods at the end, as Golly writes them.
    let hex = generations("23/3/3H");
    assert_eq!(hex.table.neighbourhood, Neighbourhood::Hexagonal);
    assert_eq!(Rule::parse("23/3/3h").unwrap().to_string(), "23/3/3H");
    assert_eq!(
        generations("1/1/4V").table.neighbourhood,
        Neighbourhood::VonNeumann
    );
    // Hensel's letters: B2 without its 'a' blocks, printed as Golly canonicalises them.
    assert_eq!(Rule::parse("B2-a/S12/C3").unwrap().to_string(), "12/2-a/3");
    assert_eq!(Rule::parse("12/2cekin/3").unwrap().to_string(), "12/2-a/3");
    // Two states is the plain rule (Golly's 23/3/2 is Life).
    assert_eq!(Rule::parse("23/3/2").unwrap(), Rule::life());
    // A MAP string with a number of states, its table Life's.
    let life_map =
        "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA";
    let m = generations(&format!("{life_map}/5"));
    assert_eq!(m.states, 5);
    assert_eq!(m.table.totalistic(), Some((vec![3], vec![2, 3])));
    assert_eq!(
        Rule::parse(&format!("{life_map}/5")).unwrap().to_string(),
        format!("{life_map}/5")
    );
    // 256 states is the most.
    assert_eq!(generations("2/13/256").states, 256);
    // Every printed form reads back as the same rule, with a torus or a bounded plane too.
    for text in ["345/3/6:T40,30", "12/2-a/3", "2/13/21:P200,200", "23/3/3H"] {
        let r = Rule::parse(text).unwrap();
        assert_eq!(Rule::parse(&r.to_string()).unwrap(), r, "{text} -> {r}");
    }
}

#[test]
fn bad_generations_rules_say_what_is_wrong() {
    for (text, words) in [
        ("345/3/1", "2 to 256 states, not 1"),
        ("345/3/257", "2 to 256 states, not 257"),
        ("345/9/6", "9"),
        ("B2(50%)/S/C3", "stochastic"),
    ] {
        let e = Rule::parse(text).unwrap_err().to_string();
        assert!(e.contains(words), "{text}: {e}");
    }
}

/// A torus (or bounded plane) under `rule` from `(x, y, state)` cells, on `engine`.
fn engine_with(
    engine: &str,
    rule: &str,
    universe: Universe,
    cells: &[(i64, i64, u8)],
) -> Box<dyn Engine> {
    let request = Request::new(Rule::parse(rule).unwrap(), universe);
    let (mut e, _) = registry::create(engine, &request).unwrap();
    let mut tiles = TileMap::new();
    for &(x, y, s) in cells {
        tiles.set_state(x, y, s);
    }
    e.import(&tiles).unwrap();
    e
}

fn states_of(e: &mut dyn Engine, w: i64, h: i64) -> Vec<u8> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| e.state(x, y).unwrap())
        .collect()
}

#[test]
fn brians_brain_by_hand() {
    // Two live cells side by side. Nothing survives (S is empty): both start dying (state 2).
    // The cells above and below the pair see exactly two live neighbours and are born; the
    // cells at the ends see one.
    for engine in ["reference", "generations"] {
        let mut e = engine_with(
            engine,
            "/2/3",
            Universe::torus(6, 5),
            &[(2, 2, 1), (3, 2, 1)],
        );
        e.step(1).unwrap();
        let mut want = vec![0u8; 30];
        for (x, y, s) in [
            (2, 1, 1),
            (3, 1, 1),
            (2, 3, 1),
            (3, 3, 1),
            (2, 2, 2),
            (3, 2, 2),
        ] {
            want[y * 6 + x] = s;
        }
        assert_eq!(states_of(e.as_mut(), 6, 5), want, "{engine}");
        assert_eq!(
            e.population().unwrap(),
            6,
            "{engine}: dying cells count, as in Golly"
        );
        // The dying cells die and the new ones start dying. Born: the cells above the top
        // pair and below the bottom one, and the two at the ends of the dying pair, which
        // see a live cell above and one below (the dying cells between count for nothing).
        e.step(1).unwrap();
        let mut want = vec![0u8; 30];
        for (x, y, s) in [
            (2, 0, 1),
            (3, 0, 1),
            (2, 4, 1),
            (3, 4, 1),
            (1, 2, 1),
            (4, 2, 1),
        ] {
            want[y * 6 + x] = s;
        }
        for (x, y) in [(2, 1), (3, 1), (2, 3), (3, 3)] {
            want[y * 6 + x] = 2;
        }
        assert_eq!(states_of(e.as_mut(), 6, 5), want, "{engine}");
    }
}

#[test]
fn a_dying_cell_counts_up_and_blocks_births() {
    // 4 states: a lone live cell (no survival at 0) goes 1 -> 2 -> 3 -> 0; the dead cells
    // round it never see 3 live neighbours.
    for engine in ["reference", "generations"] {
        let mut e = engine_with(engine, "23/3/4", Universe::torus(5, 5), &[(2, 2, 1)]);
        for want in [2, 3, 0, 0] {
            e.step(1).unwrap();
            assert_eq!(e.state(2, 2).unwrap(), want, "{engine}");
        }
        // A dying cell with three live neighbours stays on its way out.
        let mut e = engine_with(
            engine,
            "23/3/4",
            Universe::torus(6, 6),
            &[(1, 1, 1), (2, 1, 1), (3, 1, 1), (2, 2, 2)],
        );
        e.step(1).unwrap();
        assert_eq!(e.state(2, 2).unwrap(), 3, "{engine}: not born while dying");
    }
}

/// A soup of every state of `rule` over `w x h` (a counter-based hash, so any size).
fn state_soup(w: i64, h: i64, states: u16, seed: u64) -> Vec<(i64, i64, u8)> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let mut v = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                ^ seed.wrapping_mul(0x1656_67B1_9E37_79F9);
            v ^= v >> 29;
            v = v.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            v ^= v >> 32;
            // Half dead, a quarter alive, a quarter spread over the dying states.
            let s = match v % 8 {
                0..=3 => 0,
                4 | 5 => 1,
                _ => 2 + ((v >> 8) % (states as u64 - 2)) as u8,
            };
            if s != 0 {
                out.push((x, y, s));
            }
        }
    }
    out
}

const RULES: [&str; 9] = [
    "/2/3",
    "345/3/6",
    "3458/37/4",
    "2/13/21",
    "23/3/3H",
    "1/1/4V",
    "12/2-a/3",
    "12345/45678/8",
    "1456/2356/256",
];

#[test]
fn the_generations_engine_matches_the_reference_on_odd_tori_and_bounded_planes() {
    for (k, rule) in RULES.iter().enumerate() {
        let states = Rule::parse(rule).unwrap().states();
        for (w, h) in [(67u32, 45u32), (1, 9), (130, 3), (64, 64), (65, 1)] {
            for universe in [
                Universe::torus(w, h),
                Universe::Bounded {
                    width: w,
                    height: h,
                    edges: lifelab::geometry::Edges::Plane,
                },
            ] {
                let cells = state_soup(w as i64, h as i64, states, k as u64 + w as u64);
                let mut reference = engine_with("reference", rule, universe, &cells);
                let mut fast = engine_with("generations", rule, universe, &cells);
                for step in [1, 1, 3, 20] {
                    reference.step(step).unwrap();
                    fast.step(step).unwrap();
                    let (a, b) = (
                        states_of(reference.as_mut(), w as i64, h as i64),
                        states_of(fast.as_mut(), w as i64, h as i64),
                    );
                    assert_eq!(
                        a,
                        b,
                        "{rule} on {} at generation {}",
                        universe.describe(),
                        reference.generation()
                    );
                    assert_eq!(
                        reference.census().unwrap(),
                        fast.census().unwrap(),
                        "{rule} on {}",
                        universe.describe()
                    );
                }
            }
        }
    }
}

/// The generations engine against the reference from `cells`, every cell of the board compared
/// after each of `steps`.
fn matches_the_reference_step_by_step(
    rule: &str,
    universe: Universe,
    cells: &[(i64, i64, u8)],
    steps: &[u64],
) {
    let (w, h) = universe.size().expect("a board");
    let mut reference = engine_with("reference", rule, universe, cells);
    let mut fast = engine_with("generations", rule, universe, cells);
    for &step in steps {
        reference.step(step).unwrap();
        fast.step(step).unwrap();
        assert_eq!(
            states_of(reference.as_mut(), w as i64, h as i64),
            states_of(fast.as_mut(), w as i64, h as i64),
            "{rule} on {} at generation {}",
            universe.describe(),
            reference.generation()
        );
    }
}

/// A small soup on a board much larger than it: the engine computes only the rows and words
/// round the cells, and must follow them as they grow across a word's edge and a stretch of 64
/// rows, up to the torus's seam and across it (one soup starts astride the corner, two a row
/// from an edge), and on a bounded plane. Every generation against the reference engine.
#[test]
fn the_generations_engine_follows_a_small_pattern_across_words_and_the_seam() {
    for (k, rule) in ["345/3/6", "3458/37/4", "12/2-a/3", "23/3/3H"]
        .iter()
        .enumerate()
    {
        let states = Rule::parse(rule).unwrap().states();
        let (w, h) = (203u32, 150u32);
        for (universe, at) in [
            (Universe::torus(w, h), (190, 140)),
            // One row and one word from the seam (its margins are the rows and the word
            // across it), and one row from the bottom.
            (Universe::torus(w, h), (65, 1)),
            (Universe::torus(w, h), (100, 132)),
            (
                Universe::Bounded {
                    width: w,
                    height: h,
                    edges: lifelab::geometry::Edges::Plane,
                },
                (120, 60),
            ),
        ] {
            let cells: Vec<(i64, i64, u8)> = state_soup(24, 17, states, 7 + k as u64)
                .into_iter()
                .map(|(x, y, s)| ((x + at.0) % w as i64, (y + at.1) % h as i64, s))
                .collect();
            matches_the_reference_step_by_step(rule, universe, &cells, &[1; 120]);
        }
    }
}

#[test]
fn on_the_plane_the_generations_engine_and_hashlife_match_the_reference() {
    // A soup in the middle of a torus big enough that nothing reaches its edge is the plane.
    for (k, rule) in RULES.iter().enumerate() {
        if Rule::parse(rule).unwrap().births_from_nothing() {
            continue;
        }
        let states = Rule::parse(rule).unwrap().states();
        let soup: Vec<(i64, i64, u8)> = state_soup(40, 30, states, 99 + k as u64);
        let gens = 40;
        let side = 40 + 2 * gens as i64 + 8;
        let on_torus: Vec<_> = soup
            .iter()
            .map(|&(x, y, s)| (x + gens as i64 + 4, y + gens as i64 + 4, s))
            .collect();
        let mut reference = engine_with(
            "reference",
            rule,
            Universe::torus(side as u32, side as u32),
            &on_torus,
        );
        let on_plane: Vec<_> = soup.iter().map(|&(x, y, s)| (x - 20, y - 15, s)).collect();
        reference.step(gens).unwrap();
        // The generations engine, and HashLife over N states (a Generations rule as a tree),
        // which jumps: 40 is 32 + 8.
        for engine in ["generations", "rule-hashlife"] {
            let mut plane = engine_with(engine, rule, Universe::Plane, &on_plane);
            plane.step(gens).unwrap();
            for y in 0..side {
                for x in 0..side {
                    let (px, py) = (x - gens as i64 - 4 - 20, y - gens as i64 - 4 - 15);
                    assert_eq!(
                        reference.state(x, y).unwrap(),
                        plane.state(px, py).unwrap(),
                        "{rule} on {engine} at ({px}, {py})"
                    );
                }
            }
            assert_eq!(
                reference.population().unwrap(),
                plane.population().unwrap(),
                "{rule} on {engine}"
            );
        }
    }
}

#[test]
fn the_registry_sends_generations_rules_to_the_generations_engine_and_says_why_others_refuse() {
    let request = Request::new(Rule::parse("345/3/6").unwrap(), Universe::Plane);
    assert_eq!(
        registry::choose("auto", &request).unwrap().engine,
        "generations"
    );
    for engine in ["tiles", "hashlife"] {
        let e = registry::choose(engine, &request).unwrap_err().to_string();
        assert!(
            e.contains("two states") && e.contains("345/3/6"),
            "{engine}: {e}"
        );
    }
    let torus = Request::new(Rule::parse("345/3/6").unwrap(), Universe::torus(64, 64));
    let e = registry::choose("cpu", &torus).unwrap_err().to_string();
    assert!(e.contains("two states"), "{e}");
}

#[test]
fn multi_state_rle_reads_and_writes_golly_s_letters() {
    let text = "x = 5, y = 2, rule = 345/3/6\n.AB2C$pAyO.E!\n";
    let p = pattern::parse_bytes(text.as_bytes(), Some(Format::Rle)).unwrap();
    let row0: Vec<u8> = (0..5).map(|x| p.state(x, 0)).collect();
    let row1: Vec<u8> = (0..5).map(|x| p.state(x, 1)).collect();
    assert_eq!(row0, [0, 1, 2, 3, 3]);
    assert_eq!(row1, [25, 255, 0, 5, 0]);
    assert_eq!(p.population(), 7, "every cell that is not dead");
    let back = pattern::parse_bytes(
        pattern::write(&p, Format::Rle).as_bytes(),
        Some(Format::Rle),
    )
    .unwrap();
    assert_eq!(back.states, p.states);
    assert_eq!(back.rule, p.rule);
    for (bad, words) in [
        ("x = 2, y = 1\nyP!", "above the largest, 255"),
        ("x = 2, y = 1\nAp", "without its state letter"),
        ("x = 2, y = 1\nqz!", "must be followed by a state letter"),
    ] {
        let e = pattern::parse_bytes(bad.as_bytes(), Some(Format::Rle))
            .unwrap_err()
            .to_string();
        assert!(e.contains(words) && e.contains("line"), "{bad}: {e}");
    }
}

#[test]
fn an_mcell_generations_file_keeps_its_states_and_its_board() {
    let text = "#MCell 4.20\n#GAME Generations\n#RULE 345/2/4\n#BOARD 20x10\n#WRAP 0\n#L 2.AB$C\n";
    let p = pattern::parse_bytes(text.as_bytes(), None).unwrap();
    let rule = p.rule.unwrap();
    assert_eq!(rule.to_string(), "345/2/4:P20,10");
    assert_eq!(p.state(2, 0), 1);
    assert_eq!(p.state(3, 0), 2);
    assert_eq!(p.state(0, 1), 3);
    // Golly's placement: the cells' 4x2 box shifted by (20 + 1 - 4) / 2 and (10 + 1 - 2) / 2
    // from where the #L lines put it.
    assert_eq!(p.origin, Some((8, 4)));
}

#[test]
fn sparse_cells_across_stretches_of_rows_match_the_reference() {
    // The engine skips stretches of 64 rows with no live cell near them: a few blocks of soup
    // scattered over tall tori and a bounded plane, crossing the stretches' edges and the
    // torus's seams as they grow.
    for (k, rule) in RULES.iter().enumerate() {
        let states = Rule::parse(rule).unwrap().states();
        for (w, h) in [(70u32, 200u32), (130, 129), (64, 256)] {
            for universe in [
                Universe::torus(w, h),
                Universe::Bounded {
                    width: w,
                    height: h,
                    edges: lifelab::geometry::Edges::Plane,
                },
            ] {
                let mut cells = Vec::new();
                for (bx, by) in [
                    (0i64, 58i64),
                    (30, 122),
                    (w as i64 - 6, h as i64 - 4),
                    (10, 0),
                ] {
                    for (x, y, s) in state_soup(6, 6, states, k as u64 * 7 + bx as u64) {
                        cells.push(((bx + x) % w as i64, (by + y) % h as i64, s));
                    }
                }
                matches_the_reference_step_by_step(rule, universe, &cells, &[5; 6]);
            }
        }
    }
}
