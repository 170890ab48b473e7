//! What `auto` makes for a long run on a torus that a dense and a sparse engine could both
//! run: the cheaper one now, looked at again every so often and swapped for the other when the
//! pattern has changed character. A soup starts dense (every tile changes) and settles into
//! ash that barely changes; a methuselah can grow into a crowd. The cells move across through
//! the seam's tiles, at a whole generation.

use crate::engine::{
    Bounds, CellRect, Census, Engine, EngineError, EngineKind, EngineResult, Progress, Put,
    Sampled, Universe,
};
use crate::grid::Grid;
use crate::pattern::macrocell::Macrocell;
use crate::rule::Rule;
use crate::tiles::TileMap;

use super::Request;

/// Generations between looks.
const LOOK_EVERY: u64 = 1024;
/// Go sparse when at most this share of the tiles changed over two generations; go dense when
/// the sparse engine computes more than `DENSER` of them. The gap keeps it from swapping back
/// and forth.
const SPARSER: f64 = 0.25;
const DENSER: f64 = 0.6;

pub struct Switching {
    inner: Box<dyn Engine>,
    request: Request,
    /// The dense engine to use (on the CPU or the GPU), once a swap to one is due.
    dense: Option<EngineKind>,
    since_look: u64,
    /// (generation, engine, share of tiles changing) at each swap.
    history: Vec<(u64, &'static str, f64)>,
}

impl Switching {
    pub fn new(inner: Box<dyn Engine>, request: Request) -> Switching {
        let dense =
            matches!(inner.kind(), EngineKind::Dense | EngineKind::Gpu).then(|| inner.kind());
        Switching {
            inner,
            request,
            dense,
            since_look: 0,
            history: Vec::new(),
        }
    }

    /// The share of 64x64 tiles that changed over the next two generations (which it runs).
    fn activity(&mut self) -> EngineResult<f64> {
        let tiles = self
            .request
            .universe
            .cells()
            .unwrap_or(1)
            .div_ceil(4096)
            .max(1) as f64;
        // The tile engine keeps its list of what the next generation computes; the others
        // are measured by what changes.
        if self.inner.kind() == EngineKind::Tiles
            && let Some(a) = self.inner.active_fraction()?
        {
            return Ok(a);
        }
        let before = self.inner.export()?;
        self.inner.step(2)?;
        let after = self.inner.export()?;
        let mut changed = 0usize;
        for ((tx, ty), bits) in after.iter() {
            if before.tile(tx, ty) != Some(bits) {
                changed += 1;
            }
        }
        for ((tx, ty), _) in before.iter() {
            if after.tile(tx, ty).is_none() {
                changed += 1;
            }
        }
        Ok(changed as f64 / tiles)
    }

    fn look(&mut self) -> EngineResult<()> {
        self.since_look = 0;
        let activity = self.activity()?;
        let sparse = self.inner.kind() == EngineKind::Tiles;
        let target = if sparse && activity > DENSER {
            *self
                .dense
                .get_or_insert_with(|| super::dense_engine(&self.request))
        } else if !sparse && activity < SPARSER {
            EngineKind::Tiles
        } else {
            return Ok(());
        };
        let Some(spec) = super::find_kind(target) else {
            return Ok(());
        };
        match super::create(spec.name, &self.request) {
            Ok((next, _)) => self.swap(next, activity),
            // The run goes on where it is rather than fail for want of a faster engine.
            Err(EngineError::Memory(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn swap(&mut self, mut next: Box<dyn Engine>, activity: f64) -> EngineResult<()> {
        let generation = self.inner.generation();
        next.import(&self.inner.export()?)?;
        next.set_generation(generation);
        self.history.push((generation, next.name(), activity));
        self.inner = next;
        Ok(())
    }
}

impl Engine for Switching {
    // Every method forwards to the engine inside, the defaults too (a test below holds the
    // list against the trait's): a default here would act on the wrapper, not on the engine.
    fn core(&self) -> &crate::engine::Core {
        self.inner.core()
    }

    fn core_mut(&mut self) -> &mut crate::engine::Core {
        self.inner.core_mut()
    }

    fn jumps(&self) -> bool {
        self.inner.jumps()
    }

    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn kind(&self) -> EngineKind {
        self.inner.kind()
    }

    fn rule(&self) -> &Rule {
        self.inner.rule()
    }

    fn universe(&self) -> Universe {
        self.inner.universe()
    }

    fn generation(&self) -> u64 {
        self.inner.generation()
    }

    fn set_generation(&mut self, generation: u64) {
        self.inner.set_generation(generation)
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        let mut left = generations;
        while left > 0 {
            let n = left.min(LOOK_EVERY - self.since_look);
            self.inner.step(n)?;
            left -= n;
            self.since_look += n;
            if self.since_look >= LOOK_EVERY && left >= 2 {
                let before = self.inner.generation();
                self.look()?;
                left -= self.inner.generation() - before;
            }
        }
        Ok(())
    }

    fn step_with(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        let mut done = 0;
        while done < generations && !progress.cancelled() {
            let n = (generations - done).min(LOOK_EVERY - self.since_look);
            let did = self.inner.step_with(n, progress)?;
            done += did;
            self.since_look += did;
            if did < n {
                break;
            }
            if self.since_look >= LOOK_EVERY && generations - done >= 2 {
                let before = self.inner.generation();
                self.look()?;
                let extra = self.inner.generation() - before;
                done += extra;
                progress.advance(extra);
            }
        }
        Ok(done)
    }

    fn step_piece(&self) -> u64 {
        self.inner.step_piece()
    }

    /// Steps as [`Engine::step`] does, with the device's time of each stretch summed (none
    /// once a stretch ran on an engine that does not time itself).
    fn step_timed(&mut self, generations: u64) -> EngineResult<Option<f64>> {
        let mut left = generations;
        let mut total = Some(0.0);
        while left > 0 {
            let n = left.min(LOOK_EVERY - self.since_look);
            let t = self.inner.step_timed(n)?;
            total = total.zip(t).map(|(a, b)| a + b);
            left -= n;
            self.since_look += n;
            if self.since_look >= LOOK_EVERY && left >= 2 {
                let before = self.inner.generation();
                self.look()?;
                left -= self.inner.generation() - before;
                total = None;
            }
        }
        Ok(total)
    }

    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        self.inner.active_fraction()
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        self.inner.grid()
    }

    fn set_grid(&mut self, grid: &Grid, generation: u64) -> EngineResult<()> {
        self.inner.set_grid(grid, generation)
    }

    fn piece_ms(&self) -> f64 {
        self.inner.piece_ms()
    }

    fn population(&mut self) -> EngineResult<u64> {
        self.inner.population()
    }

    fn census(&mut self) -> EngineResult<Census> {
        self.inner.census()
    }

    fn track_hash(&mut self, on: bool) {
        self.inner.track_hash(on)
    }

    fn step_census(&mut self, generations: u64, out: &mut Vec<Census>) -> EngineResult<()> {
        self.inner.step_census(generations, out)
    }

    fn step_populations(&mut self, generations: u64, out: &mut Vec<u64>) -> EngineResult<()> {
        self.inner.step_populations(generations, out)
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        self.inner.cell(x, y)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        self.inner.state(x, y)
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        self.inner.states_in(rect)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.inner.set_cell(x, y, alive)
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.inner.put(cells, at, how)
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.inner.clear()
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        self.inner.bounds()
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        self.inner.cells_in(rect)
    }

    fn view_costs_area(&self) -> bool {
        self.inner.view_costs_area()
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        self.inner.sample(rect, block)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        self.inner.export()
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.inner.import(tiles)
    }

    fn import_quadtree(&mut self, tree: &Macrocell, centre: (i64, i64)) -> EngineResult<()> {
        self.inner.import_quadtree(tree, centre)
    }

    fn export_quadtree(&mut self) -> EngineResult<Option<Macrocell>> {
        self.inner.export_quadtree()
    }

    fn dense(&self) -> Option<&Grid> {
        self.inner.dense()
    }

    #[cfg(feature = "gpu")]
    fn view_source(&self) -> Option<crate::engine::ViewSource> {
        self.inner.view_source()
    }

    fn current_buffer(&self) -> Option<usize> {
        self.inner.current_buffer()
    }

    fn dispatch(&self) -> Option<crate::engine::Dispatch> {
        self.inner.dispatch()
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.inner.finish()
    }

    fn note(&self) -> Option<String> {
        let swaps: Vec<String> = self
            .history
            .iter()
            .map(|(g, e, a)| {
                format!(
                    "to {e} at generation {g} ({:.1}% of tiles changing)",
                    a * 100.0
                )
            })
            .collect();
        let mine = (!swaps.is_empty()).then(|| format!("auto moved the run {}", swaps.join(", ")));
        match (mine, self.inner.note()) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod forwarding {
    /// The names of the methods in the block that starts with `header`.
    fn methods(source: &str, header: &str) -> std::collections::BTreeSet<String> {
        let start = source.find(header).expect("the block");
        let block = &source[start..];
        let end = block.find("\n}\n").expect("its end");
        block[..end]
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("fn "))
            .map(|l| l.split(['(', '<']).next().unwrap().to_string())
            .collect()
    }

    /// Switching forwards every method of the trait, the defaults too: a default would act on
    /// the wrapper rather than on the engine inside (a GPU engine's timing, a tile engine's
    /// parity, a dense engine's grid).
    #[test]
    fn every_method_of_the_trait_is_forwarded() {
        let trait_methods = methods(include_str!("../engine/mod.rs"), "pub trait Engine: Send {");
        let forwarded = methods(include_str!("switching.rs"), "impl Engine for Switching {");
        let missing: Vec<_> = trait_methods.difference(&forwarded).collect();
        assert!(trait_methods.len() > 30, "{trait_methods:?}");
        assert!(missing.is_empty(), "Switching does not forward {missing:?}");
    }
}
