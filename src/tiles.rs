//! A sparse set of live cells: 64x64 tiles, each 64 rows of one `u64` (bit i is column
//! 64 * tx + i), keyed by tile coordinates. It is how cells move between engines of different
//! shapes (a dense torus, the tile engine, a HashLife quadtree), and it costs what the live area
//! costs, not what the universe does.
//!
//! A world with more than two states (Generations' dying cells) keeps a byte per cell beside
//! the bits, for the tiles that have a cell above state 1: the bits are then the cells that are
//! not dead, and every path that moves cells between engines carries the states along.

use std::collections::HashMap;

use crate::geometry::{Bounds, CellRect};
use crate::grid::Grid;

/// Side of a tile in cells.
pub const TILE: i64 = 64;

/// One tile's rows.
pub type TileBits = [u64; 64];

/// One tile's states, row by row (index `64 * row + column`).
pub type TileStates = [u8; 4096];

#[derive(Clone, Debug, Default)]
pub struct TileMap {
    tiles: HashMap<(i64, i64), Box<TileBits>>,
    /// The states of the tiles that have a cell above state 1 (a set bit without a byte
    /// here is state 1).
    states: HashMap<(i64, i64), Box<TileStates>>,
}

/// The same cells in the same states, however the maps were built (an empty tile, or the bytes
/// of a tile whose dying cells have all died, count for nothing).
impl PartialEq for TileMap {
    fn eq(&self, other: &Self) -> bool {
        let live = |m: &TileMap| -> std::collections::BTreeMap<(i64, i64), TileBits> {
            m.tiles
                .iter()
                .filter(|(_, t)| t.iter().any(|&w| w != 0))
                .map(|(k, t)| (*k, **t))
                .collect()
        };
        let dying = |m: &TileMap| {
            let mut v: Vec<(i64, i64, u8)> = m.dying_cells().collect();
            v.sort_unstable();
            v
        };
        live(self) == live(other) && dying(self) == dying(other)
    }
}

impl Eq for TileMap {}

/// The tile holding cell (x, y), and the cell's place in it.
#[inline]
pub fn tile_of(x: i64, y: i64) -> ((i64, i64), usize, u32) {
    (
        (x.div_euclid(TILE), y.div_euclid(TILE)),
        y.rem_euclid(TILE) as usize,
        x.rem_euclid(TILE) as u32,
    )
}

/// Bit i set where `bytes[i]` (at most 64 of them) is not 0, eight bytes at a time.
pub fn nonzero_bits(bytes: &[u8]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut out = 0;
    let mut chunks = bytes.chunks_exact(8);
    for (k, c) in chunks.by_ref().enumerate() {
        let v = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        // The top bit of each byte that is not 0, then the eight gathered into one byte.
        let top = ((v & LOW7).wrapping_add(LOW7) | v) & !LOW7;
        out |= ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    let base = bytes.len() - chunks.remainder().len();
    for (i, &b) in chunks.remainder().iter().enumerate() {
        out |= ((b != 0) as u64) << (base + i);
    }
    out
}

/// Whether some byte is above 1 (a state beyond alive), eight at a time.
pub fn any_above_one(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    chunks.by_ref().any(|c| {
        u64::from_le_bytes(c.try_into().expect("eight bytes")) & !0x0101_0101_0101_0101 != 0
    }) || chunks.remainder().iter().any(|&b| b > 1)
}

impl TileMap {
    pub fn new() -> Self {
        Self::default()
    }

    /// Tiles held (some may be empty until [`TileMap::prune`]).
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.values().all(|t| t.iter().all(|&w| w == 0))
    }

    pub fn get(&self, x: i64, y: i64) -> bool {
        let (t, row, bit) = tile_of(x, y);
        self.tiles.get(&t).is_some_and(|b| b[row] >> bit & 1 == 1)
    }

    pub fn set(&mut self, x: i64, y: i64, alive: bool) {
        self.set_state(x, y, alive as u8);
    }

    /// The cell's state: 0 dead, 1 alive, 2.. a dying state.
    pub fn state(&self, x: i64, y: i64) -> u8 {
        let (t, row, bit) = tile_of(x, y);
        if self.tiles.get(&t).is_none_or(|b| b[row] >> bit & 1 == 0) {
            return 0;
        }
        self.states
            .get(&t)
            .map_or(1, |s| s[row * 64 + bit as usize].max(1))
    }

    pub fn set_state(&mut self, x: i64, y: i64, state: u8) {
        let (t, row, bit) = tile_of(x, y);
        if state != 0 {
            self.tile_mut(t.0, t.1)[row] |= 1 << bit;
        } else if let Some(b) = self.tiles.get_mut(&t) {
            b[row] &= !(1 << bit);
        }
        if state > 1 {
            self.states.entry(t).or_insert_with(|| Box::new([0; 4096]))[row * 64 + bit as usize] =
                state;
        } else if let Some(s) = self.states.get_mut(&t) {
            s[row * 64 + bit as usize] = state;
        }
    }

    /// Sets the states above 1 of a run of cells along one row of one tile, from (x, y)
    /// eastwards (the others are left as they are): a pattern's states put in a tile at a
    /// time, not a cell at a time.
    pub fn set_states_in_row(&mut self, x: i64, y: i64, states: &[u8]) {
        let (t, row, bit) = tile_of(x, y);
        debug_assert!(
            bit as usize + states.len() <= 64,
            "the run stays in one tile"
        );
        let mut set = 0u64;
        for (k, &v) in states.iter().enumerate() {
            set |= ((v > 1) as u64) << (bit as usize + k);
        }
        if set == 0 {
            return;
        }
        self.tile_mut(t.0, t.1)[row] |= set;
        let st = self.states.entry(t).or_insert_with(|| Box::new([0; 4096]));
        let at = row * 64 + bit as usize;
        for (cell, &v) in st[at..at + states.len()].iter_mut().zip(states) {
            if v > 1 {
                *cell = v;
            }
        }
    }

    /// Whether some cell is above state 1.
    pub fn has_states(&self) -> bool {
        self.states.iter().any(|(t, s)| {
            let bits = self.tiles.get(t);
            s.iter()
                .enumerate()
                .any(|(i, &v)| v > 1 && bits.is_some_and(|b| b[i / 64] >> (i % 64) & 1 == 1))
        })
    }

    /// The highest state of any cell (0 for an empty map).
    pub fn max_state(&self) -> u8 {
        let mut max = self.tiles.values().any(|t| t.iter().any(|&w| w != 0)) as u8;
        for (t, s) in &self.states {
            let Some(bits) = self.tiles.get(t) else {
                continue;
            };
            // A row's bytes are looked at cell by cell only where its highest passes the
            // maximum so far (every tile is read whenever an engine takes a pattern).
            for (row, &b) in s.chunks_exact(64).zip(bits.iter()) {
                if b == 0 || row.iter().copied().max().unwrap_or(0) <= max {
                    continue;
                }
                for (c, &v) in row.iter().enumerate() {
                    if b >> c & 1 == 1 {
                        max = max.max(v);
                    }
                }
            }
        }
        max
    }

    /// Every cell above state 1: (x, y, state).
    pub fn dying_cells(&self) -> impl Iterator<Item = (i64, i64, u8)> + '_ {
        self.states.iter().flat_map(move |(&(tx, ty), s)| {
            let bits = self.tiles.get(&(tx, ty));
            s.iter().enumerate().filter_map(move |(i, &v)| {
                (v > 1 && bits.is_some_and(|b| b[i / 64] >> (i % 64) & 1 == 1)).then_some((
                    tx * TILE + (i % 64) as i64,
                    ty * TILE + (i / 64) as i64,
                    v,
                ))
            })
        })
    }

    pub fn tile(&self, tx: i64, ty: i64) -> Option<&TileBits> {
        self.tiles.get(&(tx, ty)).map(|b| &**b)
    }

    /// The tile, made empty if it was not there.
    pub fn tile_mut(&mut self, tx: i64, ty: i64) -> &mut TileBits {
        self.tiles
            .entry((tx, ty))
            .or_insert_with(|| Box::new([0; 64]))
    }

    /// Stores a whole tile (an empty one is dropped).
    pub fn insert(&mut self, tx: i64, ty: i64, bits: TileBits) {
        if bits.iter().any(|&w| w != 0) {
            self.tiles.insert((tx, ty), Box::new(bits));
        } else {
            self.tiles.remove(&(tx, ty));
        }
    }

    /// A tile's cells as states, row by row (`None`: no tile there).
    pub fn tile_states(&self, tx: i64, ty: i64) -> Option<Box<TileStates>> {
        let bits = self.tiles.get(&(tx, ty))?;
        let states = self.states.get(&(tx, ty));
        let mut out = Box::new([0u8; 4096]);
        for (r, &b) in bits.iter().enumerate() {
            // Only the set bits: most of a tile is empty.
            let mut rest = b;
            while rest != 0 {
                let i = r * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out[i] = states.map_or(1, |st| st[i].max(1));
            }
        }
        Some(out)
    }

    /// A tile's bytes of states, if it has a cell above state 1 (a set bit without them is
    /// state 1; a byte under a clear bit means nothing).
    pub fn tile_state_bytes(&self, tx: i64, ty: i64) -> Option<&TileStates> {
        self.states.get(&(tx, ty)).map(|b| &**b)
    }

    /// Stores a whole tile of states (an empty one is dropped).
    pub fn insert_states(&mut self, tx: i64, ty: i64, cells: &TileStates) {
        let mut bits = [0u64; 64];
        let mut multi = false;
        for (row, b) in cells.chunks_exact(64).zip(bits.iter_mut()) {
            *b = nonzero_bits(row);
            multi |= any_above_one(row);
        }
        self.insert(tx, ty, bits);
        if multi {
            self.states.insert((tx, ty), Box::new(*cells));
        } else {
            self.states.remove(&(tx, ty));
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = ((i64, i64), &TileBits)> {
        self.tiles.iter().map(|(k, v)| (*k, &**v))
    }

    /// Drops empty tiles, and the states of tiles with no cell above state 1.
    pub fn prune(&mut self) {
        self.tiles.retain(|_, t| t.iter().any(|&w| w != 0));
        let tiles = &self.tiles;
        self.states.retain(|t, s| {
            tiles.get(t).is_some_and(|b| {
                s.iter()
                    .enumerate()
                    .any(|(i, &v)| v > 1 && b[i / 64] >> (i % 64) & 1 == 1)
            })
        });
    }

    pub fn population(&self) -> u64 {
        self.tiles
            .values()
            .map(|t| t.iter().map(|w| w.count_ones() as u64).sum::<u64>())
            .sum()
    }

    /// Every live cell, in no particular order.
    pub fn cells(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.iter().flat_map(|((tx, ty), bits)| {
            bits.iter().enumerate().flat_map(move |(r, &w)| {
                crate::grid::BitIter(w).map(move |b| (tx * TILE + b as i64, ty * TILE + r as i64))
            })
        })
    }

    /// The live cells of `grid` with its top-left corner at `at`.
    pub fn from_grid(grid: &Grid, at: (i64, i64)) -> Self {
        let mut map = Self::new();
        map.or_grid(grid, at);
        map
    }

    /// Adds the live cells of `grid` placed at `at`.
    pub fn or_grid(&mut self, grid: &Grid, at: (i64, i64)) {
        let shift = at.0.rem_euclid(TILE) as u32;
        for y in 0..grid.height() {
            let gy = at.1 + y as i64;
            let (ty, row) = (gy.div_euclid(TILE), gy.rem_euclid(TILE) as usize);
            for (k, &w) in grid.row(y).iter().enumerate() {
                if w == 0 {
                    continue;
                }
                let x0 = at.0 + k as i64 * 64;
                let tx = x0.div_euclid(TILE);
                self.tile_mut(tx, ty)[row] |= w << shift;
                if shift != 0 && w >> (64 - shift) != 0 {
                    self.tile_mut(tx + 1, ty)[row] |= w >> (64 - shift);
                }
            }
        }
    }

    /// The same cells moved by (dx, dy).
    pub fn shifted(&self, dx: i64, dy: i64) -> TileMap {
        let mut out = TileMap::new();
        let mut g = Grid::new(64, 64);
        for ((tx, ty), bits) in self.iter() {
            g.words_mut().copy_from_slice(bits);
            out.or_grid(&g, (tx * TILE + dx, ty * TILE + dy));
        }
        for (x, y, state) in self.dying_cells() {
            out.set_state(x + dx, y + dy, state);
        }
        out
    }

    /// The cells of `rect` as a bitmap of its size (no wrapping: tile coordinates are taken
    /// as they are).
    pub fn crop(&self, rect: CellRect) -> Grid {
        let mut out = Grid::new(rect.width, rect.height);
        if rect.width == 0 || rect.height == 0 {
            return out;
        }
        let shift = rect.x.rem_euclid(TILE) as u32;
        let tx0 = rect.x.div_euclid(TILE);
        let wpr = out.words_per_row();
        for y in 0..rect.height {
            let gy = rect.y + y as i64;
            let (ty, row) = (gy.div_euclid(TILE), gy.rem_euclid(TILE) as usize);
            let out_row = out.row_mut(y);
            for (k, o) in out_row.iter_mut().enumerate().take(wpr) {
                let tx = tx0 + k as i64;
                let lo = self.tiles.get(&(tx, ty)).map_or(0, |t| t[row]);
                let mut w = lo >> shift;
                if shift != 0 {
                    let hi = self.tiles.get(&(tx + 1, ty)).map_or(0, |t| t[row]);
                    w |= hi << (64 - shift);
                }
                *o = w;
            }
        }
        out.clear_padding();
        out
    }

    /// The cells of `src`, in their states, moved so that its top-left corner is at `at`;
    /// the cells outside `src` are left behind.
    pub fn cut(&self, src: CellRect, at: (i64, i64)) -> TileMap {
        let mut out = TileMap::from_grid(&self.crop(src), at);
        let (dx, dy) = (at.0 - src.x, at.1 - src.y);
        let inside = |x: i64, y: i64| {
            (src.x..src.x + src.width as i64).contains(&x)
                && (src.y..src.y + src.height as i64).contains(&y)
        };
        for (x, y, state) in self.dying_cells().filter(|&(x, y, _)| inside(x, y)) {
            out.set_state(x + dx, y + dy, state);
        }
        out
    }

    /// The smallest box holding every live cell.
    pub fn bounds(&self) -> Option<Bounds> {
        let mut b: Option<Bounds> = None;
        for (&(tx, ty), t) in &self.tiles {
            let rows: Vec<usize> = (0..64).filter(|&r| t[r] != 0).collect();
            let (Some(&top), Some(&bottom)) = (rows.first(), rows.last()) else {
                continue;
            };
            let all = t.iter().fold(0, |a, &w| a | w);
            let tb = Bounds {
                left: tx * TILE + all.trailing_zeros() as i64,
                right: tx * TILE + 63 - all.leading_zeros() as i64,
                top: ty * TILE + top as i64,
                bottom: ty * TILE + bottom as i64,
            };
            b = Some(b.map_or(tb, |b| b.union(tb)));
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time byte tests against a byte-by-byte reading, on every length to 64
    /// and bytes of every kind (0, 1, above 1, the top bit set).
    #[test]
    fn byte_tests_read_every_byte() {
        let mut rng = crate::hash::SplitMix64(5);
        for len in 0..=64 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| match rng.next_u64() % 5 {
                        0 | 1 => 0,
                        2 => 1,
                        3 => 0x80,
                        _ => rng.next_u64() as u8,
                    })
                    .collect();
                let want = bytes
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (i, &b)| m | ((b != 0) as u64) << i);
                assert_eq!(nonzero_bits(&bytes), want, "{bytes:?}");
                assert_eq!(
                    any_above_one(&bytes),
                    bytes.iter().any(|&b| b > 1),
                    "{bytes:?}"
                );
            }
        }
    }

    #[test]
    fn grids_placed_anywhere_come_back_cell_for_cell() {
        let g = Grid::from_text(".O.\n..O\nOOO\n");
        for at in [(0, 0), (62, 63), (-1, -70), (-200, 5), (127, -64)] {
            let map = TileMap::from_grid(&g, at);
            assert_eq!(map.population(), 5);
            let back = map.crop(CellRect::new(at.0, at.1, 3, 3));
            assert_eq!(back, g, "at {at:?}");
            let b = map.bounds().unwrap();
            assert_eq!(
                (b.left, b.top, b.right, b.bottom),
                (at.0, at.1, at.0 + 2, at.1 + 2)
            );
            let mut cells: Vec<_> = map.cells().collect();
            cells.sort();
            let mut want: Vec<_> = g
                .alive_cells()
                .map(|(x, y)| (at.0 + x as i64, at.1 + y as i64))
                .collect();
            want.sort();
            assert_eq!(cells, want);
        }
    }

    #[test]
    fn states_travel_with_the_cells_and_equality_sees_only_what_is_there() {
        let mut a = TileMap::new();
        a.set_state(3, -70, 5);
        a.set_state(4, -70, 1);
        assert_eq!(
            (a.state(3, -70), a.state(4, -70), a.state(5, -70)),
            (5, 1, 0)
        );
        assert_eq!(a.max_state(), 5);
        assert!(a.has_states());
        let moved = a.shifted(61, 70);
        assert_eq!((moved.state(64, 0), moved.state(65, 0)), (5, 1));
        // A dying cell that dies leaves its tile's bytes behind: the maps are still equal.
        let mut b = a.clone();
        b.set_state(3, -70, 0);
        let mut c = TileMap::new();
        c.set_state(4, -70, 1);
        assert_eq!(b, c);
        assert_ne!(a, c);
        assert!(!b.has_states());
    }
}
