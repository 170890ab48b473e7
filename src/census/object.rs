//! One object of a census, alone on the plane: a small patch of cells stepped by the rule's
//! 3x3 table, its period and displacement found as lifelib's `ascertain_period` finds them (the
//! first generation whose shape is the first one's, wherever it moved), and its apgcode.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::grid::Grid;
use crate::pattern::apgcode::wechsler;
use crate::rule::map::MapRule;

/// A phase wider than this area (with a margin of one cell) has no Wechsler form in its code,
/// and one whose form is longer than [`MAX_LENGTH`] is not used, as in lifelib.
pub const MAX_AREA: usize = 40_000;
pub const MAX_LENGTH: usize = 1280;

/// Live cells in their bounding box, a byte per cell, with where the box's corner is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Patch {
    pub x0: i64,
    pub y0: i64,
    pub w: usize,
    pub h: usize,
    pub cells: Vec<u8>,
}

impl Patch {
    pub fn empty() -> Self {
        Patch {
            x0: 0,
            y0: 0,
            w: 0,
            h: 0,
            cells: Vec::new(),
        }
    }

    pub fn from_cells(cells: &[(i64, i64)]) -> Self {
        let Some(x0) = cells.iter().map(|c| c.0).min() else {
            return Self::empty();
        };
        let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let w = (cells.iter().map(|c| c.0).max().unwrap_or(x0) - x0 + 1) as usize;
        let h = (cells.iter().map(|c| c.1).max().unwrap_or(y0) - y0 + 1) as usize;
        let mut p = Patch {
            x0,
            y0,
            w,
            h,
            cells: vec![0; w * h],
        };
        for &(x, y) in cells {
            p.cells[(y - y0) as usize * w + (x - x0) as usize] = 1;
        }
        p
    }

    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|&c| c == 0)
    }

    pub fn population(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    pub fn get(&self, x: i64, y: i64) -> bool {
        let (dx, dy) = (x - self.x0, y - self.y0);
        dx >= 0
            && dy >= 0
            && (dx as usize) < self.w
            && (dy as usize) < self.h
            && self.cells[dy as usize * self.w + dx as usize] != 0
    }

    pub fn live(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(i, _)| (self.x0 + (i % self.w) as i64, self.y0 + (i / self.w) as i64))
    }

    /// The shape without its place: equal for two translates of one another.
    pub fn same_shape(&self, other: &Patch) -> bool {
        self.w == other.w && self.h == other.h && self.cells == other.cells
    }

    pub fn shape_hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.w, self.h, &self.cells).hash(&mut h);
        h.finish()
    }

    /// The next generation, trimmed to its bounding box.
    pub fn step(&self, rule: &MapRule) -> Patch {
        if self.w == 0 {
            return Self::empty();
        }
        let (w, h) = (self.w as i64, self.h as i64);
        let (ow, oh) = (self.w + 2, self.h + 2);
        let mut out = vec![0u8; ow * oh];
        let at = |x: i64, y: i64| -> u16 {
            if x < 0 || y < 0 || x >= w || y >= h {
                0
            } else {
                self.cells[(y * w + x) as usize] as u16
            }
        };
        for oy in 0..oh as i64 {
            let y = oy - 1;
            // The 3x3 index slides along the row: each step drops the west column.
            let mut index: u16 = 0;
            // Output column `ox` is the block centred on input column `ox - 1`, whose east
            // column is input column `ox`.
            for ox in 0..ow as i64 {
                let column = at(ox, y - 1) << 2 | at(ox, y) << 1 | at(ox, y + 1);
                // Columns (W, centre, E) sit at bits 8,5,2 / 7,4,1 / 6,3,0 of MAP's order.
                index = (index << 1 & 0b110_110_110)
                    | (column >> 2 & 1) << 6
                    | (column >> 1 & 1) << 3
                    | (column & 1);
                if rule.next(index) {
                    out[oy as usize * ow + ox as usize] = 1;
                }
            }
        }
        Patch {
            x0: self.x0 - 1,
            y0: self.y0 - 1,
            w: ow,
            h: oh,
            cells: out,
        }
        .trimmed()
    }

    pub fn trimmed(&self) -> Patch {
        let cells: Vec<(i64, i64)> = self.live().collect();
        Patch::from_cells(&cells)
    }

    pub fn to_grid(&self) -> Grid {
        let mut g = Grid::new(self.w as u32, self.h as u32);
        for (i, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                g.set((i % self.w) as u32, (i / self.w) as u32, true);
            }
        }
        g
    }
}

/// An object's cycle: its period, its displacement per period, and its phases.
#[derive(Clone, Debug)]
pub struct Cycle {
    pub period: u64,
    pub dx: i64,
    pub dy: i64,
    pub phases: Vec<Patch>,
}

/// Why an object has no cycle within the generations looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCycle {
    /// It never came back to its first shape.
    Aperiodic,
    /// It grew past [`MAX_AREA`] cells of box, as nothing periodic in a soup does.
    Grew,
}

/// The object's cycle, looked for over `limit` generations.
pub fn cycle(start: &Patch, rule: &MapRule, limit: u64) -> Result<Cycle, NoCycle> {
    let mut phases = vec![start.clone()];
    let mut x = start.clone();
    for t in 1..=limit {
        x = x.step(rule);
        if x.same_shape(start) {
            return Ok(Cycle {
                period: t,
                dx: x.x0 - start.x0,
                dy: x.y0 - start.y0,
                phases,
            });
        }
        if x.is_empty() {
            return Err(NoCycle::Aperiodic);
        }
        if (x.w + 2) * (x.h + 2) > 4 * MAX_AREA {
            return Err(NoCycle::Grew);
        }
        phases.push(x.clone());
    }
    Err(NoCycle::Aperiodic)
}

/// The apgcode of an object with this cycle, as lifelib writes it: `xs`, `xp` or `xq`, and the
/// shortest Wechsler form of any phase in any orientation; `ov_` and no form when every phase
/// is too big.
pub fn apgcode(c: &Cycle) -> String {
    let mut best: Option<String> = None;
    for phase in &c.phases {
        if (phase.w + 2) * (phase.h + 2) > MAX_AREA {
            continue;
        }
        for g in phase.to_grid().symmetries() {
            let rep = wechsler(&g);
            if rep.len() > MAX_LENGTH {
                continue;
            }
            if best
                .as_ref()
                .is_none_or(|b| (rep.len(), &rep) < (b.len(), b))
            {
                best = Some(rep);
            }
        }
    }
    let kind = if c.period == 1 && c.dx == 0 && c.dy == 0 {
        format!("s{}", c.phases[0].population())
    } else if c.dx == 0 && c.dy == 0 {
        format!("p{}", c.period)
    } else {
        format!("q{}", c.period)
    };
    match best {
        Some(rep) => format!("x{kind}_{rep}"),
        None => format!("ov_{kind}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    fn life() -> MapRule {
        Rule::life().block_rule().unwrap()
    }

    fn patch(text: &str) -> Patch {
        let cells: Vec<(i64, i64)> = text
            .lines()
            .enumerate()
            .flat_map(|(y, l)| {
                l.chars()
                    .enumerate()
                    .filter(|(_, c)| *c == 'O')
                    .map(move |(x, _)| (x as i64, y as i64))
            })
            .collect();
        Patch::from_cells(&cells)
    }

    #[test]
    fn a_blinker_turns_and_a_glider_moves() {
        let blinker = patch("OOO");
        let next = blinker.step(&life());
        assert_eq!((next.x0, next.y0, next.w, next.h), (1, -1, 1, 3));
        let c = cycle(&blinker, &life(), 100).unwrap();
        assert_eq!((c.period, c.dx, c.dy), (2, 0, 0));
        assert_eq!(apgcode(&c), "xp2_7");
        let glider = patch(".O.\n..O\nOOO");
        let c = cycle(&glider, &life(), 100).unwrap();
        assert_eq!((c.period, c.dx, c.dy), (4, 1, 1));
        assert_eq!(apgcode(&c), "xq4_153");
        let block = patch("OO\nOO");
        assert_eq!(apgcode(&cycle(&block, &life(), 100).unwrap()), "xs4_33");
    }

    #[test]
    fn a_pattern_that_does_not_return_has_no_cycle() {
        // The R-pentomino grows for 1103 generations.
        let r = patch(".OO\nOO.\n.O.");
        assert!(cycle(&r, &life(), 200).is_err());
    }
}
