//! The sparse engines (the tile engine and HashLife) and the unbounded plane: bit for bit
//! against the reference engine on tori, and the literature's results on the plane. New tests of
//! sparse engines belong here; cross-checks with Golly's own HashLife are in `golly.rs`, the
//! dense engines in `engines.rs`.

mod common;

use common::{HASHLIFE, REFERENCE, TILES, assert_matches_reference, rule, soup};
use lifelab::engine::{CellRect, Engine, Put, Universe};
use lifelab::grid::Grid;
use lifelab::pattern::library;
use lifelab::registry::{Request, create};
use lifelab::rule::{Rule, named};

/// Rules beyond the named ones: hexagonal, von Neumann, B0, stochastic (and, in `all_rules`,
/// the rules of the 3x3 block that `check::tabled_rules` lists).
const OTHER_RULES: [&str; 10] = [
    "B3_S23-a4ei6",
    "B2/S34H",
    "B245/S3H",
    "B0/S23H",
    "B3/S23V",
    "B0/S8",
    "B0123/S5678",
    "B2(1/3)/S12H",
    "B2(1/6)3/S23H",
    "B3/S2(1/2)3",
];

/// Smaller than one 64x64 tile, one row or column, widths not a multiple of 32 or 64, and
/// partial tiles at the right and bottom.
const ODD_SIZES: [(u32, u32); 8] = [
    (1, 1),
    (2, 3),
    (31, 7),
    (1, 70),
    (70, 1),
    (63, 65),
    (65, 130),
    (130, 66),
];

fn all_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = named::all().into_iter().map(|(_, r)| r.into()).collect();
    rules.extend(OTHER_RULES.iter().map(|r| rule(r)));
    rules.extend(lifelab::check::tabled_rules());
    rules
}

#[test]
fn tiles_match_the_reference_on_every_rule_and_odd_sizes() {
    for (i, r) in all_rules().into_iter().enumerate() {
        for (j, &(w, h)) in ODD_SIZES.iter().enumerate() {
            let seed = (i * 20 + j) as u64;
            assert_matches_reference(TILES, r, &soup(w, h, 0.4, seed), 10, seed);
        }
    }
}

/// Golly's bounded plane (`:P<w>,<h>`), dead beyond its edges, on the tile engine bit for bit
/// against the reference engine: every rule without B0 (the tile engine leaves B0 inside edges
/// to the reference engine, and says so), odd sizes, partial tiles, a soup filling the grid.
#[test]
fn tiles_match_the_reference_on_the_bounded_plane() {
    use lifelab::engine::Edges;
    for (i, r) in all_rules().into_iter().enumerate() {
        if r.births_from_nothing() {
            continue;
        }
        for (j, &(w, h)) in ODD_SIZES.iter().enumerate() {
            let seed = (i * 20 + j) as u64;
            let universe = Universe::Bounded {
                width: w,
                height: h,
                edges: Edges::Plane,
            };
            let request = Request::new(r, universe).with_seed(seed);
            let (mut oracle, _) = create(REFERENCE, &request).unwrap();
            let (mut tiles, _) = create(TILES, &request).unwrap();
            let start = soup(w, h, 0.4, seed);
            for e in [&mut oracle, &mut tiles] {
                e.put(&start, (0, 0), Put::Or).unwrap();
            }
            for g in 1..=24 {
                oracle.step(1).unwrap();
                tiles.step(1).unwrap();
                let rect = CellRect::new(0, 0, w, h);
                assert_eq!(
                    tiles.cells_in(rect).unwrap(),
                    oracle.cells_in(rect).unwrap(),
                    "{r} on {w}x{h} at generation {g}"
                );
                // Nothing beyond the edges (the population counts every live cell).
                assert_eq!(tiles.population().unwrap(), oracle.population().unwrap());
            }
        }
    }
}

/// The glider in each of its four diagonal directions.
fn gliders() -> Vec<Grid> {
    let g = library::get("glider").unwrap().cells;
    let mut out = vec![g.clone()];
    let flip_x = |g: &Grid| {
        let mut f = Grid::new(g.width(), g.height());
        for (x, y) in g.alive_cells() {
            f.set(g.width() - 1 - x, y, true);
        }
        f
    };
    let flip_y = |g: &Grid| {
        let mut f = Grid::new(g.width(), g.height());
        for (x, y) in g.alive_cells() {
            f.set(x, g.height() - 1 - y, true);
        }
        f
    };
    out.push(flip_x(&g));
    out.push(flip_y(&g));
    out.push(flip_x(&flip_y(&g)));
    out
}

#[test]
fn gliders_cross_tile_edges_and_the_torus_wrap_on_the_tile_engine() {
    // Started on the corner where four tiles meet, and on tori whose last tiles are partial,
    // the gliders cross tile edges in both directions and the wrap many times.
    for (w, h) in [(128, 128), (100, 70), (67, 131)] {
        for (k, g) in gliders().iter().enumerate() {
            let mut start = Grid::new(w, h);
            start.paste(g, 62, 62);
            assert_matches_reference(
                TILES,
                Rule::life(),
                &start,
                4 * (w.max(h) as u64 + 5),
                k as u64,
            );
        }
    }
}

#[test]
fn a_glider_wraps_the_corner_of_a_torus_too_large_to_index_tile_by_tile() {
    // 262144 x 128 tiles: the tile engine keeps a map rather than a slot per tile. A glider
    // moves one cell diagonally every 4 generations, so after 40 it has crossed both edges
    // from (W-2, H-2) to (8, 8).
    let (w, h) = (1 << 24, 8192);
    let glider = library::get("glider").unwrap().cells;
    let request = Request::new(Rule::life(), Universe::torus(w, h));
    let (mut e, _) = create(TILES, &request).unwrap();
    e.put(&glider, (w as i64 - 2, h as i64 - 2), Put::Or)
        .unwrap();
    e.step(40).unwrap();
    let mut want = Grid::new(32, 32);
    want.paste(&glider, 8, 8);
    assert_eq!(e.cells_in(CellRect::new(0, 0, 32, 32)).unwrap(), want);
    assert_eq!(e.population().unwrap(), 5);
}

#[test]
fn hashlife_matches_the_reference_on_power_of_two_tori() {
    // From 1x1 up, square and not, with steps that are not powers of two.
    let sizes = [(1, 1), (2, 2), (4, 8), (16, 16), (32, 64), (128, 128)];
    let mut checked = 0;
    for (i, r) in all_rules().into_iter().enumerate() {
        if r.is_stochastic() {
            continue;
        }
        for (j, &(w, h)) in sizes.iter().enumerate() {
            let seed = (i * 20 + j) as u64;
            let start = soup(w, h, 0.4, seed);
            let mut oracle = common::engine(REFERENCE, r, &start, 0);
            let mut hl = common::engine(HASHLIFE, r, &start, 0);
            for n in [1, 2, 3, 5, 8, 13] {
                oracle.step(n).unwrap();
                hl.step(n).unwrap();
                let (want, got) = (oracle.grid().unwrap(), hl.grid().unwrap());
                assert!(
                    want.first_difference(&got).is_none(),
                    "rule {r} on {w}x{h}: generation {} differs",
                    oracle.generation()
                );
                assert_eq!(hl.population().unwrap(), want.population());
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn hashlife_refuses_what_it_cannot_run_and_says_why() {
    let not_pow2 = Request::new(Rule::life(), Universe::torus(100, 64));
    let e = create(HASHLIFE, &not_pow2).err().unwrap().to_string();
    assert!(e.contains("powers of two"), "{e}");
    // B0 without Smax alternates two rules on the plane, which HashLife's jumps cannot take
    // (B0/S8, with Smax, runs as its dual rule: `golly.rs` checks it against Golly).
    let b0 = Request::new(rule("B013568/S01"), Universe::Plane);
    let e = create(HASHLIFE, &b0).err().unwrap().to_string();
    assert!(e.contains("B0") && e.contains("tile engine"), "{e}");
    let stochastic = Request::new(rule("B2(1/3)/S12H"), Universe::torus(64, 64));
    let e = create(HASHLIFE, &stochastic).err().unwrap().to_string();
    assert!(e.contains("stochastic"), "{e}");
}

#[test]
fn hashlife_collects_garbage_under_a_small_memory_limit_and_still_agrees() {
    // A soup on a 256x256 torus for 3000 generations creates far more nodes than 2 MiB holds.
    let r = Rule::life();
    let start = soup(256, 256, 0.35, 9);
    let mut request = Request::new(r, Universe::torus(256, 256));
    request.options.memory = Some(2 << 20);
    let (mut hl, _) = create(HASHLIFE, &request).unwrap();
    hl.set_grid(&start, 0).unwrap();
    hl.step(3000).unwrap();
    let want = common::run(common::CPU, r, &start, 3000, 0);
    assert_eq!(hl.grid().unwrap(), want);
    let note = hl.note().expect("it collected");
    assert!(note.contains("collected garbage"), "{note}");
}

/// HashLife keeps no population in its nodes: the plane's population and its zoomed-out
/// samples (a node per aligned block) are counted from the nodes the root reaches, memoised
/// until a collection renumbers them. Against the tile engine on the same soup, with a store
/// so small that it collects between the checks.
#[test]
fn hashlife_counts_populations_and_samples_from_its_nodes_through_collections() {
    let start = soup(300, 200, 0.35, 21);
    let mut small = Request::new(Rule::life(), Universe::Plane);
    small.options.memory = Some(2 << 20);
    let (mut hl, _) = create(HASHLIFE, &small).unwrap();
    let (mut tiles, _) = create(TILES, &Request::new(Rule::life(), Universe::Plane)).unwrap();
    hl.put(&start, (-130, 77), Put::Or).unwrap();
    tiles.put(&start, (-130, 77), Put::Or).unwrap();
    for gens in [0, 1, 63, 200, 800] {
        hl.step(gens).unwrap();
        tiles.step(gens).unwrap();
        assert_eq!(
            hl.population().unwrap(),
            tiles.population().unwrap(),
            "after {gens}"
        );
        for (rect, block) in [
            (CellRect::new(-512, -512, 1024, 1024), 64),
            (CellRect::new(-256, 0, 512, 512), 8),
            (CellRect::new(-1024, -1024, 2048, 2048), 256),
        ] {
            assert_eq!(
                hl.sample(rect, block).unwrap().values,
                tiles.sample(rect, block).unwrap().values,
                "after {gens}: {rect:?} by {block}"
            );
        }
    }
    let note = hl.note().expect("it collected");
    assert!(note.contains("collected garbage"), "{note}");
}

/// A library pattern on the plane, on `engine`, after `gens` generations.
fn on_the_plane(engine: &str, name: &str, gens: u64) -> Box<dyn Engine> {
    let p = library::get(name).unwrap();
    let (mut e, _) = create(engine, &Request::new(Rule::life(), Universe::Plane)).unwrap();
    e.put(&p.cells, (0, 0), Put::Or).unwrap();
    e.step(gens).unwrap();
    e
}

#[test]
fn methuselahs_reach_their_literature_populations_on_the_plane() {
    // LifeWiki: the R-pentomino has 116 cells at 1103, acorn 633 at 5206; nothing changes
    // their counts afterwards but gliders flying off (the plane has no edge to come back from).
    for engine in [TILES, HASHLIFE] {
        assert_eq!(
            on_the_plane(engine, "r-pentomino", 1103)
                .population()
                .unwrap(),
            116
        );
        assert_eq!(
            on_the_plane(engine, "acorn", 5206).population().unwrap(),
            633
        );
    }
    let mut far = on_the_plane(HASHLIFE, "acorn", 1_000_000);
    assert_eq!(far.population().unwrap(), 633);
    // The gliders have flown a quarter of a million cells (c/4) from the debris.
    let b = far.bounds().unwrap().unwrap();
    assert!(b.width() > 400_000 && b.height() > 400_000, "{b:?}");
}

/// Life from a dense soup, and every rule of the 3x3 block from a sparse one whose debris and
/// spaceships leave HashLife's 32x32 leaves half empty (it then runs the rule's circuit on the
/// busy half alone): HashLife and the tile engine (held to the reference elsewhere) agree.
#[test]
fn the_tile_engine_and_hashlife_agree_on_the_plane() {
    let mut cases = vec![(Rule::life(), soup(40, 30, 0.4, 5))];
    for (i, r) in lifelab::check::tabled_rules().into_iter().enumerate() {
        if !r.births_from_nothing() {
            cases.push((r, soup(90, 70, 0.08, 40 + i as u64)));
        }
    }
    for (rule, start) in cases {
        let mut a = create(TILES, &Request::new(rule, Universe::Plane))
            .unwrap()
            .0;
        let mut b = create(HASHLIFE, &Request::new(rule, Universe::Plane))
            .unwrap()
            .0;
        for e in [&mut a, &mut b] {
            e.put(&start, (-20, -15), Put::Or).unwrap();
        }
        for n in [1, 7, 64, 300] {
            a.step(n).unwrap();
            b.step(n).unwrap();
            let (ba, bb) = (a.bounds().unwrap(), b.bounds().unwrap());
            assert_eq!(ba, bb, "{rule} at {}", a.generation());
            if let Some(r) = ba.and_then(|b| b.rect()) {
                assert_eq!(
                    a.cells_in(r).unwrap(),
                    b.cells_in(r).unwrap(),
                    "{rule} at {}",
                    a.generation()
                );
            }
        }
    }
}

#[test]
fn the_seam_reads_and_writes_cells_the_same_on_every_engine() {
    // The same edits through the seam give the same cells, samples and bounds on every engine
    // that runs a 128x128 torus.
    let r = Rule::life();
    let glider = library::get("glider").unwrap().cells;
    let mut results = Vec::new();
    for name in [REFERENCE, common::CPU, TILES, HASHLIFE] {
        let (mut e, _) = create(name, &Request::new(r, Universe::torus(128, 128))).unwrap();
        e.put(&glider, (126, 126), Put::Or).unwrap();
        e.set_cell(5, 5, true).unwrap();
        e.set_cell(-1, 64, true).unwrap();
        assert!(e.cell(127, 64).unwrap(), "{name}: -1 wraps to 127");
        e.put(&Grid::new(2, 2), (4, 4), Put::Replace).unwrap();
        assert!(!e.cell(5, 5).unwrap(), "{name}: a replace clears");
        let cells = e.cells_in(CellRect::new(120, 120, 16, 16)).unwrap();
        let sample = e.sample(CellRect::new(0, 0, 128, 128), 16).unwrap();
        results.push((
            name,
            e.population().unwrap(),
            cells,
            sample,
            e.bounds().unwrap(),
        ));
    }
    for r in &results[1..] {
        assert_eq!(r.1, results[0].1, "{} population", r.0);
        assert_eq!(r.2, results[0].2, "{} cells", r.0);
        assert_eq!(r.3, results[0].3, "{} sample", r.0);
        assert_eq!(r.4, results[0].4, "{} bounds", r.0);
    }
    assert_eq!(results[0].1, 6);
}

#[test]
fn auto_moves_a_settling_soup_to_the_tile_engine_and_keeps_the_result() {
    let r = Rule::life();
    let start = soup(1024, 1024, 0.5, 3);
    let mut request = Request::new(r, Universe::torus(1024, 1024));
    request.workload.generations = 9000;
    request.workload.population = start.population();
    request.workload.span = start.cells();
    let (mut auto, _) = create("auto", &request).unwrap();
    auto.set_grid(&start, 0).unwrap();
    auto.step(9000).unwrap();
    let want = common::run(common::CPU, r, &start, 9000, 0);
    assert_eq!(auto.grid().unwrap(), want);
    assert_eq!(
        auto.name(),
        TILES,
        "a soup this old is ash: {:?}",
        auto.note()
    );
}

/// A run `auto` keeps looking at goes on by any number of generations. A look falls due at
/// generation 1024 and needs two generations to measure; a step that ended one generation past
/// it, and every step after, used to spin for ever on stretches of no generations.
#[test]
fn auto_s_looks_never_stall_a_run_of_odd_steps() {
    let r = Rule::life();
    let start = soup(1024, 1024, 0.5, 5);
    let mut request = Request::new(r, Universe::torus(1024, 1024));
    request.workload.generations = 9000;
    request.workload.population = start.population();
    request.workload.span = start.cells();
    let (mut auto, choice) = create("auto", &request).unwrap();
    assert!(
        choice.reason.contains("auto looks again"),
        "{}",
        choice.reason
    );
    auto.set_grid(&start, 0).unwrap();
    auto.step(1025).unwrap();
    for _ in 0..3 {
        auto.step(1).unwrap();
    }
    assert_eq!(auto.generation(), 1028);
    let want = common::run(common::CPU, r, &start, 1028, 0);
    assert_eq!(auto.grid().unwrap(), want);
}

/// A zoomed-out view counts the live cells of each block from the tiles, so that a view of
/// the plane 2^40 cells wide costs what its cells cost. The counts are checked against the
/// reference engine's cells, counted here, and against a case worked by hand.
#[test]
fn the_tile_engine_samples_a_view_from_its_live_tiles() {
    // By hand: a glider at (0,0) and a block at (10^12, -10^12).
    let mut e = create(TILES, &Request::new(Rule::life(), Universe::Plane))
        .unwrap()
        .0;
    let far = 1_000_000_000_000i64;
    for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)] {
        e.set_cell(x, y, true).unwrap();
    }
    for (x, y) in [
        (far, -far),
        (far + 1, -far),
        (far, 1 - far),
        (far + 1, 1 - far),
    ] {
        e.set_cell(x, y, true).unwrap();
    }
    let block = 1u32 << 20;
    let x0 = -(1i64 << 40);
    let side = 1u32 << 31;
    let rect = CellRect::new(x0, x0, side, side);
    let s = e.sample(rect, block).unwrap();
    assert_eq!((s.columns, s.rows), (side / block, side / block));
    // No live cell is in this view. Read band by band, this view of 2^62 cells would take
    // hours: the test would not end.
    assert!(s.values.iter().all(|&v| v == 0));
    // One that holds the glider, in blocks of 2^40 cells: its block shows, however few its
    // cells (5 of 2^40 rounds down to 0 of 255; a live block is never 0).
    let s = e
        .sample(
            CellRect::new(-(1 << 29), -(1 << 29), 1 << 30, 1 << 30),
            block,
        )
        .unwrap();
    let lit: Vec<usize> = (0..s.values.len()).filter(|&i| s.values[i] > 0).collect();
    assert_eq!(lit, vec![512 * 1024 + 512]);
    assert_eq!(s.values[lit[0]], 1);
    // Small blocks show them: 5 of 16 cells is 79 of 255, 4 of 16 is 63.
    let s = e.sample(CellRect::new(0, 0, 8, 8), 4).unwrap();
    assert_eq!(s.values, vec![79, 0, 0, 0]);
    let s = e.sample(CellRect::new(far - 4, -far - 4, 8, 8), 4).unwrap();
    assert_eq!(s.values, vec![0, 0, 0, 63]);

    // Random soups on the plane and on tori, in odd rectangles and blocks: the same fractions
    // as the reference engine's cells give, counted block by block here.
    for (universe, seed) in [
        (Universe::Plane, 1u64),
        (Universe::torus(200, 130), 2),
        (Universe::torus(64, 64), 3),
    ] {
        let g = soup(150, 100, 0.3, seed);
        let mut tiles = create(TILES, &Request::new(Rule::life(), universe))
            .unwrap()
            .0;
        // The reference engine runs on tori only; HashLife, checked against it elsewhere,
        // stands in on the plane.
        let other = if universe.is_plane() {
            HASHLIFE
        } else {
            REFERENCE
        };
        let mut reference = create(other, &Request::new(Rule::life(), universe))
            .unwrap()
            .0;
        let at = (-37, 21);
        let g = match universe.size() {
            Some((w, h)) if w < 150 => {
                let mut small = Grid::new(w.min(150), h.min(100));
                for y in 0..small.height() {
                    for x in 0..small.width() {
                        small.set(x, y, g.get(x, y));
                    }
                }
                small
            }
            _ => g,
        };
        tiles.put(&g, at, Put::Replace).unwrap();
        reference.put(&g, at, Put::Replace).unwrap();
        tiles.step(7).unwrap();
        reference.step(7).unwrap();
        for (rect, block) in [
            (CellRect::new(-64, 0, 128, 128), 8),
            (CellRect::new(-50, 13, 77, 91), 4),
            (CellRect::new(-128, -64, 192, 128), 64),
            (CellRect::new(10, 10, 37, 5), 2),
        ] {
            let s = tiles.sample(rect, block).unwrap();
            let cells = reference.cells_in(rect).unwrap();
            let columns = rect.width.div_ceil(block);
            for (i, &v) in s.values.iter().enumerate() {
                let (c, r) = (i as u32 % columns, i as u32 / columns);
                let (bw, bh) = (
                    block.min(rect.width - c * block),
                    block.min(rect.height - r * block),
                );
                let mut n = 0u64;
                for y in r * block..r * block + bh {
                    for x in c * block..c * block + bw {
                        n += cells.get(x, y) as u64;
                    }
                }
                assert_eq!(
                    v as u64,
                    n * 255 / (bw as u64 * bh as u64),
                    "{universe:?} {rect:?} block {block} at {c},{r}"
                );
            }
        }
    }
}

/// A HashLife step stopped part way, by its node budget (as `auto`'s trial stops one) or
/// cancelled, leaves the cells as they were at the last whole power of two it finished; what it
/// had memoised before it stopped, and nothing after, is kept, so the steps after it are the
/// tile engines' cell for cell. Both HashLifes, on soups that churn: Life, also with a store so
/// small that it collects inside the stopped steps (the root they go back to must survive
/// that), a non-totalistic rule (16x16 blocks through its table) and a Generations rule over N
/// states.
#[test]
fn a_hashlife_step_stopped_part_way_changes_nothing_and_later_steps_are_right() {
    use lifelab::engine::{Progress, Work};
    for (text, memo_name, plain_name, memory) in [
        ("B3/S23", HASHLIFE, TILES, None),
        ("B3/S23", HASHLIFE, TILES, Some(1 << 18)),
        ("B2-a/S12", HASHLIFE, TILES, None),
        ("345/2/4", "rule-hashlife", "rule-tree", None),
    ] {
        let rule = Rule::parse(text).unwrap();
        let mut request = Request::new(rule, Universe::Plane);
        request.options.memory = memory;
        let soup = common::state_soup((-80, -60), (160, 120), rule.states(), 2, 11);
        let (mut memo, _) = create(memo_name, &request).unwrap();
        let (mut plain, _) = create(plain_name, &request).unwrap();
        memo.import(&soup).unwrap();
        plain.import(&soup).unwrap();
        // Collections so far, from the engine's note.
        let collections = |e: &dyn Engine| -> u64 {
            e.note()
                .and_then(|n| {
                    let (_, after) = n.split_once("collected garbage ")?;
                    after.split(' ').next()?.parse().ok()
                })
                .unwrap_or(0)
        };
        let mut collected_in_a_stopped_step = false;
        for gens in [8, 64, 5] {
            let made = match memo.work() {
                Some(Work::NodesMade(made)) => made,
                _ => panic!("{memo_name} counts the nodes it makes"),
            };
            // 65 generations: HashLife takes 64 and 1 in some order; the 64 stops.
            let budget = Progress::new(65);
            budget.stop_at_work(made + 2_000);
            let before = collections(memo.as_ref());
            let done = memo.step_with(65, &budget).unwrap();
            collected_in_a_stopped_step |= collections(memo.as_ref()) > before;
            assert!(done <= 1, "{text}: {done} generations within the budget");
            plain.step(done).unwrap();
            let cancelled = Progress::new(64);
            cancelled.cancel();
            assert_eq!(memo.step_with(64, &cancelled).unwrap(), 0, "{text}");
            assert_eq!(memo.generation(), plain.generation(), "{text}");
            assert!(
                memo.export().unwrap() == plain.export().unwrap(),
                "{text} ({memory:?}): a stopped step left other cells at {}",
                plain.generation()
            );
            memo.step(gens).unwrap();
            plain.step(gens).unwrap();
            assert!(
                memo.export().unwrap() == plain.export().unwrap(),
                "{text}: {memo_name} differs from {plain_name} at generation {}",
                plain.generation()
            );
        }
        assert_eq!(collected_in_a_stopped_step, memory.is_some(), "{text}");
    }
}

/// A jump of N-state HashLife ends soon after it is cancelled (it ran to its end before): a
/// soup of `12/2/3`, which boils and never repeats (1024 generations take HashLife over ten
/// seconds), asked for 2^40 generations and cancelled after 50 ms, is back within seconds, its
/// generation the generations it did.
#[test]
fn a_cancelled_jump_of_n_state_hashlife_ends_at_once() {
    use lifelab::engine::Progress;
    use std::sync::{Arc, mpsc};
    use std::time::Duration;
    let request = Request::new(Rule::parse("12/2/3").unwrap(), Universe::Plane);
    let (mut memo, _) = create("rule-hashlife", &request).unwrap();
    memo.import(&common::state_soup((-16, -16), (32, 32), 3, 3, 5))
        .unwrap();
    let progress = Arc::new(Progress::new(1 << 40));
    let (tx, rx) = mpsc::channel();
    let p = progress.clone();
    std::thread::spawn(move || {
        let done = memo.step_with(1 << 40, &p).map_err(|e| e.to_string());
        tx.send((done, memo.generation())).ok();
    });
    std::thread::sleep(Duration::from_millis(50));
    progress.cancel();
    let (done, generation) = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("the jump went on after it was cancelled");
    assert_eq!(done.unwrap(), generation);
    assert!(generation < 1 << 40, "{generation}");
}
