//! The soup census: apgsearch's soups, each run to stability on the plane, split into objects
//! named by their apgcodes, counted in a haul that Catagolue's format carries. See
//! `docs/census.md`.
//!
//! - [`soup`]: the soups, from SHA-256 as lifelib makes them;
//! - [`settle`]: one soup to its objects (stabilisation, escaping gliders, retries);
//! - [`classify`]: clusters, their cycles and the space-time separation;
//! - [`object`]: one object alone, its cycle and apgcode;
//! - [`aperiodic`]: linear and chaotic growth;
//! - [`haul`]: the tally, its text and JSON forms, and merging.

pub mod aperiodic;
pub mod classify;
pub mod haul;
pub mod object;
pub mod settle;
pub mod soup;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::rule::map::{self, MapRule};
use crate::rule::{Neighbourhood, Rule, RuleKind};
pub use haul::Haul;
pub use settle::SoupOutcome;
pub use soup::Symmetry;

/// Soups handed out at a time: small enough that a stop is prompt, big enough to keep every
/// core busy.
const BATCH: u64 = 512;

/// Why a rule has no census.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct Unsupported {
    pub rule: String,
    pub reason: String,
}

/// The rule's 3x3 table, if the census can run it: two states, the Moore neighbourhood,
/// isotropic (apgcodes take every orientation as one object), no birth on empty space, on the
/// unbounded plane.
pub fn census_table(rule: &Rule) -> Result<MapRule, Unsupported> {
    let refuse = |reason: &str| Unsupported {
        rule: rule.to_string(),
        reason: reason.into(),
    };
    if rule.torus.is_some() || rule.bounded.is_some() {
        return Err(refuse(
            "soups are censused on the unbounded plane; leave out the bounded-grid suffix",
        ));
    }
    let table = rule.block_rule().ok_or_else(|| {
        refuse("the census runs two-state rules of the 3x3 block (B/S and isotropic non-totalistic rules)")
    })?;
    if table.neighbourhood != Neighbourhood::Moore {
        return Err(refuse(
            "the census runs the Moore neighbourhood; apgcodes of hexagonal and von Neumann rules are not built",
        ));
    }
    if table.births_from_nothing() {
        return Err(refuse(
            "the rule gives birth on empty space (B0); the census does not run B0 rules",
        ));
    }
    if !isotropic(&table) {
        return Err(refuse(
            "the rule is not isotropic, so an object's orientations are not one object as apgcodes take them",
        ));
    }
    Ok(table)
}

fn isotropic(t: &MapRule) -> bool {
    let turn = |i: u16, f: &dyn Fn(i32, i32) -> (i32, i32)| -> u16 {
        let mut out = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if i & map::bit_at(dx, dy) != 0 {
                    let (x, y) = f(dx, dy);
                    out |= map::bit_at(x, y);
                }
            }
        }
        out
    };
    (0..512u16).all(|i| {
        t.next(turn(i, &|x, y| (-y, x))) == t.next(i)
            && t.next(turn(i, &|x, y| (-x, y))) == t.next(i)
    })
}

/// The rule as Catagolue names it: `b3s23`, `b36s23`, `b2-as12`.
pub fn catagolue_rule(rule: &Rule) -> String {
    match rule.kind {
        RuleKind::Life(_) | RuleKind::Map(_) => {
            rule.to_string().replace('/', "").to_ascii_lowercase()
        }
        _ => rule.to_string(),
    }
}

/// `N` (soups 0 to N-1) or `A..B` (soups A to B-1), as `--soups` and the Census panel take it.
pub fn parse_soups(text: &str) -> Result<(u64, u64), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("{text}: '{}' is not a whole number", t.trim()))
    };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (0, number(text)?),
    };
    if a >= b {
        return Err(if text.contains("..") {
            format!("{text}: the range {a}..{b} holds no soups (A..B is soups A to B-1)")
        } else {
            format!("{text}: no soups to census")
        });
    }
    Ok((a, b))
}

/// A census to run: soups `first..end` of `root` under `symmetry`.
#[derive(Clone, Debug)]
pub struct Request {
    pub rule: Rule,
    pub symmetry: Symmetry,
    pub root: String,
    pub first: u64,
    pub end: u64,
}

/// How far a census has gone, for a progress bar.
#[derive(Debug, Default)]
pub struct Progress {
    pub soups: AtomicU64,
    pub objects: AtomicU64,
    pub stop: AtomicBool,
}

/// Runs the census. Stopped (`progress.stop`), it ends after the soups in hand and the haul
/// counts the soups from `first` up to the first one not done, so it is a valid haul of a
/// shorter range. The haul is the same however many threads ran it.
pub fn run(request: &Request, progress: &Progress) -> Result<Haul, String> {
    run_with(request, progress, &|_| {})
}

/// [`run`], handing the haul so far to `on_batch` after each batch of soups (a live table).
pub fn run_with(
    request: &Request,
    progress: &Progress,
    on_batch: &(dyn Fn(&Haul) + Sync),
) -> Result<Haul, String> {
    let table = census_table(&request.rule).map_err(|e| e.to_string())?;
    let mut haul = Haul::new(
        &request.root,
        &catagolue_rule(&request.rule),
        request.symmetry.name(),
    );
    let mut next = request.first;
    while next < request.end && !progress.stop.load(Ordering::Relaxed) {
        let end = (next + BATCH).min(request.end);
        let outcomes: Vec<Option<Result<SoupOutcome, String>>> = (next..end)
            .into_par_iter()
            .map_init(
                || settle::Settler::new(classify::Classifier::new(request.rule, table)),
                |settler, index| {
                    if progress.stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let cells =
                        soup::hashsoup(&format!("{}{index}", request.root), request.symmetry);
                    let outcome = settler
                        .run(index, &cells)
                        .map_err(|e| format!("soup {}{index}: {e}", request.root));
                    progress.soups.fetch_add(1, Ordering::Relaxed);
                    if let Ok(o) = &outcome {
                        progress
                            .objects
                            .fetch_add(o.objects.len() as u64, Ordering::Relaxed);
                    }
                    Some(outcome)
                },
            )
            .collect();
        // Only the soups up to the first one not done count.
        let done: Vec<SoupOutcome> = outcomes
            .into_iter()
            .map_while(|o| o)
            .collect::<Result<_, _>>()?;
        let stop = next + done.len() as u64;
        haul.add(next, stop, &done);
        on_batch(&haul);
        if stop < end {
            break;
        }
        next = end;
    }
    Ok(haul)
}

/// One soup's outcome alone (what the tests and `census soup --objects` use).
pub fn one(rule: Rule, symmetry: Symmetry, root: &str, index: u64) -> Result<SoupOutcome, String> {
    let table = census_table(&rule).map_err(|e| e.to_string())?;
    let mut settler = settle::Settler::new(classify::Classifier::new(rule, table));
    let cells = soup::hashsoup(&format!("{root}{index}"), symmetry);
    settler.run(index, &cells).map_err(|e| e.to_string())
}
