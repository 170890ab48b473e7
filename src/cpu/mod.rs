//! The CPU engines: the reference engine (the oracle), the fast dense bit-sliced engine, the
//! sparse tile engine, HashLife and the Generations engine, with the pieces they share (the dense torus operations and
//! the bit-sliced kernel on columns of words).

pub mod circuit_jit;
pub mod fast;
pub mod generations;
pub mod hashlife;
pub mod kernel;
pub mod ltl;
pub mod reference;
pub mod rule_hashlife;
pub mod rule_tree;
pub mod tiles;

pub use fast::FastEngine;
pub use generations::GenerationsEngine;
pub use hashlife::HashLifeEngine;
pub use ltl::LtlEngine;
pub use reference::ReferenceEngine;
pub use rule_hashlife::RuleHashLifeEngine;
pub use rule_tree::RuleTreeEngine;
pub use tiles::TileEngine;
