//! The app's panels. Each is a struct with a `ui` method that reads a [`Status`] snapshot and
//! pushes [`Command`]s; none of them touches the simulation.

pub mod analysis;
pub mod census;
pub mod controls;
pub mod edit;
pub mod elementary;
pub mod games;
pub mod library;
pub mod plot;
pub mod rule;
pub mod status;

use crate::engine::{CellRect, Universe};
use crate::rule::{ElementaryRule, Rule};
use crate::session::worker::{Busy, Pace};

/// Which automaton the central view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Life,
    Elementary,
}

/// What the mouse does in the viewport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Draw where the stroke starts on a dead cell, erase where it starts on a live one.
    Draw,
    /// Drag to pan.
    Move,
    /// Drag to select a rectangle.
    Select,
}

/// A read-only snapshot of the app for the panels, taken once per frame.
#[derive(Clone, Debug)]
pub struct Status {
    pub mode: Mode,
    pub generation: u64,
    pub population: Option<u64>,
    pub running: bool,
    /// The generations per second asked for.
    pub pace: Pace,
    /// Generations per step: 2^step_exponent.
    pub step_exponent: u32,
    pub rule: Rule,
    pub universe: Universe,
    /// The torus size ((0, 0) on the plane).
    pub size: (u32, u32),
    /// Generations per second achieved.
    pub generations_per_second: f64,
    /// The engine running, why it was chosen, and what the Engine menu asks for.
    pub engine: &'static str,
    pub engine_reason: String,
    pub wanted_engine: String,
    pub adapter: String,
    pub frame_ms: f64,
    pub dirty: bool,
    pub selection: Option<CellRect>,
    pub tool: Tool,
    pub elementary: Option<(ElementaryRule, u32, u64)>,
    pub zoom: f64,
    /// A job in progress (Step N, a fill, a load): its label and progress.
    pub busy: Option<Busy>,
    /// The universe repeats (while watched).
    pub repeat: Option<crate::session::repeat::Repeat>,
    /// The live cells' box (while following).
    pub bounds: Option<crate::engine::Bounds>,
    pub follow: bool,
    pub watch_repeats: bool,
    /// What Undo and Redo would take back or do again.
    pub undo: Option<String>,
    pub redo: Option<String>,
    pub pasting: bool,
}

impl Status {
    /// Cell updates per second: the torus's cells times the generations per second (on the
    /// plane there is no such figure).
    pub fn cells_per_second(&self) -> Option<f64> {
        self.universe
            .cells()
            .map(|c| self.generations_per_second * c as f64)
    }
}
