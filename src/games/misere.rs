//! Misère play, where whoever makes the last move loses. Nim by Bouton's misère rule; any other
//! game by direct search: every position reachable from the start is enumerated and solved by the
//! retrograde engine, with a position that has no move won for the player to move there.
//! (Misère values do not add up the way Grundy values do, so sums are searched whole.)

use std::collections::HashMap;
use std::hash::Hash;

use serde::Serialize;

use super::nim::{self, NimMove};
use super::octal::{self, HeapGame, HeapMove};
use super::retro::{self, PositionSet, Value};

/// A winning move of misère Nim, with the reason it wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MisereMove {
    #[serde(flatten)]
    pub m: NimMove,
    pub reason: String,
}

/// Misère Nim by Bouton's rule: play as in normal Nim, except for the move that would leave
/// only heaps of 0 and 1; then leave an odd number of heaps of 1. So a position with a heap of 2
/// or more is lost exactly when its nim-sum is 0, and one with only 0s and 1s exactly when it
/// has an odd number of 1s.
pub fn nim_first_player_wins(heaps: &[u64]) -> bool {
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    if heaps.iter().any(|&h| h >= 2) {
        nim::nim_sum(heaps) != 0
    } else {
        ones % 2 == 0
    }
}

/// Every winning move of misère Nim and why it wins (heaps counted from 1 in the reasons).
pub fn nim_winning_moves(heaps: &[u64]) -> Vec<MisereMove> {
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] >= 2).collect();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    match big.as_slice() {
        [] => {
            // Only 0s and 1s: taking a 1 flips the parity of the 1s.
            if ones % 2 == 1 {
                return Vec::new();
            }
            heaps
                .iter()
                .enumerate()
                .filter(|&(_, &h)| h == 1)
                .map(|(i, _)| MisereMove {
                    m: NimMove {
                        heap: i,
                        take: 1,
                        leaves: 0,
                    },
                    reason: format!(
                        "only heaps of 1 are left; taking heap {} leaves {} of them, an odd \
                         number, so the opponent takes the last one",
                        i + 1,
                        ones - 1
                    ),
                })
                .collect()
        }
        &[i] => {
            // The one big heap: reduce it to 0 or 1, whichever leaves an odd number of 1s.
            let leaves = if ones % 2 == 0 { 1 } else { 0 };
            vec![MisereMove {
                m: NimMove {
                    heap: i,
                    take: heaps[i] - leaves,
                    leaves,
                },
                reason: format!(
                    "heap {} is the only one above 1: leaving it at {leaves} leaves {} heaps of \
                     1, an odd number, so the opponent takes the last one (Bouton's misère rule)",
                    i + 1,
                    ones + leaves as usize
                ),
            }]
        }
        _ => {
            // Two or more big heaps: after any move one is left, and the normal-play move is
            // right. A nim-sum 0 never leaves a single big heap, so this is Bouton's rule too.
            let s = nim::nim_sum(heaps);
            nim::winning_moves(heaps)
                .into_iter()
                .map(|m| MisereMove {
                    reason: format!(
                        "nim-sum {s}: heap {} goes from {} to {} = {} XOR {s}, making the \
                         nim-sum 0 with a heap above 1 still there, as in normal play",
                        m.heap + 1,
                        heaps[m.heap],
                        m.leaves,
                        heaps[m.heap]
                    ),
                    m,
                })
                .collect()
        }
    }
}

/// The computer's misère reply: a winning move if there is one, else one token from the largest
/// heap to keep the game long.
pub fn nim_reply(heaps: &[u64]) -> Option<(NimMove, String)> {
    if let Some(w) = nim_winning_moves(heaps).into_iter().next() {
        return Some((w.m, w.reason));
    }
    let (heap, &h) = heaps.iter().enumerate().max_by_key(|(_, h)| **h)?;
    (h > 0).then(|| {
        (
            NimMove {
                heap,
                take: 1,
                leaves: h - 1,
            },
            "every move loses against best play (misère); take one from the largest heap to \
             keep the game long"
                .to_string(),
        )
    })
}

/// A game for direct search: its positions and the moves from each.
pub trait Rules {
    type State: Clone + Eq + Hash;
    fn options(&self, s: &Self::State) -> Vec<Self::State>;
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error(
        "more than {limit} positions are reachable: too many for a direct search; try smaller heaps"
    )]
    TooLarge { limit: usize },
    #[error(
        "more than {limit} moves between the positions reachable: too many for a direct search; try smaller heaps"
    )]
    TooManyMoves { limit: usize },
}

/// The most moves a direct search keeps per position it may visit: what bounds its time.
const MOVES_PER_POSITION: usize = 10;

/// Every position reachable from a start, solved.
pub struct Searched<S> {
    index: HashMap<S, usize>,
    values: Vec<retro::Solved>,
}

impl<S: Eq + Hash> Searched<S> {
    /// The value of a reached position for the player to move there.
    pub fn value(&self, s: &S) -> Option<Value> {
        self.index.get(s).map(|&i| self.values[i].value)
    }

    pub fn states(&self) -> usize {
        self.values.len()
    }
}

/// Positions as indices, with their moves in compressed rows.
struct Graph {
    start: Vec<usize>,
    targets: Vec<usize>,
    misere: bool,
}

impl PositionSet for Graph {
    fn count(&self) -> usize {
        self.start.len() - 1
    }
    fn moves(&self, p: usize) -> Vec<usize> {
        self.targets[self.start[p]..self.start[p + 1]].to_vec()
    }
    fn terminal(&self, p: usize) -> Option<Value> {
        // No move: under misère play the player to move has won (the opponent moved last).
        (self.start[p] == self.start[p + 1]).then_some(if self.misere {
            Value::Win
        } else {
            Value::Loss
        })
    }
}

/// Enumerates every position reachable from `start` (at most `limit`) and solves them by
/// retrograde analysis; loops are allowed, their positions may be draws.
pub fn search<R: Rules>(
    rules: &R,
    start: R::State,
    misere: bool,
    limit: usize,
) -> Result<Searched<R::State>, SearchError> {
    let mut index = HashMap::new();
    let mut states = vec![start.clone()];
    index.insert(start, 0);
    let mut rows = vec![0usize];
    let mut targets = Vec::new();
    let mut at = 0;
    let move_limit = limit.saturating_mul(MOVES_PER_POSITION);
    while at < states.len() {
        if targets.len() > move_limit {
            return Err(SearchError::TooManyMoves { limit: move_limit });
        }
        for next in rules.options(&states[at]) {
            let i = match index.get(&next) {
                Some(&i) => i,
                None => {
                    if states.len() >= limit {
                        return Err(SearchError::TooLarge { limit });
                    }
                    states.push(next.clone());
                    index.insert(next, states.len() - 1);
                    states.len() - 1
                }
            };
            targets.push(i);
        }
        rows.push(targets.len());
        at += 1;
    }
    let graph = Graph {
        start: rows,
        targets,
        misere,
    };
    let solution = retro::solve(&graph);
    Ok(Searched {
        index,
        values: solution.values,
    })
}

/// The positions of a heap game as sorted lists of non-empty heaps.
pub struct Heaps<'a>(pub &'a HeapGame);

/// Heaps in a canonical order, empty ones dropped: the same position however it is written.
pub fn canonical(heaps: &[u64]) -> Vec<u64> {
    let mut v: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    v.sort_unstable();
    v
}

impl Rules for Heaps<'_> {
    type State = Vec<u64>;
    fn options(&self, s: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &h) in s.iter().enumerate() {
            // Equal heaps give the same positions.
            if i > 0 && s[i - 1] == h {
                continue;
            }
            self.0.for_each_option(h, |_, a, b| {
                let mut next = s.clone();
                next[i] = a;
                next.push(b);
                out.push(canonical(&next));
            });
        }
        out
    }
}

/// The most positions a direct search visits by default (a few seconds at most).
pub const SEARCH_LIMIT: usize = 1_000_000;

/// A misère heap position: whether the player to move wins, every winning move, and the number of
/// positions searched.
pub fn heaps_misere(
    game: &HeapGame,
    heaps: &[u64],
    limit: usize,
) -> Result<(bool, Vec<HeapMove>, usize), SearchError> {
    // A heap's moves are built before the search counts them: refuse a heap whose moves alone
    // pass the limit (Kayles at 10^12 has 10^12 of them).
    let moves = heaps
        .iter()
        .map(|&h| game.options_at(h))
        .fold(0u128, u128::saturating_add);
    let most = limit.saturating_mul(MOVES_PER_POSITION);
    if moves > most as u128 {
        return Err(SearchError::TooManyMoves { limit: most });
    }
    let solved = search(&Heaps(game), canonical(heaps), true, limit)?;
    let wins = solved.value(&canonical(heaps)) == Some(Value::Win);
    let winning = octal::moves(game, heaps)
        .into_iter()
        .filter(|m| solved.value(&canonical(&octal::apply(heaps, m))) == Some(Value::Loss))
        .collect();
    Ok((wins, winning, solved.states()))
}
