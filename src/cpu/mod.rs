//! The CPU engines: the reference engine (the oracle) and the fast bit-sliced engine.

pub mod fast;
pub mod reference;

pub use fast::FastEngine;
pub use reference::ReferenceEngine;
