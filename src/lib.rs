//! lifelab: a laboratory for finite deterministic games and cellular automata.
//!
//! Data flows one way: a [`rule::Rule`] and a [`pattern::Pattern`] make a [`grid::Grid`], an
//! [`engine::Engine`] advances it, and a viewer or a report reads it.

pub mod analysis;
#[cfg(feature = "app")]
pub mod app;
pub mod check;
pub mod cli;
pub mod cpu;
pub mod engine;
pub mod games;
pub mod gpu;
pub mod grid;
pub mod hash;
pub mod pattern;
pub mod rule;
