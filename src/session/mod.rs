//! The layer the command line and the app share, above the engine registry: turning what the
//! user asked for into a simulation ([`setup`]), and running it off the calling thread with
//! progress and cancellation ([`worker`]), and the undo history ([`undo`]).

pub mod repeat;
pub mod save;
pub mod setup;
pub mod undo;
pub mod worker;

pub use setup::{Simulation, Spec, Start};
