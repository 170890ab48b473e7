//! apgcodes, the canonical names Catagolue and LifeWiki give to still lifes (`xs4_33`, the
//! block), oscillators (`xp2_7`, the blinker) and spaceships (`xq4_153`, the glider). The
//! suffix is the pattern format's extended Wechsler string ([`crate::pattern::apgcode`]).

use super::kind::Kind;
use crate::grid::Grid;
use crate::pattern::apgcode::canonical;

/// The apgcode of an object of `kind` and `period` whose phases (one period of them) are
/// `phases`; `None` for kinds that have none.
pub fn apgcode(kind: Kind, period: u64, phases: &[&Grid]) -> Option<String> {
    let prefix = match kind {
        Kind::Still => format!("xs{}", phases.first()?.population()),
        Kind::Oscillator => format!("xp{period}"),
        Kind::Spaceship => format!("xq{period}"),
        _ => return None,
    };
    Some(format!("{prefix}_{}", canonical(phases)?))
}
