//! Pattern analysis (SPEC 1.4): period detection on the whole universe, identification of small
//! patterns (still lifes, oscillators, spaceships, guns, with their apgcodes), and methuselah
//! lifespans. [`analyse`] is the one entry point the command line and the app share.

pub mod analyse;
pub mod apgcode;
pub mod identify;
pub mod kind;
pub mod lifespan;
pub mod period;

pub use analyse::{Findings, Question, Subject, analyse};
pub use identify::{Identity, Kind, identify};
pub use lifespan::{Lifespan, LifespanReport, Settled, lifespan, roomy_side};
pub use period::{PeriodReport, TorusFate, find_period};
