//! The one dense grid layout the dense engines share (SPEC 5): a W x H torus stored row-major, each row
//! padded to whole 64-bit words, bit i of word k being column 64k + i, least significant bit
//! first, padding bits always zero. On little-endian machines the `u64` words and the GPU's `u32`
//! words are the same bytes, so a grid moves between engines by copying.
//!
//! The same type also serves as a plain bitmap (a pattern's bounding box), where it may be 0 x 0.

use crate::hash;

/// The largest width or height lifelab accepts; memory is checked separately.
pub const MAX_DIMENSION: u32 = 1 << 24;

pub use crate::memory::human_bytes;

/// The most memory one grid may take whatever the system has (see [`crate::memory`]).
pub const MAX_GRID_BYTES: u64 = crate::memory::CAP_BYTES;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("a {width}x{height} torus has no cells: width and height must be at least 1")]
    Empty { width: u64, height: u64 },
    #[error("a {width}x{height} grid is too large: width and height must be at most {max}")]
    TooWide { width: u64, height: u64, max: u32 },
    #[error("a {width}x{height} grid needs {}, more than {limit}", human_bytes(*bytes))]
    TooLarge {
        width: u64,
        height: u64,
        bytes: u64,
        limit: crate::memory::Limit,
    },
    #[error("could not allocate {} for a {width}x{height} grid", human_bytes(*bytes))]
    OutOfMemory { width: u64, height: u64, bytes: u64 },
}

/// The population of a grid and a 64-bit hash of its cells, computed the same way on the CPU
/// (`Grid::census`) and on the GPU (`shaders/census.wgsl`): the sum, over the non-zero 32-bit
/// words w at index i, of `mix32(w ^ mix32(i))` (low half) and `mix32(w + mix32(i ^ 0x9e3779b9))`
/// (high half), wrapping. Sums do not depend on the order the GPU adds them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Census {
    pub population: u64,
    pub hash: u64,
}

impl Census {
    /// From the GPU's four words: population low, high, hash low, high.
    pub fn from_words(w: &[u32]) -> Self {
        Self {
            population: w[0] as u64 | (w[1] as u64) << 32,
            hash: w[2] as u64 | (w[3] as u64) << 32,
        }
    }
}

/// The two hash terms a non-zero 32-bit word `w` at census index `i` adds (see [`Census`]).
#[inline]
pub fn census_terms(i: u32, w: u32) -> (u32, u32) {
    (
        hash::mix32(w ^ hash::mix32(i)),
        hash::mix32(w.wrapping_add(hash::mix32(i ^ 0x9e37_79b9))),
    )
}

/// A rectangle of cells, `x..x+width`, `y..y+height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl From<Rect> for crate::geometry::CellRect {
    fn from(r: Rect) -> Self {
        Self::new(r.x as i64, r.y as i64, r.width, r.height)
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    width: u32,
    height: u32,
    words_per_row: usize,
    words: Vec<u64>,
}

/// Cells a..b of row y drawn from `fill`, built a word at a time; the row's other bits are kept.
fn fill_span(row: &mut [u64], a: u32, b: u32, y: u32, fill: &hash::Fill) {
    let mut x = a;
    while x < b {
        let word = x / 64;
        let base = word * 64;
        let hi = (b - base).min(64);
        let (mut bits, mut mask) = (0u64, 0u64);
        for j in x - base..hi {
            mask |= 1 << j;
            bits |= (fill.alive(base + j, y) as u64) << j;
        }
        let w = &mut row[word as usize];
        *w = (*w & !mask) | bits;
        x = base + hi;
    }
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Grid {}x{}", self.width, self.height)?;
        if self.width <= 80 && self.height <= 40 {
            write!(f, "\n{}", self.to_text())?;
        } else {
            write!(f, " (population {})", self.population())?;
        }
        Ok(())
    }
}

impl Grid {
    /// Bytes a `width x height` grid takes.
    pub fn bytes_for(width: u64, height: u64) -> u64 {
        width.div_ceil(64) * 8 * height
    }

    /// Checks a torus size: at least 1x1, within [`MAX_DIMENSION`] and [`MAX_GRID_BYTES`].
    pub fn check_torus_size(width: u64, height: u64) -> Result<(), GridError> {
        if width == 0 || height == 0 {
            return Err(GridError::Empty { width, height });
        }
        Self::check_bitmap_size(width, height)
    }

    /// Checks only a torus's sides (a sparse engine does not take a bitmap of it).
    pub fn check_torus_dimensions(width: u64, height: u64) -> Result<(), GridError> {
        if width == 0 || height == 0 {
            return Err(GridError::Empty { width, height });
        }
        Self::check_sides(width, height)
    }

    fn check_sides(width: u64, height: u64) -> Result<(), GridError> {
        if width > MAX_DIMENSION as u64 || height > MAX_DIMENSION as u64 {
            return Err(GridError::TooWide {
                width,
                height,
                max: MAX_DIMENSION,
            });
        }
        Ok(())
    }

    fn check_bitmap_size(width: u64, height: u64) -> Result<(), GridError> {
        Self::check_sides(width, height)?;
        let bytes = Self::bytes_for(width, height);
        // Small bitmaps (a pattern, a view) cannot matter; the system is not asked for them.
        if bytes <= 1 << 20 {
            return Ok(());
        }
        let limit = crate::memory::limit();
        if bytes > limit.bytes {
            return Err(GridError::TooLarge {
                width,
                height,
                bytes,
                limit,
            });
        }
        Ok(())
    }

    /// An empty torus; fails on sizes lifelab refuses and on allocation failure.
    pub fn try_new(width: u32, height: u32) -> Result<Self, GridError> {
        Self::check_torus_size(width as u64, height as u64)?;
        Self::alloc(width, height)
    }

    /// An empty bitmap, which may be 0 x 0 (an empty pattern).
    pub fn try_new_bitmap(width: u32, height: u32) -> Result<Self, GridError> {
        Self::check_bitmap_size(width as u64, height as u64)?;
        Self::alloc(width, height)
    }

    fn alloc(width: u32, height: u32) -> Result<Self, GridError> {
        let words_per_row = (width as usize).div_ceil(64);
        let n = words_per_row * height as usize;
        let out_of_memory = || GridError::OutOfMemory {
            width: width as u64,
            height: height as u64,
            bytes: n as u64 * 8,
        };
        // Zeroed allocation, so that the system hands out pages as they are first written: a
        // large, mostly empty torus costs only what it uses, and the GPU memory check (which
        // reads what the system has available) sees the truth.
        let words = if n == 0 {
            Vec::new()
        } else {
            let layout = std::alloc::Layout::array::<u64>(n).map_err(|_| out_of_memory())?;
            // SAFETY: the layout has a non-zero size; a non-null pointer from alloc_zeroed
            // with the layout of n u64s is a valid, initialised buffer for Vec to own.
            unsafe {
                // A null is an error here, not the end of the process (memory::Guarded).
                let ptr = crate::memory::alloc_zeroed_or_null(layout) as *mut u64;
                if ptr.is_null() {
                    return Err(out_of_memory());
                }
                Vec::from_raw_parts(ptr, n, n)
            }
        };
        Ok(Self {
            width,
            height,
            words_per_row,
            words,
        })
    }

    /// An empty grid of a size known to be reasonable (tests, small internal bitmaps).
    ///
    /// # Panics
    /// On sizes that [`Grid::try_new_bitmap`] refuses.
    pub fn new(width: u32, height: u32) -> Self {
        Self::try_new_bitmap(width, height).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A grid over existing words, which must have the layout's length and zero padding.
    pub fn from_words(width: u32, height: u32, words: Vec<u64>) -> Option<Self> {
        let words_per_row = (width as usize).div_ceil(64);
        if words.len() != words_per_row * height as usize {
            return None;
        }
        let grid = Self {
            width,
            height,
            words_per_row,
            words,
        };
        grid.padding_is_zero().then_some(grid)
    }

    /// Cells from text rows: `O`, `*`, `#` or `1` alive, anything else dead; rows may differ in
    /// length (short rows are padded with dead cells).
    pub fn from_text(text: &str) -> Self {
        let rows: Vec<&str> = text.lines().collect();
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let mut grid = Self::new(width as u32, rows.len() as u32);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if matches!(c, 'O' | 'o' | '*' | '#' | '1') {
                    grid.set(x as u32, y as u32, true);
                }
            }
        }
        grid
    }

    /// Rows of `.` and `O`.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width as usize + 1) * self.height as usize);
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(if self.get(x, y) { 'O' } else { '.' });
            }
            s.push('\n');
        }
        s
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, W x H.
    pub fn cells(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The raw words; callers keep the padding bits zero (see [`Grid::clear_padding`]).
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// The same bytes as the GPU's `u32` words.
    pub fn as_u32(&self) -> &[u32] {
        bytemuck::cast_slice(&self.words)
    }

    pub fn row(&self, y: u32) -> &[u64] {
        let start = y as usize * self.words_per_row;
        &self.words[start..start + self.words_per_row]
    }

    pub fn row_mut(&mut self, y: u32) -> &mut [u64] {
        let start = y as usize * self.words_per_row;
        &mut self.words[start..start + self.words_per_row]
    }

    /// Valid bits of the last word of each row.
    pub fn last_word_mask(&self) -> u64 {
        match self.width % 64 {
            0 => u64::MAX,
            r => (1u64 << r) - 1,
        }
    }

    pub fn padding_is_zero(&self) -> bool {
        if self.words_per_row == 0 {
            return true;
        }
        let mask = !self.last_word_mask();
        self.words
            .chunks_exact(self.words_per_row)
            .all(|row| row[self.words_per_row - 1] & mask == 0)
    }

    pub fn clear_padding(&mut self) {
        if self.words_per_row == 0 {
            return;
        }
        let mask = self.last_word_mask();
        let wpr = self.words_per_row;
        for row in self.words.chunks_exact_mut(wpr) {
            row[wpr - 1] &= mask;
        }
    }

    #[inline]
    pub fn get(&self, x: u32, y: u32) -> bool {
        debug_assert!(x < self.width && y < self.height);
        let w = self.words[y as usize * self.words_per_row + (x / 64) as usize];
        w >> (x % 64) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, x: u32, y: u32, alive: bool) {
        debug_assert!(x < self.width && y < self.height);
        let w = &mut self.words[y as usize * self.words_per_row + (x / 64) as usize];
        let bit = 1u64 << (x % 64);
        if alive {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }

    /// The cell at (x, y) with both coordinates taken modulo the torus size.
    pub fn get_wrapped(&self, x: i64, y: i64) -> bool {
        self.get(
            x.rem_euclid(self.width as i64) as u32,
            y.rem_euclid(self.height as i64) as u32,
        )
    }

    pub fn population(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Live cells in row-major order.
    pub fn alive_cells(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let wpr = self.words_per_row.max(1);
        self.words.iter().enumerate().flat_map(move |(i, &word)| {
            let y = (i / wpr) as u32;
            let x0 = ((i % wpr) * 64) as u32;
            BitIter(word).map(move |b| (x0 + b, y))
        })
    }

    /// Fills every cell independently: alive with probability `density`, decided by the
    /// counter-based hash of (seed, cell), so the same seed gives the same soup everywhere.
    pub fn fill_random(&mut self, density: f64, seed: u64) {
        let all = Rect {
            x: 0,
            y: 0,
            width: self.width,
            height: self.height,
        };
        self.fill_random_rect(all, density, seed);
    }

    /// [`Grid::fill_random`] inside a rectangle (which wraps around the torus); the cells
    /// outside it are untouched.
    pub fn fill_random_rect(&mut self, rect: Rect, density: f64, seed: u64) {
        if self.width == 0 || self.height == 0 {
            return;
        }
        let fill = hash::Fill::new(seed, density);
        let (width, height) = (self.width, self.height);
        let rows = rect.height.min(height);
        // The rectangle's columns: one span, or two where it wraps past the east edge.
        let x0 = rect.x % width;
        let end = x0 as u64 + rect.width.min(width) as u64;
        let spans = if end <= width as u64 {
            [(x0, end as u32), (0, 0)]
        } else {
            [(x0, width), (0, (end - width as u64) as u32)]
        };
        let y0 = rect.y % height;
        let fill_row = |(y, row): (usize, &mut [u64])| {
            let y = y as u32;
            if (y + height - y0) % height < rows {
                for (a, b) in spans {
                    fill_span(row, a, b, y, &fill);
                }
            }
        };
        // Each cell is a pure function of (seed, x, y), so rows fill in any order: a large torus
        // (a 65536² soup is 4.3e9 cells) is filled on every core, a word at a time.
        let per_row = self.words_per_row;
        if (width as u64) * (height as u64) >= 1 << 20 {
            use rayon::prelude::*;
            self.words
                .par_chunks_mut(per_row)
                .enumerate()
                .for_each(fill_row);
        } else {
            self.words
                .chunks_mut(per_row)
                .enumerate()
                .for_each(fill_row);
        }
    }

    /// The smallest rectangle holding every live cell (not wrapping), or `None` when empty.
    pub fn bounding_box(&self) -> Option<Rect> {
        let mut rows = (0..self.height).filter(|&y| self.row(y).iter().any(|&w| w != 0));
        let top = rows.next()?;
        let bottom = rows.next_back().unwrap_or(top);
        let (mut left, mut right) = (u32::MAX, 0);
        for y in top..=bottom {
            for (i, &w) in self.row(y).iter().enumerate() {
                if w != 0 {
                    let base = i as u32 * 64;
                    left = left.min(base + w.trailing_zeros());
                    right = right.max(base + 63 - w.leading_zeros());
                }
            }
        }
        Some(Rect {
            x: left,
            y: top,
            width: right - left + 1,
            height: bottom - top + 1,
        })
    }

    /// The smallest rectangle holding every live cell when rectangles may wrap around the
    /// torus: it starts just after the widest empty band of columns (and of rows). A pattern
    /// that straddles an edge gets a small box instead of one as wide as the torus.
    pub fn wrapped_bounding_box(&self) -> Option<Rect> {
        let mut columns = vec![0u64; self.words_per_row];
        let mut rows = Vec::with_capacity(self.height as usize);
        for y in 0..self.height {
            let row = self.row(y);
            let any = row.iter().any(|&w| w != 0);
            rows.push(any);
            if any {
                for (c, &w) in columns.iter_mut().zip(row) {
                    *c |= w;
                }
            }
        }
        let cols: Vec<bool> = (0..self.width)
            .map(|x| columns[(x / 64) as usize] >> (x % 64) & 1 == 1)
            .collect();
        let (x, width) = circular_span(&cols)?;
        let (y, height) = circular_span(&rows)?;
        Some(Rect {
            x,
            y,
            width,
            height,
        })
    }

    /// A copy of the cells in `rect`, which wraps around the torus when it runs off an edge.
    pub fn crop(&self, rect: Rect) -> Grid {
        let mut out = Grid::new(rect.width, rect.height);
        let x0 = rect.x % self.width;
        for dy in 0..rect.height {
            let y = ((rect.y as u64 + dy as u64) % self.height as u64) as u32;
            // 64 cells at a time: a pattern's bounding box can be wide and nearly empty.
            for (i, word) in out.row_mut(dy).iter_mut().enumerate() {
                let dx = i as u64 * 64;
                let n = (rect.width as u64 - dx).min(64) as u32;
                let x = ((x0 as u64 + dx) % self.width as u64) as u32;
                *word = self.span(y, x, n);
            }
        }
        out
    }

    /// `n` (1..=64) cells of row `y` from column `x` on, wrapping around the torus, as the
    /// low bits of a word (cell x in bit 0).
    fn span(&self, y: u32, x: u32, n: u32) -> u64 {
        let row = self.row(y);
        let (mut x, mut got, mut out) = (x, 0, 0u64);
        while got < n {
            // A piece that does not wrap, within at most two words.
            let take = (n - got).min(self.width - x);
            let (i, off) = ((x / 64) as usize, x % 64);
            let mut bits = row[i] >> off;
            if off > 0 && off + take > 64 {
                bits |= row[i + 1] << (64 - off);
            }
            out |= (bits & low_bits(take)) << got;
            got += take;
            x = (x + take) % self.width;
        }
        out
    }

    /// Writes the low `n` (1..=64) bits of `bits` into row `y` from column `x` on, wrapping.
    fn set_span(&mut self, y: u32, x: u32, n: u32, bits: u64) {
        let width = self.width;
        let row = self.row_mut(y);
        let (mut x, mut put) = (x, 0);
        while put < n {
            let take = (n - put).min(width - x);
            let piece = (bits >> put) & low_bits(take);
            let (i, off) = ((x / 64) as usize, x % 64);
            row[i] = (row[i] & !(low_bits(take) << off)) | (piece << off);
            if off + take > 64 {
                let high = off + take - 64;
                row[i + 1] = (row[i + 1] & !low_bits(high)) | (piece >> (64 - off));
            }
            put += take;
            x = (x + take) % width;
        }
    }

    /// Writes `src` with its top-left corner at (x0, y0), wrapping around the torus; `src`'s
    /// dead cells overwrite too.
    pub fn paste(&mut self, src: &Grid, x0: u32, y0: u32) {
        self.combine(src, x0, y0, |_, new| new);
    }

    /// Like [`Grid::paste`], but each run of cells becomes `op(old, new)` (bits beyond the run
    /// are ignored): `|o, n| o | n` stamps live cells only, `|o, n| o & !n` erases them.
    pub fn combine(&mut self, src: &Grid, x0: u32, y0: u32, op: impl Fn(u64, u64) -> u64) {
        if src.width == 0 || src.height == 0 {
            return;
        }
        // A source wider than the torus wraps onto itself: its later columns win, as cell by
        // cell. Only its last `width` columns matter.
        let skip = src.width.saturating_sub(self.width);
        let x0 = ((x0 as u64 + skip as u64) % self.width as u64) as u32;
        for sy in 0..src.height {
            let y = ((y0 as u64 + sy as u64) % self.height as u64) as u32;
            let mut sx = skip;
            while sx < src.width {
                let n = (src.width - sx).min(64);
                let bits = src.span(sy, sx, n);
                let x = ((x0 as u64 + (sx - skip) as u64) % self.width as u64) as u32;
                let bits = op(self.span(y, x, n), bits);
                self.set_span(y, x, n, bits);
                sx += n;
            }
        }
    }

    /// The eight symmetries of a shape.
    pub fn symmetries(&self) -> Vec<Grid> {
        let (w, h) = (self.width(), self.height());
        let mut out = Vec::new();
        for transpose in [false, true] {
            for flip_x in [false, true] {
                for flip_y in [false, true] {
                    let (ow, oh) = if transpose { (h, w) } else { (w, h) };
                    let mut t = Grid::new(ow, oh);
                    for (x, y) in self.alive_cells() {
                        let (mut a, mut b) = (x, y);
                        if flip_x {
                            a = w - 1 - a;
                        }
                        if flip_y {
                            b = h - 1 - b;
                        }
                        let (tx, ty) = if transpose { (b, a) } else { (a, b) };
                        t.set(tx, ty, true);
                    }
                    out.push(t);
                }
            }
        }
        out
    }

    /// The top-left corner that centres a `w x h` pattern on this torus.
    pub fn centre_offset(&self, w: u32, h: u32) -> (u32, u32) {
        (
            self.width.saturating_sub(w) / 2,
            self.height.saturating_sub(h) / 2,
        )
    }

    /// The grid moved by (dx, dy) with wrap-around.
    pub fn translated(&self, dx: i64, dy: i64) -> Grid {
        let mut out = Grid::new(self.width, self.height);
        for (x, y) in self.alive_cells() {
            let nx = (x as i64 + dx).rem_euclid(self.width as i64) as u32;
            let ny = (y as i64 + dy).rem_euclid(self.height as i64) as u32;
            out.set(nx, ny, true);
        }
        out
    }

    /// The grid as a paste turned a quarter turn clockwise sees it: (x, y) goes to
    /// (h - 1 - y, x).
    pub fn rotated_clockwise(&self) -> Grid {
        let mut out = Grid::new(self.height, self.width);
        for (x, y) in self.alive_cells() {
            out.set(self.height - 1 - y, x, true);
        }
        out
    }

    /// A quarter turn anticlockwise: (x, y) goes to (y, w - 1 - x).
    pub fn rotated_anticlockwise(&self) -> Grid {
        let mut out = Grid::new(self.height, self.width);
        for (x, y) in self.alive_cells() {
            out.set(y, self.width - 1 - x, true);
        }
        out
    }

    /// Mirrored left to right: (x, y) goes to (w - 1 - x, y).
    pub fn flipped_left_right(&self) -> Grid {
        let mut out = Grid::new(self.width, self.height);
        for (x, y) in self.alive_cells() {
            out.set(self.width - 1 - x, y, true);
        }
        out
    }

    /// Mirrored top to bottom: (x, y) goes to (x, h - 1 - y).
    pub fn flipped_top_bottom(&self) -> Grid {
        let mut out = Grid::new(self.width, self.height);
        for (x, y) in self.alive_cells() {
            out.set(x, self.height - 1 - y, true);
        }
        out
    }

    /// The first cell, in row-major order, where the grids differ. `None` when equal; grids
    /// of different sizes differ at (0, 0).
    pub fn first_difference(&self, other: &Grid) -> Option<(u32, u32)> {
        if self.width != other.width || self.height != other.height {
            return Some((0, 0));
        }
        let (i, (a, b)) = self
            .words
            .iter()
            .zip(&other.words)
            .enumerate()
            .find(|(_, (a, b))| a != b)?;
        let wpr = self.words_per_row;
        let bit = (a ^ b).trailing_zeros();
        Some(((i % wpr) as u32 * 64 + bit, (i / wpr) as u32))
    }

    /// The population and state hash, as the GPU computes them.
    pub fn census(&self) -> Census {
        let (mut a, mut b) = (0u32, 0u32);
        for (i, &w) in self.as_u32().iter().enumerate() {
            if w != 0 {
                let (ta, tb) = census_terms(i as u32, w);
                a = a.wrapping_add(ta);
                b = b.wrapping_add(tb);
            }
        }
        Census {
            population: self.population(),
            hash: a as u64 | (b as u64) << 32,
        }
    }

    /// A 64-bit fingerprint of the cells (FNV-1a over the words, then a final mix).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &w in &self.words {
            h ^= w;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^ (h >> 29)
    }
}

/// The shortest circular interval (start, length) covering every `true`: the complement of
/// the longest circular run of `false`.
fn circular_span(occupied: &[bool]) -> Option<(u32, u32)> {
    let n = occupied.len();
    let first = occupied.iter().position(|&o| o)?;
    // Walk once round from the first occupied index, finding the longest gap.
    let (mut best_gap, mut best_end) = (0usize, first);
    let mut gap = 0usize;
    for k in 1..=n {
        let i = (first + k) % n;
        if occupied[i] {
            if gap > best_gap {
                best_gap = gap;
                best_end = i;
            }
            gap = 0;
        } else {
            gap += 1;
        }
    }
    Some((best_end as u32, (n - best_gap) as u32))
}

/// Indices of the set bits of a word, lowest first.
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// A word with the low `n` (0..=64) bits set.
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

#[cfg(test)]
mod tests {
    /// The fill a word at a time (and on every core for a large torus) is the per-cell draw
    /// `hash::Fill` defines: each cell inside the rectangle, wrapping past both edges, is the
    /// cell hash's verdict, and every cell outside it keeps what it held.
    #[test]
    fn a_random_fill_is_the_cell_hash_inside_the_rectangle_and_nothing_outside() {
        use super::{Grid, Rect};
        use crate::hash::Fill;
        let cases = [
            (
                67,
                13,
                Rect {
                    x: 50,
                    y: 9,
                    width: 30,
                    height: 7,
                },
            ),
            (
                1100,
                1000,
                Rect {
                    x: 0,
                    y: 0,
                    width: 1100,
                    height: 1000,
                },
            ),
            (
                1100,
                1000,
                Rect {
                    x: 1090,
                    y: 990,
                    width: 75,
                    height: 20,
                },
            ),
            (
                130,
                5,
                Rect {
                    x: 3,
                    y: 1,
                    width: 500,
                    height: 9,
                },
            ),
        ];
        for (w, h, rect) in cases {
            let mut g = Grid::new(w, h);
            // A known background, so that a bit written outside the rectangle shows.
            for y in 0..h {
                for x in 0..w {
                    g.set(x, y, (x * 7 + y * 3) % 5 == 0);
                }
            }
            g.fill_random_rect(rect, 0.37, 11);
            let fill = Fill::new(11, 0.37);
            for y in 0..h {
                for x in 0..w {
                    let inside = (x + w - rect.x % w) % w < rect.width.min(w)
                        && (y + h - rect.y % h) % h < rect.height.min(h);
                    let want = if inside {
                        fill.alive(x, y)
                    } else {
                        (x * 7 + y * 3) % 5 == 0
                    };
                    assert_eq!(g.get(x, y), want, "{w}x{h} {rect:?} at ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn a_glider_turns_and_mirrors_as_drawn_by_hand() {
        use super::Grid;
        let g = Grid::from_text(".o.\n..o\nooo");
        assert_eq!(g.rotated_clockwise(), Grid::from_text("o..\no.o\noo."));
        assert_eq!(g.rotated_anticlockwise(), Grid::from_text(".oo\no.o\n..o"));
        assert_eq!(g.flipped_left_right(), Grid::from_text(".o.\no..\nooo"));
        assert_eq!(g.flipped_top_bottom(), Grid::from_text("ooo\n..o\n.o."));
        assert_eq!(g.rotated_clockwise().rotated_anticlockwise(), g);
        // A 1x2 column turns into a 2x1 row.
        let tall = Grid::from_text("o\n.");
        assert_eq!(tall.rotated_clockwise(), Grid::from_text(".o"));
    }

    use super::*;
    use proptest::prelude::*;

    /// Cell by cell, the obvious way: the oracle of the word-level crop and paste.
    fn crop_by_cells(g: &Grid, rect: Rect) -> Grid {
        let mut out = Grid::new(rect.width, rect.height);
        for dy in 0..rect.height {
            for dx in 0..rect.width {
                let x = ((rect.x as u64 + dx as u64) % g.width as u64) as u32;
                let y = ((rect.y as u64 + dy as u64) % g.height as u64) as u32;
                out.set(dx, dy, g.get(x, y));
            }
        }
        out
    }

    fn paste_by_cells(g: &mut Grid, src: &Grid, x0: u32, y0: u32) {
        for sy in 0..src.height {
            for sx in 0..src.width {
                let x = ((x0 as u64 + sx as u64) % g.width as u64) as u32;
                let y = ((y0 as u64 + sy as u64) % g.height as u64) as u32;
                g.set(x, y, src.get(sx, sy));
            }
        }
    }

    fn soup(w: u32, h: u32, seed: u64) -> Grid {
        let mut g = Grid::new(w, h);
        g.fill_random(0.5, seed);
        g
    }

    proptest! {
        #[test]
        fn crop_matches_cell_by_cell(
            w in 1u32..200, h in 1u32..6, x in 0u32..400, y in 0u32..10,
            cw in 1u32..300, ch in 1u32..8, seed in 0u64..1000,
        ) {
            let g = soup(w, h, seed);
            let rect = Rect { x, y, width: cw, height: ch };
            prop_assert_eq!(g.crop(rect), crop_by_cells(&g, rect));
        }

        #[test]
        fn paste_matches_cell_by_cell(
            w in 1u32..200, h in 1u32..6, sw in 1u32..300, sh in 1u32..8,
            x in 0u32..400, y in 0u32..10, seed in 0u64..1000,
        ) {
            let mut a = soup(w, h, seed);
            let mut b = a.clone();
            let src = soup(sw, sh, seed + 1);
            a.paste(&src, x, y);
            paste_by_cells(&mut b, &src, x, y);
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn layout_is_lsb_first_padded_rows() {
        let mut g = Grid::new(70, 2);
        assert_eq!(g.words_per_row(), 2);
        g.set(0, 0, true);
        g.set(65, 1, true);
        assert_eq!(g.words(), &[1, 0, 0, 2]);
        assert_eq!(g.as_u32(), &[1, 0, 0, 0, 0, 0, 2, 0]);
        assert_eq!(g.last_word_mask(), 0x3f);
    }

    #[test]
    fn bounding_box_and_crop() {
        let g = Grid::from_text("......\n..O...\n....O.\n......");
        let bb = g.bounding_box().unwrap();
        assert_eq!(
            bb,
            Rect {
                x: 2,
                y: 1,
                width: 3,
                height: 2
            }
        );
        assert_eq!(g.crop(bb).to_text(), "O..\n..O\n");
        assert!(Grid::new(5, 5).bounding_box().is_none());
    }

    #[test]
    fn sizes_are_checked_before_allocating() {
        assert!(matches!(Grid::try_new(0, 5), Err(GridError::Empty { .. })));
        assert!(matches!(
            Grid::try_new(1_000_000, 1_000_000),
            Err(GridError::TooLarge { .. })
        ));
        // 15625 words of 8 bytes a row, a million rows: 1.25e11 bytes.
        assert_eq!(
            Grid::try_new(1_000_000, 1_000_000).unwrap_err().to_string(),
            format!(
                "a 1000000x1000000 grid needs 116.4 GiB, more than {}",
                crate::memory::limit()
            )
        );
    }

    #[test]
    fn wrapped_bounding_box_crosses_the_edges() {
        let mut g = Grid::new(10, 8);
        g.set(9, 7, true);
        g.set(0, 0, true);
        g.set(1, 0, true);
        let bb = g.wrapped_bounding_box().unwrap();
        assert_eq!(
            bb,
            Rect {
                x: 9,
                y: 7,
                width: 3,
                height: 2
            }
        );
        assert_eq!(g.crop(bb).to_text(), "O..\n.OO\n");
        let mut one = Grid::new(5, 5);
        one.set(2, 3, true);
        assert_eq!(
            one.wrapped_bounding_box(),
            Some(Rect {
                x: 2,
                y: 3,
                width: 1,
                height: 1
            })
        );
    }

    #[test]
    fn first_difference_names_the_cell() {
        let a = Grid::new(100, 3);
        let mut b = a.clone();
        b.set(70, 2, true);
        assert_eq!(a.first_difference(&b), Some((70, 2)));
        assert_eq!(a.first_difference(&a), None);
    }

    #[test]
    fn paste_wraps_around() {
        let mut g = Grid::new(4, 4);
        g.paste(&Grid::from_text("OO\nOO"), 3, 3);
        assert_eq!(g.to_text(), "O..O\n....\n....\nO..O\n");
    }
}
