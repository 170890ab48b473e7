//! The rule-tree engine: any rule file's rule (Golly's RuleLoader), up to 256 states, and any
//! Generations rule as its tree, on the unbounded plane, a torus, Golly's bounded plane, its
//! infinite tube or its strip. Cells are bytes in 64x64 tiles; a
//! generation walks the rule's tree once per cell, over all cores, and only in the tiles next
//! to one that changed in the generation before: a tile whose neighbourhood did not change
//! would come out as it is. So the static parts of a self-replicator (its loops, wires and
//! tape) cost nothing while a signal runs elsewhere.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Put, Sampled,
    Universe, Work, cells_by_state, census_of_tiles, check_states, put_by_cell, sample_states,
    states_by_cell,
};
use crate::grid::Grid;
use crate::rule::Rule;
use crate::rule::loader::RuleTree;
use crate::tiles::{TILE, TileMap, TileStates};

const T: usize = TILE as usize;
/// A tile with a one-cell border: the input of one tile's generation.
const P: usize = T + 2;
/// Generations with fewer tiles to compute than this run on one core.
const PARALLEL_TILES: usize = 16;
/// ... and so do those whose tiles hold fewer non-empty cells than this: a cell costs a walk of
/// the tree near it, some tens of nanoseconds, and a tile round a signal on a wire holds a few,
/// so sixteen such tiles take less time than waking the other cores (Codd's sensing demo to
/// 1000: the wakes were a fifth of its time).
const PARALLEL_CELLS: u64 = 2048;

struct Tile {
    cells: Box<TileStates>,
    /// Bit c of row r: the cell in column c of row r is not state 0. A tile's generation
    /// reads its own and its neighbours' edges from these to find where a cell can change
    /// before it gathers any cell: most tiles computed are a signal's empty neighbours.
    rows: Box<[u64; T]>,
    live: u32,
}

impl Tile {
    fn new(cells: Box<TileStates>) -> Tile {
        let mut rows = Box::new([0; T]);
        for (row, cells) in rows.iter_mut().zip(cells.chunks_exact(T)) {
            *row = crate::tiles::nonzero_bits(cells);
        }
        let live = rows.iter().map(|r| r.count_ones()).sum();
        Tile { cells, rows, live }
    }

    fn set(&mut self, i: usize, state: u8) {
        let old = self.cells[i];
        self.cells[i] = state;
        self.live = self.live + (state != 0) as u32 - (old != 0) as u32;
        let bit = 1 << (i % T);
        self.rows[i / T] = self.rows[i / T] & !bit | if state != 0 { bit } else { 0 };
    }
}

/// A tile and its eight neighbours, row by row from the north-west (`None`: no cells).
type Block<'a> = [Option<&'a Tile>; 9];

pub struct RuleTreeEngine {
    core: Core,
    tree: Arc<RuleTree>,
    universe: Universe,
    tiles: FxHashMap<(i64, i64), Tile>,
    /// Tiles that changed in the last generation or an edit: the next generation computes
    /// them and their neighbours.
    changed: FxHashSet<(i64, i64)>,
    /// Offsets of the tree's cells in a padded tile, the centre last.
    offsets: Vec<isize>,
    /// Tiles computed since the engine was made.
    tiles_computed: u64,
}

impl RuleTreeEngine {
    pub fn new(rule: Rule, universe: Universe) -> EngineResult<Self> {
        let Some(tree) = rule.tree() else {
            return Err(EngineError::Unsupported(format!(
                "the rule-tree engine runs rule files' and Generations rules; {rule} is neither"
            )));
        };
        universe.refuse_joined_edges("rule-tree")?;
        if universe.is_unbounded() && tree.births_from_nothing() {
            return Err(EngineError::Unsupported(format!(
                "{rule} turns empty cells into live ones, which fills {} in one generation; run it on a torus",
                universe.describe()
            )));
        }
        let offsets = tree
            .shape
            .order()
            .iter()
            .map(|&(dx, dy)| dy as isize * P as isize + dx as isize)
            .collect();
        let mut engine = Self {
            core: Core::new(EngineKind::RuleTree, "rule-tree", rule),
            tree,
            universe,
            tiles: FxHashMap::default(),
            changed: FxHashSet::default(),
            offsets,
            tiles_computed: 0,
        };
        engine.touch_all();
        Ok(engine)
    }

    /// Bytes a torus or bounded plane would take when full.
    pub fn bytes(universe: Universe) -> u64 {
        universe.size().map_or(0, |(w, h)| {
            (w as u64).div_ceil(64) * (h as u64).div_ceil(64) * (4096 + 64) * 2
        })
    }

    /// Tiles across and down a finite universe.
    fn tile_span(&self) -> Option<(i64, i64)> {
        match self.tile_sides() {
            (Some(tw), Some(th)) => Some((tw, th)),
            _ => None,
        }
    }

    /// Tiles along each finite side (`None`: that way is unbounded).
    fn tile_sides(&self) -> (Option<i64>, Option<i64>) {
        let (w, h) = self.universe.finite_sides();
        let tiles = |n: Option<u32>| n.map(|n| (n as u64).div_ceil(64) as i64);
        (tiles(w), tiles(h))
    }

    /// After a change that may matter anywhere: on a finite universe where empty space comes
    /// alive, every tile; else every tile that holds a cell.
    fn touch_all(&mut self) {
        self.changed = self.tiles.keys().copied().collect();
        if self.tree.births_from_nothing()
            && let Some((tw, th)) = self.tile_span()
        {
            for ty in 0..th {
                for tx in 0..tw {
                    self.changed.insert((tx, ty));
                }
            }
        }
    }

    /// The tile (tx, ty) wraps to round a torus or a tube; `None` beyond a bounded plane's or
    /// a strip's edge.
    fn tile_key(&self, tx: i64, ty: i64) -> Option<(i64, i64)> {
        let (tw, th) = self.tile_sides();
        let (ww, wh) = self.universe.wrapped_sides();
        let side = |t: i64, tiles: Option<i64>, wraps: bool| match tiles {
            Some(n) if wraps => Some(t.rem_euclid(n)),
            Some(n) => (0..n).contains(&t).then_some(t),
            None => Some(t),
        };
        Some((side(tx, tw, ww.is_some())?, side(ty, th, wh.is_some())?))
    }

    /// The cell (x, y) is in the universe, where it wraps to round a torus or a tube.
    fn place(&self, x: i64, y: i64) -> Option<(i64, i64)> {
        let (x, y) = self.universe.wrap(x, y);
        self.universe.holds(x, y).then_some((x, y))
    }

    fn get(&self, x: i64, y: i64) -> u8 {
        let Some((x, y)) = self.place(x, y) else {
            return 0;
        };
        let (t, i) = split(x, y);
        self.tiles.get(&t).map_or(0, |tile| tile.cells[i])
    }

    fn set(&mut self, x: i64, y: i64, state: u8) {
        let Some((x, y)) = self.place(x, y) else {
            return;
        };
        let (t, i) = split(x, y);
        let tile = self
            .tiles
            .entry(t)
            .or_insert_with(|| Tile::new(Box::new([0; 4096])));
        if tile.cells[i] == state {
            return;
        }
        tile.set(i, state);
        if tile.live == 0 {
            self.tiles.remove(&t);
        }
        self.changed.insert(t);
    }

    /// Tile `t` and its neighbours, where they line up with it ([`Self::tiles_line_up`]).
    fn block(&self, t: (i64, i64)) -> Block<'_> {
        let mut block = [None; 9];
        for (k, b) in block.iter_mut().enumerate() {
            let (dx, dy) = (k as i64 % 3 - 1, k as i64 / 3 - 1);
            *b = self
                .tile_key(t.0 + dx, t.1 + dy)
                .and_then(|k| self.tiles.get(&k));
        }
        block
    }

    /// The padded input of tile `t`: its cells and a ring of its neighbours' (wrapped on a
    /// torus, dead beyond a bounded plane's edge). `block` is its block where the tiles line
    /// up.
    fn gather(&self, t: (i64, i64), block: Option<&Block>, pad: &mut [u8; P * P]) {
        pad.fill(0);
        let own = match block {
            Some(b) => b[4],
            None => self.tiles.get(&t),
        };
        if let Some(tile) = own {
            for r in 0..T {
                pad[(r + 1) * P + 1..(r + 1) * P + 1 + T]
                    .copy_from_slice(&tile.cells[r * T..r * T + T]);
            }
        }
        if let Some(block) = block {
            // The ring comes from the eight neighbours, which line up with this tile.
            let at = |dx: i64, dy: i64| block[((dy + 1) * 3 + dx + 1) as usize];
            let last = T - 1;
            if let Some(n) = at(0, -1) {
                pad[1..=T].copy_from_slice(&n.cells[last * T..]);
            }
            if let Some(s) = at(0, 1) {
                pad[(P - 1) * P + 1..(P - 1) * P + 1 + T].copy_from_slice(&s.cells[..T]);
            }
            if let Some(w) = at(-1, 0) {
                for r in 0..T {
                    pad[(r + 1) * P] = w.cells[r * T + last];
                }
            }
            if let Some(e) = at(1, 0) {
                for r in 0..T {
                    pad[(r + 1) * P + P - 1] = e.cells[r * T];
                }
            }
            let corner = |dx, dy, i: usize, p: usize, pad: &mut [u8; P * P]| {
                if let Some(c) = at(dx, dy) {
                    pad[p] = c.cells[i];
                }
            };
            corner(-1, -1, T * T - 1, 0, pad);
            corner(1, -1, last * T, P - 1, pad);
            corner(-1, 1, last, (P - 1) * P, pad);
            corner(1, 1, 0, P * P - 1, pad);
            return;
        }
        let (x0, y0) = (t.0 * TILE, t.1 * TILE);
        // On a torus whose side is not a multiple of 64 the last tile is partial, and its
        // east or south ring is the first column or row: read the ring cell by cell.
        let (cols, rows) = self.valid(t);
        let mut ring = |px: usize, py: usize| {
            let (x, y) = (x0 + px as i64 - 1, y0 + py as i64 - 1);
            pad[py * P + px] = self.get(x, y);
        };
        for px in 0..=cols + 1 {
            ring(px, 0);
            ring(px, rows + 1);
        }
        for py in 1..=rows {
            ring(0, py);
            ring(cols + 1, py);
        }
    }

    /// Whether every tile's neighbours line up with it: each side that wraps a multiple of 64.
    /// A side that does not wrap always lines up, whole tiles or not: beyond a bounded plane's
    /// edge there are no tiles, and a partial tile's cells past the edge stay dead. (Golly's
    /// WireWorld circuits are on bounded planes of 400x200 and 200x200: their rings were read
    /// a cell at a time, a hash lookup each.)
    fn tiles_line_up(&self) -> bool {
        let (w, h) = self.universe.wrapped_sides();
        w.is_none_or(|w| w % 64 == 0) && h.is_none_or(|h| h % 64 == 0)
    }

    /// Columns and rows of tile `t` inside the universe (64 along an unbounded side).
    fn valid(&self, t: (i64, i64)) -> (usize, usize) {
        let (w, h) = self.universe.finite_sides();
        let side =
            |n: Option<u32>, t: i64| n.map_or(T, |n| (n as i64 - t * TILE).clamp(0, TILE) as usize);
        (side(w, t.0), side(h, t.1))
    }

    fn step_once(&mut self) {
        let mut todo: FxHashSet<(i64, i64)> =
            FxHashSet::with_capacity_and_hasher(self.changed.len() * 3, Default::default());
        for &(tx, ty) in &self.changed {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(k) = self.tile_key(tx + dx, ty + dy) {
                        todo.insert(k);
                    }
                }
            }
        }
        let todo: Vec<(i64, i64)> = todo.into_iter().collect();
        self.tiles_computed += todo.len() as u64;
        let tree = &self.tree;
        let offsets = &self.offsets;
        let empty = tree.next(&vec![0; offsets.len()]);
        let this = &*self;
        let whole = self.tiles_line_up();
        let work = |pad: &mut Box<[u8; P * P]>, &t: &(i64, i64)| {
            let (cols, rows) = this.valid(t);
            // A cell whose 3x3 block is all dead comes out as a dead block does: only
            // the cells next to a live one walk the tree.
            let block = whole.then(|| this.block(t));
            let occupied = match &block {
                Some(block) => occupancy(block),
                None => {
                    this.gather(t, None, pad);
                    std::array::from_fn(|py| padded_nonzero_bits(&pad[py * P..py * P + P]))
                }
            };
            let old = match &block {
                Some(block) => block[4],
                None => this.tiles.get(&t),
            };
            if empty == 0 && occupied.iter().all(|&o| o == 0) {
                return (t, None, old.is_some());
            }
            if block.is_some() {
                this.gather(t, block.as_ref(), pad);
            }
            let mut cells = Box::new([0u8; 4096]);
            let mut bits = Box::new([0u64; T]);
            let valid = (1u128 << cols) - 1;
            for r in 0..rows {
                let m = occupied[r] | occupied[r + 1] | occupied[r + 2];
                // Bit c: the cell of column c has a live cell in its block.
                let mut near = ((m | m << 1 | m >> 1) >> 1) & valid;
                if empty != 0 {
                    cells[r * T..r * T + cols].fill(empty);
                    bits[r] = valid as u64;
                }
                if near == 0 {
                    continue;
                }
                while near != 0 {
                    let c = near.trailing_zeros() as usize;
                    near &= near - 1;
                    cells[r * T + c] = next(tree, offsets, pad, (r + 1) * P + c + 1);
                }
                bits[r] = crate::tiles::nonzero_bits(&cells[r * T..r * T + T]);
            }
            let live: u32 = bits.iter().map(|b| b.count_ones()).sum();
            let changed = match old {
                Some(o) => o.cells[..] != cells[..],
                None => live != 0,
            };
            let tile = (live != 0).then_some(Tile {
                cells,
                rows: bits,
                live,
            });
            (t, tile, changed)
        };
        // A few tiles take less time than waking the other cores would.
        let few = todo.len() < PARALLEL_TILES || {
            let cells: u64 = todo
                .iter()
                .filter_map(|t| self.tiles.get(t))
                .map(|t| t.live as u64)
                .sum();
            cells < PARALLEL_CELLS && empty == 0
        };
        let results: Vec<((i64, i64), Option<Tile>, bool)> = if few {
            let mut pad = Box::new([0u8; P * P]);
            todo.iter().map(|t| work(&mut pad, t)).collect()
        } else {
            todo.par_iter()
                .map_init(|| Box::new([0u8; P * P]), work)
                .collect()
        };
        self.changed.clear();
        for (t, tile, changed) in results {
            if !changed {
                continue;
            }
            self.changed.insert(t);
            match tile {
                Some(tile) => {
                    self.tiles.insert(t, tile);
                }
                None => {
                    self.tiles.remove(&t);
                }
            }
        }
        self.core.generation += 1;
    }

    fn to_tiles(&self) -> TileMap {
        let mut map = TileMap::new();
        for (&(tx, ty), tile) in &self.tiles {
            map.insert_states(tx, ty, &tile.cells);
        }
        map
    }
}

/// Bit px of row py: the cell of the padded tile at (px, py) is not state 0, read from the
/// block's rows of bits.
fn occupancy(block: &Block) -> [u128; P] {
    let mut occupied = [0u128; P];
    let edge = P - 1;
    // West's last column and east's first, beside each row of this tile's.
    let row = |t: Option<&Tile>, r: usize, shift: u32, bit: fn(u64) -> u64| {
        t.map_or(0, |t| (bit(t.rows[r]) as u128) << shift)
    };
    let whole = |r: u64| r;
    let last = |r: u64| r >> 63;
    let first = |r: u64| r & 1;
    for r in 0..T {
        occupied[r + 1] = row(block[4], r, 1, whole)
            | row(block[3], r, 0, last)
            | row(block[5], r, edge as u32, first);
    }
    occupied[0] = row(block[1], T - 1, 1, whole)
        | row(block[0], T - 1, 0, last)
        | row(block[2], T - 1, edge as u32, first);
    occupied[edge] = row(block[7], 0, 1, whole)
        | row(block[6], 0, 0, last)
        | row(block[8], 0, edge as u32, first);
    occupied
}

/// Bit i set where `bytes[i]` (at most 128 of them, a padded tile's row) is not 0.
#[inline]
fn padded_nonzero_bits(bytes: &[u8]) -> u128 {
    let (low, high) = bytes.split_at(bytes.len().min(64));
    crate::tiles::nonzero_bits(low) as u128 | (crate::tiles::nonzero_bits(high) as u128) << 64
}

/// The tile and the cell's index in it.
#[inline]
fn split(x: i64, y: i64) -> ((i64, i64), usize) {
    (
        (x.div_euclid(TILE), y.div_euclid(TILE)),
        y.rem_euclid(TILE) as usize * T + x.rem_euclid(TILE) as usize,
    )
}

/// The tree's next state for the padded cell `i`.
#[inline(always)]
fn next(tree: &RuleTree, offsets: &[isize], pad: &[u8; P * P], i: usize) -> u8 {
    let nodes = &tree.nodes[..];
    let mut at = tree.root as usize;
    let (centre, path) = offsets.split_last().expect("a tree reads the cell");
    for &o in path {
        at = nodes[at + pad[(i as isize + o) as usize] as usize] as usize;
    }
    nodes[at + pad[(i as isize + centre) as usize] as usize] as u8
}

impl Engine for RuleTreeEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        self.universe
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    fn work(&self) -> Option<Work> {
        Some(Work::TilesComputed(self.tiles_computed))
    }

    fn step_piece(&self) -> u64 {
        // About four million cells per piece.
        ((1 << 10) / (self.changed.len() as u64 * 9).max(1)).clamp(1, 1024)
    }

    /// Cells that are not state 0, as Golly counts them.
    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.tiles.values().map(|t| t.live as u64).sum())
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(census_of_tiles(self.universe, &self.to_tiles()))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.get(x, y) != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.set(x, y, alive as u8);
        Ok(())
    }

    /// A live cell of the bitmap is state 1; an erased one is 0.
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        put_by_cell(cells, at, how, |x, y, s| self.set(x, y, s));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.tiles.clear();
        self.touch_all();
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        let mut b: Option<Bounds> = None;
        // From each tile's rows of bits, not its bytes.
        for (&(tx, ty), tile) in &self.tiles {
            let Some(top) = tile.rows.iter().position(|&r| r != 0) else {
                continue;
            };
            let bottom = tile.rows.iter().rposition(|&r| r != 0).unwrap_or(top);
            let columns = tile.rows.iter().fold(0, |a, &r| a | r);
            let (x0, y0) = (tx * TILE, ty * TILE);
            let cb = Bounds {
                left: x0 + columns.trailing_zeros() as i64,
                right: x0 + 63 - columns.leading_zeros() as i64,
                top: y0 + top as i64,
                bottom: y0 + bottom as i64,
            };
            b = Some(b.map_or(cb, |b| b.union(cb)));
        }
        Ok(b)
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        cells_by_state(rect, |x, y| self.get(x, y))
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        states_by_cell(rect, |x, y| self.get(x, y))
    }

    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let tiles = self.to_tiles();
        sample_states(self, &tiles, rect, block)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(self.to_tiles())
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        self.tiles.clear();
        for ((tx, ty), _) in tiles.iter() {
            let Some(states) = tiles.tile_states(tx, ty) else {
                continue;
            };
            if self.universe.is_plane() {
                // Tiles line up with the map's: take each whole.
                let tile = Tile::new(states);
                if tile.live > 0 {
                    self.tiles.insert((tx, ty), tile);
                }
                continue;
            }
            for (i, &s) in states.iter().enumerate().filter(|(_, s)| **s != 0) {
                self.set(tx * TILE + (i % T) as i64, ty * TILE + (i / T) as i64, s);
            }
        }
        self.touch_all();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn padded_nonzero_bits_marks_every_byte_that_is_not_zero() {
        let mut bytes = [0u8; super::P];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..200 {
            for b in bytes.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = if x.is_multiple_of(3) {
                    (x >> 8) as u8 | (round % 2) as u8
                } else {
                    0
                };
            }
            let want = bytes
                .iter()
                .enumerate()
                .fold(0u128, |m, (i, &b)| m | ((b != 0) as u128) << i);
            assert_eq!(super::padded_nonzero_bits(&bytes), want);
        }
    }
}
