//! The app's panels. Each is a struct with a `ui` method that reads a [`Status`] snapshot and
//! pushes [`Command`]s; none of them touches the simulation.

pub mod analysis;
pub mod controls;
pub mod edit;
pub mod elementary;
pub mod games;
pub mod library;
pub mod plot;
pub mod rule;
pub mod status;

use crate::grid::Rect;
use crate::rule::{ElementaryRule, Rule};

use super::sim::Speed;

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
    pub speed: Speed,
    /// Generations per frame the device holds the run to, below the chosen speed.
    pub limited_to: Option<u64>,
    pub rule: Rule,
    pub size: (u32, u32),
    pub generations_per_second: f64,
    pub adapter: String,
    pub frame_ms: f64,
    pub dirty: bool,
    pub selection: Option<Rect>,
    pub tool: Tool,
    pub elementary: Option<(ElementaryRule, u32, u64)>,
    pub zoom: f64,
}

impl Status {
    pub fn cells_per_second(&self) -> f64 {
        self.generations_per_second * self.size.0 as f64 * self.size.1 as f64
    }
}
