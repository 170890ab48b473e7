//! A game given by its move graph: vertices are positions, arcs are moves. The graph may have
//! cycles, so play may go on for ever: such positions are draws.
//!
//! Normal play uses the generalised Sprague–Grundy function of Smith (1966), as computed by
//! Fraenkel and Yesha: each position gets a value n (a finite nim value) or ∞_K, K being the
//! finite values among its moves. A position is lost exactly at 0, a draw at ∞_K with 0 not in
//! K, and won otherwise; sums add up by XOR, with ∞_K + n = ∞_{K XOR n} and ∞ + ∞ a draw.
//! Misère play goes through the retrograde engine, a position with no move being won.
//!
//! The text form: one vertex per line, `name: follower follower ...`; `#` starts a comment. A
//! vertex with no moves is `name:` or only named as a follower. The first vertex is the start.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

use super::retro::{self, PositionSet, Value};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveGraph {
    pub names: Vec<String>,
    pub moves: Vec<Vec<usize>>,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error(
        "line {line}, column {column}: '{text}' has no ':'; write a vertex and its moves as 'a: b c'"
    )]
    NoColon {
        line: usize,
        column: usize,
        text: String,
    },
    #[error("line {line}, column {column}: a vertex needs a name before the ':'")]
    NoName { line: usize, column: usize },
    #[error(
        "line {line}, column {column}: a second ':'; a line is one vertex and its moves, like 'a: b c'"
    )]
    SecondColon { line: usize, column: usize },
    #[error("no vertices: write one per line, like 'a: b c'")]
    Empty,
    #[error("more than {limit} moves")]
    TooLarge { limit: usize },
}

impl GraphError {
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            GraphError::NoColon { line, column, .. }
            | GraphError::NoName { line, column }
            | GraphError::SecondColon { line, column } => Some((*line, *column)),
            _ => None,
        }
    }

    /// The error as `file:line:column: what` (or `file: what`), the location said once.
    pub fn in_file(&self, file: &str) -> String {
        super::located(file, self.position(), &self.to_string())
    }
}

pub const MAX_MOVES: usize = 2_000_000;

impl MoveGraph {
    pub fn parse(text: &str) -> Result<Self, GraphError> {
        let mut g = MoveGraph {
            names: Vec::new(),
            moves: Vec::new(),
        };
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut id = |g: &mut MoveGraph, w: &str| {
            *index.entry(w.to_string()).or_insert_with(|| {
                g.names.push(w.to_string());
                g.moves.push(Vec::new());
                g.names.len() - 1
            })
        };
        let mut count = 0;
        for (l, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            if line.trim().is_empty() {
                continue;
            }
            let indent = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            let Some((head, tail)) = line.split_once(':') else {
                return Err(GraphError::NoColon {
                    line: l + 1,
                    column: indent,
                    text: line.trim().to_string(),
                });
            };
            let name = head.trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(GraphError::NoName {
                    line: l + 1,
                    column: indent,
                });
            }
            if let Some(at) = tail.find(':') {
                let column = line[..head.len() + 1 + at].chars().count() + 1;
                return Err(GraphError::SecondColon {
                    line: l + 1,
                    column,
                });
            }
            let from = id(&mut g, name);
            for w in tail.split(|c: char| c.is_whitespace() || c == ',') {
                if w.is_empty() {
                    continue;
                }
                count += 1;
                if count > MAX_MOVES {
                    return Err(GraphError::TooLarge { limit: MAX_MOVES });
                }
                let to = id(&mut g, w);
                g.moves[from].push(to);
            }
        }
        if g.names.is_empty() {
            return Err(GraphError::Empty);
        }
        for m in &mut g.moves {
            m.sort_unstable();
            m.dedup();
        }
        Ok(g)
    }

    pub fn vertex(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The generalised Sprague–Grundy function. For i = 0, 1, ...: label i every unlabelled
    /// vertex with no move to an i whose every move to an unlabelled or ∞ vertex can be answered
    /// by a move to an i, until none is left; then label ∞ every unlabelled vertex with no move to
    /// an i. (Fraenkel and Yesha, "The generalized Sprague–Grundy function and its invariance
    /// under certain mappings", 1986.)
    pub fn values(&self) -> Vec<GValue> {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum L {
            None,
            Fin(u32),
            Inf,
        }
        let n = self.names.len();
        let mut label = vec![L::None; n];
        let mut left = n;
        let mut i = 0u32;
        // Who moves to each vertex: a new label i can only make the vertices one or two moves
        // before it labellable, so only those are looked at again (sweeping every vertex until
        // nothing changed was quadratic on a long path). The labels only grow, and a vertex
        // that could take i keeps that chance, so the order of the work does not matter.
        let mut preds = vec![Vec::new(); n];
        for (u, moves) in self.moves.iter().enumerate() {
            for &f in moves {
                preds[f].push(u);
            }
        }
        let mut queued = vec![false; n];
        let mut queue = std::collections::VecDeque::new();
        while left > 0 {
            for u in 0..n {
                if label[u] == L::None {
                    queued[u] = true;
                    queue.push_back(u);
                }
            }
            while let Some(u) = queue.pop_front() {
                queued[u] = false;
                if label[u] != L::None {
                    continue;
                }
                let ok = self.moves[u].iter().all(|&f| label[f] != L::Fin(i))
                    && self.moves[u].iter().all(|&f| {
                        !matches!(label[f], L::None | L::Inf)
                            || self.moves[f].iter().any(|&h| label[h] == L::Fin(i))
                    });
                if !ok {
                    continue;
                }
                label[u] = L::Fin(i);
                left -= 1;
                for &p in &preds[u] {
                    for w in std::iter::once(p).chain(preds[p].iter().copied()) {
                        if label[w] == L::None && !queued[w] {
                            queued[w] = true;
                            queue.push_back(w);
                        }
                    }
                }
            }
            for u in 0..n {
                if label[u] == L::None && !self.moves[u].iter().any(|&f| label[f] == L::Fin(i)) {
                    label[u] = L::Inf;
                    left -= 1;
                }
            }
            i += 1;
        }
        (0..n)
            .map(|u| match label[u] {
                L::Fin(v) => GValue::Finite(v),
                _ => {
                    let mut k: Vec<u32> = self.moves[u]
                        .iter()
                        .filter_map(|&f| match label[f] {
                            L::Fin(v) => Some(v),
                            _ => None,
                        })
                        .collect();
                    k.sort_unstable();
                    k.dedup();
                    GValue::Infinite(k)
                }
            })
            .collect()
    }

    /// Misère play: the value of each vertex for the player to move, by retrograde analysis.
    pub fn misere(&self) -> Vec<retro::Solved> {
        retro::solve(&Misere(self)).values
    }
}

struct Misere<'a>(&'a MoveGraph);

impl PositionSet for Misere<'_> {
    fn count(&self) -> usize {
        self.0.names.len()
    }
    fn moves(&self, p: usize) -> Vec<usize> {
        self.0.moves[p].clone()
    }
    fn terminal(&self, p: usize) -> Option<Value> {
        self.0.moves[p].is_empty().then_some(Value::Win)
    }
}

/// A generalised Sprague–Grundy value: a nim value, or ∞_K.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GValue {
    Finite(u32),
    Infinite(Vec<u32>),
}

impl GValue {
    /// Normal play: the value for the player to move.
    pub fn outcome(&self) -> Value {
        match self {
            GValue::Finite(0) => Value::Loss,
            GValue::Finite(_) => Value::Win,
            GValue::Infinite(k) if k.contains(&0) => Value::Win,
            GValue::Infinite(_) => Value::Draw,
        }
    }

    /// The value of a sum: XOR of finite values; ∞_K + n = ∞_{K XOR n}; two ∞ make ∞ with an
    /// empty K, a draw.
    pub fn add(&self, other: &GValue) -> GValue {
        match (self, other) {
            (GValue::Finite(a), GValue::Finite(b)) => GValue::Finite(a ^ b),
            (GValue::Infinite(k), GValue::Finite(n)) | (GValue::Finite(n), GValue::Infinite(k)) => {
                let mut k: Vec<u32> = k.iter().map(|v| v ^ n).collect();
                k.sort_unstable();
                GValue::Infinite(k)
            }
            (GValue::Infinite(_), GValue::Infinite(_)) => GValue::Infinite(Vec::new()),
        }
    }

    pub fn finite(&self) -> Option<u32> {
        match self {
            GValue::Finite(v) => Some(*v),
            GValue::Infinite(_) => None,
        }
    }
}

impl fmt::Display for GValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GValue::Finite(v) => write!(f, "{v}"),
            GValue::Infinite(k) => {
                let k: Vec<String> = k.iter().map(u32::to_string).collect();
                write!(f, "∞{{{}}}", k.join(","))
            }
        }
    }
}

impl Serialize for GValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GValue::Finite(v) => s.serialize_u32(*v),
            GValue::Infinite(_) => s.serialize_str(&self.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_with_an_exit_by_hand() {
        // u <-> v, v -> w: w is 0 (no move), u is 0 (its only move, to v, is answered by w), v
        // is 1.
        let g = MoveGraph::parse("u: v\nv: u w\nw:").unwrap();
        assert_eq!(
            g.values(),
            [GValue::Finite(0), GValue::Finite(1), GValue::Finite(0)]
        );
        // A bare cycle is a draw.
        let g = MoveGraph::parse("a: b\nb: a").unwrap();
        assert_eq!(g.values()[0].outcome(), Value::Draw);
    }
}
