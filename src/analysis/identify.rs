//! Identifying a small pattern: run it alone on a roomy torus and find the first generation whose
//! shape (the cells within its bounding box, wherever the box is) has been seen before. That
//! gives the period and the displacement per period, normalised by translation: a still life,
//! an oscillator or a spaceship. A pattern that never repeats but whose core does while its
//! population grows by the same amount every period is a gun.

use std::collections::HashMap;

use serde::Serialize;

use crate::engine::{Engine, EngineResult, Universe};
use crate::grid::{Grid, Rect};
use crate::pattern::library::{Category, PATTERNS};
use crate::rule::Rule;

pub use super::kind::Kind;

#[derive(Clone, Debug, Serialize)]
pub struct Identity {
    pub kind: Kind,
    /// The generation the cycle starts at (or the pattern dies at).
    pub start: u64,
    pub period: Option<u64>,
    /// Displacement per period, cells right and down.
    pub displacement: Option<(i64, i64)>,
    /// `(dx,dy)c/p`, and for orthogonal and diagonal ships the usual short form.
    pub speed: Option<String>,
    /// The library pattern it is, in some phase and orientation.
    pub name: Option<String>,
    /// Catagolue's and LifeWiki's canonical name (still lifes, oscillators, spaceships).
    pub apgcode: Option<String>,
    /// Guns: what each period adds.
    pub emits: Option<String>,
    /// Generations looked at.
    pub generations: u64,
}

/// A pattern's shape in one generation, with where its box was.
struct Phase {
    shape: Grid,
    at: Rect,
}

fn phase(grid: &Grid) -> Option<Phase> {
    let at = grid.wrapped_bounding_box()?;
    Some(Phase {
        shape: grid.crop(at),
        at,
    })
}

/// The smallest displacement equivalent to `d` on a torus of side `n`.
fn wrap_delta(d: i64, n: u32) -> i64 {
    let n = n as i64;
    let d = d.rem_euclid(n);
    if d > n / 2 { d - n } else { d }
}

/// The speed in the forms Life users write it: `(1,1)c/4` always, plus `c/4 diagonal` or
/// `2c/4 = c/2 orthogonal` where they apply.
pub fn speed_text(dx: i64, dy: i64, p: u64) -> String {
    let mut s = format!("({dx},{dy})c/{p}");
    let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
    let step = |d: u64| {
        let g = gcd(d, p);
        let (n, q) = (d / g, p / g);
        let short = if n == 1 {
            format!("c/{q}")
        } else {
            format!("{n}c/{q}")
        };
        let long = if d == 1 {
            format!("c/{p}")
        } else {
            format!("{d}c/{p}")
        };
        if short == long {
            short
        } else {
            format!("{long} = {short}")
        }
    };
    if ax == 0 || ay == 0 {
        s.push_str(&format!(", {} orthogonal", step(ax.max(ay))));
    } else if ax == ay {
        s.push_str(&format!(", {} diagonal", step(ax)));
    }
    s
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The torus side used for identification: room for the pattern to move and to wrap cleanly.
pub fn working_side(pattern: &Grid) -> u32 {
    (pattern.width().max(pattern.height()) * 4)
        .max(128)
        .next_multiple_of(64)
}

/// A dense engine on `torus`: identification reads whole small grids every generation.
fn dense_engine(rule: Rule, torus: &Grid) -> EngineResult<Box<dyn Engine>> {
    let request =
        crate::registry::Request::new(rule, Universe::torus(torus.width(), torus.height()));
    let (mut e, _) = crate::registry::create("cpu", &request)?;
    e.set_grid(torus, 0)?;
    Ok(e)
}

/// Identifies `pattern` under `rule` within `max_gens` generations.
pub fn identify(rule: Rule, pattern: &Grid, max_gens: u64) -> EngineResult<Identity> {
    let side = working_side(pattern);
    let mut torus = Grid::new(side, side);
    let (x, y) = torus.centre_offset(pattern.width(), pattern.height());
    torus.paste(pattern, x, y);
    let mut engine = dense_engine(rule, &torus)?;
    let mut seen: HashMap<(u32, u32, u64), Vec<u64>> = HashMap::new();
    let mut phases: Vec<Phase> = Vec::new();
    let mut populations = Vec::new();
    for g in 0..=max_gens {
        if g > 0 {
            engine.step(1)?;
        }
        let grid = engine.dense().expect("the cpu engine is dense");
        populations.push(grid.population());
        let Some(ph) = phase(grid) else {
            return Ok(Identity {
                kind: Kind::Dies,
                start: g,
                period: None,
                displacement: None,
                speed: None,
                name: None,
                apgcode: None,
                emits: None,
                generations: g,
            });
        };
        if ph.at.width > side / 2 || ph.at.height > side / 2 {
            // Grown past half the torus: it could meet itself round the torus, so what
            // follows would say more about the torus than about the pattern.
            break;
        }
        let key = (ph.shape.width(), ph.shape.height(), ph.shape.fingerprint());
        if let Some(earlier) = seen.get(&key) {
            for &t in earlier {
                let old = &phases[t as usize];
                if old.shape == ph.shape {
                    let p = g - t;
                    let dx = wrap_delta(ph.at.x as i64 - old.at.x as i64, side);
                    let dy = wrap_delta(ph.at.y as i64 - old.at.y as i64, side);
                    let kind = match ((dx, dy), p) {
                        ((0, 0), 1) => Kind::Still,
                        ((0, 0), _) => Kind::Oscillator,
                        _ => Kind::Spaceship,
                    };
                    let cycle: Vec<&Grid> = phases[t as usize..].iter().map(|p| &p.shape).collect();
                    return Ok(Identity {
                        kind,
                        start: t,
                        period: Some(p),
                        displacement: Some((dx, dy)),
                        speed: (kind == Kind::Spaceship).then(|| speed_text(dx, dy, p)),
                        name: library_name(rule, &cycle),
                        apgcode: super::apgcode::apgcode(kind, p, &cycle),
                        emits: None,
                        generations: g,
                    });
                }
            }
        }
        seen.entry(key).or_default().push(g);
        phases.push(ph);
    }
    Ok(gun(rule, pattern, max_gens)?.unwrap_or(Identity {
        kind: Kind::Unresolved,
        start: 0,
        period: None,
        displacement: None,
        speed: None,
        name: None,
        apgcode: None,
        emits: None,
        generations: max_gens,
    }))
}

/// A gun: the pattern's own region repeats with period p while the population grows by the
/// same amount each period (what it emits leaves the region). Checked on a torus big enough
/// that nothing emitted comes back within the generations looked at; periods up to 120.
fn gun(rule: Rule, pattern: &Grid, max_gens: u64) -> EngineResult<Option<Identity>> {
    let gens = max_gens.min(600);
    let side = (working_side(pattern) * 2)
        .max(gens as u32 / 2 + pattern.width().max(pattern.height()) * 2);
    let mut torus = Grid::new(side, side);
    let (x, y) = torus.centre_offset(pattern.width(), pattern.height());
    torus.paste(pattern, x, y);
    let margin = 4;
    let core = Rect {
        x: x.saturating_sub(margin),
        y: y.saturating_sub(margin),
        width: pattern.width() + 2 * margin,
        height: pattern.height() + 2 * margin,
    };
    let mut e = dense_engine(rule, &torus)?;
    let mut populations = vec![torus.population()];
    let mut cores = vec![torus.crop(core)];
    for _ in 0..gens {
        e.step(1)?;
        let g = e.dense().expect("the cpu engine is dense");
        populations.push(g.population());
        cores.push(g.crop(core));
    }
    let n = populations.len();
    for p in 1..=(n / 5) {
        let d =
            |k: usize| populations[n - 1 - k * p] as i64 - populations[n - 1 - (k + 1) * p] as i64;
        let grows = d(0) > 0 && (1..4).all(|k| d(k) == d(0));
        if !grows || cores[n - 1] != cores[n - 1 - p] {
            continue;
        }
        let what = match d(0) {
            5 => "a glider".to_string(),
            c => format!("{c} cells"),
        };
        return Ok(Some(Identity {
            kind: Kind::Gun,
            start: (n - 1 - p) as u64,
            period: Some(p as u64),
            displacement: Some((0, 0)),
            speed: None,
            name: library_name_of_gun(pattern),
            apgcode: None,
            emits: Some(format!("{what} every {p} generations")),
            generations: gens,
        }));
    }
    Ok(None)
}

/// The eight symmetries of a shape, as text (cheap to compare for small shapes).
fn orientations(g: &Grid) -> Vec<String> {
    g.symmetries().iter().map(Grid::to_text).collect()
}

/// The library pattern (for this rule) one of whose phases is one of the cycle's, in any
/// orientation.
fn library_name(rule: Rule, cycle: &[&Grid]) -> Option<String> {
    if cycle.iter().any(|g| g.cells() > 64 * 64) {
        return None;
    }
    let forms: Vec<Vec<String>> = cycle.iter().map(|g| orientations(g)).collect();
    for entry in PATTERNS {
        if matches!(entry.category, Category::Gun | Category::Methuselah) {
            continue;
        }
        let p = entry.pattern();
        if p.rule.map(Rule::without_torus).unwrap_or_else(Rule::life) != rule.without_torus() {
            continue;
        }
        let text = p.trimmed().cells.to_text();
        if forms.iter().any(|f| f.contains(&text)) {
            return Some(p.name.unwrap_or_else(|| entry.id.to_string()));
        }
    }
    None
}

fn library_name_of_gun(pattern: &Grid) -> Option<String> {
    let bb = pattern.bounding_box()?;
    let text = pattern.crop(bb).to_text();
    PATTERNS
        .iter()
        .filter(|e| e.category == Category::Gun)
        .map(|e| e.pattern())
        .find(|p| orientations(&p.trimmed().cells).contains(&text))
        .and_then(|p| p.name)
}
