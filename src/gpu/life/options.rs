//! What the GPU Life engine is asked to run with: how the rule reaches the shader, which
//! kernel advances the torus, and how many generations a blocked dispatch takes.

use super::super::GpuContext;

/// How the rule reaches the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShaderMode {
    /// Generated WGSL with the rule as constant logic.
    #[default]
    Specialised,
    /// One shader per neighbourhood that reads the rule from a uniform table.
    Generic,
}

/// Which kernel advances the torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LifeKernel {
    /// Active tiles: only tiles near a change are computed, from a list kept on the device;
    /// dense stretches (a soup, a B0 rule) run the blocked kernel without that bookkeeping.
    #[default]
    Tiles,
    /// Active tiles only, however many are active: no dense stretches (the checks use it to
    /// run the tile list on every workload; `bench` to price the bookkeeping).
    Sparse,
    /// The whole torus, several generations per dispatch in workgroup memory.
    Blocked,
    /// The whole torus, one generation per dispatch (lifelab's first GPU kernel).
    Dense,
}

impl LifeKernel {
    pub fn name(self) -> &'static str {
        match self {
            LifeKernel::Tiles => "tiles",
            LifeKernel::Sparse => "sparse",
            LifeKernel::Blocked => "blocked",
            LifeKernel::Dense => "dense",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct LifeOptions {
    pub shader: ShaderMode,
    /// Output rows per invocation (the dense kernel).
    pub rows_per_invocation: u32,
    /// Caps the bytes of one band below the device's binding limit.
    pub max_band_bytes: Option<u64>,
    pub kernel: LifeKernel,
    /// Generations per dispatch of the blocked kernel (1 to [`MAX_BLOCK`](super::MAX_BLOCK)); `None`: the
    /// adapter's own ([`default_block`]).
    pub block: Option<u32>,
}

impl Default for LifeOptions {
    fn default() -> Self {
        Self {
            shader: ShaderMode::Specialised,
            rows_per_invocation: 4,
            max_band_bytes: None,
            kernel: LifeKernel::Tiles,
            block: None,
        }
    }
}

/// Generations per blocked dispatch for an adapter. A software adapter (lavapipe) runs on the
/// CPU's caches, where loading a tile costs little and recomputing its halo costs much: measured
/// in BENCHMARKS.md, one generation per dispatch is fastest there. A GPU is bound by memory
/// traffic, which k generations per load divide by k, for a halo that costs 2k of 64 rows:
/// 8 keeps three quarters of the rows.
pub fn default_block(ctx: &GpuContext) -> u32 {
    if crate::gpu::context::is_hardware(ctx) {
        8
    } else {
        1
    }
}
