//! The Life shader's WGSL: `shaders/life.wgsl` and `shaders/tiles.wgsl`, with the rule compiled
//! in as constant boolean logic (specialised) or read from the uniform table (generic).

use std::fmt::Write;

use super::options::ShaderMode;
use crate::gpu::census::HASH_WGSL;
use crate::rule::{CountTable, LifeRule, Neighbourhood, Outcome};

pub(super) const LIFE_WGSL: &str = include_str!("../../../shaders/life.wgsl");
pub(super) const TILES_WGSL: &str = include_str!("../../../shaders/tiles.wgsl");

/// The WGSL for a rule: the kernels and their helpers, the hash, and `rule_fn`.
pub fn shader_source(rule: &LifeRule, mode: ShaderMode) -> String {
    let table = CountTable::new(rule);
    let planes = match rule.neighbourhood {
        Neighbourhood::Moore => "moore_planes",
        Neighbourhood::Hexagonal => "hex_planes",
        Neighbourhood::VonNeumann => "von_neumann_planes",
    };
    let mut f = String::new();
    let _ = writeln!(
        f,
        "fn rule_fn(u: Tri, m: Tri, d: Tri, key: u32, xbase: i32, y: u32) -> u32 {{\n    \
         let t = {planes}(u, m, d);\n    let alive = m.c;"
    );
    match mode {
        ShaderMode::Generic => {
            f.push_str("    var next = generic_rule(t, alive);\n");
            if table.is_stochastic() {
                f.push_str(
                    "    var candidates = 0u;\n    for (var c = 0u; c < 10u; c++) {\n        \
                     if params.dead_threshold[c >> 2u][c & 3u] != 0u { candidates |= equal(t, c) & ~alive; }\n        \
                     if params.alive_threshold[c >> 2u][c & 3u] != 0u { candidates |= equal(t, c) & alive; }\n    }\n",
                );
            }
        }
        ShaderMode::Specialised => {
            f.push_str("    var next = 0u;\n");
            let mut candidates = Vec::new();
            for c in 0..table.values {
                let eq = equal_expr(c);
                match (table.dead[c], table.alive[c]) {
                    (Outcome::Alive, Outcome::Alive) => {
                        let _ = writeln!(f, "    next |= {eq};");
                    }
                    (Outcome::Alive, _) => {
                        let _ = writeln!(f, "    next |= {eq} & ~alive;");
                    }
                    (_, Outcome::Alive) => {
                        let _ = writeln!(f, "    next |= {eq} & alive;");
                    }
                    _ => {}
                }
                if matches!(table.dead[c], Outcome::Chance(_)) {
                    candidates.push(format!("({eq} & ~alive)"));
                }
                if matches!(table.alive[c], Outcome::Chance(_)) {
                    candidates.push(format!("({eq} & alive)"));
                }
            }
            if !candidates.is_empty() {
                let _ = writeln!(f, "    let candidates = {};", candidates.join(" | "));
            }
        }
    }
    if table.is_stochastic() {
        f.push_str(
            "    if candidates != 0u {\n        drew = 1u;\n        \
             next |= chance(t, alive, candidates, key, xbase, y);\n    }\n",
        );
    }
    f.push_str("    return next;\n}\n");
    format!("{LIFE_WGSL}\n{TILES_WGSL}\n{HASH_WGSL}\n{f}")
}

/// `count value == c` as constant logic on the planes.
pub(super) fn equal_expr(c: usize) -> String {
    let bit = |k: usize| {
        if c >> k & 1 == 1 {
            format!("t.p{k}")
        } else {
            format!("~t.p{k}")
        }
    };
    format!("({} & {} & {} & {})", bit(0), bit(1), bit(2), bit(3))
}
