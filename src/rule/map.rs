//! Rules given by what a cell becomes for each of the 512 states of its 3x3 block. Three
//! notations of Golly's share this one table:
//! - isotropic non-totalistic rules in Hensel notation (`B2-a/S12`, `B3_S23-a4ei6`);
//! - `MAP` strings, the table itself in base64 (Moore, hexagonal and von Neumann lengths);
//! - the 2D form of Wolfram's rules that Golly runs when a pattern file says `W22`: each
//!   generation is the row below the last, and live cells stay.
//!
//! A block's index follows Golly's MAP order: NW is bit 8, then N, NE, W, the centre (bit 4), E,
//! SW, S, and SE is bit 0. The first bit of a MAP string is the outcome for index 0.

use std::fmt;
use std::sync::OnceLock;

use super::Neighbourhood;

pub const NW: u16 = 1 << 8;
pub const N: u16 = 1 << 7;
pub const NE: u16 = 1 << 6;
pub const W: u16 = 1 << 5;
pub const CENTRE: u16 = 1 << 4;
pub const E: u16 = 1 << 3;
pub const SW: u16 = 1 << 2;
pub const S: u16 = 1 << 1;
pub const SE: u16 = 1;

/// The index bit of the cell at (dx, dy) from the centre; y grows downwards.
pub fn bit_at(dx: i32, dy: i32) -> u16 {
    1 << (8 - ((dy + 1) * 3 + dx + 1))
}

/// The cells of the 3x3 block a neighbourhood looks at, as index bits.
pub fn mask(neighbourhood: Neighbourhood) -> u16 {
    match neighbourhood {
        Neighbourhood::Moore => 0x1ff,
        Neighbourhood::Hexagonal => 0x1ff & !(NE | SW),
        Neighbourhood::VonNeumann => N | W | CENTRE | E | S,
    }
}

/// How the rule was written, which is how it is printed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapNotation {
    /// Hensel's letters after each count, printed in Golly's canonical form.
    Hensel,
    /// `MAP` and the table in base64.
    Map,
    /// Wolfram's rule of this even number, in Golly's 2D form.
    Wolfram2d(u8),
}

/// A two-state rule on the 3x3 block, given by its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapRule {
    /// Which cells of the block the table depends on.
    pub neighbourhood: Neighbourhood,
    pub notation: MapNotation,
    /// Bit i: the cell is alive next generation when its block has index i.
    table: [u64; 8],
}

impl MapRule {
    /// The rule whose outcome for each block is `f(index)`, where `f` sees only the cells of
    /// the neighbourhood (the others are cleared from the index it is given).
    pub fn from_fn(
        neighbourhood: Neighbourhood,
        notation: MapNotation,
        f: impl Fn(u16) -> bool,
    ) -> Self {
        let m = mask(neighbourhood);
        let mut table = [0u64; 8];
        for i in 0..512u16 {
            if f(i & m) {
                table[i as usize / 64] |= 1 << (i % 64);
            }
        }
        Self {
            neighbourhood,
            notation,
            table,
        }
    }

    /// Golly's 2D form of an even Wolfram rule: a dead cell is born by the rule from the three
    /// cells above it (left, centre, right, the rule's bits 2, 1, 0), and a live cell stays.
    pub fn wolfram_2d(number: u8) -> Self {
        Self::from_fn(Neighbourhood::Moore, MapNotation::Wolfram2d(number), |i| {
            let above = (i & NW != 0) as u8 * 4 + (i & N != 0) as u8 * 2 + (i & NE != 0) as u8;
            i & CENTRE != 0 || number >> above & 1 == 1
        })
    }

    /// The same rule with rows and columns swapped, for a grid held transposed. (Each of the
    /// three neighbourhoods is its own transpose.)
    pub fn transposed(&self) -> Self {
        Self::from_fn(self.neighbourhood, self.notation, |i| {
            self.next(permuted(i, |x, y| (y, x)))
        })
    }

    /// The next state of a cell whose block has this index.
    #[inline]
    pub fn next(&self, index: u16) -> bool {
        self.table[index as usize / 64] >> (index % 64) & 1 == 1
    }

    /// Whether a dead cell in an empty block is born (B0).
    pub fn births_from_nothing(&self) -> bool {
        self.next(0)
    }

    /// The table, bit i of the whole for index i.
    pub fn table(&self) -> [u64; 8] {
        self.table
    }

    /// Whether the rule depends only on the centre and the number of live neighbours: then it
    /// is a Life-like rule, returned as its birth and survival counts.
    pub fn totalistic(&self) -> Option<(Vec<u8>, Vec<u8>)> {
        let m = mask(self.neighbourhood);
        let mut counts: [[Option<bool>; 9]; 2] = [[None; 9]; 2];
        for i in 0..512u16 {
            if i & !m != 0 {
                continue;
            }
            let alive = (i & CENTRE != 0) as usize;
            let n = (i & !CENTRE).count_ones() as usize;
            let out = self.next(i);
            match counts[alive][n] {
                None => counts[alive][n] = Some(out),
                Some(o) if o != out => return None,
                _ => {}
            }
        }
        let list = |a: usize| {
            (0..9u8)
                .filter(|&n| counts[a][n as usize] == Some(true))
                .collect()
        };
        Some((list(0), list(1)))
    }
}

impl fmt::Display for MapRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.notation {
            MapNotation::Wolfram2d(n) => write!(f, "W{n}"),
            MapNotation::Map => f.write_str(&map_string(self)),
            MapNotation::Hensel => f.write_str(&hensel_string(self)),
        }
    }
}

// --- Hensel notation -------------------------------------------------------------------------

/// The letters, in the order of Golly's bit masks; count n may use the first `LETTERS_AT[n]`.
const LETTERS: &[u8; 13] = b"ceaiknjqrytwz";
const LETTERS_AT: [usize; 9] = [0, 2, 6, 10, 13, 10, 6, 2, 0];

/// Golly's representatives (its `rule_neighborhoods` tables), as raw indices.
const REPRESENTATIVES: [&[u16]; 4] = [
    &[1, 2],
    &[5, 10, 3, 40, 33, 68],
    &[69, 42, 11, 7, 98, 13, 14, 70, 41, 97],
    &[325, 170, 15, 45, 99, 71, 106, 102, 43, 101, 105, 78, 108],
];

/// The neighbour block (centre clear) of letter `letter` at count `count`, 1..=7.
fn representative(count: usize, letter: usize) -> u16 {
    if count <= 4 {
        REPRESENTATIVES[count - 1][letter]
    } else {
        REPRESENTATIVES[8 - count - 1][letter] ^ (0x1ff & !CENTRE)
    }
}

/// The block whose cell at t(dx, dy) is the cell of `index` at (dx, dy).
fn permuted(index: u16, t: impl Fn(i32, i32) -> (i32, i32)) -> u16 {
    let mut out = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if index & bit_at(dx, dy) != 0 {
                let (x, y) = t(dx, dy);
                out |= bit_at(x, y);
            }
        }
    }
    out
}

/// The eight images of a block under the square's rotations and reflections.
fn images(index: u16) -> [u16; 8] {
    let mut out = [0u16; 8];
    let mut cur = index;
    for k in 0..4 {
        out[k] = cur;
        out[k + 4] = permuted(cur, |x, y| (x, -y));
        cur = permuted(cur, |x, y| (-y, x));
    }
    out
}

/// Every block's count of live neighbours and letter, indexed by the block (centre either way).
fn class_table() -> &'static [(u8, u8); 512] {
    static TABLE: OnceLock<[(u8, u8); 512]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [(0u8, 0u8); 512];
        for (count, &letters) in LETTERS_AT.iter().enumerate().take(8).skip(1) {
            for letter in 0..letters {
                for image in images(representative(count, letter)) {
                    t[image as usize] = (count as u8, letter as u8);
                    t[(image | CENTRE) as usize] = (count as u8, letter as u8);
                }
            }
        }
        t[(0x1ff & !CENTRE) as usize] = (8, 0);
        t[0x1ff] = (8, 0);
        t
    })
}

// --- Hexagonal letters ---------------------------------------------------------------------

/// The hexagonal neighbourhood's letters (LifeWiki's, as Golly 4 and LifeViewer read them):
/// for two live neighbours `o` (ortho: side by side), `m` (meta: one apart) and `p` (para:
/// opposite); for three `o` (in a row), `m` (the twelve others) and `p` (every other one); for
/// four, the letter of the two dead neighbours' pair.
const HEX_LETTERS: &[u8; 3] = b"omp";
const HEX_LETTERS_AT: [usize; 7] = [0, 0, 3, 3, 3, 0, 0];

/// The six neighbours of a hexagonal cell round the hexagon, as block bits: the 3x3 block
/// without NE and SW, as Golly lays hexagons on the square grid.
const HEX_RING: [u16; 6] = [NW, N, E, SE, S, W];

/// The letter (index into `HEX_LETTERS`) of a hexagonal block (centre either way), for counts
/// 2 to 4; 0 for the others.
fn hex_letter(block: u16) -> usize {
    let ring: Vec<usize> = (0..6).filter(|&k| block & HEX_RING[k] != 0).collect();
    let apart = |a: usize, b: usize| {
        let d = a.abs_diff(b);
        d.min(6 - d)
    };
    match ring.len() {
        2 => apart(ring[0], ring[1]) - 1,
        3 => {
            let gaps = [
                apart(ring[0], ring[1]),
                apart(ring[1], ring[2]),
                apart(ring[0], ring[2]),
            ];
            if gaps.iter().all(|&g| g == 2) {
                2
            } else if gaps.iter().filter(|&&g| g == 1).count() == 2 {
                0
            } else {
                1
            }
        }
        4 => {
            let dead: Vec<usize> = (0..6).filter(|&k| block & HEX_RING[k] == 0).collect();
            apart(dead[0], dead[1]) - 1
        }
        _ => 0,
    }
}

/// Which letters a Hensel rule's counts take: Moore's thirteen or the hexagon's three.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Letters {
    Moore,
    Hexagonal,
}

impl Letters {
    fn all(self) -> &'static [u8] {
        match self {
            Letters::Moore => LETTERS,
            Letters::Hexagonal => HEX_LETTERS,
        }
    }

    /// How many letters count `n` has (0: it is one class).
    fn at(self, n: usize) -> usize {
        match self {
            Letters::Moore => LETTERS_AT[n],
            Letters::Hexagonal => HEX_LETTERS_AT[n],
        }
    }

    fn max_count(self) -> usize {
        match self {
            Letters::Moore => 8,
            Letters::Hexagonal => 6,
        }
    }

    fn neighbourhood(self) -> Neighbourhood {
        match self {
            Letters::Moore => Neighbourhood::Moore,
            Letters::Hexagonal => Neighbourhood::Hexagonal,
        }
    }

    /// Every block (centre clear, nothing outside the neighbourhood) with `count` neighbours.
    fn blocks_with(self, count: usize) -> impl Iterator<Item = u16> {
        let m = mask(self.neighbourhood());
        (0..512u16)
            .filter(move |&i| i & CENTRE == 0 && i & !m == 0 && i.count_ones() as usize == count)
    }

    /// Every block (centre clear) of count `count` and letter `letter`.
    fn blocks_of(self, count: usize, letter: usize) -> impl Iterator<Item = u16> {
        let table = class_table();
        self.blocks_with(count).filter(move |&i| match self {
            Letters::Moore => table[i as usize].1 as usize == letter,
            Letters::Hexagonal => hex_letter(i) == letter,
        })
    }

    /// One block of each count's letter, whose outcome stands for the letter's.
    fn representative(self, count: usize, letter: usize) -> u16 {
        match self {
            Letters::Moore => representative(count, letter),
            Letters::Hexagonal => self
                .blocks_of(count, letter)
                .next()
                .expect("every hexagonal letter has blocks"),
        }
    }
}

/// Parses the B and S parts of a Hensel rule for the Moore neighbourhood, or with `hexagonal`
/// for the hexagonal one (`text` without its `H`); `text` is the whole body (no `:` suffix),
/// columns in errors are 1-based within it.
pub(super) fn parse_hensel(text: &str, hexagonal: bool) -> Result<MapRule, String> {
    let letters = if hexagonal {
        Letters::Hexagonal
    } else {
        Letters::Moore
    };
    let chars: Vec<char> = text.chars().collect();
    // Where the B and S parts start and end.
    let mut b: Option<usize> = None;
    let mut s: Option<usize> = None;
    let mut sep: Option<(usize, char)> = None;
    for (i, &c) in chars.iter().enumerate() {
        match c.to_ascii_lowercase() {
            'b' if b.is_some() => return Err(format!("second 'B' at column {}", i + 1)),
            'b' => b = Some(i),
            's' if s.is_some() => return Err(format!("second 'S' at column {}", i + 1)),
            's' => s = Some(i),
            '/' | '_' => {
                if let Some((j, _)) = sep {
                    return Err(format!(
                        "second separator '{c}' at column {} (the first is at column {})",
                        i + 1,
                        j + 1
                    ));
                }
                sep = Some((i, c));
            }
            _ => {}
        }
    }
    // The part that starts at `start` runs to the separator or the other letter after it.
    let end_of = |start: usize| {
        [sep.map(|(i, _)| i), b, s]
            .into_iter()
            .flatten()
            .filter(|&i| i > start)
            .min()
            .unwrap_or(chars.len())
    };
    let (birth, survival) = match (b, s) {
        (Some(b), Some(s)) => ((b + 1, end_of(b)), (s + 1, end_of(s))),
        (Some(b), None) => ((b + 1, end_of(b)), (chars.len(), chars.len())),
        (None, Some(s)) => ((chars.len(), chars.len()), (s + 1, end_of(s))),
        (None, None) => return Err("a non-totalistic rule needs 'B' and 'S' parts".into()),
    };
    // Nothing may stand outside the two parts but the letters and the separator.
    for (i, &c) in chars.iter().enumerate() {
        let inside = (birth.0..birth.1).contains(&i) || (survival.0..survival.1).contains(&i);
        let marker = Some(i) == b || Some(i) == s || sep.is_some_and(|(j, _)| j == i);
        if !inside && !marker && !c.is_whitespace() {
            return Err(format!(
                "unexpected '{c}' at column {} (a rule starts with 'B' or 'S')",
                i + 1
            ));
        }
    }
    let mut table = [false; 512];
    let mut touched = [[false; 9]; 2];
    for (alive, (start, end)) in [(false, birth), (true, survival)] {
        parse_part(
            &chars,
            (start, end),
            alive,
            letters,
            &mut table,
            &mut touched[alive as usize],
        )?;
    }
    let rule = MapRule::from_fn(letters.neighbourhood(), MapNotation::Hensel, |i| {
        table[i as usize]
    });
    if sep.is_some_and(|(_, c)| c == '_') && rule.totalistic().is_some() {
        return Err(
            "'_' separates the parts of non-totalistic rules only; write '/' (as Golly asks)"
                .into(),
        );
    }
    Ok(rule)
}

/// One part (`2-a3ai`) into the table, as Golly reads it: a count on its own or followed by
/// `-` sets every block of that count first (unless an earlier letter of the count already
/// touched it); each letter then sets its blocks, or clears them after `-`.
fn parse_part(
    chars: &[char],
    (start, end): (usize, usize),
    alive: bool,
    letters: Letters,
    table: &mut [bool; 512],
    touched: &mut [bool; 9],
) -> Result<(), String> {
    let part = if alive { 'S' } else { 'B' };
    let max = letters.max_count();
    let all = letters.all();
    let centre = if alive { CENTRE } else { 0 };
    let mut count: Option<usize> = None;
    let mut negative = false;
    let mut i = start;
    while i < end {
        let c = chars[i];
        let col = i + 1;
        i += 1;
        if c.is_whitespace() {
            // A letter after a space belongs to no count (Golly would read `S23 j` as S23j).
            count = None;
            continue;
        }
        if let Some(d) = c.to_digit(10) {
            let d = d as usize;
            if d > max {
                return Err(format!(
                    "neighbour count {d} at column {col} in {part} is outside 0..{max}"
                ));
            }
            count = Some(d);
            negative = false;
            let next = chars[i..end].iter().find(|c| !c.is_whitespace());
            let lettered = next.is_some_and(|n| all.contains(&(n.to_ascii_lowercase() as u8)));
            if !lettered && !touched[d] {
                for block in letters.blocks_with(d) {
                    table[(block | centre) as usize] = true;
                }
            }
            touched[d] = true;
            continue;
        }
        let Some(n) = count else {
            return Err(format!(
                "unexpected '{c}' at column {col} in {part} (expected a neighbour count 0..{max})"
            ));
        };
        if c == '-' {
            if negative || chars[i - 2] != char::from_digit(n as u32, 10).unwrap_or(' ') {
                return Err(format!(
                    "'-' at column {col} in {part} must follow a neighbour count directly"
                ));
            }
            negative = true;
            continue;
        }
        let lower = c.to_ascii_lowercase();
        let Some(letter) = all.iter().position(|&l| l as char == lower) else {
            return Err(format!(
                "unexpected '{c}' at column {col} in {part} (expected a count 0..{max}, '-' or one of the letters {})",
                std::str::from_utf8(all).unwrap_or("")
            ));
        };
        if letter >= letters.at(n) {
            let valid: String = all[..letters.at(n)].iter().map(|&b| b as char).collect();
            return Err(if valid.is_empty() {
                format!("letter '{c}' at column {col} in {part}: count {n} has no letters")
            } else {
                format!(
                    "letter '{c}' at column {col} in {part} is not one of count {n}'s letters ({valid})"
                )
            });
        }
        touched[n] = true;
        for block in letters.blocks_of(n, letter) {
            table[(block | centre) as usize] = !negative;
        }
    }
    Ok(())
}

/// Golly's canonical Hensel form, from the table: per count the letters whose blocks are
/// alive, alphabetically; written as `-` and the others when they are more than half (except
/// seven of count 4's thirteen, which Golly keeps positive); a count with every letter is
/// written alone. (Golly builds the same string from the letters it was given; for a rule
/// that sets and clears letters of one count in two places its string can disagree with its
/// own table, and this one follows the table.)
fn hensel_string(rule: &MapRule) -> String {
    format!(
        "B{}/S{}{}",
        hensel_side(rule, false),
        hensel_side(rule, true),
        rule.neighbourhood.suffix()
    )
}

/// One side of the canonical form (the births, or with `alive` the survivals), without its
/// letter: `2-a`, `34cq`. Generations rules print their sides in their own order.
pub(super) fn hensel_side(rule: &MapRule, alive: bool) -> String {
    let mut out = String::new();
    let centre = if alive { CENTRE } else { 0 };
    let kind = if rule.neighbourhood == Neighbourhood::Hexagonal {
        Letters::Hexagonal
    } else {
        Letters::Moore
    };
    for count in 0..=kind.max_count() {
        let letters = kind.at(count);
        if letters == 0 {
            let block = kind.blocks_with(count).next().unwrap_or(0);
            if rule.next(block | centre) {
                out.push(char::from_digit(count as u32, 10).unwrap_or('?'));
            }
            continue;
        }
        let set: Vec<usize> = (0..letters)
            .filter(|&l| rule.next(kind.representative(count, l) | centre))
            .collect();
        if set.is_empty() {
            continue;
        }
        out.push(char::from_digit(count as u32, 10).unwrap_or('?'));
        if set.len() == letters {
            continue;
        }
        let keep_positive = set.len() == 7 && letters == 13;
        let (negative, shown): (bool, Vec<usize>) = if !keep_positive && set.len() > letters / 2 {
            (true, (0..letters).filter(|l| !set.contains(l)).collect())
        } else {
            (false, set)
        };
        if negative {
            out.push('-');
        }
        let mut chars: Vec<char> = shown.iter().map(|&l| kind.all()[l] as char).collect();
        chars.sort_unstable();
        out.extend(chars);
    }
    out
}

// --- MAP strings -----------------------------------------------------------------------------

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The MAP index bits of a neighbourhood, most significant first: the bit order of its string.
fn map_cells(neighbourhood: Neighbourhood) -> Vec<u16> {
    let m = mask(neighbourhood);
    (0..9)
        .rev()
        .map(|b| 1u16 << b)
        .filter(|b| m & b != 0)
        .collect()
}

/// The table's length in bits for a neighbourhood, and its MAP string's length.
fn map_lengths(neighbourhood: Neighbourhood) -> (usize, usize) {
    let bits = 1usize << map_cells(neighbourhood).len();
    (bits, bits.div_ceil(6))
}

/// The block index of bit k of a MAP string for a neighbourhood.
fn block_of_map_bit(cells: &[u16], k: usize) -> u16 {
    let n = cells.len();
    cells
        .iter()
        .enumerate()
        .filter(|&(j, _)| k >> (n - 1 - j) & 1 == 1)
        .fold(0, |acc, (_, &b)| acc | b)
}

/// `MAP` and the base64 table (the text after `MAP`); its length says the neighbourhood: 86
/// characters for Moore, 22 for hexagonal, 6 for von Neumann, with `==` padding allowed.
pub(super) fn parse_map(body: &str) -> Result<MapRule, String> {
    let text = &body[3..];
    let trimmed = text.trim_end();
    let data = if trimmed.len() > 2 {
        trimmed.strip_suffix("==").unwrap_or(trimmed)
    } else {
        trimmed
    };
    let neighbourhood = match data.len() {
        86 => Neighbourhood::Moore,
        22 => Neighbourhood::Hexagonal,
        6 => Neighbourhood::VonNeumann,
        n => {
            return Err(format!(
                "a MAP rule has 86 base64 characters (Moore), 22 (hexagonal) or 6 (von Neumann), not {n}"
            ));
        }
    };
    let mut bits = Vec::with_capacity(data.len() * 6);
    for (i, c) in data.bytes().enumerate() {
        let Some(v) = BASE64.iter().position(|&b| b == c) else {
            return Err(format!(
                "'{}' at column {} is not a base64 character",
                data[i..].chars().next().unwrap_or('?'),
                i + 4
            ));
        };
        bits.extend((0..6).rev().map(|k| v >> k & 1 == 1));
    }
    let cells = map_cells(neighbourhood);
    let (len, _) = map_lengths(neighbourhood);
    let mut table = [false; 512];
    for (k, &bit) in bits.iter().enumerate().take(len) {
        table[block_of_map_bit(&cells, k) as usize] = bit;
    }
    Ok(MapRule::from_fn(neighbourhood, MapNotation::Map, |i| {
        table[i as usize]
    }))
}

pub(super) fn map_string(rule: &MapRule) -> String {
    let cells = map_cells(rule.neighbourhood);
    let (len, chars) = map_lengths(rule.neighbourhood);
    let mut out = String::from("MAP");
    for c in 0..chars {
        let mut v = 0usize;
        for k in 0..6 {
            let bit = c * 6 + k;
            v <<= 1;
            if bit < len && rule.next(block_of_map_bit(&cells, bit)) {
                v |= 1;
            }
        }
        out.push(BASE64[v] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Life's MAP string as LifeWiki and Golly give it.
    const LIFE_MAP: &str =
        "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA";

    #[test]
    fn life_as_a_map_string_is_life() {
        let rule = parse_map(LIFE_MAP).unwrap();
        assert_eq!(
            rule.totalistic(),
            Some((vec![3], vec![2, 3])),
            "B3/S23 by counts"
        );
        assert_eq!(map_string(&rule), LIFE_MAP);
    }

    #[test]
    fn every_block_of_counts_1_to_7_has_one_letter() {
        let table = class_table();
        // The number of letters per count (Hensel): 2, 6, 10, 13, 10, 6, 2, and each class
        // closed under the symmetries of the square.
        for (count, &letters) in LETTERS_AT.iter().enumerate().take(8).skip(1) {
            let mut seen = vec![0usize; letters];
            for i in 0..512u16 {
                if i & CENTRE == 0 && i.count_ones() as usize == count {
                    let (c, l) = table[i as usize];
                    assert_eq!(c as usize, count);
                    seen[l as usize] += 1;
                    for image in images(i) {
                        assert_eq!(table[image as usize], (c, l));
                    }
                }
            }
            assert!(seen.iter().all(|&n| n > 0), "count {count}: {seen:?}");
            let total: usize = seen.iter().sum();
            assert_eq!(total, binomial(8, count));
        }
    }

    fn binomial(n: usize, k: usize) -> usize {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}
