//! Rules are data: one parsed [`Rule`] drives the reference engine, the fast CPU engine, the GPU
//! shader generator and its own `Display`. Each notation has exactly one parser (here) and one
//! printer (the `Display` impls), and `parse(display(r)) == r` for every rule.
//!
//! Accepted notations (case-insensitive):
//! - Life-like `B3/S23`, `B3S23`, `S23/B3`, the old S/B form `23/3`, empty sides (`B2/S`);
//! - neighbourhood suffixes `H` (hexagonal, Golly's convention) and `V` (von Neumann);
//! - stochastic counts: a count followed by its probability in parentheses, as in
//!   `B2(1/3)/S12H` or `B2(1/6)3/S23H`; a probability is a fraction `a/b`, a decimal `0.25` or a
//!   percentage `25%`, and is printed back as a reduced fraction;
//! - the named rules of [`named::NAMED_RULES`] (`Life`, `HighLife`, `Day & Night`, ...);
//! - Wolfram's elementary rules `W0`..`W255`, and formulas of x (left), y (self), z (right);
//! - Golly's isotropic non-totalistic rules in Hensel notation (`B2-a/S12`, `B3_S23-a4ei6`)
//!   and its `MAP` strings, kept as a table of the 3x3 block ([`MapRule`]); a Hensel rule
//!   whose letters add up to whole counts is the Life-like rule it equals, as in Golly;
//! - Golly's torus suffix `:T<width>,<height>` on any of the above.

pub mod circuit;
mod formula;
pub mod generations;
mod lifelike;
pub mod loader;
pub mod ltl;
pub mod map;
pub mod named;
mod table;

use crate::geometry::{Edges, Tube};
use std::fmt;

pub use circuit::{Circuit, Values};
pub use formula::compile_formula;
pub use generations::GenerationsRule;
pub use loader::LoadedRule;
pub use ltl::LtlRule;
pub use map::{MapNotation, MapRule};
pub use table::{CountTable, Outcome};

/// Which cells count as neighbours of a cell at (x, y), with y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Neighbourhood {
    /// The 8 surrounding cells.
    Moore,
    /// Golly's hexagonal grid: Moore minus the top-right (x+1, y-1) and bottom-left (x-1, y+1).
    Hexagonal,
    /// The 4 orthogonal cells.
    VonNeumann,
}

impl Neighbourhood {
    pub const ALL: [Neighbourhood; 3] = [Self::Moore, Self::Hexagonal, Self::VonNeumann];

    /// The largest possible neighbour count.
    pub fn max_count(self) -> u8 {
        self.offsets().len() as u8
    }

    /// Offsets (dx, dy) of the neighbours; y grows downwards.
    pub fn offsets(self) -> &'static [(i32, i32)] {
        match self {
            Self::Moore => &[
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ],
            Self::Hexagonal => &[(-1, -1), (0, -1), (-1, 0), (1, 0), (0, 1), (1, 1)],
            Self::VonNeumann => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        }
    }

    /// The rule-string suffix that selects this neighbourhood.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Moore => "",
            Self::Hexagonal => "H",
            Self::VonNeumann => "V",
        }
    }
}

/// A probability strictly between 0 and 1, kept as a reduced fraction so that printing and
/// parsing round-trip exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probability {
    num: u32,
    den: u32,
}

impl Probability {
    /// `num/den` reduced; `None` unless `0 < num < den`.
    pub fn new(num: u64, den: u64) -> Option<Self> {
        if num == 0 || den == 0 || num >= den {
            return None;
        }
        let g = gcd(num, den);
        let (num, den) = (num / g, den / g);
        Some(Self {
            num: u32::try_from(num).ok()?,
            den: u32::try_from(den).ok()?,
        })
    }

    pub fn numerator(self) -> u32 {
        self.num
    }

    pub fn denominator(self) -> u32 {
        self.den
    }

    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The event happens when a uniform 32-bit hash is below this threshold, so its
    /// probability is `floor(p * 2^32) / 2^32`, within 2^-32 of p. Shared by CPU and GPU.
    pub fn threshold(self) -> u32 {
        (((self.num as u64) << 32) / self.den as u64) as u32
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// What happens at each neighbour count for one cell state (dead: birth; alive: survival).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transition {
    /// Bit n set: the cell is alive next generation for certain at count n.
    pub certain: u16,
    /// `chance[n]`: alive next generation with this probability at count n.
    pub chance: [Option<Probability>; 9],
}

impl Transition {
    pub fn from_counts(counts: &[u8]) -> Self {
        let mut t = Self::default();
        for &n in counts {
            t.certain |= 1 << n;
        }
        t
    }

    pub fn is_certain(&self, n: u8) -> bool {
        self.certain >> n & 1 == 1
    }

    pub fn is_stochastic(&self) -> bool {
        self.chance.iter().any(Option::is_some)
    }
}

/// A two-state, outer-totalistic rule: a neighbourhood, a birth and a survival transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LifeRule {
    pub neighbourhood: Neighbourhood,
    pub birth: Transition,
    pub survival: Transition,
}

impl LifeRule {
    /// A deterministic Moore rule from its birth and survival counts.
    pub fn moore(birth: &[u8], survival: &[u8]) -> Self {
        Self {
            neighbourhood: Neighbourhood::Moore,
            birth: Transition::from_counts(birth),
            survival: Transition::from_counts(survival),
        }
    }

    pub fn is_stochastic(&self) -> bool {
        self.birth.is_stochastic() || self.survival.is_stochastic()
    }

    /// The transition for a cell in state `alive`.
    pub fn transition(&self, alive: bool) -> &Transition {
        if alive { &self.survival } else { &self.birth }
    }
}

impl fmt::Display for LifeRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = self.neighbourhood.max_count();
        let side = |f: &mut fmt::Formatter<'_>, t: &Transition| -> fmt::Result {
            for n in 0..=max {
                if t.is_certain(n) {
                    write!(f, "{n}")?;
                } else if let Some(p) = t.chance[n as usize] {
                    write!(f, "{n}({p})")?;
                }
            }
            Ok(())
        };
        f.write_str("B")?;
        side(f, &self.birth)?;
        f.write_str("/S")?;
        side(f, &self.survival)?;
        f.write_str(self.neighbourhood.suffix())
    }
}

/// One of Wolfram's 256 elementary rules. Bit k of the number is the new state of a cell whose
/// neighbourhood (left, self, right), read as a binary number, is k: 111 -> bit 7, 000 -> bit 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElementaryRule(pub u8);

impl ElementaryRule {
    /// The new state of a cell with neighbourhood (left, centre, right).
    pub fn apply(self, left: bool, centre: bool, right: bool) -> bool {
        let k = (left as u8) << 2 | (centre as u8) << 1 | right as u8;
        self.0 >> k & 1 == 1
    }

    /// Outputs for neighbourhoods 000, 001, ..., 111 in that order.
    pub fn truth_table(self) -> [bool; 8] {
        std::array::from_fn(|k| self.0 >> k & 1 == 1)
    }

    pub fn from_truth_table(table: [bool; 8]) -> Self {
        Self(
            table
                .iter()
                .enumerate()
                .fold(0, |acc, (k, &b)| acc | (b as u8) << k),
        )
    }
}

impl fmt::Display for ElementaryRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "W{}", self.0)
    }
}

/// The automaton a rule string selects.
// Rules are small values copied rarely; boxing the Life variant would cost `Copy`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    Life(LifeRule),
    Elementary(ElementaryRule),
    /// A two-state rule given by the 3x3 block: Hensel's letters, MAP, Golly's 2D Wolfram.
    Map(MapRule),
    /// Golly's Generations: a rule of the block with dying states.
    Generations(GenerationsRule),
    /// A rule file's `@TABLE` or `@TREE` (Golly's RuleLoader), up to 256 states.
    Loaded(LoadedRule),
    /// Larger than Life: a range-r neighbourhood, ranges of counts, dying states.
    Ltl(LtlRule),
}

/// A parsed rule string: the automaton, and the torus size when the string carried Golly's
/// bounded-grid suffix `:T<width>,<height>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub kind: RuleKind,
    pub torus: Option<(u32, u32)>,
    /// Golly's other bounded grids: the bounded plane `:P<width>,<height>` (nothing lives
    /// beyond its edges), and the shifted torus, Klein bottle, cross-surface and sphere.
    pub bounded: Option<(u32, u32, Edges)>,
    /// Golly's infinite tube `:T0,<h>` or `:T<w>,0`.
    pub tube: Option<Tube>,
}

impl Rule {
    /// Conway's Life, `B3/S23`.
    pub fn life() -> Self {
        Self::from(LifeRule::moore(&[3], &[2, 3]))
    }

    pub fn parse(text: &str) -> Result<Self, RuleError> {
        text.parse()
    }

    /// Parses a rule as a 2D pattern file gives it (an RLE header, `#R` of a macrocell): there
    /// Golly runs `W22` in its 2D form, each generation the row below the last. A ring
    /// (`W110:T256,0`) stays lifelab's one-dimensional automaton.
    pub fn parse_in_2d_file(text: &str) -> Result<Self, RuleError> {
        let rule: Rule = text.parse()?;
        match (rule.kind, rule.torus) {
            (RuleKind::Elementary(e), torus)
                if e.0 % 2 == 1 && torus.is_none_or(|(_, h)| h > 1) =>
            {
                Err(RuleError::new(
                    text,
                    format!(
                        "W{} in a 2D pattern is Golly's 2D form of Wolfram's rule, which takes even numbers only (an odd one gives birth on empty space); run it as a ring with ':T<width>,0'",
                        e.0
                    ),
                ))
            }
            // A 2D torus (`W22:T100,100`) is the 2D form too; a ring has height 1.
            (RuleKind::Elementary(e), torus) if torus.is_none_or(|(_, h)| h > 1) => Ok(Rule {
                kind: RuleKind::Map(MapRule::wolfram_2d(e.0)),
                ..rule
            }),
            _ => Ok(rule),
        }
    }

    pub fn life_rule(&self) -> Option<&LifeRule> {
        match &self.kind {
            RuleKind::Life(r) => Some(r),
            _ => None,
        }
    }

    pub fn elementary(&self) -> Option<ElementaryRule> {
        match self.kind {
            RuleKind::Elementary(r) => Some(r),
            _ => None,
        }
    }

    /// The rule as a table of the 3x3 block, for a 2D rule that is not stochastic: what the
    /// table-driven kernels run (a Life-like rule becomes its table too, and so does a rule
    /// file's of two states, `RuleTree::block_rule`).
    pub fn block_rule(&self) -> Option<MapRule> {
        match self.kind {
            RuleKind::Map(m) => Some(m),
            RuleKind::Loaded(l) if l.states == 2 => l.def().block,
            RuleKind::Life(l) if !l.is_stochastic() => {
                Some(MapRule::from_fn(l.neighbourhood, MapNotation::Map, |i| {
                    let alive = i & map::CENTRE != 0;
                    let n = (i & !map::CENTRE).count_ones() as u8;
                    l.transition(alive).is_certain(n)
                }))
            }
            _ => None,
        }
    }

    /// Why a 2D rule has no table of the 3x3 block (`block_rule`), for the refusal of an engine
    /// that runs those.
    pub fn why_no_block_rule(&self) -> String {
        match self.kind {
            RuleKind::Elementary(_) => format!("{self} is elementary"),
            RuleKind::Generations(g) => format!("{self} has {} states", g.states),
            RuleKind::Loaded(l) if l.states > 2 => {
                format!("{self} is a rule file's rule of {} states", l.states)
            }
            RuleKind::Loaded(_) => format!(
                "{self} is a rule file's rule that gives birth on empty space (B0), which the rule-tree engine runs as it stands"
            ),
            RuleKind::Ltl(l) => format!(
                "{self} is a Larger than Life rule of range {} and {} states",
                l.range, l.states
            ),
            RuleKind::Life(l) if l.is_stochastic() => format!("{self} is stochastic"),
            RuleKind::Life(_) | RuleKind::Map(_) => format!("{self} has one"),
        }
    }

    /// Whether the two-state engines run the rule from its table of the 3x3 block, by a
    /// circuit, where a Life-like rule's counts take a shorter one: MAP, Hensel's letters, a
    /// rule file's of two states.
    pub fn is_tabled(&self) -> bool {
        match self.kind {
            RuleKind::Map(_) => true,
            RuleKind::Loaded(_) => self.block_rule().is_some(),
            _ => false,
        }
    }

    /// How Golly runs a B0 rule on the unbounded plane, where empty space would fill at once:
    /// the rules for the steps from an even and from an odd generation, neither of them B0.
    /// With Smax (a cell whose whole neighbourhood is alive survives) both are the dual rule,
    /// `NOT rule(NOT block)`, and what is shown is the complement of the rule's world from the
    /// first generation on. Without Smax the world alternates: a step from an even generation
    /// takes `NOT rule`, one from an odd generation `rule(NOT block)`, so even generations are
    /// the rule's own world and odd ones its complement, as Golly shows them. `None` for a rule
    /// that is not B0, or is stochastic or elementary.
    pub fn b0_emulation(&self) -> Option<(Rule, Rule)> {
        if !self.births_from_nothing() {
            return None;
        }
        let pair = |even: RuleKind, odd: RuleKind| {
            Some((
                Rule {
                    kind: even,
                    ..*self
                },
                Rule { kind: odd, ..*self },
            ))
        };
        match self.kind {
            RuleKind::Life(l) if !l.is_stochastic() => {
                let max = l.neighbourhood.max_count();
                let counts =
                    |f: &dyn Fn(u8) -> bool| -> Vec<u8> { (0..=max).filter(|&n| f(n)).collect() };
                let with = |birth: Vec<u8>, survival: Vec<u8>| {
                    RuleKind::Life(LifeRule {
                        neighbourhood: l.neighbourhood,
                        birth: Transition::from_counts(&birth),
                        survival: Transition::from_counts(&survival),
                    })
                };
                let (b, s) = (
                    |n: u8| l.birth.is_certain(n),
                    |n: u8| l.survival.is_certain(n),
                );
                let dual = || with(counts(&|n| !s(max - n)), counts(&|n| !b(max - n)));
                if s(max) {
                    pair(dual(), dual())
                } else {
                    pair(
                        with(counts(&|n| !b(n)), counts(&|n| !s(n))),
                        with(counts(&|n| s(max - n)), counts(&|n| b(max - n))),
                    )
                }
            }
            RuleKind::Map(m) => {
                let all = map::mask(m.neighbourhood);
                let table = |f: &dyn Fn(u16) -> bool| {
                    RuleKind::Map(MapRule::from_fn(m.neighbourhood, MapNotation::Map, f))
                };
                if m.next(all) {
                    let dual = || table(&|i| !m.next(i ^ all));
                    pair(dual(), dual())
                } else {
                    pair(table(&|i| !m.next(i)), table(&|i| m.next(i ^ all)))
                }
            }
            _ => None,
        }
    }

    /// Whether a dead cell with no live neighbour is born (B0), for any 2D rule.
    pub fn births_from_nothing(&self) -> bool {
        match self.kind {
            RuleKind::Life(l) => l.birth.is_certain(0) || l.birth.chance[0].is_some(),
            RuleKind::Map(m) => m.births_from_nothing(),
            RuleKind::Generations(g) => g.table.births_from_nothing(),
            RuleKind::Loaded(l) => l.def().tree.births_from_nothing(),
            RuleKind::Ltl(l) => l.births_from_nothing(),
            RuleKind::Elementary(_) => false,
        }
    }

    /// Cell states: 2, or a Generations or a loaded rule's count.
    pub fn states(&self) -> u16 {
        match self.kind {
            RuleKind::Generations(g) => g.states,
            RuleKind::Loaded(l) => l.states,
            RuleKind::Ltl(l) => l.states,
            _ => 2,
        }
    }

    pub fn ltl(&self) -> Option<LtlRule> {
        match self.kind {
            RuleKind::Ltl(l) => Some(l),
            _ => None,
        }
    }

    pub fn loaded(&self) -> Option<LoadedRule> {
        match self.kind {
            RuleKind::Loaded(l) => Some(l),
            _ => None,
        }
    }

    pub fn generations(&self) -> Option<GenerationsRule> {
        match self.kind {
            RuleKind::Generations(g) => Some(g),
            _ => None,
        }
    }

    /// The rule as a tree of states, for the engines that walk one: a rule file's own, or a
    /// Generations rule's; `None` for the other families.
    pub fn tree(&self) -> Option<std::sync::Arc<loader::RuleTree>> {
        match (self.loaded(), self.generations()) {
            (Some(loaded), _) => Some(loaded.def().tree.clone()),
            (None, Some(g)) => Some(std::sync::Arc::new(g.tree())),
            _ => None,
        }
    }

    pub fn is_elementary(&self) -> bool {
        self.elementary().is_some()
    }

    pub fn is_stochastic(&self) -> bool {
        self.life_rule().is_some_and(LifeRule::is_stochastic)
    }

    /// Whether the rule counts Golly's six hexagonal neighbours (drawn as hexagons).
    pub fn is_hex(&self) -> bool {
        match self.kind {
            RuleKind::Life(l) => l.neighbourhood == Neighbourhood::Hexagonal,
            RuleKind::Map(m) => m.neighbourhood == Neighbourhood::Hexagonal,
            RuleKind::Generations(g) => g.table.neighbourhood == Neighbourhood::Hexagonal,
            RuleKind::Loaded(l) => l.shape() == loader::Shape::Hexagonal,
            RuleKind::Elementary(_) | RuleKind::Ltl(_) => false,
        }
    }

    /// Golly raises a Larger than Life grid's sides to twice the range.
    pub fn with_ltl_minimum(self) -> Self {
        let Some(l) = self.ltl() else {
            return self;
        };
        let min = l.min_side();
        let up = |s: Option<(u32, u32)>| s.map(|(w, h)| (w.max(min), h.max(min)));
        Self {
            torus: up(self.torus),
            bounded: self.bounded.map(|(w, h, e)| (w.max(min), h.max(min), e)),
            ..self
        }
    }

    /// The same rule without a bounded-grid suffix (a torus or a bounded plane).
    pub fn without_torus(self) -> Self {
        Self {
            torus: None,
            bounded: None,
            tube: None,
            ..self
        }
    }

    /// The library name of this rule (`Life`, `HighLife`, ...), if it has one.
    pub fn name(&self) -> Option<&'static str> {
        named::name_of(&self.kind)
    }
}

impl From<LifeRule> for Rule {
    fn from(rule: LifeRule) -> Self {
        Self {
            kind: RuleKind::Life(rule),
            torus: None,
            bounded: None,
            tube: None,
        }
    }
}

impl From<MapRule> for Rule {
    fn from(rule: MapRule) -> Self {
        Self {
            kind: RuleKind::Map(rule),
            torus: None,
            bounded: None,
            tube: None,
        }
    }
}

impl From<ElementaryRule> for Rule {
    fn from(rule: ElementaryRule) -> Self {
        Self {
            kind: RuleKind::Elementary(rule),
            torus: None,
            bounded: None,
            tube: None,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RuleKind::Life(r) => write!(f, "{r}")?,
            RuleKind::Elementary(r) => write!(f, "{r}")?,
            RuleKind::Map(r) => write!(f, "{r}")?,
            RuleKind::Generations(r) => write!(f, "{r}")?,
            RuleKind::Loaded(r) => write!(f, "{r}")?,
            RuleKind::Ltl(r) => write!(f, "{r}")?,
        }
        match (self.torus, &self.kind) {
            // Golly writes a one-dimensional ring of width w as `:Tw,0`; a taller torus is the
            // 2D form's, written as it came (a pattern file makes it so).
            (Some((w, 1)), RuleKind::Elementary(_)) => write!(f, ":T{w},0")?,
            (Some((w, h)), _) => write!(f, ":T{w},{h}")?,
            (None, _) => {}
        }
        if let Some((w, h, edges)) = self.bounded {
            write!(f, "{}", edges.suffix(w, h))?;
        }
        if let Some(tube) = self.tube {
            write!(f, "{}", tube.suffix())?;
        }
        Ok(())
    }
}

/// A rule string that could not be parsed: the whole input and what was wrong with which part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{input}: {message}")]
pub struct RuleError {
    pub input: String,
    pub message: String,
}

impl RuleError {
    fn new(input: &str, message: impl Into<String>) -> Self {
        Self {
            input: input.to_string(),
            message: message.into(),
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = RuleError;

    fn from_str(input: &str) -> Result<Self, RuleError> {
        let text = input.trim();
        if text.is_empty() {
            return Err(RuleError::new(input, "empty rule string"));
        }
        let (body, suffix) = match text.find(':') {
            Some(i) => (text[..i].trim_end(), Some((&text[i + 1..], i + 1))),
            None => (text, None),
        };
        let kind = parse_kind(input, body)?;
        let (mut torus, mut bounded, mut tube) = (None, None, None);
        if let Some((s, at)) = suffix {
            let elementary = matches!(kind, RuleKind::Elementary(_));
            match parse_torus(input, s, at, elementary)? {
                Grid::Torus(size) => torus = Some(size),
                Grid::Bounded(grid) => bounded = Some(grid),
                Grid::Tube(t) => tube = Some(t),
                Grid::Unbounded => {}
            }
        }
        Ok(Self {
            kind,
            torus,
            bounded,
            tube,
        }
        .with_ltl_minimum())
    }
}

fn parse_kind(input: &str, body: &str) -> Result<RuleKind, RuleError> {
    if body.is_empty() {
        return Err(RuleError::new(input, "no rule before the ':' suffix"));
    }
    if let Some(kind) = named::lookup(body) {
        return Ok(kind);
    }
    // Golly asks its own algorithms before RuleLoader: a string that is a Generations, MAP or
    // Larger than Life rule is that rule, and no rules folder is searched for it.
    let family = if generations::looks_like_generations(body) {
        Some(
            generations::parse(body, |two| parse_kind(input, two).map_err(|e| e.message))
                .map_err(|m| RuleError::new(input, m)),
        )
    } else if body.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("map")) {
        Some(
            map::parse_map(body)
                .map(RuleKind::Map)
                .map_err(|m| RuleError::new(input, m)),
        )
    } else if ltl::looks_like_ltl(body) {
        Some(
            ltl::parse(body)
                .map(RuleKind::Ltl)
                .map_err(|m| RuleError::new(input, format!("a Larger than Life rule: {m}"))),
        )
    } else {
        None
    };
    if let Some(Ok(kind)) = family {
        return Ok(kind);
    }
    // Any word may be a rule file's name (Golly's `Langtons-Loops`, `LifeHistory`).
    if is_wordy(body) && !body.contains(['/', '\\']) {
        match loader::resolve(body) {
            Ok(Some(rule)) => return Ok(RuleKind::Loaded(rule)),
            Ok(None) => {}
            Err(e) => {
                return Err(RuleError::new(
                    input,
                    format!("the rule file of '{body}': {e}"),
                ));
            }
        }
    }
    if let Some(Err(e)) = family {
        return Err(e);
    }
    if let Some(family) = other_family(body) {
        return Err(RuleError::new(input, family));
    }
    if looks_lifelike(body) && (has_hensel_letters(body) || has_hex_letters(body)) {
        return parse_hensel(input, body);
    }
    if let Some(digits) = body.strip_prefix(['W', 'w'])
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return match digits.parse::<u32>() {
            Ok(n) if n <= 255 => Ok(RuleKind::Elementary(ElementaryRule(n as u8))),
            _ => Err(RuleError::new(
                input,
                format!("Wolfram rule number {digits} is outside 0..255"),
            )),
        };
    }
    // A string that starts like a B/S rule gets the B/S parser's error, which names the part.
    if looks_lifelike(body) {
        return lifelike::parse(body)
            .map(RuleKind::Life)
            .map_err(|m| RuleError::new(input, m));
    }
    if is_wordy(body) {
        let known: Vec<&str> = named::NAMED_RULES
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| !n.starts_with('B'))
            .collect();
        return Err(RuleError::new(
            input,
            format!(
                "unknown rule name '{body}': it is not a named rule ({}), and no rule file {body}.rule is in the pattern's folder, a --rules folder, LIFELAB_RULES or Golly's rules folder ({})",
                known.join(", "),
                loader::SYSTEM_DIRS[0]
            ),
        ));
    }
    if formula::looks_like_formula(body) {
        return compile_formula(body)
            .map(RuleKind::Elementary)
            .map_err(|e| RuleError::new(input, e));
    }
    lifelike::parse(body)
        .map(RuleKind::Life)
        .map_err(|m| RuleError::new(input, m))
}

/// A Hensel rule (Moore, as in Golly 3.3, or hexagonal with `H`, as in Golly 4 and
/// LifeViewer), or the Life-like rule its letters add up to.
fn parse_hensel(input: &str, body: &str) -> Result<RuleKind, RuleError> {
    let trimmed = body.trim_end();
    let last = trimmed.chars().last().map(|c| c.to_ascii_uppercase());
    if last == Some('V') {
        return Err(RuleError::new(
            input,
            "isotropic non-totalistic letters with the von Neumann neighbourhood do not exist (its four neighbours' counts are its only classes up to symmetry); a MAP rule of 6 characters gives any von Neumann rule",
        ));
    }
    let hexagonal = last == Some('H');
    let text = if hexagonal {
        &trimmed[..trimmed.len() - 1]
    } else {
        body
    };
    let rule = map::parse_hensel(text, hexagonal).map_err(|m| RuleError::new(input, m))?;
    Ok(match rule.totalistic() {
        Some((birth, survival)) => RuleKind::Life(LifeRule {
            neighbourhood: rule.neighbourhood,
            birth: Transition::from_counts(&birth),
            survival: Transition::from_counts(&survival),
        }),
        None => RuleKind::Map(rule),
    })
}

/// A hexagonal rule (`...H`) with the hexagon's letters (`o`, `m`, `p`) or a `-`.
fn has_hex_letters(body: &str) -> bool {
    let t = body.trim_end();
    t.ends_with(['H', 'h'])
        && t[..t.len() - 1]
            .chars()
            .any(|c| "omp-_".contains(c.to_ascii_lowercase()))
}

/// Letters or signs that only Hensel notation uses, outside any probability's parentheses.
fn has_hensel_letters(body: &str) -> bool {
    let mut depth = 0i32;
    body.chars().any(|c| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        depth == 0 && "ceaiknjqrytwz-_".contains(c.to_ascii_lowercase())
    })
}

/// The rule families of Golly that lifelab does not run yet, named with the part it lacks.
fn other_family(body: &str) -> Option<String> {
    let lower = body.to_ascii_lowercase();
    if lower == "lifehistory" || lower == "lifesuper" || lower == "stateinvestigator" {
        return Some(format!(
            "{body} is one of Golly's multi-state Life variants, a rule file ({body}.rule) that is not in the pattern's folder or any rules folder (add one with --rules DIR or LIFELAB_RULES)"
        ));
    }
    None
}

/// `B3...`, `S23...`, `B/...`, `23/3`: the start of a Life-like rule string.
fn looks_lifelike(body: &str) -> bool {
    let mut chars = body.chars();
    match (chars.next(), chars.next()) {
        (Some('B' | 'b' | 'S' | 's'), Some(c)) => c.is_ascii_digit() || c == '/',
        (Some(c), _) if c.is_ascii_digit() || c == '/' => !formula::looks_like_formula(body),
        _ => false,
    }
}

/// A word (two letters in a row, other than rule letters like the `BS` of `B3S23`) can only be
/// meant as a rule name.
fn is_wordy(body: &str) -> bool {
    let rule_letter = |c: char| matches!(c.to_ascii_uppercase(), 'B' | 'S' | 'H' | 'V');
    body.chars()
        .zip(body.chars().skip(1))
        .any(|(a, b)| a.is_alphabetic() && b.is_alphabetic() && !(rule_letter(a) && rule_letter(b)))
}

/// A bounded grid a suffix names.
enum Grid {
    Torus((u32, u32)),
    /// The bounded plane, or edges joined otherwise than a torus's.
    Bounded((u32, u32, Edges)),
    /// The infinite tube or strip, one side 0.
    Tube(Tube),
    /// `:T0,0` (and Golly's bare `:` or `:T`): the unbounded plane.
    Unbounded,
}

/// One side of a bounded-grid suffix as Golly writes it: digits, then for a Klein bottle a
/// `*` (this pair of edges is twisted), then a shift `+n` or `-n`.
struct Side<'a> {
    digits: &'a str,
    twist: bool,
    /// The shift: whether it is negative, and its digits (none is 0, as in Golly).
    shift: Option<(bool, &'a str)>,
}

impl Side<'_> {
    /// The shift taken modulo the side, as Golly takes it, however many digits it has.
    fn shift_modulo(&self, side: u32) -> i64 {
        self.shift.map_or(0, |(negative, digits)| {
            let n = digits
                .bytes()
                .fold(0u64, |n, d| (n * 10 + (d - b'0') as u64) % side as u64)
                as i64;
            if negative { -n } else { n }
        })
    }
}

fn side<'a>(input: &str, suffix: &str, text: &'a str) -> Result<Side<'a>, RuleError> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, mut rest) = text.split_at(end);
    let twist = rest.starts_with('*');
    if twist {
        rest = &rest[1..];
    }
    let shift = match rest.chars().next() {
        None => None,
        Some(sign @ ('+' | '-')) => {
            let n = &rest[1..];
            if !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(RuleError::new(
                    input,
                    format!(
                        "bounded grid ':{suffix}': the shift '{rest}' is not a sign and a whole number"
                    ),
                ));
            }
            Some((sign == '-', n))
        }
        Some(_) => {
            return Err(RuleError::new(
                input,
                format!("bounded grid ':{suffix}': unexpected '{rest}' after the size"),
            ));
        }
    };
    Ok(Side {
        digits,
        twist,
        shift,
    })
}

/// Golly's bounded-grid suffix (`lifealgo::setgridsize`): the torus `T<w>,<h>`, with a shift
/// (`T30+7,20`), the bounded plane `P<w>,<h>`, the Klein bottle `K<w>*,<h>` or `K<w>,<h>*`
/// (a shift of one on its twisted, even side: `*+1`), the cross-surface `C<w>,<h>` and the
/// sphere `S<w>`. A missing height is the width. For an elementary rule Golly writes the ring of
/// width w as `T<w>,0`: that is (w, 1) here.
fn parse_torus(input: &str, suffix: &str, at: usize, elementary: bool) -> Result<Grid, RuleError> {
    let err = |m: String| Err(RuleError::new(input, m));
    let s = suffix.trim();
    // Golly reads a bare ':' (or a letter alone, below) as ':T0,0', the unbounded plane.
    let Some(first) = s.chars().next() else {
        return if elementary {
            err(format!(
                "empty suffix after ':' at column {at}: an elementary rule's ring is ':T<width>,0'"
            ))
        } else {
            Ok(Grid::Unbounded)
        };
    };
    let topology = first.to_ascii_uppercase();
    match topology {
        'T' => {}
        'P' | 'K' | 'C' | 'S' if elementary => {
            return err(format!(
                "bounded grid ':{s}' is for 2D rules: an elementary rule's ring is ':T<width>,0'"
            ));
        }
        'P' | 'K' | 'C' | 'S' => {}
        _ => {
            return err(format!(
                "unknown bounded-grid suffix ':{s}' (expected Golly's ':T<w>,<h>', ':P<w>,<h>', ':K<w>*,<h>', ':C<w>,<h>' or ':S<w>')"
            ));
        }
    }
    let dims = &s[1..];
    if dims.is_empty() && !elementary {
        return Ok(Grid::Unbounded);
    }
    let (w, h) = match dims.split_once(',') {
        Some(_) if topology == 'S' => {
            return err(format!(
                "sphere ':{s}' is square: Golly writes it ':S<side>'"
            ));
        }
        Some((w, h)) => (side(input, s, w.trim())?, Some(side(input, s, h.trim())?)),
        None => (side(input, s, dims.trim())?, None),
    };
    let (h_twist, v_twist) = (w.twist, h.as_ref().is_some_and(|h| h.twist));
    let shift = (w.shift, h.as_ref().and_then(|h| h.shift));
    // Golly's rules for twists and shifts, in its words.
    if (h_twist || v_twist) && topology != 'K' {
        return err(format!(
            "bounded grid ':{s}': only a Klein bottle has a twist ('*')"
        ));
    }
    if h_twist && v_twist {
        return err(format!(
            "Klein bottle ':{s}' can't have both horizontal and vertical twists"
        ));
    }
    if shift != (None, None) {
        match topology {
            'P' => return err(format!("bounded plane ':{s}' can't have a shift")),
            'S' => return err(format!("sphere ':{s}' can't have a shift")),
            'C' => return err(format!("cross-surface ':{s}' can't have a shift")),
            'K' if (shift.0.is_some() && !h_twist) || (shift.1.is_some() && !v_twist) => {
                return err(format!(
                    "Klein bottle ':{s}': the shift must be on the twisted edges"
                ));
            }
            _ => {}
        }
    }
    let name = match topology {
        'T' => "torus",
        'P' => "bounded plane",
        'K' => "Klein bottle",
        'C' => "cross-surface",
        _ => "sphere",
    };
    // A side of 0 is unbounded, as in Golly (checked below).
    let dim = |which: &str, v: &str| -> Result<u32, RuleError> {
        match v.parse::<u64>() {
            Ok(n) if n <= crate::grid::MAX_DIMENSION as u64 => Ok(n as u32),
            Ok(n) => Err(RuleError::new(
                input,
                format!(
                    "{name} {which} {n} is outside 1..{}",
                    crate::grid::MAX_DIMENSION
                ),
            )),
            Err(_) => Err(RuleError::new(
                input,
                format!("{name} {which} '{v}' is not a whole number"),
            )),
        }
    };
    let width = dim("width", w.digits)?;
    // Golly's ':T30' alone is a 30x30 torus; an elementary rule's ring is ':T30,0' (or ',1').
    let height = match &h {
        // Golly reads the digits as a number, so ',00' is the ring too.
        Some(h) if elementary && h.digits.bytes().all(|b| b == b'0') => 1,
        Some(h) => dim("height", h.digits)?,
        None if elementary => 1,
        None => width,
    };
    if elementary && width == 0 {
        return err(format!("ring ':{s}' has width 0"));
    }
    // Golly's infinite sides, in its words: only a torus or a plane has one, unshifted.
    if width == 0 || height == 0 {
        if matches!(topology, 'K' | 'C' | 'S') {
            return err(format!(
                "{name} ':{s}' can't have an infinite {}",
                if width == 0 { "width" } else { "height" }
            ));
        }
        if shift != (None, None) {
            return err(format!(
                "bounded grid ':{s}': shifting is not allowed if either side is unbounded"
            ));
        }
        return match (topology, width, height) {
            (_, 0, 0) => Ok(Grid::Unbounded),
            ('T', 0, height) => Ok(Grid::Tube(Tube::Wide { height })),
            ('T', width, _) => Ok(Grid::Tube(Tube::Tall { width })),
            (_, 0, height) => Ok(Grid::Tube(Tube::WideStrip { height })),
            (_, width, _) => Ok(Grid::Tube(Tube::TallStrip { width })),
        };
    }
    if elementary && shift != (None, None) {
        return err(format!("ring ':{s}' can't have a shift"));
    }
    // Golly takes a shift modulo its side; a Klein bottle's shift is one cell, on an even side.
    let hshift = w.shift_modulo(width) as i32;
    let vshift = h.as_ref().map_or(0, |h| h.shift_modulo(height)) as i32;
    // Golly refuses a second shift only where the first is not 0 once taken modulo its side.
    if hshift != 0 && vshift != 0 {
        return err(format!(
            "torus ':{s}' can't have both horizontal and vertical shifts"
        ));
    }
    let edges = match topology {
        'T' if hshift == 0 && vshift == 0 => return Ok(Grid::Torus((width, height))),
        'T' => Edges::ShiftedTorus {
            horizontal: hshift,
            vertical: vshift,
        },
        'P' => Edges::Plane,
        'K' if h_twist => Edges::KleinTopBottom {
            shifted: hshift != 0 && width % 2 == 0,
        },
        'K' => Edges::KleinLeftRight {
            shifted: vshift != 0 && height % 2 == 0,
        },
        'C' => Edges::CrossSurface,
        _ => Edges::Sphere,
    };
    Ok(Grid::Bounded((width, height, edges)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probability_threshold_is_floor_of_p_times_2_pow_32() {
        let half = Probability::new(1, 2).unwrap();
        assert_eq!(half.threshold(), 1 << 31);
        let third = Probability::new(2, 6).unwrap();
        assert_eq!((third.numerator(), third.denominator()), (1, 3));
        assert_eq!(third.threshold(), 1_431_655_765); // floor(2^32 / 3)
        assert!(Probability::new(3, 3).is_none());
        assert!(Probability::new(0, 3).is_none());
    }

    #[test]
    fn neighbourhood_offsets_match_golly() {
        let hex = Neighbourhood::Hexagonal.offsets();
        assert!(!hex.contains(&(1, -1)) && !hex.contains(&(-1, 1)));
        assert_eq!(Neighbourhood::Moore.max_count(), 8);
        assert_eq!(Neighbourhood::Hexagonal.max_count(), 6);
        assert_eq!(Neighbourhood::VonNeumann.max_count(), 4);
    }
}
