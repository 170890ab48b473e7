//! Retrograde analysis: enumerate every position, mark the ends, and propagate backwards
//! until nothing changes; positions left undecided are draws (SPEC 2.3).
//!
//! Positions are indices into a finite set. Values are for the player to move, with the
//! distance in plies to the end of the game under best play: a win as fast as possible, a loss
//! as slow as possible. Arrays are flat (a predecessor list in compressed form, a counter per
//! position), so a million positions take seconds at most.

use serde::Serialize;

/// A finite game as a set of positions `0..count`.
pub trait PositionSet {
    fn count(&self) -> usize;
    /// The positions one move from `p`, for the player to move at `p`.
    fn moves(&self, p: usize) -> Vec<usize>;
    /// The result of a finished game for the player to move at `p`, or `None` if the game
    /// goes on. Positions without moves must be terminal.
    fn terminal(&self, p: usize) -> Option<Value>;
}

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

impl Value {
    /// The value for the other player.
    pub fn flip(self) -> Self {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// A position's value and its distance to the end in plies (0 for terminal positions and for
/// draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Solved {
    pub value: Value,
    pub plies: u32,
}

/// The solution of every position.
pub struct Solution {
    pub values: Vec<Solved>,
    /// Rounds of propagation (the longest distance + 1).
    pub rounds: u32,
}

/// Solves every position. Distances are exact: positions are decided in rounds of increasing
/// distance, a win at the first round one of its moves reaches a loss, a loss once every move
/// reaches a win.
pub fn solve(game: &impl PositionSet) -> Solution {
    let n = game.count();
    // Predecessors in compressed form: preds[start[p]..start[p+1]] move to p.
    let mut out_degree = vec![0u32; n];
    let mut in_degree = vec![0u32; n + 1];
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for (p, degree) in out_degree.iter_mut().enumerate() {
        if game.terminal(p).is_some() {
            continue;
        }
        let moves = game.moves(p);
        *degree = moves.len() as u32;
        for q in moves {
            in_degree[q] += 1;
            edges.push((p as u32, q as u32));
        }
    }
    let mut start = vec![0u32; n + 1];
    for p in 0..n {
        start[p + 1] = start[p] + in_degree[p];
    }
    let mut fill = start.clone();
    let mut preds = vec![0u32; edges.len()];
    for (p, q) in edges {
        preds[fill[q as usize] as usize] = p;
        fill[q as usize] += 1;
    }

    let mut values: Vec<Option<Solved>> = vec![None; n];
    let mut frontier: Vec<usize> = Vec::new();
    for (p, v) in values.iter_mut().enumerate() {
        if let Some(value) = game.terminal(p) {
            *v = Some(Solved { value, plies: 0 });
            frontier.push(p);
        }
    }
    // Moves not yet known to lead to a win for the opponent.
    let mut remaining = out_degree;
    let mut rounds = 0;
    while !frontier.is_empty() {
        rounds += 1;
        let mut next = Vec::new();
        for &q in &frontier {
            let Some(solved) = values[q] else { continue };
            for &p in &preds[start[q] as usize..start[q + 1] as usize] {
                let p = p as usize;
                if values[p].is_some() {
                    continue;
                }
                match solved.value {
                    Value::Loss => {
                        values[p] = Some(Solved {
                            value: Value::Win,
                            plies: solved.plies + 1,
                        });
                        next.push(p);
                    }
                    Value::Win => {
                        remaining[p] -= 1;
                        if remaining[p] == 0 {
                            values[p] = Some(Solved {
                                value: Value::Loss,
                                plies: solved.plies + 1,
                            });
                            next.push(p);
                        }
                    }
                    Value::Draw => {}
                }
            }
        }
        frontier = next;
    }
    Solution {
        values: values
            .into_iter()
            .map(|v| {
                v.unwrap_or(Solved {
                    value: Value::Draw,
                    plies: 0,
                })
            })
            .collect(),
        rounds,
    }
}

/// The same values by plain recursion with memoisation (the tests' oracle; small games only,
/// and only acyclic ones).
pub fn solve_by_recursion(game: &impl PositionSet) -> Vec<Value> {
    fn visit(game: &impl PositionSet, p: usize, memo: &mut Vec<Option<Value>>) -> Value {
        if let Some(v) = memo[p] {
            return v;
        }
        let v = match game.terminal(p) {
            Some(v) => v,
            None => {
                let children: Vec<Value> = game
                    .moves(p)
                    .into_iter()
                    .map(|q| visit(game, q, memo))
                    .collect();
                if children.contains(&Value::Loss) {
                    Value::Win
                } else if children.contains(&Value::Draw) {
                    Value::Draw
                } else {
                    Value::Loss
                }
            }
        };
        memo[p] = Some(v);
        v
    }
    let mut memo = vec![None; game.count()];
    (0..game.count())
        .map(|p| visit(game, p, &mut memo))
        .collect()
}
