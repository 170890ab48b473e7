//! The Sprague–Grundy function of impartial games: g(p) = mex { g(q) : q one move from p },
//! g = 0 exactly at lost positions, and g of a sum of games is the XOR of the parts' g.

use std::collections::HashMap;
use std::hash::Hash;

use serde::Serialize;

use super::octal::HeapGame;
pub use super::take_set::{TakeSet, TakeSetError};

/// An impartial game given by its moves. Positions with no moves are lost for the player to
/// move (normal play).
pub trait Game {
    type Position: Clone + Eq + Hash;
    fn moves(&self, p: &Self::Position) -> Vec<Self::Position>;
}

/// The minimum excludant: the least natural number not among `values`.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<u32> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| v != i as u32)
        .map_or(seen.len() as u32, |(i, _)| i as u32)
}

/// Sprague–Grundy values with memoisation, computed iteratively (an explicit stack, so that
/// deep games cannot overflow the call stack).
pub struct Grundy<G: Game> {
    pub game: G,
    memo: HashMap<G::Position, u32>,
}

impl<G: Game> Grundy<G> {
    pub fn new(game: G) -> Self {
        Self {
            game,
            memo: HashMap::new(),
        }
    }

    /// Positions evaluated so far.
    pub fn evaluated(&self) -> usize {
        self.memo.len()
    }

    pub fn value(&mut self, start: &G::Position) -> u32 {
        if let Some(&v) = self.memo.get(start) {
            return v;
        }
        // Each frame: a position and its moves; it is finished once every move has a value.
        let mut stack: Vec<(G::Position, Vec<G::Position>)> =
            vec![(start.clone(), self.game.moves(start))];
        while let Some((pos, moves)) = stack.last() {
            if let Some(next) = moves.iter().find(|m| !self.memo.contains_key(m)) {
                let next = next.clone();
                let next_moves = self.game.moves(&next);
                stack.push((next, next_moves));
                continue;
            }
            let v = mex(moves.iter().map(|m| self.memo[m]));
            let pos = pos.clone();
            stack.pop();
            self.memo.insert(pos, v);
        }
        self.memo[start]
    }
}

/// One heap; a move takes an amount in the take-set.
#[derive(Clone, Debug)]
pub struct SubtractionGame {
    pub take: TakeSet,
}

impl Game for SubtractionGame {
    type Position = u64;
    fn moves(&self, &n: &u64) -> Vec<u64> {
        self.take.amounts(n).into_iter().map(|a| n - a).collect()
    }
}

/// An eventually periodic sequence: g(n + period) = g(n) for every n >= preperiod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    pub preperiod: u64,
    pub period: u64,
}

impl SubtractionGame {
    /// g(0), ..., g(upto), by the recurrence.
    pub fn values(&self, upto: u64) -> Vec<u32> {
        HeapGame::Subtraction(self.take.clone()).values(upto)
    }

    /// The period of g, certified: g(n) depends only on the `k` values before it (k the largest
    /// amount), so once k consecutive values repeat after `period` steps, they repeat forever.
    /// `None` when no certified period shows within the first `search` values.
    pub fn period(&self, search: u64) -> Option<Period> {
        let values = self.values(search);
        HeapGame::Subtraction(self.take.clone())
            .periodicity(&values)
            .filter(|p| p.certified)
            .map(|p| Period {
                preperiod: p.preperiod,
                period: p.period,
            })
    }
}

/// A sum of games: a move is a move in exactly one component.
pub struct Sum<G: Game>(pub G);

impl<G: Game> Game for Sum<G> {
    type Position = Vec<G::Position>;
    fn moves(&self, p: &Vec<G::Position>) -> Vec<Vec<G::Position>> {
        let mut out = Vec::new();
        for (i, part) in p.iter().enumerate() {
            for q in self.0.moves(part) {
                let mut next = p.clone();
                next[i] = q;
                out.push(next);
            }
        }
        out
    }
}

/// A winning move in a sum: component `component` goes from `from` to `to`, whose g is the
/// needed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SumMove {
    pub component: usize,
    pub from: u64,
    pub to: u64,
    pub grundy_before: u32,
    pub grundy_after: u32,
}

/// The sum of heaps of a subtraction game: its g (the XOR of the parts' g) and every winning
/// move, found by reducing one component to g(component) XOR g(sum).
pub fn heaps_winning_moves(game: &SubtractionGame, heaps: &[u64]) -> (u32, Vec<SumMove>) {
    let top = heaps.iter().copied().max().unwrap_or(0);
    let g = game.values(top);
    let total = heaps.iter().fold(0, |acc, &h| acc ^ g[h as usize]);
    let mut moves = Vec::new();
    if total != 0 {
        for (i, &h) in heaps.iter().enumerate() {
            let need = g[h as usize] ^ total;
            for a in game.take.amounts(h) {
                if g[(h - a) as usize] == need {
                    moves.push(SumMove {
                        component: i,
                        from: h,
                        to: h - a,
                        grundy_before: g[h as usize],
                        grundy_after: need,
                    });
                }
            }
        }
    }
    (total, moves)
}

/// Two-heap Nim as the "one-sided rook": a rook on (m, n) moves only left or down, any
/// distance; whoever cannot move (at (0, 0)) loses.
pub struct OneSidedRook;

impl Game for OneSidedRook {
    type Position = (u64, u64);
    fn moves(&self, &(m, n): &(u64, u64)) -> Vec<(u64, u64)> {
        (0..m)
            .map(|a| (a, n))
            .chain((0..n).map(|b| (m, b)))
            .collect()
    }
}

/// The table v(m, n) of the one-sided rook for m, n < q, by the mex rule: v(m, n) is the least
/// value missing from the row to its left and the column below it, kept as bitsets so that
/// q = 4096 takes about a second (the generic engine, with a hash map and every move listed,
/// would take hours).
pub fn rook_table(q: u64) -> Vec<Vec<u32>> {
    let q = q as usize;
    // Values stay below the next power of two above q.
    let words = q.next_power_of_two().div_ceil(64) + 1;
    let mut rows = vec![0u64; q * words];
    let mut cols = vec![0u64; q * words];
    let mut table = vec![vec![0u32; q]; q];
    for m in 0..q {
        for n in 0..q {
            let (row, col) = (&rows[m * words..][..words], &cols[n * words..][..words]);
            let (w, free) = row
                .iter()
                .zip(col)
                .map(|(a, b)| !(a | b))
                .enumerate()
                .find(|&(_, free)| free != 0)
                .expect("a free value below the bound");
            let v = w * 64 + free.trailing_zeros() as usize;
            table[m][n] = v as u32;
            rows[m * words + v / 64] |= 1 << (v % 64);
            cols[n * words + v / 64] |= 1 << (v % 64);
        }
    }
    table
}

/// "The game of N": five dominoes worth 1..5 and one coin. The first move puts the coin on any
/// domino, later moves move it to a domino other than the one it lies on; each move adds the
/// domino's value to a shared total. Whoever makes the total exactly N wins; a player who can
/// only exceed N loses. Positions: (total, domino the coin lies on, 0 before the first move).
pub struct Dominoes {
    pub target: u64,
}

impl Game for Dominoes {
    type Position = (u64, u8);
    fn moves(&self, &(total, on): &(u64, u8)) -> Vec<(u64, u8)> {
        (1..=5u8)
            .filter(|&d| d != on && total + d as u64 <= self.target)
            .map(|d| (total + d as u64, d))
            .collect()
    }
}

/// Who wins the game of N, and the winning first moves (the dominoes to put the coin on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DominoesResult {
    pub target: u64,
    pub first_player_wins: bool,
    pub winning_first_moves: Vec<u8>,
}

/// The game of N solved from the end: with r still to go and the coin on domino `on`, the
/// player to move wins when some domino d != on with d <= r leaves the opponent lost. A row
/// depends only on the five before it, so the rows repeat once five in a row repeat: memory
/// and time stay constant whatever N is.
pub fn dominoes(target: u64) -> DominoesResult {
    let (rows, start, period) = dominoes_rows();
    let row = |r: u64| {
        let r = if r < rows.len() as u64 {
            r
        } else {
            start + (r - start) % period
        };
        rows[r as usize]
    };
    let winning: Vec<u8> = (1..=5u8)
        .filter(|&d| d as u64 <= target && !row(target - d as u64)[d as usize])
        .collect();
    DominoesResult {
        target,
        first_player_wins: !winning.is_empty(),
        winning_first_moves: winning,
    }
}

/// `rows[r][on]`: the player to move wins with r to go and the coin on `on` (0: not placed);
/// computed until five consecutive rows repeat. Returns the rows and the periodic part's start
/// and length.
fn dominoes_rows() -> (Vec<[bool; 6]>, u64, u64) {
    let mut rows: Vec<[bool; 6]> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let bits = |row: &[bool; 6]| row.iter().fold(0u32, |acc, &b| acc << 1 | b as u32);
    for r in 0u64.. {
        let mut row = [false; 6];
        for (on, cell) in row.iter_mut().enumerate() {
            *cell = (1..=5usize).any(|d| d != on && d as u64 <= r && !rows[r as usize - d][d]);
        }
        rows.push(row);
        if r >= 5 {
            let window = rows[r as usize - 4..]
                .iter()
                .fold(0u32, |acc, row| acc << 6 | bits(row));
            if let Some(first) = seen.insert(window, r) {
                // Rows first-4..=first equal rows r-4..=r, and each row follows from the five
                // before it: row r+1+i = row first+1+i for every i.
                return (rows, first - 4, r - first);
            }
        }
    }
    unreachable!("finitely many windows")
}

/// A colour per value: hues around the wheel, so equal values share a colour.
pub fn value_colour(v: u32, q: u32) -> [u8; 3] {
    let h = v as f64 / q.max(1) as f64 * 6.0;
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    let (r, g, b) = match h as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    [
        (r * 230.0) as u8 + 20,
        (g * 230.0) as u8 + 20,
        (b * 230.0) as u8 + 20,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_is_the_least_missing_number() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([2, 0, 1, 1]), 3);
    }

    #[test]
    fn take_sets_parse_and_refuse_nonsense() {
        assert_eq!(
            TakeSet::parse("1..3"),
            Ok(TakeSet::Range { min: 1, max: 3 })
        );
        assert_eq!(TakeSet::parse("3"), Ok(TakeSet::Range { min: 1, max: 3 }));
        assert_eq!(TakeSet::parse("4,1,3"), Ok(TakeSet::Set(vec![1, 3, 4])));
        assert_eq!(TakeSet::parse("0..3"), Err(TakeSetError::Zero));
        assert_eq!(TakeSet::parse("0,2"), Err(TakeSetError::Zero));
        assert_eq!(TakeSet::parse(""), Err(TakeSetError::Empty));
        assert_eq!(TakeSet::parse("3..1"), Err(TakeSetError::Empty));
        assert!(matches!(
            TakeSet::parse("a..b"),
            Err(TakeSetError::Syntax(_))
        ));
    }

    #[test]
    fn a_very_deep_game_does_not_overflow_the_stack() {
        // One heap, take exactly 1: a chain of a million positions.
        let mut g = Grundy::new(SubtractionGame {
            take: TakeSet::Set(vec![1]),
        });
        assert_eq!(g.value(&1_000_000), 0);
        assert_eq!(g.value(&999_999), 1);
    }
}
