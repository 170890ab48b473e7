//! A rule tree: the complete transition function of an N-state rule as a decision diagram,
//! Golly's `@TREE` format. Each node has one child per state of the next cell in a fixed order;
//! the last cell is the centre, and its node's entries are the next states. Golly's order is
//! N, W, E, S, C for four neighbours and NW, NE, SW, SE, N, W, E, S, C for eight; the tables
//! compiled here use the same orders (and their own for the hexagonal and one-dimensional
//! neighbourhoods).

use super::FileError;
use crate::rule::Neighbourhood;
use crate::rule::map::{MapNotation, MapRule, bit_at};

/// The neighbourhood a tree reads, which fixes the order of its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    VonNeumann,
    Moore,
    /// Golly's hexagonal grid: Moore without NE and SW.
    Hexagonal,
    /// West and east only: each row is its own one-dimensional automaton.
    OneDimensional,
}

impl Shape {
    /// Offsets (dx, dy) of the cells in the tree's order, the cell itself last; y grows down.
    pub fn order(self) -> &'static [(i32, i32)] {
        match self {
            Shape::VonNeumann => &[(0, -1), (-1, 0), (1, 0), (0, 1), (0, 0)],
            Shape::Moore => &[
                (-1, -1),
                (1, -1),
                (-1, 1),
                (1, 1),
                (0, -1),
                (-1, 0),
                (1, 0),
                (0, 1),
                (0, 0),
            ],
            Shape::Hexagonal => &[(-1, -1), (1, 1), (0, -1), (-1, 0), (1, 0), (0, 1), (0, 0)],
            Shape::OneDimensional => &[(-1, 0), (1, 0), (0, 0)],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::VonNeumann => "vonNeumann",
            Shape::Moore => "Moore",
            Shape::Hexagonal => "hexagonal",
            Shape::OneDimensional => "oneDimensional",
        }
    }
}

/// A node line's numbers with their columns, a byte at a time, where the line has only
/// digits, spaces and tabs (every line of a tree Golly or lifelab writes): Hutton32's stored
/// tree, 233,000 numbers, took 47 million instructions to read number by number as strings.
/// `false` for any other line (or a number past `u32`), which the general reading takes, and
/// names the error of.
fn digits_only(raw: &str, fields: &mut Vec<(u32, usize)>) -> bool {
    let mut number: Option<(u32, usize)> = None;
    for (i, &b) in raw.as_bytes().iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                let digit = (b - b'0') as u32;
                number = Some(match number {
                    None => (digit, i + 1),
                    Some((v, column)) => {
                        match v.checked_mul(10).and_then(|v| v.checked_add(digit)) {
                            Some(v) => (v, column),
                            None => return false,
                        }
                    }
                });
            }
            b' ' | b'\t' => fields.extend(number.take()),
            _ => return false,
        }
    }
    fields.extend(number);
    true
}

/// The start of [`RuleTree::to_bytes`]'s form: its name and version.
const TREE_BYTES_MAGIC: &[u8] = b"LLRT\x01";

/// A reduced rule tree, its nodes flat: node k's entries are `nodes[base..base + states]`,
/// where an inner node's entry is its child's base and a last-level node's is a state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleTree {
    pub states: u16,
    pub shape: Shape,
    pub nodes: Vec<u32>,
    pub root: u32,
}

impl RuleTree {
    /// The next state, given the cells in [`Shape::order`]'s order (each below `states`).
    #[inline]
    pub fn next(&self, cells: &[u8]) -> u8 {
        let mut at = self.root as usize;
        let (last, path) = cells.split_last().expect("a tree reads at least the cell");
        for &s in path {
            at = self.nodes[at + s as usize] as usize;
        }
        self.nodes[at + *last as usize] as u8
    }

    /// The next state of a cell whose neighbour at (dx, dy) is `cell(dx, dy)`.
    #[inline]
    pub fn next_with(&self, mut cell: impl FnMut(i32, i32) -> u8) -> u8 {
        let order = self.shape.order();
        let mut at = self.root as usize;
        for &(dx, dy) in &order[..order.len() - 1] {
            at = self.nodes[at + cell(dx, dy) as usize] as usize;
        }
        self.nodes[at + cell(0, 0) as usize] as u8
    }

    /// Whether empty space comes alive: a dead cell among dead cells does not stay dead.
    pub fn births_from_nothing(&self) -> bool {
        self.next(&vec![0; self.shape.order().len()]) != 0
    }

    /// The same rule as a table of the 3x3 block, when it is one the two-state engines run as
    /// they run a MAP rule: two states and no birth from nothing (Golly runs a rule file's B0
    /// literally, which fills the plane at once, so the rule-tree engine keeps it, on a torus).
    /// Banks-I and Banks-III are such rules.
    pub fn block_rule(&self) -> Option<MapRule> {
        if self.states != 2 || self.births_from_nothing() {
            return None;
        }
        let neighbourhood = match self.shape {
            Shape::VonNeumann => Neighbourhood::VonNeumann,
            Shape::Hexagonal => Neighbourhood::Hexagonal,
            // A row's west and east neighbours are two cells of the Moore block.
            Shape::Moore | Shape::OneDimensional => Neighbourhood::Moore,
        };
        Some(MapRule::from_fn(neighbourhood, MapNotation::Map, |index| {
            self.next_with(|dx, dy| (index & bit_at(dx, dy) != 0) as u8) == 1
        }))
    }

    /// Reads Golly's `@TREE` section (or a `.tree` file). `first_line` is the file's line
    /// number of the section's first line, so that errors name the file's lines.
    pub fn parse(text: &str, first_line: usize, file: &str) -> Result<RuleTree, FileError> {
        let err = |line: usize, column: usize, m: String| FileError::new(file, line, column, m);
        let (mut states, mut neighbours, mut count) = (None, None, None);
        let mut nodes: Vec<u32> = Vec::new();
        let mut depths: Vec<u8> = Vec::new();
        // A node line's numbers and their columns, for its errors.
        let mut fields: Vec<(u32, usize)> = Vec::new();
        let mut last_line = first_line;
        for (i, raw) in text.lines().enumerate() {
            let n = first_line + i;
            last_line = n;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some((key, value)) = line.split_once('=') {
                let column = raw.find('=').map_or(1, |c| c + 2);
                let value = value.trim();
                let v: u32 = value
                    .parse()
                    .map_err(|_| err(n, column, format!("'{value}' is not a whole number")))?;
                match key.trim() {
                    "num_states" if (2..=256).contains(&v) => states = Some(v as u16),
                    "num_states" => {
                        return Err(err(
                            n,
                            column,
                            format!("num_states={v}: a rule has 2 to 256 states"),
                        ));
                    }
                    "num_neighbors" if v == 4 || v == 8 => neighbours = Some(v),
                    "num_neighbors" => {
                        return Err(err(
                            n,
                            column,
                            format!("num_neighbors={v}: a rule tree has 4 or 8 neighbours"),
                        ));
                    }
                    "num_nodes" => count = Some(v as usize),
                    other => {
                        return Err(err(
                            n,
                            1,
                            format!(
                                "unknown parameter '{other}' (num_states, num_neighbors or num_nodes)"
                            ),
                        ));
                    }
                }
                continue;
            }
            let (Some(states), Some(neighbours), Some(count)) = (states, neighbours, count) else {
                return Err(err(
                    n,
                    1,
                    "num_states, num_neighbors and num_nodes must come before the first node"
                        .into(),
                ));
            };
            if depths.len() >= count {
                return Err(err(n, 1, format!("more node lines than num_nodes={count}")));
            }
            fields.clear();
            if !digits_only(raw, &mut fields) {
                fields.clear();
                let mut column = 1;
                for part in raw.split([' ', '\t']) {
                    if !part.is_empty() {
                        let v: u32 = part.parse().map_err(|_| {
                            err(n, column, format!("'{part}' is not a whole number"))
                        })?;
                        fields.push((v, column));
                    }
                    column += part.chars().count() + 1;
                }
            }
            if fields.len() != states as usize + 1 {
                return Err(err(
                    n,
                    1,
                    format!(
                        "a node line has its depth and {states} entries, this one has {} numbers",
                        fields.len()
                    ),
                ));
            }
            let (depth, depth_column) = fields[0];
            if depth < 1 || depth > neighbours + 1 {
                return Err(err(
                    n,
                    depth_column,
                    format!("depth {depth}: nodes are depths 1 to {}", neighbours + 1),
                ));
            }
            for &(v, c) in &fields[1..] {
                let entry = if depth == 1 {
                    if v >= states as u32 {
                        return Err(err(
                            n,
                            c,
                            format!("state {v} is not below num_states={states}"),
                        ));
                    }
                    v
                } else {
                    let Some(&d) = depths.get(v as usize) else {
                        return Err(err(
                            n,
                            c,
                            format!(
                                "node {v} is not defined yet (nodes are numbered from 0 in order; this is node {})",
                                depths.len()
                            ),
                        ));
                    };
                    if d as u32 != depth - 1 {
                        return Err(err(
                            n,
                            c,
                            format!(
                                "node {v} has depth {d}, but a node of depth {depth} points to nodes of depth {}",
                                depth - 1
                            ),
                        ));
                    }
                    v * states as u32
                };
                nodes.push(entry);
            }
            depths.push(depth as u8);
        }
        let (Some(states), Some(neighbours), Some(count)) = (states, neighbours, count) else {
            return Err(err(
                last_line,
                1,
                "the tree needs num_states, num_neighbors and num_nodes".into(),
            ));
        };
        if depths.len() != count {
            return Err(err(
                last_line,
                1,
                format!(
                    "num_nodes={count}, but the tree has {} node lines",
                    depths.len()
                ),
            ));
        }
        if depths.last() != Some(&(neighbours as u8 + 1)) {
            return Err(err(
                last_line,
                1,
                format!("the last node is the root and has depth {}", neighbours + 1),
            ));
        }
        if depths
            .iter()
            .filter(|&&d| d as u32 == neighbours + 1)
            .count()
            != 1
        {
            return Err(err(
                last_line,
                1,
                format!(
                    "a tree has one root, the one node of depth {}",
                    neighbours + 1
                ),
            ));
        }
        Ok(RuleTree {
            states,
            shape: if neighbours == 4 {
                Shape::VonNeumann
            } else {
                Shape::Moore
            },
            root: (count as u32 - 1) * states as u32,
            nodes,
        })
    }

    /// The tree in a compact form for trees stored with the program: a header (`LLRT`, a
    /// version, the states, the shape, the root, the entries) and each node as the width of its
    /// entries (1, 2 or 4 bytes, the least that holds them) and its entries, little-endian: the
    /// last level's states take a byte each. Hutton32's tree, 7075 nodes, is 0.38 MB against 0.7 MB
    /// of Golly's text, and read in about 0.3 ms where inflating and
    /// reading the text took 3 ms of every process that opened one of Hutton's patterns.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.nodes.len() * 2);
        out.extend_from_slice(TREE_BYTES_MAGIC);
        out.extend_from_slice(&self.states.to_le_bytes());
        out.push(match self.shape {
            Shape::VonNeumann => 0,
            Shape::Moore => 1,
            Shape::Hexagonal => 2,
            Shape::OneDimensional => 3,
        });
        out.extend_from_slice(&self.root.to_le_bytes());
        out.extend_from_slice(&(self.nodes.len() as u32).to_le_bytes());
        for node in self.nodes.chunks(self.states as usize) {
            let width = match node.iter().max() {
                Some(&m) if m < 1 << 8 => 1,
                Some(&m) if m < 1 << 16 => 2,
                _ => 4,
            };
            out.push(width as u8);
            for &e in node {
                out.extend_from_slice(&e.to_le_bytes()[..width]);
            }
        }
        out
    }

    /// Reads [`RuleTree::to_bytes`]'s form back. An error says what is wrong and at which byte;
    /// every entry is checked to lie within the tree, so a walk never leaves it.
    pub fn from_bytes(bytes: &[u8]) -> Result<RuleTree, String> {
        let header = TREE_BYTES_MAGIC.len() + 11;
        if bytes.len() < header || &bytes[..TREE_BYTES_MAGIC.len()] != TREE_BYTES_MAGIC {
            return Err("not a lifelab rule tree (it starts with LLRT and version 1)".into());
        }
        let at = TREE_BYTES_MAGIC.len();
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let states = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        if !(2..=256).contains(&states) {
            return Err(format!("byte {at}: {states} states (a rule has 2 to 256)"));
        }
        let shape = match bytes[at + 2] {
            0 => Shape::VonNeumann,
            1 => Shape::Moore,
            2 => Shape::Hexagonal,
            3 => Shape::OneDimensional,
            other => return Err(format!("byte {}: shape {other} (0 to 3)", at + 2)),
        };
        let (root, len) = (word(at + 3), word(at + 7) as usize);
        let k = states as u32;
        if len == 0 || len % states as usize != 0 || root % k != 0 || root as usize >= len {
            return Err(format!(
                "byte {}: {len} entries with the root at {root}, for {states} states",
                at + 3
            ));
        }
        // Each node takes its width's byte and a byte an entry at least: a header that
        // claims more entries than that is refused before their room is allocated.
        let nodes_claimed = len / k as usize;
        if nodes_claimed * (1 + k as usize) > bytes.len() - header {
            return Err(format!(
                "byte {}: {len} entries where {} bytes follow",
                at + 7,
                bytes.len() - header
            ));
        }
        let mut nodes = vec![0u32; len];
        let mut at = header;
        for (i, node) in nodes.chunks_exact_mut(k as usize).enumerate() {
            let Some(&width) = bytes.get(at) else {
                return Err(format!(
                    "{i} nodes where the header says {} ({} bytes)",
                    len / k as usize,
                    bytes.len()
                ));
            };
            let width = width as usize;
            let end = at + 1 + width * k as usize;
            if !matches!(width, 1 | 2 | 4) || end > bytes.len() {
                return Err(format!(
                    "byte {at}: node {i} has entries of {width} bytes and needs {} bytes",
                    end - at
                ));
            }
            let entries = &bytes[at + 1..end];
            match width {
                1 => node
                    .iter_mut()
                    .zip(entries)
                    .for_each(|(e, &b)| *e = b as u32),
                2 => node
                    .iter_mut()
                    .zip(entries.chunks_exact(2))
                    .for_each(|(e, b)| {
                        *e = u16::from_le_bytes([b[0], b[1]]) as u32;
                    }),
                _ => node
                    .iter_mut()
                    .zip(entries.chunks_exact(4))
                    .for_each(|(e, b)| {
                        *e = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    }),
            }
            // Within the tree; whether a state or a node's first entry, where each belongs, is
            // checked level by level below (a division for each entry here cost a millisecond).
            if let Some(&e) = node.iter().find(|&&e| e as usize >= len) {
                return Err(format!(
                    "node {i}: entry {e} is past the tree's {len} entries"
                ));
            }
            at = end;
        }
        if at != bytes.len() {
            return Err(format!(
                "{} bytes past the header's {len} entries",
                bytes.len() - at
            ));
        }
        // Level by level from the root: an inner level's entries are nodes' first entries, the
        // last level's are states.
        let mut first = vec![false; len];
        for base in (0..len).step_by(k as usize) {
            first[base] = true;
        }
        let mut level = vec![root];
        let mut seen = vec![0u8; len];
        for depth in 1..shape.order().len() as u8 {
            let mut next = Vec::new();
            for &base in &level {
                for &e in &nodes[base as usize..(base + k) as usize] {
                    if !first[e as usize] {
                        return Err(format!(
                            "entry {e} of the node at {base} is a state where a node belongs"
                        ));
                    }
                    if seen[e as usize] != depth {
                        seen[e as usize] = depth;
                        next.push(e);
                    }
                }
            }
            level = next;
        }
        for &base in &level {
            // The largest entry, without an early exit: a few vector instructions a node.
            let entries = &nodes[base as usize..(base + k) as usize];
            let e = entries.iter().fold(0, |m, &e| m.max(e));
            if e >= k {
                return Err(format!(
                    "entry {e} of the node at {base} is a node where a state belongs"
                ));
            }
        }
        Ok(RuleTree {
            states,
            shape,
            nodes,
            root,
        })
    }

    /// The tree in Golly's `.tree` format, or None for the neighbourhoods that format lacks
    /// (hexagonal, one-dimensional). A node that serves at two depths is written once for each,
    /// since Golly's format gives each node one depth.
    pub fn golly_text(&self) -> Option<String> {
        let neighbours = match self.shape {
            Shape::VonNeumann => 4,
            Shape::Moore => 8,
            Shape::Hexagonal | Shape::OneDimensional => return None,
        };
        let mut written = rustc_hash::FxHashMap::default();
        let mut lines = Vec::new();
        self.write_node(self.root, neighbours + 1, &mut written, &mut lines);
        let mut text = format!(
            "num_states={}\nnum_neighbors={neighbours}\nnum_nodes={}\n",
            self.states,
            lines.len()
        );
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        Some(text)
    }

    /// Writes the node at `base` of depth `depth` (its children first) and gives its number.
    fn write_node(
        &self,
        base: u32,
        depth: usize,
        written: &mut rustc_hash::FxHashMap<(u32, usize), usize>,
        lines: &mut Vec<String>,
    ) -> usize {
        if let Some(&k) = written.get(&(base, depth)) {
            return k;
        }
        let entries = &self.nodes[base as usize..base as usize + self.states as usize];
        let mut line = depth.to_string();
        for &e in entries {
            let v = if depth == 1 {
                e as usize
            } else {
                self.write_node(e, depth - 1, written, lines)
            };
            line.push(' ');
            line.push_str(&v.to_string());
        }
        lines.push(line);
        written.insert((base, depth), lines.len() - 1);
        lines.len() - 1
    }
}

/// Builds a reduced tree bottom-up: equal nodes are shared, so a node is its entries.
pub(crate) struct TreeBuilder {
    states: u16,
    nodes: Vec<u32>,
    index: rustc_hash::FxHashMap<Vec<u32>, u32>,
}

impl TreeBuilder {
    pub fn new(states: u16) -> Self {
        Self {
            states,
            nodes: Vec::new(),
            index: Default::default(),
        }
    }

    /// The base of the node with these entries, made if it is new.
    pub fn node(&mut self, entries: Vec<u32>) -> u32 {
        debug_assert_eq!(entries.len(), self.states as usize);
        if let Some(&base) = self.index.get(&entries) {
            return base;
        }
        let base = self.nodes.len() as u32;
        self.nodes.extend_from_slice(&entries);
        self.index.insert(entries, base);
        base
    }

    /// [`TreeBuilder::node`] for entries the caller keeps: copied only when the node is new.
    pub fn node_of(&mut self, entries: &[u32]) -> u32 {
        debug_assert_eq!(entries.len(), self.states as usize);
        match self.index.get(entries) {
            Some(&base) => base,
            None => self.node(entries.to_vec()),
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len() / self.states as usize
    }

    pub fn finish(self, shape: Shape, root: u32) -> RuleTree {
        RuleTree {
            states: self.states,
            shape,
            nodes: self.nodes,
            root,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two states, von Neumann: the next state is the cell's own (worked by hand: one node a
    /// level, each pointing twice to the one below, the last holding the states 0 and 1).
    fn identity() -> RuleTree {
        let mut b = TreeBuilder::new(2);
        let mut below = b.node(vec![0, 1]);
        for _ in 0..4 {
            below = b.node(vec![below, below]);
        }
        b.finish(Shape::VonNeumann, below)
    }

    #[test]
    fn a_tree_read_back_from_its_bytes_is_the_same_tree() {
        let t = identity();
        assert_eq!(t.next(&[1, 1, 0, 1, 0]), 0);
        assert_eq!(t.next(&[0, 0, 0, 0, 1]), 1);
        assert_eq!(RuleTree::from_bytes(&t.to_bytes()), Ok(t));
        // Entries of one and two bytes: a tree of 200 states.
        let mut b = TreeBuilder::new(200);
        let leaves: Vec<u32> = (0..200).rev().collect();
        let mut below = b.node(leaves);
        for _ in 0..4 {
            below = b.node(vec![below; 200]);
        }
        let big = b.finish(Shape::VonNeumann, below);
        assert_eq!(RuleTree::from_bytes(&big.to_bytes()), Ok(big));
        // And of four: 300 leaves of 256 states, the last ones' bases past 65,535.
        let mut b = TreeBuilder::new(256);
        let leaves: Vec<u32> = (0..300)
            .map(|n| {
                let entry = |s: u32| if s == 0 { n / 256 } else { (s + n) % 256 };
                b.node((0..256).map(entry).collect())
            })
            .collect();
        let mut below = b.node(leaves[44..].to_vec());
        for _ in 0..3 {
            below = b.node(vec![below; 256]);
        }
        let wide = b.finish(Shape::VonNeumann, below);
        assert!(wide.nodes.iter().any(|&e| e > u16::MAX as u32));
        assert_eq!(wide.next(&[0, 0, 0, 255, 3]), ((3 + 299) % 256) as u8);
        assert_eq!(RuleTree::from_bytes(&wide.to_bytes()), Ok(wide));
    }

    #[test]
    fn malformed_bytes_are_refused_with_what_is_wrong() {
        let good = identity().to_bytes();
        // The header is 16 bytes; each node here is a width byte and two one-byte entries:
        // the leaf node's at 17 and 18, the root's at 29 and 30.
        assert_eq!(good.len(), 16 + 5 * 3);
        let refused = |edit: &dyn Fn(&mut Vec<u8>), says: &str| {
            let mut bytes = good.clone();
            edit(&mut bytes);
            let e = RuleTree::from_bytes(&bytes).expect_err(says);
            assert!(e.contains(says), "{e}");
        };
        refused(&|b| b[0] = b'X', "not a lifelab rule tree");
        refused(&|b| b.truncate(8), "not a lifelab rule tree");
        refused(
            &|b| {
                b.pop();
            },
            "10 entries where 14 bytes follow",
        );
        refused(&|b| b.truncate(28), "10 entries where 12 bytes follow");
        refused(
            &|b| b[28] = 2,
            "node 4 has entries of 2 bytes and needs 5 bytes",
        );
        // A header that claims four billion entries is refused before they are allocated.
        refused(
            &|b| b[12..16].copy_from_slice(&(u32::MAX - 1).to_le_bytes()),
            "4294967294 entries where 15 bytes follow",
        );
        refused(&|b| b.push(0), "1 bytes past the header's 10 entries");
        refused(&|b| b[16] = 3, "node 0 has entries of 3 bytes");
        refused(&|b| b[18] = 2, "is a node where a state belongs");
        refused(&|b| b[30] = 1, "is a state where a node belongs");
        refused(&|b| b[18] = 10, "entry 10 is past the tree's 10 entries");
        refused(&|b| b[5] = 1, "1 states");
    }
}
