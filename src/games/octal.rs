//! Heap games: octal games given by their Guy–Smith code, subtraction games, Nim and Grundy's
//! game. A position is a list of heaps; a move takes some tokens from one heap and may split what
//! is left into two heaps. Their nim-sequences, periods certified by a theorem, and the winning
//! moves of a sum of heaps.
//!
//! An octal code `d0.d1d2d3...` says, for each number r of tokens taken, what may be left of the
//! heap: digit d_r is a sum of 1 (nothing: only when the whole heap is taken), 2 (one heap) and
//! 4 (two non-empty heaps). Kayles is 0.77, Dawson's Kayles 0.07, Dawson's chess 0.137. The digit
//! before the point is for r = 0: only 4 (split without taking) makes sense there.

use std::fmt;

use serde::Serialize;

use super::take_set::TakeSet;

/// An octal code: `digits[r]` is the digit for taking r tokens (`digits[0]` the one before the
/// point).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    digits: Vec<u8>,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum OctalError {
    #[error(
        "'{text}' is not an octal code: write digits 0-7 after a point, like 0.77 (Kayles) or 4.7, or a name ({names})"
    )]
    Syntax { text: String, names: String },
    #[error(
        "'{text}': the digit before the point may only be 0 or 4 (4: split a heap in two without taking); {digit} would let a player pass"
    )]
    Leading { text: String, digit: u8 },
    #[error("'{text}' allows no move at all: give at least one non-zero digit")]
    NoMove { text: String },
    #[error("'{text}': at most {max} digits after the point")]
    TooLong { text: String, max: usize },
}

/// The longest code taken: a move takes at most this many tokens.
pub const MAX_DIGITS: usize = 64;

impl OctalCode {
    /// `0.77`, `.77`, `4.7`, `0·137`.
    pub fn parse(text: &str) -> Result<Self, OctalError> {
        let t = text.trim();
        let syntax = || OctalError::Syntax {
            text: text.to_string(),
            names: NAMES.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
        };
        let (whole, frac) = t
            .split_once('.')
            .or_else(|| t.split_once('·'))
            .ok_or_else(syntax)?;
        let octal = |c: char| c.to_digit(8).map(|d| d as u8);
        let lead = match whole {
            "" => 0,
            w if w.chars().count() == 1 => w.chars().next().and_then(octal).ok_or_else(syntax)?,
            _ => return Err(syntax()),
        };
        if lead != 0 && lead != 4 {
            return Err(OctalError::Leading {
                text: text.to_string(),
                digit: lead,
            });
        }
        let mut digits = vec![lead];
        for c in frac.chars() {
            digits.push(octal(c).ok_or_else(syntax)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() - 1 > MAX_DIGITS {
            return Err(OctalError::TooLong {
                text: text.to_string(),
                max: MAX_DIGITS,
            });
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(OctalError::NoMove {
                text: text.to_string(),
            });
        }
        Ok(Self { digits })
    }

    /// The most tokens a move takes (t in the periodicity theorem).
    pub fn max_take(&self) -> u64 {
        (self.digits.len() - 1) as u64
    }

    pub fn digit(&self, r: usize) -> u8 {
        self.digits.get(r).copied().unwrap_or(0)
    }

    /// Whether some move splits a heap in two.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            write!(f, "0")?;
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A game played on heaps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeapGame {
    /// Take any number of tokens from one heap.
    Nim,
    Octal(OctalCode),
    /// Take an amount in the set from one heap (never split).
    Subtraction(TakeSet),
    /// Split a heap into two unequal non-empty heaps (not an octal game).
    Grundys,
}

/// A named game, for `lifelab grundy octal kayles` and the app.
pub struct Named {
    pub name: &'static str,
    pub code: &'static str,
    pub about: &'static str,
}

/// Names of well-known heap games (Winning Ways, chapter 4).
pub const NAMES: &[Named] = &[
    Named {
        name: "kayles",
        code: "0.77",
        about: "knock down one pin or two adjacent pins from a row",
    },
    Named {
        name: "dawsons-kayles",
        code: "0.07",
        about: "knock down two adjacent pins",
    },
    Named {
        name: "dawsons-chess",
        code: "0.137",
        about: "pawns on a 3 x n board; 0.137",
    },
    Named {
        name: "treblecross",
        code: "0.007",
        about: "one-dimensional tic-tac-toe with crosses only",
    },
    Named {
        name: "guiles",
        code: "0.15",
        about: "take 1 token from a heap of 1, or 2 leaving 0, 1 or 2 heaps",
    },
    Named {
        name: "officers",
        code: "0.6",
        about: "take 1 token, leaving one or two non-empty heaps",
    },
    Named {
        name: "grundys-game",
        code: "",
        about: "split a heap into two unequal heaps",
    },
    Named {
        name: "nim",
        code: "",
        about: "take any number from one heap",
    },
];

impl HeapGame {
    /// A name from [`NAMES`] or an octal code.
    pub fn parse(text: &str) -> Result<Self, OctalError> {
        let key: String = text
            .trim()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '.' || *c == '·')
            .flat_map(char::to_lowercase)
            .collect();
        match key.as_str() {
            "grundysgame" | "grundys" | "grundy" => return Ok(HeapGame::Grundys),
            "nim" => return Ok(HeapGame::Nim),
            _ => {}
        }
        if let Some(n) = NAMES
            .iter()
            .find(|n| !n.code.is_empty() && n.name.replace('-', "") == key)
        {
            return OctalCode::parse(n.code).map(HeapGame::Octal);
        }
        OctalCode::parse(text).map(HeapGame::Octal)
    }

    /// The game's name, when it has one, else its code.
    pub fn name(&self) -> String {
        match self {
            HeapGame::Nim => "Nim".into(),
            HeapGame::Grundys => "Grundy's game".into(),
            HeapGame::Subtraction(t) => format!("subtraction game, take {t}"),
            HeapGame::Octal(code) => {
                let c = code.to_string();
                match NAMES.iter().find(|n| n.code == c) {
                    Some(n) => format!("{} ({c})", n.name),
                    None => c,
                }
            }
        }
    }

    /// Every move from a heap of `n`: `f(taken, a, b)` leaves heaps `a <= b`, 0 meaning no
    /// heap (an empty heap has no moves, so it is the same as none).
    pub fn for_each_option(&self, n: u64, mut f: impl FnMut(u64, u64, u64)) {
        match self {
            HeapGame::Nim => (1..=n).for_each(|r| f(r, 0, n - r)),
            HeapGame::Subtraction(take) => {
                for r in take.amounts(n) {
                    f(r, 0, n - r);
                }
            }
            HeapGame::Grundys => {
                for a in 1..n.div_ceil(2) {
                    f(0, a, n - a);
                }
            }
            HeapGame::Octal(code) => {
                for r in 0..=code.max_take().min(n) {
                    let d = code.digit(r as usize);
                    let left = n - r;
                    if d & 1 != 0 && left == 0 {
                        f(r, 0, 0);
                    }
                    if d & 2 != 0 && left > 0 && r > 0 {
                        f(r, 0, left);
                    }
                    if d & 4 != 0 && left >= 2 {
                        for a in 1..=left / 2 {
                            f(r, a, left - a);
                        }
                    }
                }
            }
        }
    }

    /// About how many options `values(upto)` looks at: what its time grows with (saturating:
    /// a heap near 2^64 squared does not fit even in 128 bits).
    pub fn cost(&self, upto: u64) -> u128 {
        let n = upto as u128 + 1;
        match self {
            HeapGame::Nim => n,
            // A range of amounts slides a window (see `range_values`): a word per 64 amounts.
            HeapGame::Subtraction(TakeSet::Range { .. }) => {
                n.saturating_mul(t_words(self, upto) + 1)
            }
            HeapGame::Subtraction(t) => n.saturating_mul(t.count().min(upto) as u128 + 1),
            HeapGame::Grundys => (n / 2).saturating_mul(n / 2).saturating_add(n),
            HeapGame::Octal(code) => {
                let splits = code.digits.iter().filter(|d| **d & 4 != 0).count() as u128;
                (n / 2)
                    .saturating_mul(n / 2)
                    .saturating_mul(splits)
                    .saturating_add(n.saturating_mul(code.max_take() as u128 + 1))
            }
        }
    }

    /// How many moves a heap of `n` has, about: what a direct search would build for it.
    pub fn options_at(&self, n: u64) -> u128 {
        let n = n as u128;
        match self {
            HeapGame::Nim => n,
            HeapGame::Subtraction(t) => (t.count() as u128).min(n),
            HeapGame::Grundys => n / 2,
            HeapGame::Octal(code) => {
                let splits = code.digits.iter().filter(|d| **d & 4 != 0).count() as u128;
                splits * (n / 2) + code.max_take() as u128 + 1
            }
        }
    }

    /// g(0), ..., g(upto): the nim-sequence, each value the mex of its options'.
    pub fn values(&self, upto: u64) -> Vec<u32> {
        if *self == HeapGame::Nim {
            return (0..=upto).map(|n| n.min(u32::MAX as u64) as u32).collect();
        }
        if let HeapGame::Subtraction(TakeSet::Range { min, max }) = self {
            return range_values(*min, *max, upto);
        }
        let mut g: Vec<u32> = Vec::with_capacity(upto as usize + 1);
        let mut mex = Mex::default();
        for n in 0..=upto {
            mex.clear();
            self.for_each_option(n, |_, a, b| mex.insert(g[a as usize] ^ g[b as usize]));
            g.push(mex.value());
        }
        g
    }
}

/// The words of the window `range_values` scans for a mex.
fn t_words(game: &HeapGame, upto: u64) -> u128 {
    match game {
        HeapGame::Subtraction(t) => (t.count().min(upto) as u128).div_ceil(64),
        _ => 0,
    }
}

/// g(0..=upto) of the subtraction game that takes `min..=max`: g(n) is the mex of the window
/// g(n - max..=n - min), which slides by one value each step. The window's values are counted,
/// and a bit per value says which are present, so each mex is a scan of words, not of the
/// amounts (take 1..20000 to 80,000 values: 9 s by the options, 0.1 s by the window).
fn range_values(min: u64, max: u64, upto: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto as usize + 1);
    let mut count: Vec<u32> = Vec::new();
    let mut present: Vec<u64> = Vec::new();
    for n in 0..=upto {
        if n >= min {
            let v = g[(n - min) as usize] as usize;
            if v >= count.len() {
                count.resize(v + 1, 0);
                present.resize(v / 64 + 1, 0);
            }
            count[v] += 1;
            present[v / 64] |= 1 << (v % 64);
        }
        if n > max {
            let v = g[(n - max - 1) as usize] as usize;
            count[v] -= 1;
            if count[v] == 0 {
                present[v / 64] &= !(1 << (v % 64));
            }
        }
        let mex = match present.iter().position(|&w| w != u64::MAX) {
            Some(i) => i * 64 + present[i].trailing_ones() as usize,
            None => present.len() * 64,
        };
        g.push(mex as u32);
    }
    g
}

/// The mex of a set of small numbers, with a stamp per value so that clearing costs nothing.
#[derive(Default)]
pub struct Mex {
    stamp: Vec<u32>,
    now: u32,
}

impl Mex {
    pub fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.now = 1;
        }
    }

    pub fn insert(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamp.len() {
            self.stamp.resize(v + 1, 0);
        }
        self.stamp[v] = self.now;
    }

    pub fn value(&self) -> u32 {
        self.stamp
            .iter()
            .position(|&s| s != self.now)
            .unwrap_or(self.stamp.len()) as u32
    }
}

/// A period of the nim-sequence and how it was established.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// g(n + period) = g(n) for every n >= preperiod.
    pub preperiod: u64,
    pub period: u64,
    /// Proved by the theorem named in `theorem`: the values checked reach `needed`.
    pub certified: bool,
    /// The last n with g(n) != g(n + period), if any: the last exceptional value.
    pub last_exception: Option<u64>,
    /// g(n + period) = g(n) was checked for every n in preperiod..checked_to.
    pub checked_to: u64,
    /// The theorem asks for the check up to here.
    pub needed: u64,
    pub theorem: String,
}

impl HeapGame {
    /// The theorem that certifies a period, and the n up to which it asks g(n + p) = g(n) to be
    /// checked, from n0 = preperiod.
    fn needed(&self, n0: u64, p: u64) -> Option<(u64, String)> {
        match self {
            HeapGame::Octal(code) => {
                // Guy and Smith: with moves taking at most t tokens, g(n + p) = g(n) for
                // n0 <= n < 2 n0 + p + t implies it for every n >= n0. (t at least 1, which only
                // asks for more: it keeps the proof's heaps non-empty when a split takes none.)
                let t = code.max_take().max(1);
                Some((
                    2 * n0 + p + t,
                    format!(
                        "Guy–Smith periodicity theorem: t = {t} (the most tokens a move takes); \
                         g(n + {p}) = g(n) for {n0} <= n < 2*{n0} + {p} + {t} = {} implies it \
                         for all n >= {n0}",
                        2 * n0 + p + t
                    ),
                ))
            }
            HeapGame::Subtraction(take) => {
                // g(n) depends only on the k values before it (k the largest amount), so k
                // consecutive values that repeat repeat forever.
                let k = take.max();
                let end = n0.checked_add(k)?;
                Some((
                    end,
                    format!(
                        "g(n) is the mex of the {k} values before it, so once g(n + {p}) = g(n) \
                         for {k} consecutive n ({n0} <= n < {end}) it holds for all n >= {n0}"
                    ),
                ))
            }
            HeapGame::Nim | HeapGame::Grundys => None,
        }
    }

    /// The period of `values`, certified when the values reach what the theorem asks. The
    /// smallest period is found first; its preperiod is the smallest there is. `None` when no
    /// period shows at least three times.
    pub fn periodicity(&self, values: &[u32]) -> Option<Periodicity> {
        let len = values.len() as u64;
        let mut apparent = None;
        for p in 1..=len / 2 {
            // The last n with g(n) != g(n + p).
            let mut n = len - p;
            while n > 0 && values[(n - 1) as usize] == values[(n - 1 + p) as usize] {
                n -= 1;
            }
            let n0 = n;
            let checked_to = len - p;
            let Some((needed, theorem)) = self.needed(n0, p) else {
                if apparent.is_none() && checked_to >= n0 + 3 * p {
                    apparent = Some(Periodicity {
                        preperiod: n0,
                        period: p,
                        certified: false,
                        last_exception: n0.checked_sub(1),
                        checked_to,
                        needed: u64::MAX,
                        theorem: "no periodicity theorem applies to this game".into(),
                    });
                }
                continue;
            };
            let found = Periodicity {
                preperiod: n0,
                period: p,
                certified: checked_to >= needed,
                last_exception: n0.checked_sub(1),
                checked_to,
                needed,
                theorem,
            };
            if found.certified {
                return Some(found);
            }
            if apparent.is_none() && checked_to >= n0 + 3 * p {
                apparent = Some(found);
            }
        }
        apparent
    }

    /// Values up to at least `upto`, grown (doubling) until a period is certified or the work
    /// would exceed `budget` options; with the periodicity found.
    pub fn search_period(&self, upto: u64, budget: u128) -> (Vec<u32>, Option<Periodicity>) {
        let mut len = (upto + 1).max(256);
        let mut budget = budget;
        if let HeapGame::Subtraction(t) = self {
            // Room for the window the certificate needs, and a period as long as it: the
            // search grows with the take-set, up to 8 times the budget.
            let window = t.max().saturating_mul(4).min(1 << 24);
            len = len.max(window);
            budget = budget.max(self.cost(window - 1).min(budget * 8));
        }
        while len > upto + 1 && self.cost(len - 1) > budget {
            len = (len / 2).max(upto + 1);
        }
        loop {
            let values = self.values(len - 1);
            let found = self.periodicity(&values);
            let certified = found.as_ref().is_some_and(|p| p.certified);
            if certified || matches!(self, HeapGame::Nim | HeapGame::Grundys) {
                return (values, found);
            }
            // An apparent period whose certificate needs a little more than doubling can
            // afford: compute exactly what the theorem asks (0.4143's period 21 from 10,648 is
            // certified at 21,342 values, not 32,768).
            if let Some(p) = found.as_ref().filter(|p| p.needed != u64::MAX) {
                let want = p.needed.saturating_add(p.period);
                if want > len && self.cost(want - 1) <= budget.saturating_mul(4) {
                    let more = self.values(want - 1);
                    let again = self.periodicity(&more);
                    if again.as_ref().is_some_and(|p| p.certified) {
                        return (more, again);
                    }
                }
            }
            let next = len.saturating_mul(2);
            if self.cost(next) > budget {
                return (values, found);
            }
            len = next;
        }
    }

    /// g(n), through a certified period where `values` stops short of n.
    pub fn value_at(values: &[u32], period: Option<&Periodicity>, n: u64) -> Option<u32> {
        if let Some(&v) = values.get(n as usize) {
            return Some(v);
        }
        let p = period.filter(|p| p.certified)?;
        let at = p.preperiod + (n - p.preperiod) % p.period;
        values.get(at as usize).copied()
    }
}

/// A move in a sum of heaps: from heap `heap` (counted from 0), take `take` tokens, leaving
/// `leaves` tokens in it, split `into` two heaps when there are two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapMove {
    pub heap: usize,
    pub take: u64,
    pub leaves: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub into: Option<[u64; 2]>,
}

impl HeapMove {
    /// The move in words, heaps counted from 1 as everywhere a person reads them.
    pub fn describe(&self, heaps: &[u64]) -> String {
        let from = heaps.get(self.heap).copied().unwrap_or(0);
        let taking = if self.take == 0 {
            "take nothing".to_string()
        } else {
            format!("take {}", self.take)
        };
        let what = match self.into {
            Some([a, b]) => format!("{taking} and split the rest into {a} and {b}"),
            None if self.leaves == 0 => format!("{taking}, leaving nothing"),
            None => format!("{taking}, leaving {}", self.leaves),
        };
        format!("heap {} (of {from}): {what}", self.heap + 1)
    }
}

/// The position after a move.
pub fn apply(heaps: &[u64], m: &HeapMove) -> Vec<u64> {
    let mut out = heaps.to_vec();
    match m.into {
        Some([a, b]) => {
            out[m.heap] = a;
            out.insert(m.heap + 1, b);
        }
        None => out[m.heap] = m.leaves,
    }
    out
}

/// Every legal move from `heaps`, in heap order.
pub fn moves(game: &HeapGame, heaps: &[u64]) -> Vec<HeapMove> {
    let mut out = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        game.for_each_option(h, |take, a, b| {
            out.push(HeapMove {
                heap: i,
                take,
                leaves: a + b,
                into: (a > 0).then_some([a, b]),
            })
        });
    }
    out
}

/// The value of a sum of heaps (the XOR of the heaps' g) and every move to a sum of value 0.
/// `values` must reach the largest heap.
pub fn winning_moves(game: &HeapGame, values: &[u32], heaps: &[u64]) -> (u32, Vec<HeapMove>) {
    let w = moves_to_value(game, values, None, heaps, 0, usize::MAX)
        .expect("the values reach every heap");
    (w.total, w.moves)
}

/// The most moves a position's answer lists; [`Moves::count`] says how many there are.
pub const MAX_LISTED: usize = 1000;

/// The moves of a position of heaps to a given value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moves {
    /// The XOR of the heaps' values.
    pub total: u32,
    /// The first moves, heap by heap, each heap's in the order of [`HeapGame::for_each_option`].
    pub moves: Vec<HeapMove>,
    /// How many there are in all (more than listed for a huge heap that splits; saturating at
    /// 2^64 - 1, which three heaps near 2^64 of game 4.0 reach).
    pub count: u64,
}

/// Every move from `heaps` to a position of value `target` (0: the winning moves), the first
/// `limit` of them listed. g(n) comes from `values`, and beyond them from `period` when it is
/// certified, so a heap of any size is answered. The splits of a heap past the values are
/// counted by residue: there both parts lie in the periodic range, so whether a split works
/// depends only on the smaller part modulo the period. `Err(n)`: the value of a heap of `n`
/// is not known.
pub fn moves_to_value(
    game: &HeapGame,
    values: &[u32],
    period: Option<&Periodicity>,
    heaps: &[u64],
    target: u32,
    limit: usize,
) -> Result<Moves, u64> {
    let g = |n: u64| HeapGame::value_at(values, period, n).ok_or(n);
    let mut total = 0;
    for &h in heaps {
        total ^= g(h)?;
    }
    let mut out = Moves {
        total,
        moves: Vec::new(),
        count: 0,
    };
    if total == target {
        // No move keeps a value (the mex excludes it).
        return Ok(out);
    }
    for (i, &h) in heaps.iter().enumerate() {
        let need = g(h)? ^ total ^ target;
        let mut add = Add {
            out: &mut out,
            heap: i,
            limit,
        };
        match game {
            HeapGame::Nim => {
                if (need as u64) < h {
                    add.one(h - need as u64, 0, need as u64);
                }
            }
            HeapGame::Subtraction(take) => {
                for r in take.amounts(h) {
                    if g(h - r)? == need {
                        add.one(r, 0, h - r);
                    }
                }
            }
            HeapGame::Grundys => {
                if h >= 3 {
                    add.splits(values, period, need, 0, h, h.div_ceil(2) - 1)?;
                }
            }
            HeapGame::Octal(code) => {
                for r in 0..=code.max_take().min(h) {
                    let d = code.digit(r as usize);
                    let left = h - r;
                    if d & 1 != 0 && left == 0 && need == 0 {
                        add.one(r, 0, 0);
                    }
                    if d & 2 != 0 && left > 0 && r > 0 && g(left)? == need {
                        add.one(r, 0, left);
                    }
                    if d & 4 != 0 && left >= 2 {
                        add.splits(values, period, need, r, left, left / 2)?;
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Counts and lists the moves of one heap.
struct Add<'a> {
    out: &'a mut Moves,
    heap: usize,
    limit: usize,
}

impl Add<'_> {
    fn one(&mut self, take: u64, a: u64, b: u64) {
        self.out.count = self.out.count.saturating_add(1);
        if self.out.moves.len() < self.limit {
            self.out.moves.push(HeapMove {
                heap: self.heap,
                take,
                leaves: a + b,
                into: (a > 0).then_some([a, b]),
            });
        }
    }

    /// The splits of `left` into a and left - a, for 1 <= a <= hi, whose values XOR to `need`.
    fn splits(
        &mut self,
        values: &[u32],
        period: Option<&Periodicity>,
        need: u32,
        take: u64,
        left: u64,
        hi: u64,
    ) -> Result<(), u64> {
        let g = |n: u64| HeapGame::value_at(values, period, n).ok_or(n);
        let known = values.len() as u64;
        // Where a is among the values computed, each split is tried.
        let direct = if left < known {
            hi
        } else {
            hi.min(known.saturating_sub(1))
        };
        for a in 1..=direct {
            if g(a)? ^ g(left - a)? == need {
                self.one(take, a, left - a);
            }
        }
        let first = direct + 1;
        if first > hi {
            return Ok(());
        }
        // Beyond them both parts are periodic (a >= known > preperiod, and left - a >= a).
        let p = period.filter(|p| p.certified).ok_or(left)?.period;
        let mut classes = Vec::new();
        for a in first..=hi.min(first + p - 1) {
            if g(a)? ^ g(left - a)? == need {
                classes.push(a);
            }
        }
        for &a0 in &classes {
            self.out.count = self.out.count.saturating_add((hi - a0) / p + 1);
        }
        let mut k = 0u64;
        while self.out.moves.len() < self.limit {
            let row: Vec<u64> = classes
                .iter()
                .map(|&a0| a0 + k * p)
                .filter(|&a| a <= hi)
                .collect();
            if row.is_empty() {
                break;
            }
            for a in row.into_iter().take(self.limit - self.out.moves.len()) {
                self.out.moves.push(HeapMove {
                    heap: self.heap,
                    take,
                    leaves: left,
                    into: Some([a, left - a]),
                });
            }
            k += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_print() {
        assert_eq!(OctalCode::parse("0.77").unwrap().to_string(), "0.77");
        assert_eq!(OctalCode::parse(".137").unwrap().to_string(), "0.137");
        assert_eq!(OctalCode::parse("4.70").unwrap().to_string(), "4.7");
        assert!(matches!(
            OctalCode::parse("0.78"),
            Err(OctalError::Syntax { .. })
        ));
        assert!(matches!(
            OctalCode::parse("2.7"),
            Err(OctalError::Leading { digit: 2, .. })
        ));
        assert!(matches!(
            OctalCode::parse("0.00"),
            Err(OctalError::NoMove { .. })
        ));
        assert_eq!(
            HeapGame::parse("Kayles").unwrap(),
            HeapGame::parse("0.77").unwrap()
        );
    }

    #[test]
    fn mex_clears_by_stamp() {
        let mut m = Mex::default();
        m.clear();
        [0, 1, 3].into_iter().for_each(|v| m.insert(v));
        assert_eq!(m.value(), 2);
        m.clear();
        m.insert(1);
        assert_eq!(m.value(), 0);
    }
}
