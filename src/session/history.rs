//! The population plot's history, thinned so that a run of any length keeps evenly spread
//! points.

/// The plot's history: (generation, population) at generations that are multiples of a
/// stride, which doubles whenever the points pass a bound, so that a long run keeps evenly
/// spread points from its first generation to its last (and always the latest).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thinned {
    points: Vec<(u64, u64)>,
    stride: u64,
}

impl Thinned {
    /// The most points kept.
    pub const MAX: usize = 20_000;

    pub fn points(&self) -> &[(u64, u64)] {
        &self.points
    }

    pub fn clear(&mut self) {
        self.points.clear();
        self.stride = 1;
    }

    /// Adds the population of `generation` (replacing a point there only when `force`).
    pub fn record(&mut self, generation: u64, population: u64, force: bool) {
        let stride = self.stride.max(1);
        if self.points.last().is_some_and(|&(g, _)| g > generation) {
            // Back in time (a reset, an undo): what came after is no longer this history.
            self.points.retain(|&(g, _)| g < generation);
        }
        if let Some(&(last, _)) = self.points.last() {
            if last == generation {
                if !force {
                    return;
                }
                self.points.pop();
            } else if last % stride != 0 && self.points.len() > 1 {
                // The latest point off the stride was kept only while it was the latest.
                self.points.pop();
            }
        }
        self.points.push((generation, population));
        if self.points.len() > Self::MAX {
            self.stride = stride * 2;
            let s = self.stride;
            let (first, last) = (self.points[0].0, generation);
            self.points
                .retain(|&(g, _)| g == first || g == last || g % s == 0);
        }
    }
}
