//! The layer the command line and the app share, above the engine registry: turning what the
//! user asked for into a simulation ([`setup`]), and running it off the calling thread with
//! progress and cancellation ([`worker`]), and the undo history ([`undo`]).

pub mod cells;
pub mod census;
pub mod edit;
#[cfg(feature = "gpu")]
pub mod elementary;
pub mod fallback;
pub mod final_census;
pub mod history;
pub mod job;
pub mod life;
pub mod pace;
pub mod repeat;
pub mod save;
pub mod setup;
pub mod status;
pub mod undo;
pub mod view;
pub mod worker;

pub use life::{Session, SessionError};
pub use setup::{Simulation, Spec, Start};
