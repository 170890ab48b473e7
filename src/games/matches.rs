//! Match games: a heap of matches, a move takes an amount from a take-set. In the normal
//! game whoever takes the last match wins; in the misère game ("who takes the last one loses")
//! they lose. When no move is possible the game ends, and the last mover wins (normal) or
//! loses (misère). "Eleven matches" is 11, take 1–3, misère; "six matches" is 6, take 1–2,
//! misère.

use serde::Serialize;

use super::grundy::TakeSet;
use super::tree::{Outcome, TreeGame};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matches {
    pub count: u64,
    pub take: TakeSet,
    pub misere: bool,
}

/// The most matches the solver takes (its tables grow with the count).
pub const MAX_COUNT: u64 = 10_000_000;

#[derive(Clone, Debug, Serialize)]
pub struct MatchesReport {
    pub count: u64,
    pub take: String,
    pub misere: bool,
    pub first_player_wins: bool,
    /// Amounts the first player can take to win.
    pub winning_first_moves: Vec<u64>,
    /// Counts at which the player to move loses, up to the count.
    pub lost_positions: Vec<u64>,
    pub rule: String,
    /// True when the first player has no move at all (too few matches for any amount).
    pub no_move: bool,
}

impl Matches {
    pub fn eleven() -> Self {
        Self {
            count: 11,
            take: TakeSet::Range { min: 1, max: 3 },
            misere: true,
        }
    }

    pub fn six() -> Self {
        Self {
            count: 6,
            take: TakeSet::Range { min: 1, max: 2 },
            misere: true,
        }
    }

    /// `wins[n]`: the player to move with n matches left wins.
    pub fn wins(&self) -> Vec<bool> {
        let mut wins: Vec<bool> = Vec::with_capacity(self.count as usize + 1);
        // For a range of amounts, lost counts so far (a prefix sum): whether the window of
        // counts a move can reach holds a lost one costs O(1), whatever the range's width.
        let mut lost_before = vec![0u64];
        for n in 0..=self.count {
            let w = match &self.take {
                TakeSet::Range { min, .. } if *min > n => self.misere,
                TakeSet::Range { min, max } => {
                    // Counts n - min(max, n) ..= n - min.
                    let (lo, hi) = (n - (*max).min(n), n - min);
                    lost_before[hi as usize + 1] > lost_before[lo as usize]
                }
                TakeSet::Set(v) if v.first().is_none_or(|&a| a > n) => self.misere,
                TakeSet::Set(v) => v
                    .iter()
                    .take_while(|&&a| a <= n)
                    .any(|&a| !wins[(n - a) as usize]),
            };
            // No move at all: the game is over, and the previous player moved last.
            wins.push(w);
            lost_before.push(lost_before[n as usize] + u64::from(!w));
        }
        wins
    }

    pub fn report(&self) -> MatchesReport {
        let wins = self.wins();
        let no_move = match &self.take {
            TakeSet::Range { min, .. } => *min > self.count,
            TakeSet::Set(v) => v.first().is_none_or(|&a| a > self.count),
        };
        let winning: Vec<u64> = if no_move {
            Vec::new()
        } else {
            self.take
                .amounts(self.count)
                .into_iter()
                .filter(|&a| !wins[(self.count - a) as usize])
                .collect()
        };
        let lost: Vec<u64> = (0..=self.count).filter(|&n| !wins[n as usize]).collect();
        MatchesReport {
            count: self.count,
            take: self.take.to_string(),
            misere: self.misere,
            first_player_wins: wins[self.count as usize],
            winning_first_moves: winning,
            lost_positions: lost.clone(),
            rule: self.rule(&lost),
            no_move,
        }
    }

    /// The winning rule in words: for take 1..k the classical one, otherwise the lost counts.
    fn rule(&self, lost: &[u64]) -> String {
        match self.take {
            TakeSet::Range { min: 1, max: k } => {
                // In 128 bits: k + 1 and count + m overflow 64 for a take-set up to 2^64 - 1.
                let m = k as u128 + 1;
                let (target, what) = if self.misere {
                    (
                        1,
                        format!("leave your opponent 1 more than a multiple of {m} matches"),
                    )
                } else {
                    (0, format!("leave your opponent a multiple of {m} matches"))
                };
                let first = (self.count as u128 + m - target) % m;
                let opening = if first == 0 {
                    "the first player cannot do that now: the second player wins with the rule"
                        .to_string()
                } else {
                    format!("take {first} first")
                };
                format!("{what}: {opening}, then answer a take of l with {m} - l")
            }
            _ => {
                let shown: Vec<String> = lost.iter().take(20).map(u64::to_string).collect();
                format!(
                    "always leave your opponent a lost count: {}{}",
                    shown.join(", "),
                    if lost.len() > 20 { ", ..." } else { "" }
                )
            }
        }
    }
}

impl Matches {
    /// The vertices of the game's full tree, counted without building it, or `None` when they
    /// are more than `cap` (a heap of `n` has 1 + the trees of every heap a move leaves). Heaps
    /// past ten million are not counted: their tree is more than `cap` whenever a heap loses at
    /// most a fraction of it a move, and `None` is the answer then too.
    pub fn tree_vertices(&self, cap: u64) -> Option<u64> {
        const MOST: u64 = 10_000_000;
        let most_taken = self.take.max().max(1);
        // Each move takes at most `most_taken`: a path from the root has that many vertices.
        if self.count / most_taken >= cap {
            return None;
        }
        if self.count > MOST {
            return None;
        }
        let n = self.count as usize;
        let mut t = vec![0u64; n + 1];
        // prefix[k]: t[0] + ... + t[k - 1], saturating past the cap.
        let mut prefix = vec![0u64; n + 2];
        let over = cap.saturating_add(1);
        for h in 0..=n {
            let below = match &self.take {
                TakeSet::Range { min, max } => {
                    let (lo, hi) = (*min as usize, (*max).min(h as u64) as usize);
                    if lo > hi || lo == 0 && hi == 0 {
                        0
                    } else {
                        // Heaps h - hi ..= h - lo.
                        let lo = lo.max(1);
                        prefix[h - lo + 1].saturating_sub(prefix[h - hi])
                    }
                }
                TakeSet::Set(v) => v
                    .iter()
                    .filter(|&&a| a >= 1 && a <= h as u64)
                    .fold(0u64, |s, &a| s.saturating_add(t[h - a as usize])),
            };
            t[h] = below.saturating_add(1).min(over);
            prefix[h + 1] = prefix[h].saturating_add(t[h]).min(u64::MAX / 2);
        }
        (t[n] <= cap).then_some(t[n])
    }
}

impl TreeGame for Matches {
    type Position = u64;
    fn moves(&self, &n: &u64) -> Vec<(String, u64)> {
        self.take
            .amounts(n)
            .into_iter()
            .map(|a| (format!("take {a}"), n - a))
            .collect()
    }
    fn result(&self, &n: &u64, first_to_move: bool) -> Option<Outcome> {
        if !self.take.amounts(n).is_empty() {
            return None;
        }
        // The player to move did not move last: in misère they win, in normal play they lose.
        let mover_wins = self.misere;
        Some(if mover_wins == first_to_move {
            Outcome::FirstWins
        } else {
            Outcome::SecondWins
        })
    }
}

/// "Even wins": a heap of matches, a move takes an amount from the take-set, and when the heap
/// is empty whoever holds an even number of matches wins (with an odd total, exactly one does).
#[derive(Clone, Debug)]
pub struct EvenWins {
    pub count: u64,
    pub take: TakeSet,
}

#[derive(Clone, Debug, Serialize)]
pub struct EvenWinsReport {
    pub count: u64,
    pub take: String,
    pub first_player_wins: bool,
    pub winning_first_moves: Vec<u64>,
    /// When both can end up even or both odd (an even total), a tie counts as a loss for
    /// neither; this says whether ties are possible.
    pub ties_possible: bool,
}

impl EvenWins {
    /// `value[n][a][b]` for the mover with n matches left, holding parity a while the other
    /// player holds parity b: 1 a win, 0 a tie, -1 a loss.
    fn table(&self) -> Vec<[[i8; 2]; 2]> {
        let mut t: Vec<[[i8; 2]; 2]> = Vec::with_capacity(self.count as usize + 1);
        for n in 0..=self.count {
            let amounts = self.take.amounts(n);
            let mut entry = [[0i8; 2]; 2];
            for a in 0..2 {
                for b in 0..2 {
                    entry[a][b] = if amounts.is_empty() {
                        // Nothing more to take: even holdings win.
                        match (a, b) {
                            (0, 1) => 1,
                            (1, 0) => -1,
                            _ => 0,
                        }
                    } else {
                        // Taking t hands the move over: the opponent holds b, the mover a + t.
                        amounts
                            .iter()
                            .map(|&k| -t[(n - k) as usize][b][(a + k as usize) % 2])
                            .max()
                            .expect("not empty")
                    };
                }
            }
            t.push(entry);
        }
        t
    }

    pub fn report(&self) -> EvenWinsReport {
        let t = self.table();
        let n = self.count;
        let winning: Vec<u64> = self
            .take
            .amounts(n)
            .into_iter()
            .filter(|&k| -t[(n - k) as usize][0][(k % 2) as usize] == 1)
            .collect();
        EvenWinsReport {
            count: n,
            take: self.take.to_string(),
            first_player_wins: t[n as usize][0][0] == 1,
            winning_first_moves: winning,
            ties_possible: self.ties_possible(),
        }
    }

    /// Whether some play ends with both players' holdings of the same parity: with every
    /// match taken that needs an even total, but a take-set like {2} can leave matches nobody
    /// may take.
    fn ties_possible(&self) -> bool {
        // reach[n]: bit (a * 2 + b) * 2 + turn for the first player's parity a, the second's
        // b, and whose turn (0: the first player's).
        let mut reach = vec![0u8; self.count as usize + 1];
        reach[self.count as usize] = 1;
        for n in (0..=self.count).rev() {
            let states = reach[n as usize];
            let amounts = self.take.amounts(n);
            for s in (0..8).filter(|s| states & (1 << s) != 0) {
                let (a, b, turn) = (s >> 2, (s >> 1) & 1, s & 1);
                if amounts.is_empty() {
                    if a == b {
                        return true;
                    }
                    continue;
                }
                for &k in &amounts {
                    let odd = (k % 2) as usize;
                    let (a, b) = if turn == 0 {
                        (a ^ odd, b)
                    } else {
                        (a, b ^ odd)
                    };
                    reach[(n - k) as usize] |= 1 << ((a << 2) | (b << 1) | (1 - turn));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tree;

    #[test]
    fn the_tree_is_counted_as_it_is_built() {
        // By hand: 3 matches, take 1 or 2: t(0) = 1, t(1) = 1 + t(0) = 2, t(2) = 1 + t(1) +
        // t(0) = 4, t(3) = 1 + t(2) + t(1) = 7.
        let small = Matches {
            count: 3,
            take: TakeSet::Range { min: 1, max: 2 },
            misere: false,
        };
        assert_eq!(small.tree_vertices(100), Some(7));
        assert_eq!(small.tree_vertices(6), None);
        // Against the tree itself, for ranges and sets.
        for (count, take) in [
            (12, TakeSet::Set(vec![1, 3, 4])),
            (15, TakeSet::Range { min: 2, max: 5 }),
            (9, TakeSet::Range { min: 1, max: 100 }),
            (20, TakeSet::Set(vec![7])),
        ] {
            let game = Matches {
                count,
                take: take.clone(),
                misere: true,
            };
            let built = tree::build(&game, count, 1 << 20).unwrap().vertices.len() as u64;
            assert_eq!(game.tree_vertices(1 << 20), Some(built), "{count} {take:?}");
        }
        // 40 matches, take 1..3: a tribonacci-sized tree, counted without building it.
        let big = Matches {
            count: 40,
            take: TakeSet::Range { min: 1, max: 3 },
            misere: false,
        };
        assert_eq!(big.tree_vertices(1 << 30), None);
    }
}
