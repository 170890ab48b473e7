//! The view protocol: the owner asks for the cells under its view, and the worker reads
//! them when it is free and after every piece of work while the request stands.

use crate::engine::{CellRect, Sampled};
use crate::grid::Grid;

/// What the view needs drawn: a rectangle of cells, one sample per `block x block` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewRequest {
    pub rect: CellRect,
    /// 1: every cell; a power of two above: the live fraction of each block.
    pub block: u32,
}

/// The cells under the view, as the worker last read them.
#[derive(Clone, Debug)]
pub enum ViewCells {
    Cells(Grid),
    Sampled(Sampled),
    /// Each cell's state, row by row, under a rule of more than two states (`states` of them).
    States {
        states: u16,
        cells: Vec<u8>,
        /// A rule file's colours for its states (`None`: the Generations palette).
        colours: Option<std::sync::Arc<crate::rule::loader::RuleDef>>,
    },
}

#[derive(Clone, Debug)]
pub struct ViewPicture {
    pub request: ViewRequest,
    pub generation: u64,
    pub cells: ViewCells,
}
