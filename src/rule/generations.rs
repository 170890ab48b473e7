//! Golly's Generations rules: a two-state rule of the 3x3 block (counted, Hensel's letters or
//! a MAP string) with a history. State 0 is dead, 1 alive, and 2..n-1 are dying: a live cell
//! that does not survive becomes 2, a dying cell goes one state up each generation and back
//! to 0 after the last. Only state-1 cells count as neighbours, and births happen in state-0
//! cells only, so a dying cell is neither alive nor empty.
//!
//! Notations read (case-insensitive), as Golly, LifeViewer and Catagolue write them:
//! - Golly's `S/B/N`: `345/3/6`, `/2/3`, `23/3/3H`, with Hensel letters `12/2-a/3`;
//! - `B3/S23/C3` and `B3/S23/3` (either order of B and S);
//! - `MAP<base64>/N`;
//! - Catagolue's `g3b3s23`.
//!
//! Printed in Golly's canonical form: survival first, `345/3/6`, `12/2-a/3`, `MAP.../3`.

use std::fmt;

use super::map::{self, MapNotation, MapRule};
use super::{LifeRule, RuleKind};

/// The most states Golly's Generations takes.
pub const MAX_STATES: u16 = 256;

/// A Generations rule: the live state's birth and survival as a table of the 3x3 block, and
/// the number of states (3..=256; two states is the plain rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerationsRule {
    pub table: MapRule,
    pub states: u16,
}

impl GenerationsRule {
    /// The next state of a cell in `state` whose block of live (state-1) cells has `index`
    /// (Golly's MAP order, the centre bit set when the cell itself is alive).
    #[inline]
    pub fn next(&self, state: u8, index: u16) -> u8 {
        match state {
            0 | 1 if self.table.next(index) => 1,
            0 => 0,
            s if (s as u16) + 1 < self.states => s + 1,
            _ => 0,
        }
    }

    /// The rule as a rule tree over the Moore neighbourhood (Golly's order), so the engines that
    /// walk trees run it: HashLife over N states above all. Only live neighbours count, so each
    /// neighbour's node has two children (live, and any other state): 2^9 paths, whatever the
    /// number of states.
    pub fn tree(&self) -> super::loader::RuleTree {
        use super::loader::tree::{Shape, TreeBuilder};
        fn build(
            g: &GenerationsRule,
            b: &mut TreeBuilder,
            order: &[(i32, i32)],
            index: u16,
        ) -> u32 {
            let states = g.states as usize;
            if let [(0, 0)] = order {
                let centre = map::bit_at(0, 0);
                let entries = (0..states as u16)
                    .map(|c| {
                        let index = if c == 1 { index | centre } else { index };
                        g.next(c as u8, index) as u32
                    })
                    .collect();
                return b.node(entries);
            }
            let (dx, dy) = order[0];
            let dead = build(g, b, &order[1..], index);
            let live = build(g, b, &order[1..], index | map::bit_at(dx, dy));
            b.node(
                (0..states)
                    .map(|s| if s == 1 { live } else { dead })
                    .collect(),
            )
        }
        let mut b = TreeBuilder::new(self.states);
        let root = build(self, &mut b, Shape::Moore.order(), 0);
        b.finish(Shape::Moore, root)
    }

    /// Bits a state takes: enough for `states - 1`.
    pub fn bits(&self) -> u32 {
        16 - (self.states - 1).leading_zeros()
    }
}

impl fmt::Display for GenerationsRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.table;
        if t.notation == MapNotation::Map {
            return write!(f, "{}/{}", map::map_string(t), self.states);
        }
        match t.totalistic() {
            Some((birth, survival)) => {
                let digits = |v: &[u8]| v.iter().map(|d| d.to_string()).collect::<String>();
                write!(
                    f,
                    "{}/{}/{}{}",
                    digits(&survival),
                    digits(&birth),
                    self.states,
                    t.neighbourhood.suffix()
                )
            }
            None => write!(
                f,
                "{}/{}/{}{}",
                map::hensel_side(t, true),
                map::hensel_side(t, false),
                self.states,
                t.neighbourhood.suffix()
            ),
        }
    }
}

/// Whether a rule body is one of Generations' notations (three parts, or `g<n>...`).
pub(super) fn looks_like_generations(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix('g') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        return digits > 0 && rest[digits..].starts_with('b');
    }
    if lower.starts_with("map") {
        // Base64 has '/' too: the states follow the last one, after a table of a valid length.
        return lower.rsplit_once('/').is_some_and(|(map, n)| {
            let data = map[3..].strip_suffix("==").unwrap_or(&map[3..]);
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && [86, 22, 6].contains(&data.len())
        });
    }
    let parts: Vec<&str> = lower
        .trim_end_matches(['h', 'v'])
        .split(['/', '_'])
        .collect();
    parts.len() == 3 && {
        let n = parts[2].trim().trim_start_matches('c');
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
    }
}

/// Parses a Generations rule body; `two_state` parses a two-state rule body (the crate's own
/// parser), for the birth and survival parts. Two states is the plain rule, as in Golly.
pub(super) fn parse(
    body: &str,
    two_state: impl Fn(&str) -> Result<RuleKind, String>,
) -> Result<RuleKind, String> {
    let text = body.trim();
    let lower = text.to_ascii_lowercase();
    let (rule_part, states_text) = if let Some(rest) = lower.strip_prefix('g') {
        // Catagolue: g<states>b<birth>s<survival>.
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (rest[digits..].to_string(), rest[..digits].to_string())
    } else if lower.starts_with("map") {
        let Some((map, states)) = text.rsplit_once('/') else {
            return Err("a Generations MAP rule ends with '/' and its number of states".into());
        };
        (map.to_string(), states.to_string())
    } else {
        let (core, nbhd) = match lower.chars().last() {
            Some(c @ ('h' | 'v')) => (&text[..text.len() - 1], c.to_ascii_uppercase().to_string()),
            _ => (text, String::new()),
        };
        let parts: Vec<&str> = core.split(['/', '_']).collect();
        let [a, b, n] = parts[..] else {
            return Err("a Generations rule has three parts: survival/birth/states".into());
        };
        let has = |p: &str, c: char| p.trim_start().to_ascii_lowercase().starts_with(c);
        let (birth, survival) = if has(a, 'b') || has(b, 's') {
            (a, b)
        } else if has(a, 's') || has(b, 'b') {
            (b, a)
        } else {
            // Golly's order: survival first.
            (b, a)
        };
        let strip = |p: &str| {
            p.trim()
                .trim_start_matches(['b', 'B', 's', 'S'])
                .to_string()
        };
        let two = format!("B{}/S{}{nbhd}", strip(birth), strip(survival));
        (two, n.trim().trim_start_matches(['c', 'C']).to_string())
    };
    let states: u16 = match states_text.parse::<u32>() {
        Ok(n @ 2..=256) => n as u16,
        Ok(n) => {
            return Err(format!(
                "a Generations rule has 2 to {MAX_STATES} states, not {n}"
            ));
        }
        Err(_) => {
            return Err(format!(
                "'{states_text}' is not a number of states (a Generations rule ends with /N, 2 to {MAX_STATES})"
            ));
        }
    };
    let kind = two_state(&rule_part)
        .map_err(|m| format!("in the birth and survival parts ({rule_part}): {m}"))?;
    let table = match kind {
        RuleKind::Life(l) if l.is_stochastic() => {
            return Err("a Generations rule cannot be stochastic".into());
        }
        RuleKind::Life(l) => counted(&l),
        RuleKind::Map(m) => m,
        RuleKind::Elementary(_)
        | RuleKind::Generations(_)
        | RuleKind::Loaded(_)
        | RuleKind::Ltl(_) => {
            return Err("the birth and survival parts must be a two-dimensional rule".into());
        }
    };
    if states == 2 {
        return Ok(match kind {
            RuleKind::Life(l) => RuleKind::Life(l),
            _ => RuleKind::Map(table),
        });
    }
    Ok(RuleKind::Generations(GenerationsRule { table, states }))
}

/// A counted rule as the table of its block.
fn counted(l: &LifeRule) -> MapRule {
    MapRule::from_fn(l.neighbourhood, MapNotation::Hensel, |i| {
        let alive = i & map::CENTRE != 0;
        let n = (i & !map::CENTRE).count_ones() as u8;
        l.transition(alive).is_certain(n)
    })
}
