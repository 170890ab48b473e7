//! Period detection on the whole universe: the first generation t and the period p with
//! state(t) = state(t + p).
//!
//! A hash of every generation (the engine's census, computed on the GPU for GPU runs) finds
//! candidates; every candidate is confirmed by comparing full states, recomputed from the
//! nearest checkpoint on a fresh engine, so a hash collision can cost time but never give a
//! false answer. Under a B0 rule an empty universe is not dead (it fills at once), so only a
//! repetition ends the search.

use std::collections::HashMap;

use serde::Serialize;

use crate::engine::{Census, Engine, EngineResult, Progress};
use crate::rule::Rule;
use crate::tiles::TileMap;

/// What became of the universe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TorusFate {
    /// Every cell is dead from this generation on (never under a B0 rule).
    Dies { generation: u64 },
    /// state(start) = state(start + period), with `period` minimal; period 1 is a still life.
    Repeats { start: u64, period: u64 },
    /// No repetition within the generations searched.
    Unresolved { generations: u64 },
}

#[derive(Clone, Debug, Serialize)]
pub struct PeriodReport {
    pub fate: TorusFate,
    /// Population of every generation, from the start.
    pub history: Vec<u64>,
    /// Hash hits checked against full states, and how many were collisions.
    pub confirmations: u32,
    pub collisions: u32,
}

/// Generations between checkpoints, and how many to keep (older ones are thinned out by
/// doubling the spacing).
const CHECKPOINT_EVERY: u64 = 256;
const MAX_CHECKPOINTS: usize = 16;

/// Whether an empty universe stays empty under `rule` (not B0).
pub fn empty_stays_empty(rule: &Rule) -> bool {
    !rule.births_from_nothing()
}

/// Runs `engine` (loaded with its start, whose generation counts as 0 here) for up to
/// `max_gens` generations looking for a repeated state. `replay` makes a fresh engine of the
/// same universe for confirmations. `key` turns a census into the hash that is compared; tests
/// pass a bad one to force collisions.
pub fn find_period(
    engine: &mut dyn Engine,
    replay: &dyn Fn() -> EngineResult<Box<dyn Engine>>,
    max_gens: u64,
    key: &dyn Fn(&Census) -> u64,
    progress: &Progress,
) -> EngineResult<PeriodReport> {
    let base = engine.generation();
    let dies_when_empty = empty_stays_empty(engine.rule());
    engine.track_hash(true);
    let first = engine.census()?;
    let mut history = vec![first.population];
    let mut seen: HashMap<(u64, u64), Vec<u64>> = HashMap::new();
    seen.entry((key(&first), first.population))
        .or_default()
        .push(0);
    let mut checkpoints: Vec<(u64, TileMap)> = vec![(0, engine.export()?)];
    let mut spacing = CHECKPOINT_EVERY;
    let (mut confirmations, mut collisions) = (0, 0);
    let report = |fate, history, confirmations, collisions| PeriodReport {
        fate,
        history,
        confirmations,
        collisions,
    };
    if dies_when_empty && first.population == 0 {
        return Ok(report(
            TorusFate::Dies { generation: 0 },
            history,
            confirmations,
            collisions,
        ));
    }
    progress.set_total(max_gens);
    let state_at = |checkpoints: &[(u64, TileMap)], g: u64| -> EngineResult<TileMap> {
        let (cg, tiles) = checkpoints
            .iter()
            .rev()
            .find(|(cg, _)| *cg <= g)
            .expect("generation 0 is a checkpoint");
        let mut e = replay()?;
        e.import(tiles)?;
        e.set_generation(base + cg);
        e.step(g - cg)?;
        let mut t = e.export()?;
        t.prune();
        Ok(t)
    };
    let mut g = 0;
    let mut censuses = Vec::new();
    while g < max_gens {
        if progress.cancelled() {
            return Err(crate::engine::EngineError::Cancelled);
        }
        // Batches end on checkpoints, where the engine's own state is copied.
        let n = (spacing - g % spacing).min(max_gens - g);
        censuses.clear();
        engine.step_census(n, &mut censuses)?;
        for (i, c) in censuses.iter().enumerate() {
            let now_gen = g + i as u64 + 1;
            history.push(c.population);
            if dies_when_empty && c.population == 0 {
                return Ok(report(
                    TorusFate::Dies {
                        generation: now_gen,
                    },
                    history,
                    confirmations,
                    collisions,
                ));
            }
            let candidates = seen
                .get(&(key(c), c.population))
                .cloned()
                .unwrap_or_default();
            if !candidates.is_empty() {
                let now = state_at(&checkpoints, now_gen)?;
                for t in candidates {
                    confirmations += 1;
                    if state_at(&checkpoints, t)? == now {
                        return Ok(report(
                            TorusFate::Repeats {
                                start: t,
                                period: now_gen - t,
                            },
                            history,
                            confirmations,
                            collisions,
                        ));
                    }
                    collisions += 1;
                }
            }
            seen.entry((key(c), c.population))
                .or_default()
                .push(now_gen);
        }
        g += n;
        progress.set_done(g);
        if g.is_multiple_of(spacing) && g < max_gens {
            checkpoints.push((g, engine.export()?));
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
    Ok(report(
        TorusFate::Unresolved {
            generations: max_gens,
        },
        history,
        confirmations,
        collisions,
    ))
}
