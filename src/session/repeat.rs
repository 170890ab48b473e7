//! Watching a running universe for a repeat of its whole state, from the census (population
//! and 64-bit state hash) of every generation: under a deterministic rule, the first state
//! that comes back makes everything after it periodic. It costs nothing while it is not asked
//! for: the worker computes the hash only then.

use std::collections::{HashMap, VecDeque};

use crate::grid::Census;

/// Generations the watch remembers: repeats of a longer period are not seen.
pub const WINDOW: usize = 1 << 16;

/// The universe repeats: the state of `since` comes back every `period` generations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeat {
    pub period: u64,
    pub since: u64,
    /// The repeat may have begun before the watch started (it only knows from there).
    pub or_earlier: bool,
    /// The repeating state is the empty universe.
    pub empty: bool,
}

impl std::fmt::Display for Repeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let earlier = if self.or_earlier { " or earlier" } else { "" };
        match (self.empty, self.period) {
            (true, _) => write!(f, "empty since generation {}{earlier}", self.since),
            (false, 1) => write!(f, "still since generation {}{earlier}", self.since),
            (false, p) => write!(
                f,
                "stable with period {p} since generation {}{earlier}",
                self.since
            ),
        }
    }
}

#[derive(Default)]
pub struct RepeatWatch {
    /// (generation, census) of the last generations seen, oldest first.
    window: VecDeque<(u64, Census)>,
    /// The latest generation each hash was seen at.
    seen: HashMap<(u64, u64), u64>,
    found: Option<Repeat>,
    /// Whether the window starts where the state was last set (a load, an edit), so that a
    /// repeat found back to there began there and not earlier.
    from_a_start: bool,
}

impl RepeatWatch {
    /// Starts afresh: the state was set here (a load or an edit at `generation`), or the watch
    /// was switched on mid-run (`from_a_start` false).
    pub fn restart(&mut self, from_a_start: bool) {
        self.window.clear();
        self.seen.clear();
        self.found = None;
        self.from_a_start = from_a_start;
    }

    pub fn found(&self) -> Option<Repeat> {
        self.found
    }

    /// The census of one more generation.
    pub fn see(&mut self, generation: u64, census: Census) {
        if self
            .window
            .back()
            .is_some_and(|&(g, _)| generation != g + 1)
        {
            // A jump (a reset, an unwatched stretch): what was seen no longer leads here.
            self.restart(false);
        }
        let key = (census.hash, census.population);
        if self.found.is_none()
            && let Some(&before) = self.seen.get(&key)
        {
            let period = generation - before;
            // Walk back to the first generation whose state came back `period` later.
            let at = |g: u64| -> Option<(u64, u64)> {
                let first = self.window.front()?.0;
                let c = self.window.get(g.checked_sub(first)? as usize)?.1;
                Some((c.hash, c.population))
            };
            let mut since = before;
            while since > 0
                && let (Some(a), Some(b)) = (at(since - 1), at(since - 1 + period))
                && a == b
            {
                since -= 1;
            }
            let first = self.window.front().map_or(generation, |&(g, _)| g);
            self.found = Some(Repeat {
                period,
                since,
                or_earlier: since == first && !self.from_a_start,
                empty: census.population == 0,
            });
        }
        self.window.push_back((generation, census));
        self.seen.insert(key, generation);
        if self.window.len() > WINDOW
            && let Some((g, c)) = self.window.pop_front()
        {
            let k = (c.hash, c.population);
            if self.seen.get(&k) == Some(&g) {
                self.seen.remove(&k);
            }
            self.from_a_start = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(h: u64) -> Census {
        Census {
            population: h + 10,
            hash: h,
        }
    }

    #[test]
    fn a_period_two_repeat_is_found_with_where_it_began() {
        // States a b c d e d e d: the repeat (period 2) begins at generation 3 (state d).
        let mut w = RepeatWatch::default();
        w.restart(true);
        for (g, h) in [1, 2, 3, 4, 5, 4, 5, 4].into_iter().enumerate() {
            w.see(g as u64, c(h));
        }
        let r = w.found().unwrap();
        assert_eq!((r.period, r.since, r.or_earlier), (2, 3, false));
        assert_eq!(r.to_string(), "stable with period 2 since generation 3");
    }

    #[test]
    fn a_watch_started_mid_run_says_the_repeat_may_be_older() {
        let mut w = RepeatWatch::default();
        w.restart(false);
        for (g, h) in [7, 7].into_iter().enumerate() {
            w.see(100 + g as u64, c(h));
        }
        let r = w.found().unwrap();
        assert_eq!(r.to_string(), "still since generation 100 or earlier");
        // A gap in the generations starts the watch again.
        w.see(500, c(1));
        assert_eq!(w.found(), None);
    }

    #[test]
    fn an_empty_universe_says_so() {
        let mut w = RepeatWatch::default();
        w.restart(true);
        let empty = Census {
            population: 0,
            hash: 0,
        };
        w.see(0, c(3));
        w.see(1, empty);
        w.see(2, empty);
        assert_eq!(w.found().unwrap().to_string(), "empty since generation 1");
    }
}
