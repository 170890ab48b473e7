//! Objects that never come back: apgsearch names linear growth (a gun, a puffer) by its
//! population's period and the moments of its growth (`yl144_1_16_afb5f3db909e60548f086e22ee3353ac`),
//! and faster growth by how the cumulative population scales (`zz_LINEAR`, `zz_EXPLOSIVE`,
//! `zz_QUADRATIC`, `zz_REPLICATOR`); what fits neither is `PATHOLOGICAL`.

use md5::{Digest, Md5};

use crate::cpu::hashlife::HashLifeEngine;
use crate::cpu::tiles::TileEngine;
use crate::engine::{Engine, Universe};
use crate::rule::Rule;
use crate::tiles::TileMap;

/// The longest population period linear growth is looked for with.
const MAX_PERIOD: usize = 4100;

fn engine_with(engine: &mut dyn Engine, cells: &[(i64, i64)]) -> Option<()> {
    let mut tiles = TileMap::new();
    for &(x, y) in cells {
        tiles.set(x, y, true);
    }
    engine.import(&tiles).ok()
}

/// apgsearch's name for an object that has no cycle.
pub fn classify(rule: &Rule, cells: &[(i64, i64)]) -> String {
    linear(rule, cells)
        .or_else(|| power(rule, cells))
        .unwrap_or_else(|| "PATHOLOGICAL".into())
}

/// `yl…` when the population's differences over some period are periodic.
fn linear(rule: &Rule, cells: &[(i64, i64)]) -> Option<String> {
    let mut engine = TileEngine::new(*rule, Universe::Plane, 0).ok()?;
    engine_with(&mut engine, cells)?;
    let mut pops = Vec::with_capacity(3 * MAX_PERIOD);
    for _ in 0..3 * MAX_PERIOD {
        engine.step(1).ok()?;
        pops.push(engine.population().ok()? as i64);
    }
    let diffs =
        |p: usize| -> Vec<i64> { (0..2 * MAX_PERIOD).map(|i| pops[i + p] - pops[i]).collect() };
    let periodic = |d: &[i64], q: usize| (0..MAX_PERIOD).all(|i| d[i] == d[i + q]);
    let (period, d) = (1..MAX_PERIOD).find_map(|p| {
        let d = diffs(p);
        periodic(&d, p).then_some((p, d))
    })?;
    let qeriod = (1..MAX_PERIOD).find(|&q| periodic(&d, q))?;
    let (mut m0, mut m1, mut m2) = (0i64, 0i64, 0i64);
    for i in 0..period {
        let x = pops[i + qeriod] - pops[i];
        m0 += x;
        m1 += x * x;
        m2 += x * x * x;
    }
    if m0 == 0 {
        return None;
    }
    let hash = Md5::digest(format!("{m1}#{m2}").as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("yl{period}_{qeriod}_{m0}_{hex}"))
}

/// The slope of the least-squares line through `pairs`.
fn slope(pairs: &[(f64, f64)]) -> f64 {
    let n = pairs.len() as f64;
    let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let var: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let cov: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    cov / var
}

/// `zz_…` from how the cumulative population grows over 256,000 generations.
fn power(rule: &Rule, cells: &[(i64, i64)]) -> Option<String> {
    let mut engine = HashLifeEngine::new(*rule, Universe::Plane, None).ok()?;
    engine_with(&mut engine, cells)?;
    let (step, steps, start) = (32u64, 8000usize, 5380f64);
    let mut cumulative = 1.0f64;
    let mut by_gen = Vec::with_capacity(steps);
    let mut by_step = Vec::with_capacity(steps);
    for i in 0..steps {
        engine.step(step).ok()?;
        cumulative += engine.population().ok()? as f64;
        by_gen.push(((i as f64 * step as f64 + start).ln(), cumulative.ln()));
        by_step.push((((i + 1) as f64).ln(), cumulative.ln()));
    }
    let (power, power2) = (slope(&by_gen), slope(&by_step));
    Some(
        if power2 < 1.1 {
            "PATHOLOGICAL"
        } else if power < 1.65 {
            "zz_REPLICATOR"
        } else if power < 2.1 {
            "zz_LINEAR"
        } else if power < 2.9 {
            "zz_EXPLOSIVE"
        } else {
            "zz_QUADRATIC"
        }
        .to_string(),
    )
}
