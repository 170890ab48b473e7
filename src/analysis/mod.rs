//! Pattern analysis (SPEC 1.4): period detection on the whole torus, identification of small
//! patterns (still lifes, oscillators, spaceships, guns), and methuselah lifespans.

pub mod identify;
pub mod lifespan;
pub mod period;

pub use identify::{Identity, Kind, identify};
pub use lifespan::{Lifespan, LifespanReport, lifespan, roomy_side};
pub use period::{PeriodReport, TorusFate, find_period};
