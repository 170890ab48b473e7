//! Von Neumann's 29-state automaton (`JvN29`) and its 32-state extensions by Renato Nobili
//! (`Nobili32`, which adds crossings) and Tim Hutton (`Hutton32`, write-and-retract), which
//! Golly runs with its own JvN algorithm rather than a rule file. Each transition function is
//! written here as Golly's `jvnalgo` computes it and compiled once into a rule tree over the von
//! Neumann neighbourhood, so every engine that walks a rule tree runs them (the rule-tree engine,
//! HashLife over N states, the reference engine and the GPU).
//!
//! The cell states are Golly's: 0 ground, 1–8 sensitized, 9–12 ordinary transmission (east,
//! north, west, south) and 13–16 the same excited, 17–24 special transmission likewise, 25–28
//! confluent (quiescent; excited; next excited; both), 29–31 Nobili's and Hutton's crossings.

use std::sync::OnceLock;

use super::tree::{Shape, TreeBuilder};
use super::{LoadedRule, RuleDef, RuleTree};

/// The three rules, and the names Golly takes for them (the old ones too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    JvN29,
    Nobili32,
    Hutton32,
}

impl Variant {
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "jvn29" | "jvn-29" => Some(Variant::JvN29),
            "nobili32" | "jvn-32" => Some(Variant::Nobili32),
            "hutton32" | "modjvn-32" => Some(Variant::Hutton32),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::JvN29 => "JvN29",
            Variant::Nobili32 => "Nobili32",
            Variant::Hutton32 => "Hutton32",
        }
    }

    pub fn states(self) -> u16 {
        match self {
            Variant::JvN29 => 29,
            Variant::Nobili32 | Variant::Hutton32 => 32,
        }
    }

    /// The next state of a cell in state `c` whose neighbours are n, s, e, w.
    pub fn next(self, c: u8, n: u8, s: u8, e: u8, w: u8) -> u8 {
        match self {
            Variant::JvN29 | Variant::Nobili32 => classic::next(self, c, n, s, e, w),
            Variant::Hutton32 => hutton::next(c, n, s, e, w),
        }
    }
}

/// The rule a name stands for, when it is one of the three (built on first use).
pub fn builtin(name: &str) -> Option<LoadedRule> {
    let variant = Variant::from_name(name)?;
    static RULES: [OnceLock<LoadedRule>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = &RULES[variant as usize];
    Some(*slot.get_or_init(|| {
        super::register(
            RuleDef {
                name: variant.name().to_string(),
                states: variant.states(),
                tree: std::sync::Arc::new(tree(variant)),
                block: None,
                colours: colours(variant.states()),
                has_icons: false,
                source: format!(
                    "lifelab's built-in {} (Golly's JvN algorithm)",
                    variant.name()
                ),
            },
            Some(name),
        )
    }))
}

/// The transition function as a reduced tree, in Golly's order N, W, E, S, C: the tree
/// [`compile`] makes, stored in `assets/jvn/` in [`RuleTree::to_bytes`]'s form. Compiling reads
/// 29^5 or 32^5 neighbourhoods, a tenth of a second for each rule in every process that opens a
/// file of von Neumann's (and many seconds under a sanitizer); reading the stored tree takes
/// about 0.3 ms (Golly's text of Hutton32's, gzipped, took 3 ms). The tests hold the
/// stored trees to the functions, neighbourhood for neighbourhood.
pub fn tree(variant: Variant) -> RuleTree {
    let bytes: &[u8] = match variant {
        Variant::JvN29 => include_bytes!("../../../assets/jvn/JvN29.tree.bin"),
        Variant::Nobili32 => include_bytes!("../../../assets/jvn/Nobili32.tree.bin"),
        Variant::Hutton32 => include_bytes!("../../../assets/jvn/Hutton32.tree.bin"),
    };
    RuleTree::from_bytes(bytes).expect("the stored tree is well formed")
}

/// Compiles the transition function into a reduced tree, in Golly's order N, W, E, S, C.
pub fn compile(variant: Variant) -> RuleTree {
    let states = variant.states();
    let mut b = TreeBuilder::new(states);
    let range = 0..states as u8;
    // The classic rules' influences come from a table: the tree reads 29^5 or 32^5 cases.
    let table = classic::influence_table();
    let next = |c: u8, n: u8, s: u8, e: u8, w: u8| match variant {
        Variant::Hutton32 => hutton::next(c, n, s, e, w),
        _ => {
            let (c_, t) = (c as usize, &table);
            let m = t[0][c_][n as usize]
                | t[1][c_][w as usize]
                | t[2][c_][e as usize]
                | t[3][c_][s as usize];
            classic::decide(variant, c, m)
        }
    };
    // The leaves (a cell's next state in each of its states, for one choice of its four
    // neighbours) are most of the work: made on every core, a few north neighbours at a time,
    // then shared out in the builder in order.
    use rayon::prelude::*;
    let k = states as usize;
    let chunk = rayon::current_num_threads().max(1);
    let mut level1 = Vec::with_capacity(k);
    for first in (0..states as u8).step_by(chunk) {
        let norths: Vec<u8> = (first..(first as usize + chunk).min(k) as u8).collect();
        let leaves: Vec<Vec<Vec<u32>>> = norths
            .par_iter()
            .map(|&n| {
                let mut out = Vec::with_capacity(k * k * k);
                for w in range.clone() {
                    for e in range.clone() {
                        for s in range.clone() {
                            out.push(range.clone().map(|c| next(c, n, s, e, w) as u32).collect());
                        }
                    }
                }
                out
            })
            .collect();
        for per_north in leaves {
            let mut leaf = per_north.into_iter();
            let mut level2 = Vec::with_capacity(k);
            for _w in 0..k {
                let mut level3 = Vec::with_capacity(k);
                for _e in 0..k {
                    let level4 = (0..k)
                        .map(|_| b.node(leaf.next().expect("k^3 leaves")))
                        .collect();
                    level3.push(b.node(level4));
                }
                level2.push(b.node(level3));
            }
            level1.push(b.node(level2));
        }
    }
    let root = b.node(level1);
    b.finish(Shape::VonNeumann, root)
}

/// lifelab's colours for the states: ground black; sensitized states in violets; ordinary
/// transmission in blues and special in reds (excited brighter); confluent states in greens and
/// yellows; crossings in oranges.
fn colours(states: u16) -> Vec<[u8; 3]> {
    (0..states)
        .map(|s| match s {
            0 => [0, 0, 0],
            1..=8 => [90 + 15 * s as u8, 60, 150 + 10 * s as u8],
            9..=12 => [40, 90, 200],
            13..=16 => [120, 190, 255],
            17..=20 => [190, 40, 40],
            21..=24 => [255, 120, 110],
            25 => [40, 160, 60],
            26..=28 => [230, 220, 60],
            _ => [250, 160, 40],
        })
        .collect()
}

/// Von Neumann's rules as Golly's `jvnalgo` encodes them: each state as bits (a direction, an
/// ordinary or special transmission flag, a confluent flag, excitation), the four neighbours'
/// influences gathered as bits, then one decision per kind of cell.
mod classic {
    use super::Variant;

    const SOUTH: u8 = 3;
    const EAST: u8 = 0;
    const WEST: u8 = 2;
    const NORTH: u8 = 1;
    const FLIP: u8 = 2;
    const DIR: u8 = 3;
    const CONF: u8 = 0x10;
    const ORD: u8 = 0x20;
    const SPEC: u8 = 0x40;
    const EXCITED: u8 = 0x80;
    const CROSS_EXCITED: u8 = 6;
    const CONF_EXCITED: u8 = 1;

    const ORD_UNEXCITED_IN: u32 = 1;
    const ORD_EXCITED_EW: u32 = 2;
    const ORD_EXCITED_NS: u32 = 4;
    const ORD_EXCITED: u32 = ORD_EXCITED_NS | ORD_EXCITED_EW;
    const SPEC_EXCITED: u32 = 8;
    const CONF_SIGNAL: u32 = 16;
    const NS_IN: u32 = 32;
    const EW_IN: u32 = 64;
    const NS_OUT: u32 = 128;
    const EW_OUT: u32 = 256;
    const CROSSING: u32 = NS_IN | EW_IN | NS_OUT | EW_OUT;
    const ANY_OUT: u32 = NS_OUT | EW_OUT;
    const ORD_EXCITED_PASSES: u32 = 512;
    const SPEC_EXCITED_PASSES: u32 = 1024;

    /// Golly's state numbers to the bit codes, in order.
    const CODES: [u8; 32] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, // ground, sensitized
        32, 33, 34, 35, 160, 161, 162, 163, // ordinary, quiescent and excited
        64, 65, 66, 67, 192, 193, 194, 195, // special, quiescent and excited
        16, 144, 17, 145, // confluent
        146, 148, 150, // Nobili's crossings
    ];

    /// What a sensitized cell becomes after its last bit (past state 8).
    const BUILT: [u8; 9] = [0x22, 0x23, 0x40, 0x41, 0x42, 0x43, 0x10, 0x20, 0x21];

    /// Bit codes back to Golly's state numbers (a code of no state is 0; none arises).
    const STATES: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < CODES.len() {
            t[CODES[i] as usize] = i as u8;
            i += 1;
        }
        t
    };

    fn state_of(code: u8) -> u8 {
        STATES[code as usize]
    }

    /// How the neighbour `code`, seen from the cell `me` in direction `dir` (the direction
    /// the neighbour would point to reach the cell), acts on it.
    fn influence(me: u8, code: u8, dir: u8) -> u32 {
        if code & (EXCITED | ORD | SPEC | CONF | CONF_EXCITED) == 0 {
            return 0;
        }
        let me_transmits = me & (ORD | SPEC) != 0;
        if code & CONF != 0 {
            // A confluent cell feeds every transmission cell round it but the one feeding it.
            if me_transmits && (me & DIR) ^ FLIP == dir {
                return 0;
            }
            let fires =
                (code & 2 != 0 && dir & 1 == 0) || (code & 4 != 0 && dir & 1 != 0) || code & 1 != 0;
            return if fires { CONF_SIGNAL } else { 0 };
        }
        if code & (ORD | SPEC) == 0 {
            return 0;
        }
        let mut r = 0;
        if code & DIR == dir {
            if code & ORD != 0 {
                let (line, excited) = if dir & 1 != 0 {
                    (NS_IN, ORD_EXCITED_NS)
                } else {
                    (EW_IN, ORD_EXCITED_EW)
                };
                r |= line;
                r |= if code & EXCITED != 0 {
                    excited
                } else {
                    ORD_UNEXCITED_IN
                };
            } else if code & (SPEC | EXCITED) == SPEC | EXCITED {
                r |= SPEC_EXCITED;
            }
            // Two transmission cells pointing at each other pass nothing on.
            let head_to_head = me_transmits && (dir ^ (me & DIR)) == 2;
            if !head_to_head {
                if r & ORD_EXCITED != 0 {
                    r |= ORD_EXCITED_PASSES;
                }
                if r & SPEC_EXCITED != 0 {
                    r |= SPEC_EXCITED_PASSES;
                }
            }
        } else if dir & 1 != 0 {
            r |= NS_OUT;
        } else {
            r |= EW_OUT;
        }
        r
    }

    pub fn next(variant: Variant, c: u8, n: u8, s: u8, e: u8, w: u8) -> u8 {
        state_of(next_code(variant, c, n, s, e, w))
    }

    fn code(x: u8) -> u8 {
        CODES.get(x as usize).copied().unwrap_or(0)
    }

    /// The influences of the four neighbours on a cell in state c, gathered as bits.
    fn influences(c: u8, n: u8, s: u8, e: u8, w: u8) -> u32 {
        let me = code(c);
        influence(me, code(n), SOUTH)
            | influence(me, code(w), EAST)
            | influence(me, code(e), WEST)
            | influence(me, code(s), NORTH)
    }

    /// What each state does to a cell in each state from each side, in the order north, west,
    /// east, south (the tree's): `table[side][cell][neighbour]`, for building the tree fast.
    pub(super) fn influence_table() -> Vec<[[u32; 32]; 32]> {
        [SOUTH, EAST, WEST, NORTH]
            .iter()
            .map(|&dir| {
                let mut t = [[0u32; 32]; 32];
                for (c, row) in t.iter_mut().enumerate() {
                    for (x, v) in row.iter_mut().enumerate() {
                        *v = influence(code(c as u8), code(x as u8), dir);
                    }
                }
                t
            })
            .collect()
    }

    /// The next state of a cell in state c under the gathered influences m.
    pub(super) fn decide(variant: Variant, c: u8, m: u32) -> u8 {
        state_of(decide_code(variant, code(c), m))
    }

    /// The next state's bit code.
    pub(super) fn next_code(variant: Variant, c: u8, n: u8, s: u8, e: u8, w: u8) -> u8 {
        decide_code(variant, code(c), influences(c, n, s, e, w))
    }

    fn decide_code(variant: Variant, mut c: u8, m: u32) -> u8 {
        if c < CONF {
            // Ground and sensitized cells read one bit a generation down the construction tree.
            c = 2 * c + (m & (ORD_EXCITED | SPEC_EXCITED) != 0) as u8;
            if c > 8 {
                c = BUILT[c as usize - 9];
            }
        } else if c & CONF != 0 {
            if m & SPEC_EXCITED != 0 {
                c = 0;
            } else if variant == Variant::Nobili32 && m & CROSSING == CROSSING {
                c = if m & ORD_EXCITED != 0 {
                    (m & ORD_EXCITED) as u8 + CONF + 0x80
                } else {
                    CONF
                };
            } else {
                if c & CROSS_EXCITED != 0 {
                    // It was a crossing, and is no more.
                    c &= !(CROSS_EXCITED | EXCITED);
                }
                if m & ORD_EXCITED != 0 && m & ORD_UNEXCITED_IN == 0 {
                    c = ((c & EXCITED) >> 7) + (EXCITED | CONF);
                } else if m & ANY_OUT != 0 || variant == Variant::JvN29 {
                    c = ((c & EXCITED) >> 7) + CONF;
                }
            }
        } else if (c & ORD != 0 && m & SPEC_EXCITED != 0) || (c & SPEC != 0 && m & ORD_EXCITED != 0)
        {
            c = 0;
        } else if m & (SPEC_EXCITED_PASSES | ORD_EXCITED_PASSES | CONF_SIGNAL) != 0 {
            c |= EXCITED;
        } else {
            c &= !EXCITED;
        }
        c
    }

    /// Whether a bit code is one of the first `states` states.
    #[cfg(test)]
    pub(super) fn is_state(code: u8, states: u16) -> bool {
        CODES[..states as usize].contains(&code)
    }
}

/// Tim Hutton's 32-state rule, in Golly's state numbers (his comments in `jvnalgo.cpp` give
/// the signal trains of its write-and-retract construction arm).
mod hutton {
    fn ordinary(c: u8) -> bool {
        (9..=16).contains(&c)
    }
    fn special(c: u8) -> bool {
        (17..=24).contains(&c)
    }
    fn transmission(c: u8) -> bool {
        ordinary(c) || special(c)
    }
    fn sensitized(c: u8) -> bool {
        (1..=8).contains(&c)
    }
    fn excited(c: u8) -> bool {
        (13..=16).contains(&c) || (21..=24).contains(&c)
    }
    fn east(c: u8) -> bool {
        matches!(c, 9 | 13 | 17 | 21)
    }
    fn north(c: u8) -> bool {
        matches!(c, 10 | 14 | 18 | 22)
    }
    fn west(c: u8) -> bool {
        matches!(c, 11 | 15 | 19 | 23)
    }
    fn south(c: u8) -> bool {
        matches!(c, 12 | 16 | 20 | 24)
    }
    /// 0, 1, 2, 3 for east, north, west, south (of a transmission state). Golly's arithmetic is
    /// C's (a truncating remainder, then a byte), which matters where there is no input (0).
    fn direction(c: u8) -> u8 {
        ((c as i32 - 9) % 4) as u8
    }

    /// The cell a transmission cell points at.
    fn output(c: u8, n: u8, s: u8, e: u8, w: u8) -> u8 {
        if east(c) {
            e
        } else if north(c) {
            n
        } else if west(c) {
            w
        } else if south(c) {
            s
        } else {
            0
        }
    }

    /// The excited transmission cell pointing at this one (0 if none).
    fn input(n: u8, s: u8, e: u8, w: u8) -> u8 {
        if east(w) && excited(w) {
            w
        } else if north(s) && excited(s) {
            s
        } else if west(e) && excited(e) {
            e
        } else if south(n) && excited(n) {
            n
        } else {
            0
        }
    }

    fn output_becomes_ordinary(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        let out = output(c, n, s, e, w);
        out == 8 || (out == 4 && excited(c)) || (out == 5 && !excited(c))
    }

    fn output_becomes_confluent(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        output(c, n, s, e, w) == 7 && excited(c)
    }

    fn output_stays_sensitized(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        let out = output(c, n, s, e, w);
        (out == 0 && excited(c)) || matches!(out, 1..=3) || (out == 4 && !ordinary(c))
    }

    /// An excited ordinary signal (from a transmission or confluent cell) reaches this one next.
    fn ordinary_signal_in(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        (matches!(n, 16 | 27 | 28 | 30 | 31) && !matches!(c, 14 | 10))
            || (matches!(s, 14 | 27 | 28 | 30 | 31) && !matches!(c, 16 | 12))
            || (matches!(e, 15 | 27 | 28 | 29 | 31) && !matches!(c, 13 | 9))
            || (matches!(w, 13 | 27 | 28 | 29 | 31) && !matches!(c, 15 | 11))
    }

    fn excited_ordinary_arrow_in(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        (n == 16 && !matches!(c, 14 | 10))
            || (s == 14 && !matches!(c, 16 | 12))
            || (e == 15 && !matches!(c, 13 | 9))
            || (w == 13 && !matches!(c, 15 | 11))
    }

    fn ordinary_arrow_in(n: u8, s: u8, e: u8, w: u8) -> bool {
        (ordinary(n) && south(n))
            || (ordinary(s) && north(s))
            || (ordinary(e) && west(e))
            || (ordinary(w) && east(w))
    }

    fn special_signal_in(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        (matches!(n, 24 | 27 | 28 | 30 | 31) && !matches!(c, 22 | 18))
            || (matches!(s, 22 | 27 | 28 | 30 | 31) && !matches!(c, 24 | 20))
            || (matches!(e, 23 | 27 | 28 | 29 | 31) && !matches!(c, 21 | 17))
            || (matches!(w, 21 | 27 | 28 | 29 | 31) && !matches!(c, 23 | 19))
    }

    fn excited_special_arrow_in(c: u8, n: u8, s: u8, e: u8, w: u8) -> bool {
        (n == 24 && !matches!(c, 22 | 18))
            || (s == 22 && !matches!(c, 24 | 20))
            || (e == 23 && !matches!(c, 21 | 17))
            || (w == 21 && !matches!(c, 23 | 19))
    }

    fn all_inputs_on(n: u8, s: u8, e: u8, w: u8) -> bool {
        !(n == 12 || s == 10 || e == 11 || w == 9) && (n == 16 || s == 14 || e == 15 || w == 13)
    }

    fn crossing(n: u8, s: u8, e: u8, w: u8) -> bool {
        let inputs = [south(n), east(w), west(e), north(s)]
            .iter()
            .filter(|&&b| b)
            .count();
        let outputs = [
            transmission(n) && !south(n),
            transmission(w) && !east(w),
            transmission(e) && !west(e),
            transmission(s) && !north(s),
        ]
        .iter()
        .filter(|&&b| b)
        .count();
        inputs == 2 && outputs == 2
    }

    fn quiesce(c: u8) -> u8 {
        if excited(c) {
            c - 4
        } else if (26..=31).contains(&c) {
            25
        } else {
            c
        }
    }

    /// A crossing's next state from the excited arrows into it.
    fn crossed(n: u8, s: u8, e: u8, w: u8) -> u8 {
        let vertical = n == 16 || s == 14;
        let horizontal = e == 15 || w == 13;
        match (vertical, horizontal) {
            (true, true) => 31,
            (true, false) => 30,
            (false, true) => 29,
            (false, false) => 25,
        }
    }

    pub fn next(c: u8, n: u8, s: u8, e: u8, w: u8) -> u8 {
        // Turning an arrow: its direction plus k quarter turns, as an ordinary (9) or special
        // (17) transmission state, in C's arithmetic as Golly computes it.
        let turn =
            |k: i32, base: i32| ((quiesce(input(n, s, e, w)) as i32 - 9 + k) % 4 + base) as u8;
        let signal = || excited_ordinary_arrow_in(c, n, s, e, w);
        if ordinary(c) {
            if excited_special_arrow_in(c, n, s, e, w) {
                0
            } else if ordinary_signal_in(c, n, s, e, w) {
                let out = output(c, n, s, e, w);
                if output_becomes_ordinary(c, n, s, e, w) || (special(out) && !excited(out)) {
                    0 // retraction
                } else if output_becomes_confluent(c, n, s, e, w) {
                    1
                } else {
                    quiesce(c) + 4
                }
            } else if output_becomes_confluent(c, n, s, e, w) {
                0
            } else if excited(c) && output_stays_sensitized(c, n, s, e, w) {
                quiesce(c) + 12 // the end-of-wire mark
            } else {
                quiesce(c)
            }
        } else if special(c) {
            if excited(c) && sensitized(output(c, n, s, e, w)) && ordinary_arrow_in(n, s, e, w) {
                if output_stays_sensitized(c, n, s, e, w) {
                    if signal() { c - 8 } else { c }
                } else if signal() {
                    0 // write and retract
                } else {
                    quiesce(c) - 8
                }
            } else if excited(c) && output(c, n, s, e, w) == 0 {
                if excited_special_arrow_in(c, n, s, e, w) {
                    c
                } else {
                    quiesce(c)
                }
            } else if signal() {
                0
            } else if special_signal_in(c, n, s, e, w) {
                quiesce(c) + 4
            } else {
                quiesce(c)
            }
        } else {
            match c {
                0 if signal() => 1,
                0 if excited_special_arrow_in(c, n, s, e, w) => {
                    quiesce(input(n, s, e, w)).wrapping_sub(8)
                }
                0 => 0,
                1 => 2 + signal() as u8,
                2 => 4 + signal() as u8,
                3 => 6 + signal() as u8,
                4 if signal() => turn(2, 9),
                4 => 8,
                5 if signal() => quiesce(input(n, s, e, w)) + 8,
                5 => turn(3, 9),
                6 if signal() => turn(2, 17),
                6 => turn(1, 17),
                7 if signal() => 25,
                7 => turn(3, 17),
                8 if signal() => 9u8.wrapping_add(direction(input(n, s, e, w) + 1)),
                8 => 9u8.wrapping_add(direction(input(n, s, e, w))),
                25..=31 if excited_special_arrow_in(c, n, s, e, w) => 0,
                25 if crossing(n, s, e, w) => crossed(n, s, e, w),
                25 => {
                    if all_inputs_on(n, s, e, w) {
                        26
                    } else {
                        25
                    }
                }
                26 | 28 => {
                    if all_inputs_on(n, s, e, w) {
                        28
                    } else {
                        27
                    }
                }
                27 => {
                    if all_inputs_on(n, s, e, w) {
                        26
                    } else {
                        25
                    }
                }
                29..=31 => crossed(n, s, e, w),
                _ => c,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Variant;

    /// Every neighbourhood of every rule leads to a state of that rule (Golly's own code maps a
    /// code outside its table to 255: none arises), and the tree, built from a table of
    /// influences, gives what the function gives.
    #[test]
    fn every_transition_lands_on_a_state_of_its_rule_and_the_tree_agrees() {
        for v in [Variant::JvN29, Variant::Nobili32, Variant::Hutton32] {
            let tree = super::tree(v);
            let k = v.states() as u8;
            for c in 0..k {
                for n in 0..k {
                    for s in 0..k {
                        for e in 0..k {
                            for w in 0..k {
                                if v != Variant::Hutton32 {
                                    let code = super::classic::next_code(v, c, n, s, e, w);
                                    assert!(super::classic::is_state(code, v.states()));
                                }
                                let next = v.next(c, n, s, e, w);
                                assert!(next < k, "{v:?} {c} {n} {s} {e} {w}");
                                assert_eq!(tree.next(&[n, w, e, s, c]), next);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Von Neumann's rules as the literature states them (Burks, *Theory of Self-Reproducing
    /// Automata*, 1966): a signal moves one cell a generation along ordinary transmission
    /// cells; an excited arrow into the ground sensitizes it; a special signal destroys an
    /// ordinary cell; a confluent cell passes a signal on one generation late.
    #[test]
    fn a_signal_travels_and_constructs_as_von_neumann_wrote() {
        const EAST: u8 = 9; // ordinary, quiescent, pointing east
        const EAST_EXCITED: u8 = 13;
        const SPECIAL_EAST_EXCITED: u8 = 21;
        for v in [Variant::JvN29, Variant::Nobili32, Variant::Hutton32] {
            // (c, n, s, e, w)
            assert_eq!(
                v.next(EAST, 0, 0, 0, EAST_EXCITED),
                EAST_EXCITED,
                "{v:?}: carried"
            );
            assert_eq!(
                v.next(EAST_EXCITED, 0, 0, EAST, 0),
                EAST,
                "{v:?}: passed on"
            );
            assert_eq!(v.next(0, 0, 0, 0, EAST_EXCITED), 1, "{v:?}: sensitized");
            assert_eq!(v.next(0, 0, 0, 0, EAST), 0, "{v:?}: no signal, no change");
            assert_eq!(
                v.next(EAST, 0, 0, 0, SPECIAL_EAST_EXCITED),
                0,
                "{v:?}: destroyed"
            );
            assert_eq!(
                v.next(25, 0, 0, 0, EAST_EXCITED),
                26,
                "{v:?}: confluent excited"
            );
        }
        // The construction tree of the classic rules: 1 then four 0s builds an ordinary east
        // arrow (10000: sensitized 1, 2, 4, 8, then the arrow), 1111 a confluent cell (1, 3, 7,
        // then confluent).
        for v in [Variant::JvN29, Variant::Nobili32] {
            assert_eq!(v.next(1, 0, 0, 0, 0), 2);
            assert_eq!(v.next(2, 0, 0, 0, 0), 4);
            assert_eq!(v.next(4, 0, 0, 0, 0), 8);
            assert_eq!(v.next(8, 0, 0, 0, 0), EAST);
            assert_eq!(v.next(1, 0, 0, 0, EAST_EXCITED), 3);
            assert_eq!(v.next(3, 0, 0, 0, EAST_EXCITED), 7);
            assert_eq!(v.next(7, 0, 0, 0, EAST_EXCITED), 25);
        }
    }

    /// The stored trees are the compiled ones. After a change to a transition function,
    /// `LIFELAB_WRITE_JVN_TREES=1 cargo test --release --lib jvn` writes them again (and the test
    /// above then holds them to the functions).
    #[test]
    fn the_stored_trees_are_the_compiled_ones() {
        for v in [Variant::JvN29, Variant::Nobili32, Variant::Hutton32] {
            let compiled = super::compile(v);
            let path = format!(
                "{}/assets/jvn/{}.tree.bin",
                env!("CARGO_MANIFEST_DIR"),
                v.name()
            );
            let stored = std::fs::read(&path)
                .ok()
                .and_then(|bytes| super::RuleTree::from_bytes(&bytes).ok());
            if stored.as_ref() != Some(&compiled)
                && std::env::var_os("LIFELAB_WRITE_JVN_TREES").is_some()
            {
                std::fs::write(&path, compiled.to_bytes()).expect("assets/jvn is writable");
                continue;
            }
            assert!(
                stored == Some(compiled),
                "{v:?}: assets/jvn/{}.tree.bin is not the compiled tree; \
                 LIFELAB_WRITE_JVN_TREES=1 cargo test --release --lib jvn writes it again",
                v.name()
            );
        }
    }

    #[test]
    fn golly_s_names_old_and_new_name_the_rules() {
        for (name, v) in [
            ("JvN29", Variant::JvN29),
            ("jvn-29", Variant::JvN29),
            ("Nobili32", Variant::Nobili32),
            ("JvN-32", Variant::Nobili32),
            ("Hutton32", Variant::Hutton32),
            ("modJvN-32", Variant::Hutton32),
        ] {
            assert_eq!(Variant::from_name(name), Some(v), "{name}");
        }
        assert_eq!(Variant::from_name("JvN30"), None);
    }
}
