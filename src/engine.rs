//! What every engine offers: step a torus some generations, and hand back the grid. The
//! reference engine is the oracle; the fast CPU engine and the GPU engine are checked against it.

use crate::grid::Grid;
use crate::rule::Rule;

/// The engines lifelab has, as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The plain, obviously correct CPU engine every other engine is checked against.
    Reference,
    /// The bit-sliced, multi-threaded CPU engine.
    Cpu,
    /// The WGSL compute-shader engine.
    Gpu,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Reference => "reference",
            EngineKind::Cpu => "cpu",
            EngineKind::Gpu => "gpu",
        }
    }
}

/// Why an engine could not go on.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
    #[error("the GPU ran out of memory: {0}")]
    OutOfMemory(String),
    /// The CPU side's memory: a grid too large for the system (the message says why).
    #[error("{0}")]
    Memory(String),
    #[error("GPU error: {0}")]
    Gpu(String),
    #[error("{0}")]
    Unavailable(String),
}

pub type EngineResult<T> = Result<T, EngineError>;

/// A torus of cells under a rule. Elementary rules treat each row as an independent ring.
pub trait Engine {
    fn kind(&self) -> EngineKind;

    fn rule(&self) -> &Rule;

    fn width(&self) -> u32;

    fn height(&self) -> u32;

    /// Generations computed since the grid was set.
    fn generation(&self) -> u64;

    /// Advances `generations` generations.
    fn step(&mut self, generations: u64) -> EngineResult<()>;

    /// The current cells (for the GPU engine, a readback).
    fn grid(&mut self) -> EngineResult<Grid>;

    /// Replaces the cells and the generation counter; the size must stay the same.
    fn set_grid(&mut self, grid: &Grid, generation: u64) -> EngineResult<()>;

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.grid()?.population())
    }

    /// The population and state hash of the current generation (see [`crate::grid::Census`]).
    fn census(&mut self) -> EngineResult<crate::grid::Census> {
        Ok(self.grid()?.census())
    }

    /// Advances `generations`, appending the census of each new generation to `out`. The GPU
    /// engine computes them on the device and reads them back in batches.
    fn step_census(
        &mut self,
        generations: u64,
        out: &mut Vec<crate::grid::Census>,
    ) -> EngineResult<()> {
        for _ in 0..generations {
            self.step(1)?;
            out.push(self.census()?);
        }
        Ok(())
    }

    /// Waits until every generation asked for has been computed (a no-op on the CPU), so that
    /// wall-clock timings mean something.
    fn finish(&mut self) -> EngineResult<()> {
        Ok(())
    }

    /// Advances `generations` and returns the device's own time for them where the engine can
    /// measure it (GPU timestamp queries); `None` means: time it on the wall clock.
    fn step_timed(&mut self, generations: u64) -> EngineResult<Option<f64>> {
        self.step(generations)?;
        Ok(None)
    }
}

/// An engine of the given kind on `grid`'s torus; `seed` drives stochastic rules. GPU engines
/// run on the process's shared context.
pub fn create(
    kind: EngineKind,
    rule: Rule,
    grid: &Grid,
    seed: u64,
) -> EngineResult<Box<dyn Engine>> {
    create_with(kind, rule, grid, seed, Default::default())
}

/// [`create`] with the GPU engine's options.
pub fn create_with(
    kind: EngineKind,
    rule: Rule,
    grid: &Grid,
    seed: u64,
    gpu: crate::gpu::LifeOptions,
) -> EngineResult<Box<dyn Engine>> {
    Ok(match kind {
        EngineKind::Reference => Box::new(crate::cpu::ReferenceEngine::new(rule, grid, seed)),
        EngineKind::Cpu => Box::new(crate::cpu::FastEngine::new(rule, grid, seed)),
        EngineKind::Gpu => {
            crate::gpu::create_engine(crate::gpu::shared_context()?, rule, grid, seed, gpu)?
        }
    })
}

/// Bytes of system memory available to new allocations, where the system says (Linux).
pub fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Fails with a clear message when a `width x height` torus breaks the grid's limits, or, naming
/// the largest square torus that would fit, when running `kind` on it would not fit in memory.
/// Called before anything is allocated, so that a request too large is refused, not killed.
pub fn check_memory(kind: EngineKind, width: u32, height: u32) -> EngineResult<()> {
    // The grid's own limits first, so that every caller gives the same message for them.
    Grid::check_torus_size(width as u64, height as u64)
        .map_err(|e| EngineError::Memory(e.to_string()))?;
    if kind == EngineKind::Gpu {
        crate::gpu::grid::check_fits(crate::gpu::shared_context()?, width, height)?;
    }
    let Some(available) = available_memory() else {
        return Ok(());
    };
    let grid = Grid::bytes_for(width as u64, height as u64);
    let cells = width as u64 * height as u64;
    // The start grid, plus what the engine keeps.
    let (needed, per_cell) = match kind {
        EngineKind::Reference => (grid + 2 * cells, 2.0 + 1.0 / 8.0),
        EngineKind::Cpu => (3 * grid, 3.0 / 8.0),
        EngineKind::Gpu => (2 * grid, 2.0 / 8.0),
    };
    if needed <= available {
        return Ok(());
    }
    let side = ((available as f64 / per_cell).sqrt() as u64).min(crate::grid::MAX_DIMENSION as u64);
    Err(EngineError::Memory(format!(
        "a {width}x{height} torus needs {} of memory on the {} engine, more than the {} available; \
         the largest square torus that fits is about {side}x{side}",
        crate::grid::human_bytes(needed),
        kind.name(),
        crate::grid::human_bytes(available)
    )))
}
