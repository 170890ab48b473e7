use super::*;
use crate::cpu::FastEngine;

fn check(rule: &str, w: u32, h: u32, density: f64, seed: u64, gens: u64) {
    let rule: Rule = rule.parse().unwrap();
    let mut g = Grid::new(w, h);
    g.fill_random(density, seed);
    let mut fast = FastEngine::new(rule, &g, seed);
    let mut tiles = TileEngine::new(rule, Universe::torus(w, h), seed).unwrap();
    tiles.set_grid(&g, 0).unwrap();
    for g in 1..=gens {
        fast.step_once();
        tiles.step_once();
        let want = fast.grid_ref();
        let got = tiles.grid().unwrap();
        if let Some((x, y)) = want.first_difference(&got) {
            panic!("{rule} {w}x{h} seed {seed}: generation {g} differs at ({x}, {y})");
        }
        assert_eq!(tiles.population().unwrap(), want.population());
    }
}

#[test]
fn soups_match_the_fast_engine_on_odd_tori() {
    for (w, h) in [
        (1, 1),
        (2, 3),
        (63, 65),
        (64, 64),
        (130, 70),
        (200, 1),
        (1, 150),
    ] {
        check("B3/S23", w, h, 0.35, (w * h) as u64, 12);
    }
}

/// The tile engine on each vector unit this CPU has (the baseline always among them)
/// against the reference engine, cell by cell: Life's fused step and the kernel's counts and
/// circuits, on odd tori (partial last tiles), tori of whole tiles (Life's step with its
/// sizes as constants), sparse soups (a few rows of a tile at a time) and dense ones.
#[test]
fn tiles_match_the_reference_on_every_vector_unit() {
    for v in Vectors::available() {
        for rule in ["B3/S23", "B36/S23", "B37/S2-i34q", "B2/S34H", "B3/S23V"] {
            let rule: Rule = rule.parse().unwrap();
            for (w, h, density) in [
                (200, 130, 0.04),
                (129, 67, 0.3),
                (64, 64, 0.5),
                (70, 1, 0.5),
                (1, 70, 0.5),
                (191, 257, 0.1),
                (192, 128, 0.04),
                (256, 192, 0.3),
            ] {
                let mut g = Grid::new(w, h);
                g.fill_random(density, (w * h) as u64);
                matches_reference(rule, &g, v, 40, 0);
            }
        }
    }
}

/// A rule's circuit with the census's hash kept (which writes row by row, not a vector at a
/// time), on each vector unit: the cells and the census equal the reference's, on an odd torus
/// and one of whole tiles, with sparse soups (a few vectors of a tile at a time).
#[test]
fn circuit_rows_keep_the_census_on_every_vector_unit() {
    for rule in ["B2-a/S12", "B37/S2-i34q"] {
        let rule: Rule = rule.parse().unwrap();
        for (w, h) in [(131, 77), (128, 192)] {
            let mut g = Grid::new(w, h);
            g.fill_random(0.04, 11);
            for v in Vectors::available() {
                check_against_reference(rule, &g, v, 30, 0, true);
            }
        }
    }
}

/// The vectors that cover a tile's needed rows: each starts at the first needed row not yet
/// covered, at row 56 at most; together they cover exactly the needed rows, once each.
#[test]
fn vectors_cover_the_needed_rows_once() {
    use super::lanes::vectors;
    let all: Vec<_> = vectors(1 << 63).collect();
    assert_eq!(all, [(56, 1 << 7)]);
    let all: Vec<_> = vectors(1 << 50 | 1 << 60).collect();
    assert_eq!(all, [(50, 1), (56, 1 << 4)]);
    let all: Vec<_> = vectors(1 << 50 | 1 << 57 | 1 << 58).collect();
    assert_eq!(all, [(50, 0b1000_0001), (56, 1 << 2)]);
    assert_eq!(vectors(u64::MAX).count(), 8);
    assert_eq!(vectors(0).count(), 0);
    let mut seed = 0x1234_5678_9abc_def0u64;
    for _ in 0..10_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let need = seed & seed.rotate_left(17);
        let mut covered = 0u64;
        for (x, rows) in vectors(need) {
            assert!(x <= 56 && rows >> 8 == 0, "{need:x}");
            assert!(
                rows & 1 != 0 || x == 56,
                "{need:x}: a vector starts at a needed row"
            );
            assert_eq!(covered & rows << x, 0, "{need:x}: row covered twice");
            covered |= rows << x;
        }
        assert_eq!(covered, need);
        assert!(vectors(need).count() <= 8);
    }
}

/// A rule's circuit's inputs for a vector of rows, AVX-512's lane shifts against the portable
/// form, word for word: every vector position of a tile, on the plane's whole tiles and on a
/// torus whose last tile row is short (the row below the torus's last in each lane).
#[test]
fn circuit_inputs_agree_on_avx512() {
    if !Vectors::available().contains(&Vectors::Avx512) {
        return;
    }
    for (w, h) in [(192, 192), (150, 133)] {
        let mut g = Grid::new(w, h);
        g.fill_random(0.5, 5);
        let rule: Rule = "B2-a/S12".parse().unwrap();
        let mut engine = TileEngine::new(rule, Universe::torus(w, h), 0).unwrap();
        engine.set_grid(&g, 0).unwrap();
        assert_eq!(engine.full, w % 64 == 0 && h % 64 == 0);
        let cur = &engine.bufs[engine.parity];
        for id in 0..engine.meta.len() as u32 {
            // A vector starts at a needed row, within the tile's rows.
            let vh = engine.meta[id as usize].vh as usize;
            for x in 0..=(64 - super::lanes::LANES).min(vh - 1) {
                let (a, b) = if engine.full {
                    both_inputs::<true>(&engine.meta, cur, id, x)
                } else {
                    both_inputs::<false>(&engine.meta, cur, id, x)
                };
                assert_eq!(a, b, "{w}x{h} tile {id} rows {x}..");
            }
        }
    }
}

/// A vector's circuit inputs built the portable way and by AVX-512's lane shifts.
fn both_inputs<const FULL: bool>(
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    x: usize,
) -> ([[u64; 8]; 9], [[u64; 8]; 9]) {
    use super::circuit_rows::circuit_inputs;
    let (mut portable, mut wide) = ([[0u64; 8]; 9], [[0u64; 8]; 9]);
    circuit_inputs::<FULL, false>(meta, cur, id, x, portable.each_mut());
    circuit_inputs::<FULL, true>(meta, cur, id, x, wide.each_mut());
    (portable, wide)
}

/// Life on many tiles at once (the list over [`PARALLEL_TILES`], computed on every core),
/// on each vector unit, against the reference engine: an odd torus, so that the last row
/// and column of tiles are partial, and one of whole tiles. A rule's circuit too, on a sparse
/// soup, where a tile computes only some of its rows ([`Kernel::rows_where`]).
#[test]
fn life_on_every_core_matches_the_reference_on_every_vector_unit() {
    let circuit: Rule = "B37/S2-i34q".parse().unwrap();
    for (rule, density) in [(Rule::life(), 0.4), (circuit, 0.1)] {
        for (w, h) in [(1500, 1400), (1536, 1472)] {
            let mut g = Grid::new(w, h);
            g.fill_random(density, 7);
            for v in Vectors::available() {
                matches_reference(rule, &g, v, 5, PARALLEL_TILES);
            }
        }
    }
}

/// The tile engine on vector unit `v` beside the reference engine from `g` on its torus,
/// cell for cell and population for population, for `gens` generations, each of which
/// computes at least `tiles` tiles.
fn matches_reference(rule: Rule, g: &Grid, v: Vectors, gens: u64, tiles: usize) {
    check_against_reference(rule, g, v, gens, tiles, false)
}

/// [`matches_reference`], with the census's hash kept and compared (`hash`).
fn check_against_reference(rule: Rule, g: &Grid, v: Vectors, gens: u64, tiles: usize, hash: bool) {
    use crate::cpu::reference::ReferenceEngine;
    let (w, h) = (g.width(), g.height());
    let mut want = ReferenceEngine::new(rule, g, 0);
    let mut engine = TileEngine::new(rule, Universe::torus(w, h), 0).unwrap();
    engine.kernel.vectors = v;
    engine.track_hash(hash);
    engine.set_grid(g, 0).unwrap();
    for generation in 1..=gens {
        want.step(1).unwrap();
        engine.step_once();
        assert!(engine.computed_tiles() >= tiles, "{v:?}");
        let want = want.grid().unwrap();
        if let Some((x, y)) = want.first_difference(&engine.grid().unwrap()) {
            panic!("{v:?} {rule} {w}x{h}: generation {generation}: ({x}, {y})");
        }
        assert_eq!(engine.population().unwrap(), want.population(), "{v:?}");
        if hash {
            assert_eq!(
                engine.census().unwrap(),
                want.census(),
                "{v:?} {rule} {w}x{h}"
            );
        }
    }
}

#[test]
fn census_matches_the_dense_layout() {
    let rule = Rule::life();
    let mut g = Grid::new(150, 90);
    g.fill_random(0.3, 5);
    let mut t = TileEngine::new(rule, Universe::torus(150, 90), 0).unwrap();
    t.set_grid(&g, 0).unwrap();
    let mut out = Vec::new();
    t.step_census(5, &mut out).unwrap();
    let mut f = FastEngine::new(rule, &g, 0);
    f.step(5).unwrap();
    assert_eq!(*out.last().unwrap(), f.grid_ref().census());
}

/// A glider inside a tile changes none of its edge cells, so it wakes no neighbour and
/// makes no tile beside it: a spaceship costs the tile it is in, not a ring round it.
/// Once it crosses an edge it reaches the tiles beside it, and the ones behind are freed.
#[test]
fn a_glider_inside_a_tile_wakes_no_neighbour_and_far_tiles_are_freed() {
    let rule = Rule::life();
    let mut e = TileEngine::new(rule, Universe::Plane, 0).unwrap();
    // A south-east glider at (20, 20)..(22, 22) of tile (0, 0): 40 generations take it 10
    // cells on, still 4 cells from the tile's east and south edges.
    for (x, y) in [(21, 20), (22, 21), (20, 22), (21, 22), (22, 22)] {
        e.set_cell(x, y, true).unwrap();
    }
    // The edit's own tile is recomputed whole once (what changed across an edit is not
    // known), which reaches every neighbour; from then on only the glider's tile works.
    for _ in 0..4 {
        e.step_once();
    }
    let made = e.meta.len();
    for _ in 4..40 {
        e.step_once();
        assert_eq!(e.computed_tiles(), 1, "generation {}", e.core.generation);
        assert_eq!(e.meta.len(), made, "generation {}", e.core.generation);
    }
    assert_eq!(e.population().unwrap(), 5);
    // On to the corner and beyond: it crosses into tile (1, 1) by generation 4 * 44.
    for _ in 40..1024 {
        e.step_once();
    }
    let b = e.bounds().unwrap().unwrap();
    assert_eq!(
        (b.left, b.top),
        (20 + 256, 20 + 256),
        "1024 generations move it 256"
    );
    // The tiles it left behind are freed (a sweep every 256 generations): only those
    // round it stay.
    assert!(e.tiles() <= 4, "{} tiles held", e.tiles());
}

/// A tube's view repeats its cells round it at every zoom: a cell of a tube 10 rows round
/// shows in each 10 rows of a tall rectangle, sampled from the tiles as cell by cell.
#[test]
fn a_tube_s_view_repeats_its_cells_round_it() {
    use crate::geometry::Tube;
    let tube = Universe::Tube(Tube::Wide { height: 10 });
    let mut e = TileEngine::new(Rule::life(), tube, 0).unwrap();
    e.set_cell(0, 3, true).unwrap();
    let rect = CellRect::new(0, 0, 4, 40);
    let sampled = e.sample(rect, 2).unwrap();
    let lit: Vec<u32> = (0..sampled.rows)
        .filter(|&r| sampled.values[(r * sampled.columns) as usize] > 0)
        .collect();
    assert_eq!(lit, vec![1, 6, 11, 16]);
    let cells = e.cells_in(rect).unwrap();
    let rows: Vec<u32> = (0..40).filter(|&y| cells.get(0, y)).collect();
    assert_eq!(rows, vec![3, 13, 23, 33]);
}
