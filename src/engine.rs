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

    /// Waits until every generation asked for has been computed (a no-op on the CPU), so that
    /// wall-clock timings mean something.
    fn finish(&mut self) -> EngineResult<()> {
        Ok(())
    }
}

/// An engine of the given kind on `grid`'s torus; `seed` drives stochastic rules.
pub fn create(
    kind: EngineKind,
    rule: Rule,
    grid: &Grid,
    seed: u64,
) -> EngineResult<Box<dyn Engine>> {
    Ok(match kind {
        EngineKind::Reference => Box::new(crate::cpu::ReferenceEngine::new(rule, grid, seed)),
        EngineKind::Cpu => Box::new(crate::cpu::FastEngine::new(rule, grid, seed)),
        EngineKind::Gpu => {
            return Err(EngineError::Unavailable(
                "the GPU engine is not part of this build".to_string(),
            ));
        }
    })
}
