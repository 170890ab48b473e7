//! A Life-like rule as a table over count values, the form the bit-sliced engines evaluate.
//!
//! For the Moore neighbourhood the engines count the 3x3 block, centre included, so the count
//! value is t = n + alive (0..=9) and the table is re-indexed by t; for the other
//! neighbourhoods the count value is n itself.

use super::{LifeRule, Neighbourhood};

/// What a cell in one state becomes at one count value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Dead,
    Alive,
    /// Alive when the cell's 32-bit hash is below this threshold (see `Probability`).
    Chance(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountTable {
    pub neighbourhood: Neighbourhood,
    /// Count values 0..values are possible.
    pub values: usize,
    /// Indexed by count value: the outcome for a dead cell and for a live one.
    pub dead: [Outcome; 10],
    pub alive: [Outcome; 10],
}

impl CountTable {
    pub fn new(rule: &LifeRule) -> Self {
        let moore = rule.neighbourhood == Neighbourhood::Moore;
        let max = rule.neighbourhood.max_count() as usize;
        let values = if moore { 10 } else { max + 1 };
        let outcome = |c: usize, alive: bool| {
            let n = if moore && alive {
                c.checked_sub(1)
            } else {
                Some(c)
            };
            let t = rule.transition(alive);
            match n.filter(|&n| n <= max) {
                Some(n) if t.is_certain(n as u8) => Outcome::Alive,
                Some(n) => t.chance[n].map_or(Outcome::Dead, |p| Outcome::Chance(p.threshold())),
                None => Outcome::Dead,
            }
        };
        Self {
            neighbourhood: rule.neighbourhood,
            values,
            dead: std::array::from_fn(|c| {
                if c < values {
                    outcome(c, false)
                } else {
                    Outcome::Dead
                }
            }),
            alive: std::array::from_fn(|c| {
                if c < values {
                    outcome(c, true)
                } else {
                    Outcome::Dead
                }
            }),
        }
    }

    /// Bit c set: certainly alive next at count value c.
    pub fn certain_bits(&self, alive: bool) -> u32 {
        let row = if alive { &self.alive } else { &self.dead };
        row.iter()
            .enumerate()
            .filter(|(_, o)| **o == Outcome::Alive)
            .fold(0, |acc, (c, _)| acc | 1 << c)
    }

    /// The stochastic threshold per count value, 0 where there is no chance.
    pub fn thresholds(&self, alive: bool) -> [u32; 10] {
        let row = if alive { &self.alive } else { &self.dead };
        row.map(|o| match o {
            Outcome::Chance(t) => t,
            _ => 0,
        })
    }

    pub fn is_stochastic(&self) -> bool {
        self.dead
            .iter()
            .chain(&self.alive)
            .any(|o| matches!(o, Outcome::Chance(_)))
    }
}
