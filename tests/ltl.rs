//! Larger than Life: the ltl engine against the reference engine, state for state, for every
//! shape, on random soups of odd tori, bounded planes and the unbounded plane, with and without
//! the middle cell and dying states; and against `bgolly -a "Larger than Life"` on random
//! soups of the shapes Golly 3.3 has (NM, NN, NC). Golly's own Larger-than-Life folder is in
//! `golly_collection.rs`; the notations and Golly's neighbour counts are the unit tests of
//! `rule::ltl`.

mod common;

use std::process::Command;

use common::{in_ci, state_soup};
use lifelab::engine::{Engine, Universe};
use lifelab::registry::{self, Request};
use lifelab::rule::Rule;
use lifelab::rule::ltl::Shape;
use lifelab::tiles::TileMap;

fn engine(name: &str, rule: Rule, universe: Universe, cells: &TileMap) -> Box<dyn Engine> {
    let (mut e, _) = registry::create(name, &Request::new(rule, universe))
        .unwrap_or_else(|e| panic!("{name} {rule}: {e}"));
    e.import(cells).unwrap();
    e
}

/// A rule of each shape at range `r`, its counts a band round a third of the neighbours.
fn rule_for(shape: Shape, r: u16, states: u16, middle: bool) -> Rule {
    let n = shape.neighbours(r as i64) as u32;
    let (lo, hi) = ((n / 5).max(1), (n / 3).max(2));
    let text = format!(
        "R{r},C{states},M{},S{lo}..{},B{}..{hi},N{}",
        middle as u8,
        hi + 1,
        lo + 1,
        shape.letter()
    );
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn assert_same(a: &mut dyn Engine, b: &mut dyn Engine, rect: (i64, i64, i64, i64), what: &str) {
    let (x0, y0, x1, y1) = rect;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (sa, sb) = (a.state(x, y).unwrap(), b.state(x, y).unwrap());
            assert_eq!(
                sa,
                sb,
                "{what}: cell ({x}, {y}) is {sa} on {} and {sb} on {}",
                a.name(),
                b.name()
            );
        }
    }
    assert_eq!(
        a.population().unwrap(),
        b.population().unwrap(),
        "{what}: population"
    );
}

/// A torus and a bounded plane of these sizes.
fn torus_and_bounded(torus: (u32, u32), bounded: (u32, u32)) -> [Universe; 2] {
    [
        Universe::torus(torus.0, torus.1),
        Universe::Bounded {
            width: bounded.0,
            height: bounded.1,
            edges: lifelab::geometry::Edges::Plane,
        },
    ]
}

/// The ltl engine against the reference, cell for cell, for `gens` generations of a soup that
/// fills a third of the universe.
fn ltl_matches_the_reference(rule: Rule, universe: Universe, states: u16, seed: u64, gens: u32) {
    let (w, h) = universe.size().unwrap();
    let soup = state_soup((0, 0), (w, h), states, 3, seed);
    let mut oracle = engine("reference", rule, universe, &soup);
    let mut fast = engine("ltl", rule, universe, &soup);
    for g in 1..=gens {
        oracle.step(1).unwrap();
        fast.step(1).unwrap();
        let what = format!("{rule} on {}, generation {g}", universe.describe());
        let rect = (0, 0, w as i64 - 1, h as i64 - 1);
        assert_same(oracle.as_mut(), fast.as_mut(), rect, &what);
    }
}

#[test]
fn every_shape_matches_the_reference_on_odd_tori_and_bounded_planes() {
    let mut seed = 1;
    for shape in Shape::ALL {
        for (r, states, middle) in [(1, 2, false), (2, 3, true), (4, 2, true), (3, 5, false)] {
            let rule = rule_for(shape, r, states, middle);
            for universe in torus_and_bounded((37, 29), (33, 41)) {
                seed += 1;
                ltl_matches_the_reference(rule, universe, states, seed, 6);
            }
        }
    }
}

/// Boards big enough for the thread pool, where the Moore counts are computed in chunks of rows
/// that each start their column counts afresh: every chunk's seam must match the reference.
#[test]
fn big_boards_computed_in_chunks_of_rows_match_the_reference() {
    let mut seed = 100;
    for (r, states) in [(1, 2), (5, 2), (4, 4), (13, 3)] {
        for shape in [Shape::Moore, Shape::Circular] {
            let rule = rule_for(shape, r, states, true);
            for universe in torus_and_bounded((211, 197), (203, 251)) {
                seed += 1;
                ltl_matches_the_reference(rule, universe, states, seed, 3);
            }
        }
    }
}

#[test]
fn a_torus_no_wider_than_twice_the_range_wraps_as_golly_s_does() {
    // Golly's smallest grid: the square's two edge columns are the same column, counted twice.
    for shape in [
        Shape::Moore,
        Shape::VonNeumann,
        Shape::Circular,
        Shape::Star,
    ] {
        let rule = rule_for(shape, 3, 2, true);
        let universe = Universe::torus(6, 7);
        let soup = state_soup((0, 0), (6, 7), 2, 2, 7);
        let mut oracle = engine("reference", rule, universe, &soup);
        let mut fast = engine("ltl", rule, universe, &soup);
        oracle.step(4).unwrap();
        fast.step(4).unwrap();
        assert_same(
            oracle.as_mut(),
            fast.as_mut(),
            (0, 0, 5, 6),
            &format!("{rule}"),
        );
    }
    // And a smaller one is refused, with the size it needs.
    let rule = rule_for(Shape::Moore, 5, 2, true);
    let e = registry::create("ltl", &Request::new(rule, Universe::torus(9, 40)))
        .err()
        .unwrap();
    assert!(e.to_string().contains("at least 10x10"), "{e}");
}

/// Range 1 with two states is a table of the 3x3 block, which the tile engine and HashLife run:
/// every shape, with and without the middle, on odd tori and bounded planes (tiles), a
/// power-of-two torus (both) and the plane (both, against the ltl engine), state for state.
#[test]
fn range_one_rules_run_on_tiles_and_hashlife_as_the_reference_has_them() {
    let mut seed = 500;
    for shape in Shape::ALL {
        for middle in [false, true] {
            let rule = rule_for(shape, 1, 2, middle);
            let bounded = Universe::Bounded {
                width: 33,
                height: 41,
                edges: lifelab::geometry::Edges::Plane,
            };
            let cases: [(Universe, &str, &str); 6] = [
                (Universe::torus(37, 29), "reference", "tiles"),
                (bounded, "reference", "tiles"),
                (Universe::torus(64, 64), "reference", "tiles"),
                (Universe::torus(64, 64), "reference", "hashlife"),
                (Universe::Plane, "ltl", "tiles"),
                (Universe::Plane, "ltl", "hashlife"),
            ];
            for (universe, oracle_name, name) in cases {
                seed += 1;
                let (w, h) = universe.size().unwrap_or((40, 40));
                let soup = state_soup((0, 0), (w, h), 2, 3, seed);
                let mut oracle = engine(oracle_name, rule, universe, &soup);
                let mut fast = engine(name, rule, universe, &soup);
                for g in [1, 2, 5, 13] {
                    oracle.step(g).unwrap();
                    fast.step(g).unwrap();
                    let what = format!("{rule} on {}, {name}", universe.describe());
                    // The plane's cells spread by at most one cell a generation.
                    let m = if universe.is_plane() { 25 } else { 0 };
                    let rect = (-m, -m, w as i64 - 1 + m, h as i64 - 1 + m);
                    assert_same(oracle.as_mut(), fast.as_mut(), rect, &what);
                }
            }
        }
    }
    // HashLife on the plane, against the ltl engine, over a long jump, from a soup whose
    // reach (17 to 32 cells) HashLife's import once lost.
    let rule = rule_for(Shape::VonNeumann, 1, 2, true);
    let soup = state_soup((0, 0), (30, 30), 2, 3, 9);
    let mut oracle = engine("ltl", rule, Universe::Plane, &soup);
    let mut memo = engine("hashlife", rule, Universe::Plane, &soup);
    oracle.step(300).unwrap();
    memo.step(300).unwrap();
    assert_same(
        oracle.as_mut(),
        memo.as_mut(),
        (-320, -320, 350, 350),
        "HashLife",
    );
}

#[test]
fn on_the_plane_the_board_follows_the_cells() {
    // A soup in the middle of a bounded plane that nothing reaches the edge of is the plane.
    for shape in [
        Shape::Moore,
        Shape::Hexagonal,
        Shape::Checkerboard,
        Shape::Tripod,
    ] {
        let rule = rule_for(shape, 2, 4, true);
        let soup = state_soup((-12, -9), (25, 19), 4, 3, 11);
        let mut plane = engine("ltl", rule, Universe::Plane, &soup);
        let shifted: TileMap = {
            let mut t = TileMap::new();
            for y in -9..10 {
                for x in -12..13 {
                    let s = soup.state(x, y);
                    if s != 0 {
                        t.set_state(x + 150, y + 150, s);
                    }
                }
            }
            t
        };
        let bounded = Universe::Bounded {
            width: 300,
            height: 300,
            edges: lifelab::geometry::Edges::Plane,
        };
        let mut oracle = engine("ltl", rule, bounded, &shifted);
        let mut reference = engine("reference", rule, bounded, &shifted);
        for g in 1..=30 {
            plane.step(1).unwrap();
            oracle.step(1).unwrap();
            if g % 10 == 0 {
                reference.step(10).unwrap();
                assert_same(
                    oracle.as_mut(),
                    reference.as_mut(),
                    (0, 0, 299, 299),
                    &format!("{rule} bounded, {g}"),
                );
            }
            let b = oracle.bounds().unwrap();
            if let Some(b) = b {
                assert!(
                    b.left > 0 && b.top > 0 && b.right < 299 && b.bottom < 299,
                    "{rule}: reached the edge"
                );
            }
            for y in 0..300 {
                for x in 0..300 {
                    assert_eq!(
                        plane.state(x - 150, y - 150).unwrap(),
                        oracle.state(x, y).unwrap(),
                        "{rule}: generation {g}, cell ({}, {})",
                        x - 150,
                        y - 150
                    );
                }
            }
        }
        assert_eq!(plane.population().unwrap(), oracle.population().unwrap());
    }
    // B0 fills the unbounded plane at once: refused, as Golly refuses it.
    let b0: Rule = "R2,C0,M1,S1..5,B0..3,NM".parse().unwrap();
    let e = registry::create("ltl", &Request::new(b0, Universe::Plane))
        .err()
        .unwrap();
    assert!(e.to_string().contains("B0"), "{e}");
}

/// A pattern that lies across a torus's edges, as Golly puts a torus's pattern (centred on the
/// origin): the ltl engine turns its board round so that its seam lies in the dead cells, and
/// must still give every cell, the population and the bounds where the reference has them,
/// generation after generation, while a bug crosses the seam again and again.
#[test]
fn a_pattern_across_a_torus_s_edges_matches_the_reference_as_the_board_turns() {
    // Dean Hickerson's Jitterbug (Golly's Larger-than-Life folder): 4 cells east in 40
    // generations, north and south in turn.
    let jitterbug =
        "x = 7, y = 8, rule = R4,C0,M1,S24..38,B22..31,NM\nb4o$o4bo$o4b2o$2o2b3o$7o$b4o$b4o$b4o!";
    let bug = lifelab::pattern::rle::parse(jitterbug).unwrap();
    let rule: Rule = "R4,C0,M1,S24..38,B22..31,NM".parse().unwrap();
    let universe = Universe::torus(43, 37);
    let mut cells = TileMap::new();
    for (x, y) in bug.cells.alive_cells() {
        let (x, y) = universe.wrap(x as i64 - 3, y as i64 - 4);
        cells.set_state(x, y, 1);
    }
    let mut cases = vec![(rule, universe, cells, 400, 20)];
    // Soups across the corner of dying states, and of a shape counted from sums.
    for (text, seed) in [
        ("R2,C4,M1,S3..8,B4..6,NM", 5),
        ("R3,C3,M0,S6..14,B8..12,NC", 6),
    ] {
        let rule: Rule = text.parse().unwrap();
        let universe = Universe::torus(61, 53);
        let mut cells = TileMap::new();
        let soup = state_soup((0, 0), (14, 12), rule.states(), 2, seed);
        for ((tx, ty), _) in soup.iter() {
            for y in 0..64 {
                for x in 0..64 {
                    let (x, y) = (tx * 64 + x, ty * 64 + y);
                    let s = soup.state(x, y);
                    if s != 0 {
                        let (x, y) = universe.wrap(x - 7, y - 6);
                        cells.set_state(x, y, s);
                    }
                }
            }
        }
        cases.push((rule, universe, cells, 60, 5));
    }
    for (rule, universe, cells, gens, every) in cases {
        let (w, h) = universe.size().unwrap();
        let mut oracle = engine("reference", rule, universe, &cells);
        let mut fast = engine("ltl", rule, universe, &cells);
        let mut alive = false;
        for g in (every..=gens).step_by(every as usize) {
            oracle.step(every).unwrap();
            fast.step(every).unwrap();
            let what = format!(
                "{rule} across the edges of {}, generation {g}",
                universe.describe()
            );
            assert_same(
                oracle.as_mut(),
                fast.as_mut(),
                (0, 0, w as i64 - 1, h as i64 - 1),
                &what,
            );
            assert_eq!(
                oracle.bounds().unwrap(),
                fast.bounds().unwrap(),
                "{what}: bounds"
            );
            assert_eq!(
                oracle.export().unwrap(),
                fast.export().unwrap(),
                "{what}: cells exported"
            );
            alive = oracle.population().unwrap() > 0;
        }
        assert!(alive, "{rule}: the pattern died, and tests nothing");
    }
}

/// Rules of several runs of counts (HROT's notation), which the Moore pass computes with the
/// rule's table rather than two comparisons, against the reference on a torus and a bounded
/// plane.
#[test]
fn rules_of_several_runs_of_counts_match_the_reference() {
    let mut seed = 300;
    for text in ["R2,C3,S2-3,5,7-8,B3,4,NM", "R3,C2,S4-6,9-12,B5,8-9,NM"] {
        let rule: Rule = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        for universe in torus_and_bounded((37, 29), (33, 41)) {
            seed += 1;
            ltl_matches_the_reference(rule, universe, rule.states(), seed, 6);
        }
    }
}

/// A torus whose one axis has no gap wide enough to turn, and whose other has two of one
/// width: the board turns the axis it can once, and settles (it once turned between the two
/// gaps for ever, within one generation).
#[test]
fn a_torus_with_an_axis_that_cannot_turn_settles() {
    let rule: Rule = "R1,C0,M1,S3..4,B3..3,NM".parse().unwrap();
    let universe = Universe::torus(40, 5);
    let mut cells = TileMap::new();
    for (x, y) in [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (20, 0),
        (21, 0),
        (20, 1),
        (21, 1),
    ] {
        cells.set_state(x, y, 1);
    }
    let mut oracle = engine("reference", rule, universe, &cells);
    let mut fast = engine("ltl", rule, universe, &cells);
    for g in 1..=40 {
        oracle.step(1).unwrap();
        fast.step(1).unwrap();
        let what = format!("two blocks on {}, generation {g}", universe.describe());
        assert_same(oracle.as_mut(), fast.as_mut(), (0, 0, 39, 4), &what);
        assert_eq!(
            oracle.bounds().unwrap(),
            fast.bounds().unwrap(),
            "{what}: bounds"
        );
    }
    assert_eq!(fast.population().unwrap(), 8, "two blocks are still lifes");
}

fn bgolly_found() -> bool {
    let found = Command::new("bgolly").arg("-h").output().is_ok();
    assert!(
        found || !in_ci(),
        "bgolly is not installed (.ci/run installs golly)"
    );
    found
}

/// Golly's population of an RLE file at generation `gens`.
fn golly_population(file: &std::path::Path, gens: u64) -> u64 {
    let out = Command::new("bgolly")
        .args(["-a", "Larger than Life", "-m", &gens.to_string()])
        .arg(file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.contains(':'))
        .unwrap_or_else(|| panic!("bgolly: {text}"));
    let (g, p) = last.split_once(':').unwrap();
    assert_eq!(
        g.trim().replace(',', ""),
        gens.to_string(),
        "bgolly: {text}"
    );
    p.trim().replace(',', "").parse().unwrap()
}

#[test]
fn random_soups_have_golly_s_populations_for_golly_s_three_shapes() {
    if !bgolly_found() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("lifelab-ltl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut seed = 100;
    for (body, suffix) in [
        ("R3,C0,M0,S6..14,B6..9,NC", ":T60,50"),
        ("R2,C0,M1,S3..6,B3..4,NN", ":P45,61"),
        ("R4,C4,M1,S20..35,B18..27,NM", ":T64,64"),
        ("R5,C0,M0,S30..60,B25..40,NC", ""),
        ("R3,C3,M0,S5..9,B4..6,NN", ""),
    ] {
        seed += 1;
        let rule: Rule = format!("{body}{suffix}").parse().unwrap();
        let soup = state_soup((0, 0), (40, 40), 2, 2, seed);
        // The soup as RLE (Golly reads it; the plane has it where the file puts it).
        let mut rle = format!("x = 40, y = 40, rule = {body}{suffix}\n");
        for y in 0..40 {
            for x in 0..40 {
                rle.push(if soup.state(x, y) == 1 { 'o' } else { 'b' });
            }
            rle.push(if y == 39 { '!' } else { '$' });
            rle.push('\n');
        }
        let file = dir.join(format!("soup{seed}.rle"));
        std::fs::write(&file, &rle).unwrap();
        for gens in [1, 10, 60] {
            let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
                .args(["run", "--json", "--gens", &gens.to_string(), "--pattern"])
                .arg(&file)
                .output()
                .unwrap();
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let ours = v["population"]
                .as_u64()
                .unwrap_or_else(|| panic!("{rule}: {v}"));
            assert_eq!(
                ours,
                golly_population(&file, gens),
                "{rule}: generation {gens}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn golly_s_rule_strings_read_with_their_grids() {
    let r: Rule = "R5,C0,M1,S34..58,B34..45,NM:T400,400".parse().unwrap();
    assert_eq!(r.to_string(), "R5,C0,M1,S34..58,B34..45,NM:T400,400");
    assert_eq!(r.torus, Some((400, 400)));
    // Evans's notation is Golly's canonical MCell form, and a grid under 2r is raised to it.
    let r: Rule = "1,3,3,3,4:P1,300".parse().unwrap();
    assert_eq!(r.to_string(), "R1,C0,M1,S3..4,B3..3,NM:P2,300");
    let small: Rule = "R5,C0,M1,S34..58,B34..45,NM:T6,30".parse().unwrap();
    assert_eq!(small.torus, Some((10, 30)));
    // The error names the part.
    let e = "R5,C0,M1,S34..58,B34..45,NZ".parse::<Rule>().unwrap_err();
    assert!(e.to_string().contains("unknown neighbourhood"), "{e}");
}

#[test]
fn a_board_too_big_for_memory_is_refused_up_front() {
    // Two cells far apart on the plane would need a board between them: refused with what it
    // needed, before anything is allocated (no abort), and the engine keeps what it had.
    let rule: Rule = "R5,C0,M1,S34..58,B34..45,NM".parse().unwrap();
    let (mut e, _) = registry::create("ltl", &Request::new(rule, Universe::Plane)).unwrap();
    e.set_cell(0, 0, true).unwrap();
    let err = e.set_cell(1 << 40, 0, true).unwrap_err().to_string();
    assert!(err.contains("R5,C0,M1") && err.contains("cells"), "{err}");
    assert_eq!(e.population().unwrap(), 1);
    let mut far = TileMap::new();
    far.set_state(-(1 << 30), 0, 1);
    far.set_state(1 << 30, 1 << 30, 1);
    assert!(e.import(&far).is_err());
    assert_eq!(
        e.population().unwrap(),
        1,
        "a refused import keeps the cells"
    );
    e.step(3).unwrap();
}
