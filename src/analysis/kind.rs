//! What a pattern turns out to be, as the analysis names it.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Still,
    Oscillator,
    Spaceship,
    Dies,
    Gun,
    /// Settles into still lifes, oscillators and escaping spaceships after a long time.
    Methuselah,
    /// No repetition within the generations looked at.
    Unresolved,
}
