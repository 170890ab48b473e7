//! The first phase of apgsearch's stabilisation as a machine that is fed one population at a
//! time, so that a soup can be carried through it on the GPU (`shaders/soups.wgsl` runs the same
//! machine, field for field) and finished on the CPU from wherever the GPU left it.
//!
//! apgluxe's loop, which this machine unrolls:
//!
//! ```text
//! while i < 1000:
//!     at i = 25, 50, 75 the security becomes 20, 25, 30; at i = 200, 400 the period 12, 30
//!     run `period` generations; if the population is the one before, depth += 1, else
//!     depth = 0 and (while the period is under 30) i += 1 and 12 generations more
//!     settled (with this period) when depth reaches the security; i += 1
//! ```

use bytemuck::{Pod, Zeroable};

/// The machine's state. `#[repr(C)]` and all `u32`, since the GPU keeps the same fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub struct Stabiliser {
    /// apgluxe's loop counter.
    pub i: u32,
    /// Checks in a row that found the population unchanged.
    pub depth: u32,
    /// The population at the last check.
    pub previous: u32,
    /// Generations between checks (8, 12 or 30).
    pub period: u32,
    /// Unchanged checks in a row that settle the soup (15 to 30).
    pub security: u32,
    /// Generations until the next event.
    pub countdown: u32,
    /// 1: the next event only ends the 12 generations run after a change; 0: it is a check.
    pub extra: u32,
}

/// What an event found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Run [`Stabiliser::due`] generations more, then call [`Stabiliser::event`].
    Continue,
    /// Settled, with this stabilisation period.
    Settled(u64),
    /// A thousand rounds without settling: on to the second phase (a hash of the cells).
    PhaseTwo,
}

/// Rounds of the first phase.
pub const ROUNDS: u32 = 1000;

impl Default for Stabiliser {
    fn default() -> Self {
        Self::new()
    }
}

impl Stabiliser {
    pub fn new() -> Self {
        let mut s = Stabiliser {
            i: 0,
            depth: 0,
            previous: 0,
            period: 8,
            security: 15,
            countdown: 0,
            extra: 0,
        };
        s.round();
        s
    }

    /// Generations to run before the next [`Stabiliser::event`].
    pub fn due(&self) -> u64 {
        self.countdown as u64
    }

    /// The population after [`Stabiliser::due`] generations.
    pub fn event(&mut self, population: u64) -> Verdict {
        if self.extra == 0 {
            // A population too big for the GPU's 32 bits still compares as a change.
            let current = u32::try_from(population).unwrap_or(u32::MAX);
            let changed = current != self.previous || population > u32::MAX as u64;
            let extra = changed && self.period < 30;
            if changed {
                self.depth = 0;
            } else {
                self.depth += 1;
            }
            self.previous = current;
            if extra {
                self.i += 1;
            }
            if self.depth == self.security {
                return Verdict::Settled(self.period as u64);
            }
            self.i += 1;
            if extra {
                self.extra = 1;
                self.countdown = 12;
                return Verdict::Continue;
            }
        }
        if self.round() {
            Verdict::Continue
        } else {
            Verdict::PhaseTwo
        }
    }

    /// The top of apgluxe's loop: false once the rounds are spent.
    fn round(&mut self) -> bool {
        if self.i >= ROUNDS {
            return false;
        }
        match self.i {
            25 => self.security = 20,
            50 => self.security = 25,
            75 => self.security = 30,
            200 => self.period = 12,
            400 => self.period = 30,
            _ => {}
        }
        self.countdown = self.period;
        self.extra = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apgluxe's loop as it is written, over a population sequence given as a function of the
    /// generation: the generation it settles at and its period.
    /// Settled: Ok((generation, period)); not: Err(the generation the first phase ended at).
    fn apgluxe(pop: impl Fn(u64) -> u64) -> Result<(u64, u64), u64> {
        let (mut depth, mut previous, mut g) = (0, 0, 0);
        let (mut period, mut security) = (8u64, 15);
        let mut i = 0;
        while i < 1000 {
            match i {
                25 => security = 20,
                50 => security = 25,
                75 => security = 30,
                200 => period = 12,
                400 => period = 30,
                _ => {}
            }
            g += period;
            let current = pop(g);
            if current == previous {
                depth += 1;
            } else {
                depth = 0;
                if period < 30 {
                    i += 1;
                    g += 12;
                }
            }
            previous = current;
            if depth == security {
                return Ok((g, period));
            }
            i += 1;
        }
        Err(g)
    }

    fn machine(pop: impl Fn(u64) -> u64) -> Result<(u64, u64), u64> {
        let mut s = Stabiliser::new();
        let mut g = 0;
        loop {
            g += s.due();
            match s.event(pop(g)) {
                Verdict::Continue => {}
                Verdict::Settled(p) => return Ok((g, p)),
                Verdict::PhaseTwo => return Err(g),
            }
        }
    }

    #[test]
    fn the_machine_settles_where_apgluxes_loop_does() {
        // Populations that change until some generation, or that change now and then forever,
        // or that oscillate with a period the checks may or may not divide.
        let cases: Vec<Box<dyn Fn(u64) -> u64>> = vec![
            Box::new(|_| 0),
            Box::new(|g| if g < 500 { g } else { 77 }),
            Box::new(|g| if g < 3000 { g % 7 } else { 12 }),
            Box::new(|g| 100 + g % 2),
            Box::new(|g| 100 + (g % 46 < 23) as u64),
            Box::new(|g| (g / 997) % 2),
            Box::new(|g| g),
            Box::new(|g| if g < 9000 { g * g % 13 } else { 5 }),
        ];
        for (k, pop) in cases.iter().enumerate() {
            assert_eq!(machine(pop), apgluxe(pop), "case {k}");
        }
        assert!(machine(|g| g).is_err());
    }
}
