//! Golly's macrocell format (`.mc`): a quadtree with shared subtrees, the native format of
//! HashLife, so that a pattern of any extent fits in a file of the size of its structure.
//!
//! ```text
//! [M2] (golly 3.3)          header
//! #R B3/S23                 the rule (with :Tw,h for a torus)
//! #G 100                    the generation
//! $$$$$$$.......*$          a leaf: 8x8 cells, rows ended by `$`, `*` alive
//! 4 0 0 0 1                 a node: level, then its nw ne sw se children by line number
//! ```
//! Lines are numbered from 1 in order of appearance, 0 is the empty node, the last line is the
//! root, and a leaf is level 3. A multi-state file (Golly's Generations and RuleLoader rules)
//! has no 8x8 leaves: its level-1 nodes `1 nw ne sw se` hold four states, and every level above
//! is numbers. The root of level L covers `-2^(L-1) .. 2^(L-1)` on both axes
//! (Golly's coordinates; y grows downwards).

use super::ParseError;
use crate::geometry::Bounds;
use crate::rule::Rule;
use crate::tiles::TileMap;

/// One node of the file's quadtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum McNode {
    /// 8x8 cells: row r in bits 8r..8r+8, column c in bit c of its row.
    Leaf(u64),
    /// A node of level >= 4 (>= 2 in a multi-state file) and its children (0: empty; else a
    /// 1-based index).
    Inner { level: u8, children: [u32; 4] },
    /// A multi-state file's 2x2 block: the states of nw, ne, sw, se.
    States([u8; 4]),
}

/// A macrocell file: its quadtree, rule, generation and comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Macrocell {
    pub nodes: Vec<McNode>,
    /// The root, a 1-based index into `nodes` (0: an empty pattern).
    pub root: u32,
    pub rule: Option<Rule>,
    pub generation: u64,
    pub comments: Vec<String>,
}

/// Bytes a 64x64 tile of expanded cells takes: its 512 bytes of rows, the map's entry and the
/// allocator's share.
pub const TILE_COST: u64 = 512 + 64;

/// What expanding a quadtree into tiles would take, when it is more than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    pub cells: u64,
    pub tiles: u64,
    pub bytes: u64,
}

impl std::fmt::Display for Expansion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the quadtree holds {} live cells in {} tiles of 64x64, which would take {} to expand",
            self.cells,
            self.tiles,
            crate::memory::human_bytes(self.bytes)
        )
    }
}

/// The deepest quadtree lifelab reads and writes: a root of level 64 spans -2^63 .. 2^63, the
/// whole of `i64`, where every cell lives. Corners are worked out in `i128`, where 2^63 fits.
pub const MAX_LEVEL: u8 = 64;

impl Macrocell {
    pub fn level_of(&self, id: u32) -> u8 {
        match id {
            0 => 3,
            i => match self.nodes[i as usize - 1] {
                McNode::Leaf(_) => 3,
                McNode::Inner { level, .. } => level,
                McNode::States(_) => 1,
            },
        }
    }

    /// The root's level (3 for an empty pattern).
    pub fn level(&self) -> u8 {
        self.level_of(self.root)
    }

    /// Live cells, counted on the shared structure (saturating: a file can describe more cells
    /// than a `u64` counts).
    pub fn population(&self) -> u64 {
        self.counts().0[self.root as usize]
    }

    /// Per node (index 0 the empty node): its live cells, and the 64x64 tiles they fall in,
    /// both counted on the shared structure and saturating. A node of level 6 or less lies in
    /// one tile; a larger one's tiles are its children's.
    fn counts(&self) -> (Vec<u64>, Vec<u64>) {
        let mut pop = vec![0u64; self.nodes.len() + 1];
        let mut tiles = vec![0u64; self.nodes.len() + 1];
        for (i, n) in self.nodes.iter().enumerate() {
            let (p, t) = match *n {
                McNode::Leaf(bits) => {
                    let p = bits.count_ones() as u64;
                    (p, (p > 0) as u64)
                }
                McNode::States(s) => {
                    let p = s.iter().filter(|&&v| v != 0).count() as u64;
                    (p, (p > 0) as u64)
                }
                McNode::Inner { level, children } => {
                    let p = children
                        .iter()
                        .fold(0u64, |a, &c| a.saturating_add(pop[c as usize]));
                    let t = if level <= 6 {
                        (p > 0) as u64
                    } else {
                        children
                            .iter()
                            .fold(0u64, |a, &c| a.saturating_add(tiles[c as usize]))
                    };
                    (p, t)
                }
            };
            pop[i + 1] = p;
            tiles[i + 1] = t;
        }
        (pop, tiles)
    }

    /// The box of the live cells in Golly's coordinates, worked out once per node of the
    /// shared structure: the time follows the file's node count, not its cell count.
    pub fn bounds(&self) -> Option<Bounds> {
        // Per node: its live cells' box relative to its top-left corner (a level-64 node's
        // corners reach 2^64 - 1, which `u64` holds).
        let mut boxes: Vec<Option<[u64; 4]>> = vec![None; self.nodes.len() + 1];
        for (i, n) in self.nodes.iter().enumerate() {
            boxes[i + 1] = match *n {
                McNode::Leaf(bits) => leaf_box(bits),
                McNode::States(s) => {
                    let live: Vec<usize> = (0..4).filter(|&k| s[k] != 0).collect();
                    (!live.is_empty()).then(|| {
                        let xs = live.iter().map(|&k| (k & 1) as u64);
                        let ys = live.iter().map(|&k| (k >> 1) as u64);
                        [
                            xs.clone().min().unwrap_or(0),
                            ys.clone().min().unwrap_or(0),
                            xs.max().unwrap_or(0),
                            ys.max().unwrap_or(0),
                        ]
                    })
                }
                McNode::Inner { level, children } => {
                    let h = 1u64 << (level - 1);
                    let mut b: Option<[u64; 4]> = None;
                    for (k, &c) in children.iter().enumerate() {
                        let Some(cb) = boxes[c as usize] else {
                            continue;
                        };
                        let (dx, dy) = ((k & 1) as u64 * h, (k >> 1) as u64 * h);
                        let shifted = [cb[0] + dx, cb[1] + dy, cb[2] + dx, cb[3] + dy];
                        b = Some(b.map_or(shifted, |b| {
                            [
                                b[0].min(shifted[0]),
                                b[1].min(shifted[1]),
                                b[2].max(shifted[2]),
                                b[3].max(shifted[3]),
                            ]
                        }));
                    }
                    b
                }
            };
        }
        let b = boxes[self.root as usize]?;
        // The root's top-left corner is -2^(level-1) on both axes.
        let half = 1i128 << (self.level() - 1);
        let at = |v: u64| (v as i128 - half) as i64;
        Some(Bounds {
            left: at(b[0]),
            top: at(b[1]),
            right: at(b[2]),
            bottom: at(b[3]),
        })
    }

    /// Every live cell as tiles, in Golly's coordinates, unless the tiles would take more than
    /// `limit` bytes: each 64x64 tile with a live cell costs a tile, however few cells it has.
    /// Empty subtrees are skipped however often they are repeated.
    pub fn to_tiles(&self, limit: u64) -> Result<TileMap, Expansion> {
        let (pop, tiles) = self.counts();
        let (cells, tiles_needed) = (pop[self.root as usize], tiles[self.root as usize]);
        let bytes = tiles_needed.saturating_mul(TILE_COST);
        if bytes > limit {
            return Err(Expansion {
                cells,
                tiles: tiles_needed,
                bytes,
            });
        }
        let mut map = TileMap::new();
        if self.root != 0 {
            let half = 1i128 << (self.level() - 1);
            self.place(self.root, -half, -half, &pop, &mut map);
        }
        Ok(map)
    }

    /// Cells of node `id`, whose top-left corner is (x, y); the corners of a level-64 root are
    /// outside `i64`, its cells are not.
    fn place(&self, id: u32, x: i128, y: i128, pop: &[u64], map: &mut TileMap) {
        if id == 0 || pop[id as usize] == 0 {
            return;
        }
        match self.nodes[id as usize - 1] {
            McNode::Leaf(bits) => {
                for r in 0..8 {
                    let row = (bits >> (8 * r)) & 0xff;
                    if row == 0 {
                        continue;
                    }
                    let gy = y + r as i128;
                    let (tx, ty) = (x.div_euclid(64) as i64, gy.div_euclid(64) as i64);
                    let (bx, by) = (x.rem_euclid(64), gy.rem_euclid(64) as usize);
                    map.tile_mut(tx, ty)[by] |= row << bx;
                    // Only a root leaf (at -4, -4) straddles two tiles: the rest of its row
                    // goes to the next one (the fuzz target found its cells x >= 4 lost).
                    if bx > 56 {
                        map.tile_mut(tx + 1, ty)[by] |= row >> (64 - bx);
                    }
                }
            }
            McNode::Inner { level, children } => {
                let h = 1i128 << (level - 1);
                for (k, &c) in children.iter().enumerate() {
                    let (dx, dy) = ((k & 1) as i128 * h, (k >> 1) as i128 * h);
                    self.place(c, x + dx, y + dy, pop, map);
                }
            }
            McNode::States(s) => {
                for (k, &v) in s.iter().enumerate() {
                    if v != 0 {
                        let (cx, cy) = (x + (k & 1) as i128, y + (k >> 1) as i128);
                        map.set_state(cx as i64, cy as i64, v);
                    }
                }
            }
        }
    }

    /// The highest state of any cell (1 for a two-state file with a live cell, 0 for none).
    pub fn max_state(&self) -> u8 {
        self.nodes
            .iter()
            .map(|n| match *n {
                McNode::Leaf(bits) => (bits != 0) as u8,
                McNode::States(s) => s.into_iter().max().unwrap_or(0),
                McNode::Inner { .. } => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether the file is multi-state (its leaves are 2x2 blocks of states).
    pub fn is_multi_state(&self) -> bool {
        self.nodes.iter().any(|n| matches!(n, McNode::States(_)))
    }

    /// Whether a file of `rule` is written in Golly's multi-state form: a rule of more than two
    /// states, and a rule file's of two as well, since Golly's RuleLoader reads only that form
    /// (a two-state file's 8x8 leaves are a parse error to it).
    pub fn states_form_for(rule: &Rule) -> bool {
        rule.states() > 2 || rule.loaded().is_some()
    }

    /// The same quadtree in Golly's multi-state form, 2x2 blocks of states for leaves, its
    /// shared subtrees still shared: a two-state HashLife's nodes, for a rule file's pattern.
    pub fn with_states(&self) -> Macrocell {
        let mut b = Builder {
            states: true,
            ..Builder::default()
        };
        // Old 1-based index to new; 0 (empty) stays 0. Children come before their parents.
        let mut new = vec![0u32; self.nodes.len() + 1];
        for (i, n) in self.nodes.iter().enumerate() {
            new[i + 1] = match *n {
                McNode::Leaf(bits) => b.leaf_states(bits, 0, 0, 3),
                McNode::Inner { level, children } => {
                    let children = children.map(|k| new[k as usize]);
                    if children == [0; 4] {
                        0
                    } else {
                        b.intern(McNode::Inner { level, children })
                    }
                }
                McNode::States(s) if s == [0; 4] => 0,
                McNode::States(s) => b.intern(McNode::States(s)),
            };
        }
        Macrocell {
            nodes: b.nodes,
            root: new[self.root as usize],
            rule: self.rule,
            generation: self.generation,
            comments: self.comments.clone(),
        }
    }

    /// The quadtree of `tiles` (Golly's coordinates), with shared subtrees shared.
    pub fn from_tiles(tiles: &TileMap) -> Macrocell {
        Self::build_from(tiles, false)
    }

    /// The quadtree of `tiles` in Golly's multi-state form, for rules of more than two states.
    pub fn from_tiles_with_states(tiles: &TileMap) -> Macrocell {
        Self::build_from(tiles, true)
    }

    fn build_from(tiles: &TileMap, states: bool) -> Macrocell {
        let mut b = Builder {
            states,
            ..Builder::default()
        };
        let Some(bounds) = tiles.bounds() else {
            return b.finish(0);
        };
        // How far from the origin the root must reach, in i128: a cell at i64::MAX reaches 2^63.
        let reach = [
            bounds.left as i128,
            bounds.top as i128,
            bounds.right as i128 + 1,
            bounds.bottom as i128 + 1,
        ]
        .iter()
        .map(|v| v.unsigned_abs())
        .max()
        .unwrap_or(1)
        .max(8);
        let level = (128 - (reach - 1).leading_zeros()) as u8 + 1;
        let level = level.max(4);
        for l in 6..=level.max(6) {
            let shift = l - 6;
            b.occupied.push(
                tiles
                    .iter()
                    .map(|((tx, ty), _)| (tx >> shift, ty >> shift))
                    .collect(),
            );
        }
        let half = 1i128 << (level - 1);
        let root = b.build(tiles, -half, -half, level);
        b.finish(root)
    }

    /// The file's text.
    pub fn write(&self) -> String {
        let mut out = String::from("[M2] (lifelab)\n");
        if let Some(rule) = &self.rule {
            out.push_str(&format!("#R {rule}\n"));
        }
        if self.generation != 0 {
            out.push_str(&format!("#G {}\n", self.generation));
        }
        for c in &self.comments {
            out.push_str(&format!("#C {c}\n"));
        }
        for n in &self.nodes {
            match *n {
                McNode::Leaf(bits) => {
                    let last = (0..8).rev().find(|r| bits >> (8 * r) & 0xff != 0);
                    for r in 0..=last.unwrap_or(0) {
                        let row = bits >> (8 * r) & 0xff;
                        let width = 8 - (row as u8).leading_zeros();
                        for c in 0..width {
                            out.push(if row >> c & 1 == 1 { '*' } else { '.' });
                        }
                        out.push('$');
                    }
                    out.push('\n');
                }
                McNode::Inner { level, children } => {
                    let [a, b, c, d] = children;
                    out.push_str(&format!("{level} {a} {b} {c} {d}\n"));
                }
                McNode::States([a, b, c, d]) => out.push_str(&format!("1 {a} {b} {c} {d}\n")),
            }
        }
        out
    }
}

/// Builds a deduplicated node list bottom-up.
#[derive(Default)]
struct Builder {
    nodes: Vec<McNode>,
    index: rustc_hash::FxHashMap<McNode, u32>,
    /// Per level from 6 (a 64x64 tile) up: the blocks of that level holding a tile.
    occupied: Vec<rustc_hash::FxHashSet<(i64, i64)>>,
    /// Golly's multi-state form: 2x2 blocks of states for leaves.
    states: bool,
}

impl Builder {
    fn intern(&mut self, n: McNode) -> u32 {
        if let Some(&i) = self.index.get(&n) {
            return i;
        }
        self.nodes.push(n);
        let i = self.nodes.len() as u32;
        self.index.insert(n, i);
        i
    }

    /// The node of `level` (at most 6) at (x, y) of one tile's states.
    fn build_states(
        &mut self,
        tile: (&crate::tiles::TileBits, Option<&crate::tiles::TileStates>),
        x: usize,
        y: usize,
        level: u8,
    ) -> u32 {
        let (bits, bytes) = tile;
        let size = 1usize << level;
        let mask = if size == 64 {
            u64::MAX
        } else {
            ((1u64 << size) - 1) << x
        };
        if bits[y..y + size].iter().all(|&r| r & mask == 0) {
            return 0;
        }
        if level == 1 {
            let state = |cx: usize, cy: usize| {
                if bits[cy] >> cx & 1 == 0 {
                    0
                } else {
                    bytes.map_or(1, |b| b[cy * 64 + cx].max(1))
                }
            };
            let s = [
                state(x, y),
                state(x + 1, y),
                state(x, y + 1),
                state(x + 1, y + 1),
            ];
            return self.intern(McNode::States(s));
        }
        let h = size / 2;
        let children = [
            self.build_states(tile, x, y, level - 1),
            self.build_states(tile, x + h, y, level - 1),
            self.build_states(tile, x, y + h, level - 1),
            self.build_states(tile, x + h, y + h, level - 1),
        ];
        if children == [0; 4] {
            0
        } else {
            self.intern(McNode::Inner { level, children })
        }
    }

    /// The node of `level` (3 at most) at (x, y) of an 8x8 leaf's cells, in the multi-state
    /// form.
    fn leaf_states(&mut self, bits: u64, x: u32, y: u32, level: u8) -> u32 {
        let cell = |cx: u32, cy: u32| (bits >> (8 * cy + cx) & 1) as u8;
        if level == 1 {
            let s = [
                cell(x, y),
                cell(x + 1, y),
                cell(x, y + 1),
                cell(x + 1, y + 1),
            ];
            return if s == [0; 4] {
                0
            } else {
                self.intern(McNode::States(s))
            };
        }
        let h = 1 << (level - 1);
        let children = [
            self.leaf_states(bits, x, y, level - 1),
            self.leaf_states(bits, x + h, y, level - 1),
            self.leaf_states(bits, x, y + h, level - 1),
            self.leaf_states(bits, x + h, y + h, level - 1),
        ];
        if children == [0; 4] {
            0
        } else {
            self.intern(McNode::Inner { level, children })
        }
    }

    /// The node of `level` whose top-left corner is (x, y) (in `i128`: a level-64 root's corner
    /// is -2^63 and its size 2^64).
    fn build(&mut self, tiles: &TileMap, x: i128, y: i128, level: u8) -> u32 {
        if self.states && level == 1 {
            let s: [u8; 4] = std::array::from_fn(|k| {
                tiles.state((x + (k & 1) as i128) as i64, (y + (k >> 1) as i128) as i64)
            });
            return if s == [0; 4] {
                0
            } else {
                self.intern(McNode::States(s))
            };
        }
        // A node aligned to its size and no larger than a tile lies in one tile: a whole tile
        // is built from its states, read once.
        let aligned = x.rem_euclid(1 << level) == 0 && y.rem_euclid(1 << level) == 0;
        if self.states && level <= 6 && aligned {
            let (tx, ty) = (x.div_euclid(64) as i64, y.div_euclid(64) as i64);
            let Some(bits) = tiles.tile(tx, ty) else {
                return 0;
            };
            let tile = (bits, tiles.tile_state_bytes(tx, ty));
            let (bx, by) = (x.rem_euclid(64) as usize, y.rem_euclid(64) as usize);
            return self.build_states(tile, bx, by, level);
        }
        if !self.states && level == 3 {
            let mut bits = 0u64;
            let (tx, ty) = (x.div_euclid(64) as i64, y.div_euclid(64) as i64);
            let Some(t) = tiles.tile(tx, ty) else {
                return 0;
            };
            let (bx, by) = (x.rem_euclid(64), y.rem_euclid(64) as usize);
            for r in 0..8 {
                bits |= ((t[by + r] >> bx) & 0xff) << (8 * r);
            }
            return if bits == 0 {
                0
            } else {
                self.intern(McNode::Leaf(bits))
            };
        }
        let size = 1i128 << level;
        // Skip empty space without descending. Only a node aligned to its size is one block of
        // `occupied`: the root straddles four, centred on the origin.
        if level >= 6
            && x.rem_euclid(size) == 0
            && y.rem_euclid(size) == 0
            && !self.occupied[(level - 6) as usize]
                .contains(&(x.div_euclid(size) as i64, y.div_euclid(size) as i64))
        {
            return 0;
        }
        let h = size / 2;
        let children = [
            self.build(tiles, x, y, level - 1),
            self.build(tiles, x + h, y, level - 1),
            self.build(tiles, x, y + h, level - 1),
            self.build(tiles, x + h, y + h, level - 1),
        ];
        if children == [0; 4] {
            0
        } else {
            self.intern(McNode::Inner { level, children })
        }
    }

    fn finish(self, root: u32) -> Macrocell {
        Macrocell {
            nodes: self.nodes,
            root,
            rule: None,
            generation: 0,
            comments: Vec::new(),
        }
    }
}

/// The box of an 8x8 leaf's live cells (`bits` as in [`McNode::Leaf`]): left, top, right and
/// bottom, relative to its top-left corner.
pub fn leaf_box(bits: u64) -> Option<[u64; 4]> {
    if bits == 0 {
        return None;
    }
    let (mut cols, mut top, mut bottom) = (0u64, 8, 0);
    for r in 0..8u64 {
        let row = bits >> (8 * r) & 0xff;
        if row != 0 {
            cols |= row;
            top = top.min(r);
            bottom = r;
        }
    }
    Some([
        cols.trailing_zeros() as u64,
        top,
        63 - cols.leading_zeros() as u64,
        bottom,
    ])
}

/// Reads a macrocell file. Every malformed line is an error with its line and column.
pub fn parse(text: &str) -> Result<Macrocell, ParseError> {
    let mut lines = text.lines().enumerate().peekable();
    let header = loop {
        match lines.next() {
            Some((_, l)) if l.trim().is_empty() => continue,
            Some((i, l)) => break (i, l),
            None => return Err(ParseError::new(1, 1, "the file is empty")),
        }
    };
    if !header.1.trim_start().starts_with("[M2]") {
        return Err(ParseError::new(
            header.0 + 1,
            1,
            "a macrocell file starts with [M2]",
        ));
    }
    let mut mc = Macrocell {
        nodes: Vec::new(),
        root: 0,
        rule: None,
        generation: 0,
        comments: Vec::new(),
    };
    for (i, raw) in lines {
        let line_no = i + 1;
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            let (tag, value) = rest.split_at(rest.chars().next().map_or(0, char::len_utf8));
            let value = value.trim();
            match tag {
                "R" => {
                    mc.rule = Some(Rule::parse_in_2d_file(value).map_err(|e| {
                        ParseError::new(line_no, 4, format!("the rule '{value}': {e}"))
                    })?);
                }
                "G" => {
                    mc.generation = value.parse().map_err(|_| {
                        ParseError::new(
                            line_no,
                            4,
                            format!("the generation '{value}' is not a whole number"),
                        )
                    })?;
                }
                "C" | "N" | "O" => mc.comments.push(value.to_string()),
                // #FRAMES, #FRAME and other tags Golly writes for timelines: not cells.
                _ => {}
            }
            continue;
        }
        let first = line.trim_start();
        let node = if first.starts_with(['.', '*', '$']) {
            parse_leaf(line, line_no)?
        } else {
            parse_inner(line, line_no, &mc)?
        };
        mc.nodes.push(node);
        mc.root = mc.nodes.len() as u32;
    }
    Ok(mc)
}

fn parse_leaf(line: &str, line_no: usize) -> Result<McNode, ParseError> {
    let (mut bits, mut row, mut col) = (0u64, 0u32, 0u32);
    for (k, ch) in line.chars().enumerate() {
        match ch {
            '.' | '*' => {
                if row >= 8 || col >= 8 {
                    return Err(ParseError::new(
                        line_no,
                        k + 1,
                        "a leaf is 8x8 cells; this row or column is past the eighth",
                    ));
                }
                if ch == '*' {
                    bits |= 1 << (row * 8 + col);
                }
                col += 1;
            }
            '$' => {
                row += 1;
                col = 0;
            }
            ' ' | '\t' => {}
            other => {
                return Err(ParseError::new(
                    line_no,
                    k + 1,
                    format!("'{other}' is not a cell of a leaf ('.', '*' or '$')"),
                ));
            }
        }
    }
    Ok(McNode::Leaf(bits))
}

fn parse_inner(line: &str, line_no: usize, mc: &Macrocell) -> Result<McNode, ParseError> {
    let mut fields = Vec::new();
    let mut column = 1;
    for part in line.split(' ') {
        if !part.is_empty() {
            let v: u64 = part.parse().map_err(|_| {
                ParseError::new(
                    line_no,
                    column,
                    format!("'{part}' is not a whole number (a node line is: level nw ne sw se)"),
                )
            })?;
            fields.push((v, column));
        }
        column += part.chars().count() + 1;
    }
    if fields.len() != 5 {
        return Err(ParseError::new(
            line_no,
            1,
            format!(
                "a node line has 5 numbers (level nw ne sw se), this one has {}",
                fields.len()
            ),
        ));
    }
    let level = fields[0].0;
    if level == 1 {
        // A multi-state file's 2x2 block of states.
        let mut states = [0u8; 4];
        for (k, &(v, col)) in fields[1..].iter().enumerate() {
            states[k] = u8::try_from(v).map_err(|_| {
                ParseError::new(
                    line_no,
                    col,
                    format!("state {v}: a cell's state is 0 to 255"),
                )
            })?;
        }
        return Ok(McNode::States(states));
    }
    if !(2..=MAX_LEVEL as u64).contains(&level) {
        return Err(ParseError::new(
            line_no,
            fields[0].1,
            format!(
                "level {level}: nodes are levels 1 to {MAX_LEVEL} (an 8x8 leaf is level 3, a multi-state file's 2x2 block level 1)"
            ),
        ));
    }
    let mut children = [0u32; 4];
    for (k, &(v, col)) in fields[1..].iter().enumerate() {
        if v > mc.nodes.len() as u64 {
            return Err(ParseError::new(
                line_no,
                col,
                format!(
                    "node {v} is not defined yet (only {} lines so far)",
                    mc.nodes.len()
                ),
            ));
        }
        if v != 0 && mc.level_of(v as u32) as u64 != level - 1 {
            return Err(ParseError::new(
                line_no,
                col,
                format!(
                    "a level-{level} node's children are level {}, node {v} is level {}",
                    level - 1,
                    mc.level_of(v as u32)
                ),
            ));
        }
        children[k] = v as u32;
    }
    Ok(McNode::Inner {
        level: level as u8,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golly_s_glider_file_reads_to_five_cells() {
        // The example of Golly's documentation: a glider in a level-4 node.
        let text = "[M2] (golly 3.4)\n#R B3/S23\n$$$$$$*$.*$\n.......*$\n**$\n4 0 1 2 3\n";
        let mc = parse(text).unwrap();
        assert_eq!(mc.population(), 5);
        let t = mc.to_tiles(1 << 20).unwrap();
        // Level 4 covers -8..8: node 1 is the NE leaf (x 0..8, y -8..0).
        assert!(t.get(0, -2) && t.get(1, -1));
        assert!(t.get(-1, 0) && t.get(0, 0) && t.get(1, 0));
    }

    #[test]
    fn a_root_leaf_keeps_every_cell() {
        // A file that is one leaf: its root of level 3 covers -4..4, so each row straddles the
        // tiles at x < 0 and x >= 0. The fuzz target found the cells x >= 0 of such a row
        // lost (a row shifted to bit 60 of the tile on the left). Worked by hand: all 64 cells,
        // from (-4, -4) to (3, 3).
        let full = "********$".repeat(8);
        let mc = parse(&format!("[M2] (lifelab test)\n{full}\n")).unwrap();
        assert_eq!(mc.population(), 64);
        let t = mc.to_tiles(1 << 20).unwrap();
        assert_eq!(t.population(), 64);
        for y in -4..4 {
            for x in -4..4 {
                assert!(t.get(x, y), "({x}, {y})");
            }
        }
        assert!(!t.get(4, 0) && !t.get(-5, 0) && !t.get(0, 4));
    }

    #[test]
    fn cells_at_the_ends_of_i64_go_out_and_back() {
        // Issue 28, defect 5: a pattern beyond ±2^61 needs a root of level 63 or 64, whose
        // corners `1i64 << 63` cannot hold; the file used to come out empty.
        let mut tiles = TileMap::new();
        for (x, y) in [
            (i64::MAX, i64::MAX),
            (i64::MIN, 0),
            (1 << 62, -(1 << 61) - 3),
            (0, 0),
        ] {
            let (tx, ty) = (x.div_euclid(64), y.div_euclid(64));
            tiles.tile_mut(tx, ty)[y.rem_euclid(64) as usize] |= 1 << x.rem_euclid(64);
        }
        let mc = Macrocell::from_tiles(&tiles);
        assert_eq!(mc.level(), 64);
        assert_eq!(mc.population(), 4);
        let back = parse(&mc.write()).unwrap();
        assert_eq!(back.population(), 4);
        let t = back.to_tiles(1 << 20).unwrap();
        for (x, y) in [
            (i64::MAX, i64::MAX),
            (i64::MIN, 0),
            (1 << 62, -(1 << 61) - 3),
            (0, 0),
        ] {
            let row =
                t.tile(x.div_euclid(64), y.div_euclid(64)).unwrap()[y.rem_euclid(64) as usize];
            assert_eq!(row >> x.rem_euclid(64) & 1, 1, "cell ({x}, {y})");
        }
    }

    #[test]
    fn written_files_read_back_with_their_cells_rule_and_generation() {
        let mut t = TileMap::new();
        for (x, y) in [(0, 0), (1, 0), (-500, 70), (1000, -3), (-1, -1)] {
            t.set(x, y, true);
        }
        let mut mc = Macrocell::from_tiles(&t);
        mc.rule = Some("B36/S23".parse().unwrap());
        mc.generation = 77;
        let back = parse(&mc.write()).unwrap();
        assert_eq!(back.to_tiles(1 << 20).unwrap().cells().count(), 5);
        let mut a: Vec<_> = back.to_tiles(1 << 20).unwrap().cells().collect();
        let mut b: Vec<_> = t.cells().collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(back.generation, 77);
        assert_eq!(back.rule, mc.rule);
    }

    #[test]
    fn bad_lines_name_their_place() {
        let e = parse("[M2]\n4 0 0 0 9\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        let e = parse("[M2]\n..x$\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = parse("#N nope\n").unwrap_err();
        assert_eq!(e.line, 1);
    }
}
