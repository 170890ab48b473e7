//! Green Hackenbush: a graph of edges attached to the ground; a move cuts one edge, and whatever
//! is no longer connected to the ground falls away. Whoever cuts the last edge wins.
//!
//! Values (Winning Ways, chapter 7): a tree is worth, by the colon principle, the nim-sum over
//! the branches at the root of 1 + the branch's value; and by the fusion principle the vertices
//! of any cycle can be fused into one, its edges becoming loops, each worth 1, without changing
//! the value. So: find the bridges, fuse each 2-edge-connected piece, and sum up the tree of
//! bridges that is left.
//!
//! The text form: one edge per line, its two ends by name; `g` (or `ground`) is the ground; `#`
//! starts a comment; `;` separates edges on one line. `g a`, `a b`, `a c` is a tree of value
//! 1 + (1 XOR 1) = 1.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub ends: (usize, usize),
    /// Where it was written: 1-based line and column.
    pub line: usize,
    pub column: usize,
}

/// A Green Hackenbush picture: vertex 0 is the ground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hackenbush {
    pub names: Vec<String>,
    pub edges: Vec<Edge>,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HackenbushError {
    #[error("line {line}, column {column}: '{text}' is one end; an edge needs two, like 'g a'")]
    OneEnd {
        line: usize,
        column: usize,
        text: String,
    },
    #[error(
        "line {line}, column {column}: '{text}' names a third end; an edge has two (separate edges with ';' or a new line)"
    )]
    ThreeEnds {
        line: usize,
        column: usize,
        text: String,
    },
    #[error("no edges: write one edge per line, like 'g a' (g is the ground)")]
    Empty,
    #[error("more than {limit} edges")]
    TooLarge { limit: usize },
}

impl HackenbushError {
    /// Where the error is, when it is at a place in the text.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            HackenbushError::OneEnd { line, column, .. }
            | HackenbushError::ThreeEnds { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }

    /// The error as `file:line:column: what` (or `file: what`), the location said once.
    pub fn in_file(&self, file: &str) -> String {
        super::located(file, self.position(), &self.to_string())
    }
}

pub const MAX_EDGES: usize = 200_000;

/// The most edges whose cuts are all tried for winning moves (each try recomputes the value),
/// alone or in a sum.
pub const MAX_CUT_EDGES: usize = 20_000;

/// The ground is `g` or `ground`, exactly: names are case-sensitive, so `G` is a vertex like
/// any other.
fn is_ground(name: &str) -> bool {
    matches!(name, "g" | "ground")
}

impl Hackenbush {
    pub fn parse(text: &str) -> Result<Self, HackenbushError> {
        let mut names = vec!["g".to_string()];
        let mut index = std::collections::HashMap::new();
        let mut edges = Vec::new();
        for (l, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            // Words with their columns (in characters, 1-based); ';' ends an edge.
            let mut pending: Vec<(usize, &str)> = Vec::new();
            let mut flush = |pending: &mut Vec<(usize, &str)>,
                             edges: &mut Vec<Edge>|
             -> Result<(), HackenbushError> {
                match pending.as_slice() {
                    [] => {}
                    [(c, w)] => {
                        return Err(HackenbushError::OneEnd {
                            line: l + 1,
                            column: *c,
                            text: w.to_string(),
                        });
                    }
                    [(c, a), (_, b)] => {
                        if edges.len() >= MAX_EDGES {
                            return Err(HackenbushError::TooLarge { limit: MAX_EDGES });
                        }
                        let mut id = |w: &str| {
                            if is_ground(w) {
                                return 0;
                            }
                            *index.entry(w.to_string()).or_insert_with(|| {
                                names.push(w.to_string());
                                names.len() - 1
                            })
                        };
                        let ends = (id(a), id(b));
                        edges.push(Edge {
                            ends,
                            line: l + 1,
                            column: *c,
                        });
                    }
                    [_, _, (c, w), ..] => {
                        return Err(HackenbushError::ThreeEnds {
                            line: l + 1,
                            column: *c,
                            text: w.to_string(),
                        });
                    }
                }
                pending.clear();
                Ok(())
            };
            let mut start = None;
            let chars: Vec<(usize, char)> = line.char_indices().collect();
            for (ci, &(bi, ch)) in chars.iter().enumerate() {
                let sep = ch.is_whitespace() || ch == ';' || ch == ',';
                match (sep, start) {
                    (false, None) => start = Some((ci, bi)),
                    (true, Some((sc, sb))) => {
                        pending.push((sc + 1, &line[sb..bi]));
                        start = None;
                    }
                    _ => {}
                }
                if ch == ';' {
                    flush(&mut pending, &mut edges)?;
                }
            }
            if let Some((sc, sb)) = start {
                pending.push((sc + 1, &line[sb..]));
            }
            flush(&mut pending, &mut edges)?;
        }
        if edges.is_empty() {
            return Err(HackenbushError::Empty);
        }
        Ok(Self { names, edges })
    }

    /// Every edge present.
    pub fn all(&self) -> Vec<bool> {
        vec![true; self.edges.len()]
    }

    /// The edges still standing: present and connected to the ground.
    pub fn grounded(&self, alive: &[bool]) -> Vec<bool> {
        let adj = self.adjacency(alive);
        let mut seen = vec![false; self.names.len()];
        seen[0] = true;
        let mut stack = vec![0usize];
        while let Some(v) = stack.pop() {
            for &(w, _) in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        self.edges
            .iter()
            .zip(alive)
            .map(|(e, &a)| a && seen[e.ends.0])
            .collect()
    }

    /// The picture after cutting edge `e`: it and whatever falls with it are gone.
    pub fn cut(&self, alive: &[bool], e: usize) -> Vec<bool> {
        let mut next = alive.to_vec();
        next[e] = false;
        self.grounded(&next)
    }

    fn adjacency(&self, alive: &[bool]) -> Vec<Vec<(usize, usize)>> {
        let mut adj = vec![Vec::new(); self.names.len()];
        for (i, e) in self.edges.iter().enumerate() {
            if alive[i] && e.ends.0 != e.ends.1 {
                adj[e.ends.0].push((e.ends.1, i));
                adj[e.ends.1].push((e.ends.0, i));
            }
        }
        adj
    }

    /// The nim value of the edges `alive` (those not connected to the ground count for nothing).
    pub fn value(&self, alive: &[bool]) -> u32 {
        let n = self.names.len();
        let adj = self.adjacency(alive);
        // Bridges by Tarjan's low-link, iteratively; parallel edges are told apart by id.
        let mut disc = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut bridge = vec![false; self.edges.len()];
        let mut order = Vec::new();
        let mut parent_edge = vec![usize::MAX; n];
        let mut parent = vec![usize::MAX; n];
        // (vertex, next neighbour to look at)
        let mut stack = vec![(0usize, 0usize)];
        disc[0] = 0;
        low[0] = 0;
        order.push(0);
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, e)) = adj[v].get(*next) {
                *next += 1;
                if e == parent_edge[v] {
                    continue;
                }
                if disc[w] == usize::MAX {
                    disc[w] = order.len();
                    low[w] = disc[w];
                    order.push(w);
                    parent_edge[w] = e;
                    parent[w] = v;
                    stack.push((w, 0));
                } else {
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                stack.pop();
                if let Some(&(p, _)) = stack.last() {
                    low[p] = low[p].min(low[v]);
                    if low[v] > disc[p] {
                        bridge[parent_edge[v]] = true;
                    }
                }
            }
        }
        // Pieces joined by non-bridges: each fuses into one vertex.
        let mut piece = vec![usize::MAX; n];
        let mut pieces = 0;
        for &s in &order {
            if piece[s] != usize::MAX {
                continue;
            }
            piece[s] = pieces;
            let mut stack = vec![s];
            while let Some(v) = stack.pop() {
                for &(w, e) in &adj[v] {
                    if !bridge[e] && piece[w] == usize::MAX {
                        piece[w] = pieces;
                        stack.push(w);
                    }
                }
            }
            pieces += 1;
        }
        // Fused edges become loops, each worth 1.
        let mut loops = vec![0u32; pieces];
        for (i, e) in self.edges.iter().enumerate() {
            if alive[i] && disc[e.ends.0] != usize::MAX && !bridge[i] {
                loops[piece[e.ends.0]] ^= 1;
            }
        }
        // The tree of bridges, summed from the leaves: the order of discovery puts a child
        // after its parent.
        let mut value = loops;
        for &v in order.iter().rev() {
            let e = parent_edge[v];
            if e != usize::MAX && bridge[e] {
                let child = piece[v];
                let up = piece[parent[v]];
                value[up] ^= value[child] + 1;
            }
        }
        value[piece[0]]
    }

    /// Every cut leaving the value `need`.
    pub fn cuts_to(&self, alive: &[bool], need: u32) -> Vec<usize> {
        (0..self.edges.len())
            .filter(|&e| alive[e] && self.value(&self.cut(alive, e)) == need)
            .collect()
    }

    /// The edge in words: its ends and where it was written.
    pub fn describe(&self, e: usize) -> String {
        let edge = &self.edges[e];
        format!(
            "cut {}–{} (line {})",
            self.names[edge.ends.0], self.names[edge.ends.1], edge.line
        )
    }
}

/// A winning cut, in the JSON shape of the other games' moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// The edge, counted from 0 in the order written.
    pub edge: usize,
    pub ends: [String; 2],
    pub line: usize,
    /// The value after the cut.
    pub leaves: u32,
}

impl Cut {
    pub fn new(h: &Hackenbush, edge: usize, leaves: u32) -> Self {
        let e = &h.edges[edge];
        Self {
            edge,
            ends: [h.names[e.ends.0].clone(), h.names[e.ends.1].clone()],
            line: e.line,
            leaves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_on_the_ground_fuses_to_one_loop() {
        // g-a, a-b, b-g: a cycle through the ground; three loops at the ground: 1^1^1 = 1.
        let h = Hackenbush::parse("g a\na b\nb g").unwrap();
        assert_eq!(h.value(&h.all()), 1);
    }
}
