//! Larger than Life (Golly's `ltlalgo`, MCell's and Kellie Evans's notations, and the HROT
//! form of Golly 4 and LifeViewer): a range-r neighbourhood of many shapes, birth and survival
//! as ranges of counts, and Generations-style dying states for C >= 3.
//!
//! Notations read (case-insensitive):
//! - MCell's `Rr,Cc,Mm,Ss1..s2,Bb1..b2,Nn`, as Golly 3.3 writes it back;
//! - Evans's `r,b1,b2,s1,s2` (Moore, the middle cell counted);
//! - HROT's `Rr,Cc,S<list>,B<list>[,Nn]` with lists such as `2-3,5` (the middle cell not
//!   counted), as Golly 4 writes it back.
//!
//! Counting, as Golly does: a cell's count is its live (state-1) cells in the shape, the
//! middle one included. A dead cell is born when the count is in B; a live cell survives when
//! the count (less one under `M0`, where the middle cell is not a neighbour) is in S. Only
//! state-1 cells count, and dying states go up by one each generation, as in Generations.

use std::fmt;

/// The largest range Golly takes.
pub const MAX_RANGE: u16 = 500;
/// At most this many separate runs of counts for births, and as many for survivals.
pub const MAX_SPANS: usize = 8;

/// The shapes of the neighbourhood, by Golly's letters (`N` then the letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `NM`: the (2r+1)^2 square.
    Moore,
    /// `NN`: the diamond |dx| + |dy| <= r.
    VonNeumann,
    /// `NC`: the disc of radius r + 1/2 (dx^2 + dy^2 <= r^2 + r).
    Circular,
    /// `N2`: the disc dx^2 + dy^2 <= r^2 (Euclidean, L2).
    L2,
    /// `N+`: the row and the column.
    Cross,
    /// `NX`: the two diagonals.
    Saltire,
    /// `N*`: cross and saltire.
    Star,
    /// `N#`: the rows and columns one away from the middle.
    Hash,
    /// `NH`: the hexagon of Golly's hexagonal grid (the square less two corners).
    Hexagonal,
    /// `NB`: the cells of the square of the other colour on a checkerboard.
    Checkerboard,
    /// `ND`: the cells of the square of the middle cell's colour.
    AlignedCheckerboard,
    /// `NA`: the row, the column and the main diagonal (hexagonal asterisk).
    Asterisk,
    /// `N3`: up, left and down-right (hexagonal tripod).
    Tripod,
}

impl Shape {
    pub const ALL: [Shape; 13] = [
        Self::Moore,
        Self::VonNeumann,
        Self::Circular,
        Self::L2,
        Self::Cross,
        Self::Saltire,
        Self::Star,
        Self::Hash,
        Self::Hexagonal,
        Self::Checkerboard,
        Self::AlignedCheckerboard,
        Self::Asterisk,
        Self::Tripod,
    ];

    pub fn letter(self) -> char {
        match self {
            Self::Moore => 'M',
            Self::VonNeumann => 'N',
            Self::Circular => 'C',
            Self::L2 => '2',
            Self::Cross => '+',
            Self::Saltire => 'X',
            Self::Star => '*',
            Self::Hash => '#',
            Self::Hexagonal => 'H',
            Self::Checkerboard => 'B',
            Self::AlignedCheckerboard => 'D',
            Self::Asterisk => 'A',
            Self::Tripod => '3',
        }
    }

    fn from_letter(c: char) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|s| s.letter() == c.to_ascii_uppercase())
    }

    /// Whether the cell (dx, dy) from the middle counts (|dx|, |dy| <= r; the middle always
    /// does, as Golly's counts are of the shape with its middle).
    pub fn contains(self, r: i64, dx: i64, dy: i64) -> bool {
        if dx.abs() > r || dy.abs() > r {
            return false;
        }
        if dx == 0 && dy == 0 {
            return true;
        }
        match self {
            Self::Moore => true,
            Self::VonNeumann => dx.abs() + dy.abs() <= r,
            Self::Circular => dx * dx + dy * dy <= r * r + r,
            Self::L2 => dx * dx + dy * dy <= r * r,
            Self::Cross => dx == 0 || dy == 0,
            Self::Saltire => dx.abs() == dy.abs(),
            Self::Star => dx == 0 || dy == 0 || dx.abs() == dy.abs(),
            Self::Hash => dx.abs() == 1 || dy.abs() == 1,
            Self::Hexagonal => (dy < 0 && dx <= r + dy) || (dy >= 0 && dx >= dy - r),
            Self::Checkerboard => (dx + dy).rem_euclid(2) == 1,
            Self::AlignedCheckerboard => (dx + dy).rem_euclid(2) == 0,
            Self::Asterisk => dx == 0 || dy == 0 || dx == dy,
            Self::Tripod => (dx == 0 && dy < 0) || (dy == 0 && dx < 0) || (dx == dy && dy > 0),
        }
    }

    /// Half the width of a disc's row `dy` (`Circular`: r^2 + r, `L2`: r^2).
    pub fn disc_half_width(self, r: i64, dy: i64) -> i64 {
        let limit = if self == Self::Circular {
            r * r + r
        } else {
            r * r
        };
        let rest = limit - dy * dy;
        if rest < 0 {
            return -1;
        }
        let mut w = (rest as f64).sqrt() as i64;
        while w * w > rest {
            w -= 1;
        }
        while (w + 1) * (w + 1) <= rest {
            w += 1;
        }
        w
    }

    /// Neighbours of a cell, the middle not counted (Golly's `max_neighbors`).
    pub fn neighbours(self, r: i64) -> u64 {
        let side = 2 * r + 1;
        (match self {
            Self::Moore => side * side - 1,
            Self::VonNeumann => 2 * r * (r + 1),
            Self::Circular | Self::L2 => {
                (-r..=r)
                    .map(|dy| 2 * self.disc_half_width(r, dy) + 1)
                    .sum::<i64>()
                    - 1
            }
            Self::Cross | Self::Saltire => 4 * r,
            Self::Star | Self::Hash => 8 * r,
            Self::Hexagonal => side * side - r * (r + 1) - 1,
            Self::Checkerboard | Self::AlignedCheckerboard => (side * side - 1) / 2,
            Self::Asterisk => 6 * r,
            Self::Tripod => 3 * r,
        }) as u64
    }
}

/// A set of counts as sorted, separate runs `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Counts {
    spans: [(u32, u32); MAX_SPANS],
    len: u8,
}

impl Counts {
    pub fn span(lo: u32, hi: u32) -> Self {
        let mut c = Self::default();
        c.spans[0] = (lo, hi);
        c.len = 1;
        c
    }

    pub fn spans(&self) -> &[(u32, u32)] {
        &self.spans[..self.len as usize]
    }

    #[inline]
    pub fn contains(&self, n: u32) -> bool {
        self.spans().iter().any(|&(lo, hi)| (lo..=hi).contains(&n))
    }

    /// Adds a run, merged with those it touches; `Err` when there would be too many.
    fn add(&mut self, lo: u32, hi: u32) -> Result<(), String> {
        let mut all: Vec<(u32, u32)> = self.spans().to_vec();
        all.push((lo, hi));
        all.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (a, b) in all {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        if merged.len() > MAX_SPANS {
            return Err(format!(
                "more than {MAX_SPANS} separate runs of counts (lifelab keeps at most {MAX_SPANS})"
            ));
        }
        *self = Self::default();
        for (i, s) in merged.iter().enumerate() {
            self.spans[i] = *s;
        }
        self.len = merged.len() as u8;
        Ok(())
    }
}

impl fmt::Display for Counts {
    /// HROT's list: `2-3,5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(lo, hi)) in self.spans().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if lo == hi {
                write!(f, "{lo}")?;
            } else {
                write!(f, "{lo}-{hi}")?;
            }
        }
        Ok(())
    }
}

/// How the rule was written, and so how Golly writes it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// MCell's `Rr,Cc,Mm,Ss..s,Bb..b,Nn` (Evans's five numbers are written so too).
    MCell,
    /// HROT's `Rr,Cc,S..,B..,Nn`.
    Hrot,
}

/// A Larger than Life rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LtlRule {
    pub range: u16,
    /// 2 (C0, C1 and C2) to 256.
    pub states: u16,
    /// `M1`: the middle cell is one of its own neighbours (for survival).
    pub middle: bool,
    pub survival: Counts,
    pub birth: Counts,
    pub shape: Shape,
    pub notation: Notation,
}

impl LtlRule {
    /// The next state of a cell in `state` whose shape (middle included) holds `count` live
    /// cells.
    #[inline]
    pub fn next(&self, state: u8, count: u32) -> u8 {
        match state {
            0 => self.birth.contains(count) as u8,
            1 => {
                // Under M0 the middle cell is not its own neighbour.
                let n = count.checked_sub((!self.middle) as u32);
                if n.is_some_and(|n| self.survival.contains(n)) {
                    1
                } else if self.states > 2 {
                    2
                } else {
                    0
                }
            }
            s if (s as u16) + 1 < self.states => s + 1,
            _ => 0,
        }
    }

    pub fn births_from_nothing(&self) -> bool {
        self.birth.contains(0)
    }

    /// The smallest side of a bounded grid under this rule (Golly raises smaller ones).
    pub fn min_side(&self) -> u32 {
        2 * self.range as u32
    }

    pub fn neighbours(&self) -> u64 {
        self.shape.neighbours(self.range as i64)
    }

    /// A rule of range 1 with two states looks at the 3x3 block alone: it is a table of the
    /// block's 512 states, which the bit-sliced engines (tiles, HashLife) run like any MAP rule.
    pub fn block_rule(&self) -> Option<super::map::MapRule> {
        if self.range != 1 || self.states != 2 {
            return None;
        }
        let cells: Vec<(u16, bool)> = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| {
                let bit = super::map::bit_at(dx as i32, dy as i32);
                (bit, self.shape.contains(1, dx, dy))
            })
            .collect();
        Some(super::map::MapRule::from_fn(
            super::Neighbourhood::Moore,
            super::map::MapNotation::Map,
            |i| {
                let count = cells
                    .iter()
                    .filter(|&&(bit, counted)| counted && i & bit != 0)
                    .count() as u32;
                let centre = (i & super::map::CENTRE != 0) as u8;
                self.next(centre, count) == 1
            },
        ))
    }
}

impl fmt::Display for LtlRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Golly writes C0 for two states.
        let c = if self.states > 2 { self.states } else { 0 };
        match self.notation {
            Notation::MCell => {
                let (s, b) = (self.survival.spans()[0], self.birth.spans()[0]);
                write!(
                    f,
                    "R{},C{c},M{},S{}..{},B{}..{},N{}",
                    self.range,
                    self.middle as u8,
                    s.0,
                    s.1,
                    b.0,
                    b.1,
                    self.shape.letter()
                )
            }
            Notation::Hrot => {
                write!(f, "R{},C{c},S{},B{}", self.range, self.survival, self.birth)?;
                if self.shape != Shape::Moore {
                    write!(f, ",N{}", self.shape.letter())?;
                }
                Ok(())
            }
        }
    }
}

/// Whether a rule body is in one of the notations here.
pub(super) fn looks_like_ltl(body: &str) -> bool {
    let b = body.trim().as_bytes();
    let starts_r = b.len() > 1 && b[0].eq_ignore_ascii_case(&b'r') && b[1].is_ascii_digit();
    let evans = body.split(',').count() == 5
        && body
            .split(',')
            .all(|p| !p.trim().is_empty() && p.trim().bytes().all(|c| c.is_ascii_digit()));
    starts_r && body.contains(',') || evans
}

/// A cursor over the rule text that reports columns (1-based) in its errors.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).map(u8::to_ascii_uppercase)
    }

    fn error(&self, what: impl fmt::Display) -> String {
        format!("{what} at column {}", self.at + 1)
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected {what}")))
        }
    }

    fn number(&mut self, what: &str) -> Result<u32, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        if digits.is_empty() {
            self.at = start;
            return Err(self.error(format!("expected {what}")));
        }
        digits.parse().map_err(|_| {
            self.at = start;
            self.error(format!("{what} {digits} is too big"))
        })
    }

    fn at_digit(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }
}

/// Parses a body (no `:` suffix).
pub(super) fn parse(body: &str) -> Result<LtlRule, String> {
    let text = body.trim();
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() == 5 && parts.iter().all(|p| p.bytes().all(|c| c.is_ascii_digit())) {
        // Evans: r,bmin,bmax,smin,smax (Moore, the middle counted).
        let n: Vec<u32> = parts
            .iter()
            .map(|p| p.parse::<u32>().map_err(|_| format!("{p} is too big")))
            .collect::<Result<_, _>>()?;
        let range = check_range(n[0])?;
        return finish(LtlRule {
            range,
            states: 2,
            middle: true,
            survival: ordered(n[3], n[4], "S")?,
            birth: ordered(n[1], n[2], "B")?,
            shape: Shape::Moore,
            notation: Notation::MCell,
        });
    }
    let mut c = Cursor {
        text: text.as_bytes(),
        at: 0,
    };
    c.expect(b'R', "R and the range")?;
    let range = check_range(c.number("the range")?).map_err(|m| c.error(m))?;
    c.expect(b',', "',' after the range")?;
    c.expect(b'C', "C and the number of states")?;
    let states = match c.number("the number of states")? {
        n @ 0..=256 => (n as u16).max(2),
        n => return Err(c.error(format!("C{n}: the number of states is 0 to 256"))),
    };
    c.expect(b',', "',' after the states")?;
    let mcell = c.peek() == Some(b'M');
    let rule = if mcell {
        c.at += 1;
        let middle = match c.number("M0 or M1")? {
            0 => false,
            1 => true,
            m => return Err(c.error(format!("M{m}: the middle cell is M0 or M1"))),
        };
        c.expect(b',', "',' after M")?;
        c.expect(b'S', "S and the survival counts")?;
        let s = mcell_span(&mut c, "S")?;
        c.expect(b',', "',' before B")?;
        c.expect(b'B', "B and the birth counts")?;
        let b = mcell_span(&mut c, "B")?;
        c.expect(b',', "',' before N")?;
        c.expect(b'N', "N and the neighbourhood")?;
        let shape = shape(&mut c)?;
        LtlRule {
            range,
            states,
            middle,
            survival: s,
            birth: b,
            shape,
            notation: Notation::MCell,
        }
    } else {
        c.expect(b'S', "S and the survival counts (or M)")?;
        let survival = hrot_list(&mut c, "S")?;
        c.expect(b'B', "B and the birth counts")?;
        let birth = hrot_list(&mut c, "B")?;
        // The list took the comma before N, if any.
        let shape = if c.peek() == Some(b'N') {
            c.at += 1;
            shape(&mut c)?
        } else {
            Shape::Moore
        };
        LtlRule {
            range,
            states,
            middle: false,
            survival,
            birth,
            shape,
            notation: Notation::Hrot,
        }
    };
    if c.at < c.text.len() {
        return Err(c.error(format!(
            "unexpected '{}'",
            text[c.at..].chars().next().unwrap_or('?')
        )));
    }
    finish(rule)
}

fn check_range(r: u32) -> Result<u16, String> {
    match r {
        1..=500 => Ok(r as u16),
        _ => Err(format!("R{r}: the range is 1 to {MAX_RANGE}")),
    }
}

fn ordered(lo: u32, hi: u32, what: &str) -> Result<Counts, String> {
    if lo > hi {
        return Err(format!(
            "{what}{lo}..{hi}: the first count is above the last"
        ));
    }
    Ok(Counts::span(lo, hi))
}

fn mcell_span(c: &mut Cursor, what: &str) -> Result<Counts, String> {
    let lo = c.number(&format!("the lowest {what} count"))?;
    c.expect(b'.', "'..' between the counts")?;
    c.expect(b'.', "'..' between the counts")?;
    let hi = c.number(&format!("the highest {what} count"))?;
    ordered(lo, hi, what).map_err(|m| c.error(m))
}

/// `2-3,5,` up to the next letter; the list may be empty (`S,B3`).
fn hrot_list(c: &mut Cursor, what: &str) -> Result<Counts, String> {
    let mut counts = Counts::default();
    while c.at_digit() {
        let lo = c.number(&format!("a {what} count"))?;
        let hi = if c.peek() == Some(b'-') {
            c.at += 1;
            c.number(&format!("the end of a {what} run"))?
        } else {
            lo
        };
        if lo > hi {
            return Err(c.error(format!(
                "{what} {lo}-{hi}: the first count is above the last"
            )));
        }
        counts
            .add(lo, hi)
            .map_err(|m| c.error(format!("{what}: {m}")))?;
        if c.peek() == Some(b',') {
            c.at += 1;
        } else {
            break;
        }
    }
    if counts.len == 0 && c.peek() == Some(b',') {
        c.at += 1;
    }
    Ok(counts)
}

fn shape(c: &mut Cursor) -> Result<Shape, String> {
    let Some(letter) = c.peek() else {
        return Err(c.error("expected the neighbourhood's letter after N"));
    };
    let known: String = Shape::ALL.iter().map(|s| s.letter()).collect();
    let listed: Vec<String> = Shape::ALL
        .iter()
        .map(|s| format!("N{}", s.letter()))
        .collect();
    match Shape::from_letter(letter as char) {
        Some(s) => {
            c.at += 1;
            Ok(s)
        }
        None if matches!(letter, b'@' | b'W' | b'G' | b'L') => Err(c.error(format!(
            "N{}: the {} neighbourhood is not supported (lifelab has {})",
            letter as char,
            match letter {
                b'@' => "custom",
                b'W' => "weighted",
                b'G' => "Gaussian",
                _ => "triangular",
            },
            listed.join(", ")
        ))),
        None => Err(c.error(format!(
            "N{}: unknown neighbourhood (N followed by one of {known})",
            letter as char
        ))),
    }
}

/// Checks the counts against the neighbourhood, as Golly does.
fn finish(rule: LtlRule) -> Result<LtlRule, String> {
    let m = rule.middle as u64;
    let n = rule.neighbours();
    for &(lo, hi) in rule.survival.spans() {
        if (lo as u64) < m || hi as u64 > n + m {
            return Err(format!(
                "S{}: survival counts are {m} to {} for N{} at range {}{}",
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}..{hi}")
                },
                n + m,
                rule.shape.letter(),
                rule.range,
                if rule.middle {
                    " with the middle cell"
                } else {
                    ""
                }
            ));
        }
    }
    for &(lo, hi) in rule.birth.spans() {
        if hi as u64 > n + m {
            return Err(format!(
                "B{}: birth counts are 0 to {} for N{} at range {}",
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}..{hi}")
                },
                n + m,
                rule.shape.letter(),
                rule.range
            ));
        }
    }
    if rule.births_from_nothing() && rule.states > 2 {
        return Err("B0 is not allowed with more than 2 states (as in Golly)".into());
    }
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_counts_are_golly_s() {
        // Golly's max_neighbors, worked by hand at r = 3.
        let r = 3;
        for (shape, n) in [
            (Shape::Moore, 48),
            (Shape::VonNeumann, 24),
            (Shape::Cross, 12),
            (Shape::Saltire, 12),
            (Shape::Star, 24),
            (Shape::Hash, 24),
            (Shape::Hexagonal, 36),
            (Shape::Checkerboard, 24),
            (Shape::AlignedCheckerboard, 24),
            (Shape::Asterisk, 18),
            (Shape::Tripod, 9),
            // r^2 + r = 12: half widths 3, 3, 2, 1 at |dy| = 0..3 -> 7 + 2 (7 + 5 + 3) = 37 cells.
            (Shape::Circular, 36),
            // r^2 = 9: half widths 3, 2, 2, 0 -> 7 + 2 (5 + 5 + 1) = 29 cells.
            (Shape::L2, 28),
        ] {
            assert_eq!(shape.neighbours(r), n, "{shape:?}");
            let counted = (-r..=r)
                .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| shape.contains(r, dx, dy))
                .count() as u64;
            assert_eq!(counted, n + 1, "{shape:?} by cells");
        }
    }

    #[test]
    fn golly_s_notations_read_and_print_back() {
        for (text, back) in [
            ("R5,C0,M1,S34..58,B34..45,NM", "R5,C0,M1,S34..58,B34..45,NM"),
            ("r10,c255,m1,s2..3,b3..3,nm", "R10,C255,M1,S2..3,B3..3,NM"),
            ("R1,C2,M0,S2..3,B3..3,NN", "R1,C0,M0,S2..3,B3..3,NN"),
            ("5,34,45,34,58", "R5,C0,M1,S34..58,B34..45,NM"),
            ("R2,C0,S2-3,B3,NM", "R2,C0,S2-3,B3"),
            ("R2,C3,S2-3,5,7-8,B3,4,N+", "R2,C3,S2-3,5,7-8,B3-4,N+"),
            ("R3,C0,S,B3,NC", "R3,C0,S,B3,NC"),
        ] {
            let r = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(r.to_string(), back, "{text}");
            assert_eq!(parse(back).unwrap(), r, "{back}");
        }
    }

    #[test]
    fn bad_rules_say_what_and_where() {
        for (text, want) in [
            ("R501,C0,M1,S1..2,B1..2,NM", "range is 1 to 500"),
            ("R1,C0,M1,S1..2,B1..2,NQ", "unknown neighbourhood"),
            (
                "R1,C0,M1,S1..2,B1..2,N@1234",
                "custom neighbourhood is not supported",
            ),
            ("R1,C0,M1,S1..20,B1..2,NM", "survival counts are 1 to 9"),
            ("R1,C0,M0,S3..2,B1..2,NM", "first count is above the last"),
            ("R1,C3,M0,S1..2,B0..2,NM", "B0 is not allowed"),
            ("R1,C257,M0,S1..2,B1..2,NM", "0 to 256"),
            ("R1,C0,M1,S1..2,B1..2,NMx", "unexpected 'x' at column 24"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
