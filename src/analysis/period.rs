//! Period detection on the whole torus: the first generation t and the period p with
//! state(t) = state(t + p).
//!
//! A hash of every generation (the engine's census, computed on the GPU for GPU runs) finds
//! candidates; every candidate is confirmed by comparing full states, recomputed on the CPU
//! from the nearest checkpoint, so a hash collision can cost time but never give a false
//! answer.

use std::collections::HashMap;

use serde::Serialize;

use crate::cpu::FastEngine;
use crate::engine::{Engine, EngineResult};
use crate::grid::{Census, Grid};

/// What became of the torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TorusFate {
    /// Every cell is dead from this generation on.
    Dies { generation: u64 },
    /// state(start) = state(start + period), with `period` minimal; period 1 is a still life.
    Repeats { start: u64, period: u64 },
    /// No repetition within the generations searched.
    Unresolved { generations: u64 },
}

#[derive(Clone, Debug, Serialize)]
pub struct PeriodReport {
    pub fate: TorusFate,
    /// Population of every generation, from generation 0.
    pub history: Vec<u64>,
    /// Hash hits checked against full states, and how many were collisions.
    pub confirmations: u32,
    pub collisions: u32,
}

/// Generations between CPU checkpoints, and how many checkpoints to keep (older ones are
/// thinned out by doubling the spacing).
const CHECKPOINT_EVERY: u64 = 256;
const MAX_CHECKPOINTS: usize = 16;

/// Runs `engine` (at generation 0 on `start`) for up to `max_gens` generations looking for a
/// repeated state. `key` turns a census into the hash that is compared; tests pass a bad one to
/// force collisions.
pub fn find_period(
    engine: &mut dyn Engine,
    start: &Grid,
    seed: u64,
    max_gens: u64,
    key: &dyn Fn(&Census) -> u64,
) -> EngineResult<PeriodReport> {
    let rule = *engine.rule();
    let mut history = vec![start.population()];
    let mut seen: HashMap<(u64, u64), Vec<u64>> = HashMap::new();
    let first = start.census();
    seen.entry((key(&first), first.population))
        .or_default()
        .push(0);
    let mut checkpoints: Vec<(u64, Grid)> = vec![(0, start.clone())];
    let mut spacing = CHECKPOINT_EVERY;
    let (mut confirmations, mut collisions) = (0, 0);
    if start.is_empty() {
        return Ok(PeriodReport {
            fate: TorusFate::Dies { generation: 0 },
            history,
            confirmations,
            collisions,
        });
    }
    let mut g = 0;
    let mut censuses = Vec::new();
    while g < max_gens {
        // Batches end on checkpoints, where the engine's own state is copied.
        let n = (spacing - g % spacing).min(max_gens - g);
        censuses.clear();
        engine.step_census(n, &mut censuses)?;
        for (i, c) in censuses.iter().enumerate() {
            let now_gen = g + i as u64 + 1;
            history.push(c.population);
            if c.population == 0 {
                return Ok(PeriodReport {
                    fate: TorusFate::Dies {
                        generation: now_gen,
                    },
                    history,
                    confirmations,
                    collisions,
                });
            }
            let candidates = seen
                .get(&(key(c), c.population))
                .cloned()
                .unwrap_or_default();
            if !candidates.is_empty() {
                // The state at `now_gen`: recomputed on the CPU from a checkpoint, so that it
                // does not depend on where the batch stopped.
                let now = state_at(rule, seed, &checkpoints, now_gen);
                for t in candidates {
                    confirmations += 1;
                    if state_at(rule, seed, &checkpoints, t) == now {
                        return Ok(PeriodReport {
                            fate: TorusFate::Repeats {
                                start: t,
                                period: now_gen - t,
                            },
                            history,
                            confirmations,
                            collisions,
                        });
                    }
                    collisions += 1;
                }
            }
            seen.entry((key(c), c.population))
                .or_default()
                .push(now_gen);
        }
        g += n;
        if g.is_multiple_of(spacing) && g < max_gens {
            checkpoints.push((g, engine.grid()?));
            if checkpoints.len() > MAX_CHECKPOINTS {
                // Keep generation 0 and every other later checkpoint.
                spacing *= 2;
                let mut k = 0;
                checkpoints.retain(|(cg, _)| {
                    k += 1;
                    *cg == 0 || k % 2 == 1
                });
            }
        }
    }
    Ok(PeriodReport {
        fate: TorusFate::Unresolved {
            generations: max_gens,
        },
        history,
        confirmations,
        collisions,
    })
}

/// The state at generation `g`, from the latest checkpoint at or before it.
fn state_at(rule: crate::rule::Rule, seed: u64, checkpoints: &[(u64, Grid)], g: u64) -> Grid {
    let (cg, grid) = checkpoints
        .iter()
        .rev()
        .find(|(cg, _)| *cg <= g)
        .expect("generation 0 is a checkpoint");
    let mut e = FastEngine::new(rule, grid, seed);
    e.set_grid(grid, *cg).expect("same size");
    e.step(g - cg).expect("the CPU engine does not fail");
    e.grid_ref().clone()
}
