//! Nim, after Bouton (1901): n heaps, a move takes any positive number of stones from one
//! heap, and whoever takes the last stone wins. A position is lost for the player to move
//! exactly when the nim-sum (the XOR of the heaps) is 0, and the winning moves are those that
//! make it 0.

use serde::Serialize;

/// A move: take `take` stones from heap `heap` (counted from 0), leaving `leaves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NimMove {
    pub heap: usize,
    pub take: u64,
    pub leaves: u64,
}

/// A heap that is not a number of stones.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeapError {
    #[error("heap {index}: '{text}' is negative; a heap holds 0 or more stones")]
    Negative { index: usize, text: String },
    #[error(
        "heap {index}: '{text}' is not a number of stones (a whole number from 0 to 18446744073709551615)"
    )]
    NotANumber { index: usize, text: String },
}

/// Heaps as typed, each a whole number of stones; `index` in errors counts from 1.
pub fn parse_heaps<S: AsRef<str>>(words: &[S]) -> Result<Vec<u64>, HeapError> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| parse_heap(i + 1, w.as_ref()))
        .collect()
}

/// Heap `index` (counted from 1) as typed.
pub fn parse_heap(index: usize, word: &str) -> Result<u64, HeapError> {
    let text = word.trim().to_string();
    // '-' or the Unicode minus, then digits.
    let digits = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('\u{2212}'));
    let negative = digits.is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
    if negative {
        return Err(HeapError::Negative { index, text });
    }
    text.parse::<u64>()
        .map_err(|_| HeapError::NotANumber { index, text })
}

/// A heap in a text of heaps, with where it was written.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {error}")]
pub struct TextHeapError {
    pub line: usize,
    pub column: usize,
    pub error: HeapError,
}

/// Heaps separated by white space (or commas) over any number of lines, as from a file: a
/// million heaps do not fit on a command line. `#` starts a comment.
pub fn parse_heaps_text(text: &str) -> Result<Vec<u64>, TextHeapError> {
    let mut heaps = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        // (column in characters, byte offset) of the word being read: each word is sliced
        // once, so a line of a million heaps costs what its length does.
        let mut start: Option<(usize, usize)> = None;
        let ends = line.char_indices().chain([(line.len(), ' ')]);
        for (column, (byte, c)) in ends.enumerate() {
            let sep = c.is_whitespace() || c == ',';
            match (sep, start) {
                (false, None) => start = Some((column, byte)),
                (true, Some((s, from))) => {
                    let h = parse_heap(heaps.len() + 1, &line[from..byte]).map_err(|error| {
                        TextHeapError {
                            line: l + 1,
                            column: s + 1,
                            error,
                        }
                    })?;
                    heaps.push(h);
                    start = None;
                }
                _ => {}
            }
        }
    }
    Ok(heaps)
}

/// The XOR of the heaps.
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |acc, &h| acc ^ h)
}

/// Whether the player to move wins (with best play).
pub fn first_player_wins(heaps: &[u64]) -> bool {
    nim_sum(heaps) != 0
}

/// Every winning move: from each heap h whose bit at the nim-sum's highest bit is set, reduce
/// it to h XOR s (which is smaller). Empty when the position is lost.
pub fn winning_moves(heaps: &[u64]) -> Vec<NimMove> {
    let s = nim_sum(heaps);
    heaps
        .iter()
        .enumerate()
        .filter_map(|(heap, &h)| {
            let target = h ^ s;
            (target < h).then_some(NimMove {
                heap,
                take: h - target,
                leaves: target,
            })
        })
        .collect()
}

/// Every legal move (for the computer's reply when it has no winning one).
pub fn all_moves(heaps: &[u64]) -> impl Iterator<Item = NimMove> + '_ {
    heaps.iter().enumerate().flat_map(|(heap, &h)| {
        (1..=h).map(move |take| NimMove {
            heap,
            take,
            leaves: h - take,
        })
    })
}

/// The computer's reply and why: a winning move when there is one (the one that takes the
/// fewest stones), otherwise one stone from the largest heap, which keeps the game long and
/// leaves the opponent the most chances to go wrong. Heaps are counted from 1 in the words.
pub fn reply(heaps: &[u64]) -> Option<(NimMove, String)> {
    let s = nim_sum(heaps);
    if let Some(m) = winning_moves(heaps).into_iter().min_by_key(|m| m.take) {
        let why = format!(
            "nim-sum {s} = {s:b} in binary; heap {} goes from {} to {} = {} XOR {s}, so the \
             nim-sum becomes 0 and the opponent is left in a lost position",
            m.heap + 1,
            heaps[m.heap],
            m.leaves,
            heaps[m.heap]
        );
        return Some((m, why));
    }
    let (heap, &h) = heaps.iter().enumerate().max_by_key(|(_, h)| **h)?;
    if h == 0 {
        return None;
    }
    Some((
        NimMove {
            heap,
            take: 1,
            leaves: h - 1,
        },
        "the nim-sum is 0: every move loses against best play, so take one stone from the \
         largest heap to keep the game long"
            .to_string(),
    ))
}

/// Why a listing of lost positions cannot be made.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListingError {
    #[error("--lost {0}: the number of heaps must be between 1 and 8")]
    Heaps(usize),
    #[error(
        "--max {max}: the listing would hold about {estimate} positions, more than the {limit} lifelab lists; choose a smaller bound"
    )]
    TooLarge {
        max: u64,
        estimate: u128,
        limit: u128,
    },
}

/// The most positions a listing may hold (each a few words: about 400 MiB).
pub const LISTING_LIMIT: u128 = 10_000_000;

/// All lost positions of `n`-heap Nim with every heap at most `max`. Convention: heaps are
/// unordered, so each position is listed once, as a non-decreasing tuple, and the list is
/// sorted; empty heaps count, so (0, 0, 0) and (0, k, k) are included.
pub fn lost_positions(n: usize, max: u64) -> Result<Vec<Vec<u64>>, ListingError> {
    lost_positions_from(n, 0, max)
}

/// The same with every heap between `min` and `max`: `min` 1 leaves out empty heaps, the
/// convention that counts 45 lost positions of three heaps up to 20.
pub fn lost_positions_from(n: usize, min: u64, max: u64) -> Result<Vec<Vec<u64>>, ListingError> {
    if n == 0 || n > 8 {
        return Err(ListingError::Heaps(n));
    }
    // With n - 1 heaps free and the last one fixed by the XOR, roughly (max+1)^(n-1) / (n-1)!
    // tuples, of which a fraction survive; the estimate errs high.
    let free = (n - 1) as u32;
    let estimate = (max as u128 + 1).saturating_pow(free) / (1..=free as u128).product::<u128>();
    if estimate > LISTING_LIMIT {
        return Err(ListingError::TooLarge {
            max,
            estimate,
            limit: LISTING_LIMIT,
        });
    }
    let mut out = Vec::new();
    let mut prefix = Vec::with_capacity(n);
    extend(&mut prefix, n, (min, max), &mut out);
    Ok(out)
}

/// Depth-first over non-decreasing prefixes; the last heap is the XOR of the others.
fn extend(prefix: &mut Vec<u64>, n: usize, (min, max): (u64, u64), out: &mut Vec<Vec<u64>>) {
    if prefix.len() == n - 1 {
        let last = nim_sum(prefix);
        if last <= max && last >= min && prefix.last().is_none_or(|&p| last >= p) {
            let mut p = prefix.clone();
            p.push(last);
            out.push(p);
        }
        return;
    }
    let from = prefix.last().copied().unwrap_or(min);
    for h in from..=max {
        prefix.push(h);
        extend(prefix, n, (min, max), out);
        prefix.pop();
    }
}

/// The table of x XOR y for 0 <= x, y < q: the nim-sum table, equal to the Sprague–Grundy
/// values of two-heap Nim.
pub fn xor_table(q: u64) -> Vec<Vec<u64>> {
    (0..q).map(|x| (0..q).map(|y| x ^ y).collect()).collect()
}
