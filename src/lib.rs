//! lifelab: a laboratory for finite deterministic games and cellular automata.
//!
//! The layers, top to bottom (arrows point down only; `docs/design.md` draws them):
//! - `app` and `cli`: the desktop app and the command line;
//! - `session` (the `Session` that owns a simulation: its worker, jobs, edits, Undo and the GPU
//!   fall-back; setup from flags) and `analysis`: what both of them share;
//! - `registry`: the table of engines, and `auto`'s choice;
//! - the engines: `cpu` (reference, fast, tiles, HashLife) and `gpu`;
//! - `engine`: the seam every engine implements, its errors and the census;
//! - `grid`, `geometry`, `tiles`, `pattern`, `rule`, `hash`, `memory`: data and leaves.
//!
//! `games` stands apart: the command line and the app's games tabs use it, nothing else.

pub mod analysis;
#[cfg(feature = "app")]
pub mod app;
pub mod census;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod cpu;
pub mod engine;
pub mod games;
pub mod geometry;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod grid;
pub mod hash;
pub mod memory;
pub mod pattern;
pub mod registry;
pub mod rule;
pub mod session;
pub mod tiles;
