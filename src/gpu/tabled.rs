//! The WGSL `rule_fn` of a rule of the 3x3 block (non-totalistic, MAP, Golly's 2D Wolfram): the
//! rule's circuit (`rule::Circuit`, the same one the CPU kernels run) as straight-line code on
//! 32-bit words. Every kernel (dense, blocked, tiles) calls `rule_fn` with the three rows of a
//! word as `Tri`s, so this one function is all a tabled rule needs on the GPU.

use std::fmt::Write;

use crate::rule::{Circuit, MapRule};

/// The `Tri` field that holds each index bit's cell: SE, S, SW, E, centre, W, NE, N, NW.
const INPUTS: [&str; 9] = [
    "d.e", "d.c", "d.w", "m.e", "m.c", "m.w", "u.e", "u.c", "u.w",
];

/// `rule_fn` for `rule`, on a grid held transposed when `transposed` (the table is transposed
/// to match: a MAP rule need not be symmetric under the swap).
pub fn rule_fn(rule: &MapRule, transposed: bool) -> String {
    let rule = if transposed { rule.transposed() } else { *rule };
    let circuit = Circuit::new(&rule);
    let value = |v: u16| match v {
        0 => "0u".to_string(),
        1 => "0xffffffffu".to_string(),
        v => format!("v{v}"),
    };
    let mut f =
        String::from("fn rule_fn(u: Tri, m: Tri, d: Tri, key: u32, xbase: i32, y: u32) -> u32 {\n");
    let root = circuit.lines(|i, cell, lo, hi| {
        let (lo, hi) = (value(lo), value(hi));
        let x = INPUTS[cell as usize];
        let _ = writeln!(f, "    let v{i} = {lo} ^ (({lo} ^ {hi}) & {x});");
    });
    let _ = writeln!(f, "    return {};\n}}", value(root));
    f
}
