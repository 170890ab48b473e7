//! The library's choices as the command line spells them: clap's derives stay here, and each
//! maps onto the library's own type.

use clap::ValueEnum;

use crate::games::tictactoe::Eval;
use crate::gpu::{LifeKernel, ShaderMode};

/// How the GPU shader gets the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShaderArg {
    /// Generated WGSL with the rule as constant logic.
    Specialised,
    /// One shader per neighbourhood that reads the rule from a uniform table.
    Generic,
}

impl From<ShaderArg> for ShaderMode {
    fn from(a: ShaderArg) -> Self {
        match a {
            ShaderArg::Specialised => ShaderMode::Specialised,
            ShaderArg::Generic => ShaderMode::Generic,
        }
    }
}

/// Which kernel advances the torus on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum KernelArg {
    /// Active tiles, with dense stretches blocked.
    #[default]
    Tiles,
    /// Active tiles only.
    Sparse,
    /// The whole torus, several generations per dispatch.
    Blocked,
    /// The whole torus, one generation per dispatch.
    Dense,
}

impl From<KernelArg> for LifeKernel {
    fn from(a: KernelArg) -> Self {
        match a {
            KernelArg::Tiles => LifeKernel::Tiles,
            KernelArg::Sparse => LifeKernel::Sparse,
            KernelArg::Blocked => LifeKernel::Blocked,
            KernelArg::Dense => LifeKernel::Dense,
        }
    }
}

/// How tic-tac-toe positions are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalArg {
    /// The true value (+1, 0, -1).
    Exact,
    /// F = M − N at the horizon.
    Static,
}

impl From<EvalArg> for Eval {
    fn from(a: EvalArg) -> Self {
        match a {
            EvalArg::Exact => Eval::Exact,
            EvalArg::Static => Eval::Static,
        }
    }
}
