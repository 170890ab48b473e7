//! The viewport drawn on the CPU, for when there is no GPU to draw from (CPU mode): the same
//! mapping as `shaders/view.wgsl`, into an image the size of the view, one pixel per point.

use eframe::egui;
use rayon::prelude::*;

use super::view_render::{DEAD, EDGE, LINE, LIVE, OUTSIDE};
use super::viewport::Viewport;
use crate::grid::Grid;

/// The view's own threads. On the global pool a frame's rows queued behind the engine's
/// work (a tile step, a view read), and the frame waited for the simulation.
fn in_view_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("lifelab-view-{i}"))
            .build()
            .ok()
    });
    match pool {
        Some(pool) => pool.install(f),
        // Without threads of its own (the system refused them), the view shares the global pool.
        None => f(),
    }
}

/// Fills `pixels`, `width` to a row, a row at a time on the view's threads.
fn each_row(
    pixels: &mut [egui::Color32],
    width: usize,
    fill: impl Fn(usize, &mut [egui::Color32]) + Send + Sync,
) {
    in_view_pool(|| {
        pixels
            .par_chunks_mut(width.max(1))
            .enumerate()
            .for_each(|(py, row)| fill(py, row))
    });
}

fn colour(c: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgb(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
    )
}

fn mix(a: [f32; 4], b: [f32; 4], t: f32) -> egui::Color32 {
    colour([
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
        1.0,
    ])
}

/// The view of `grid` under `view`, `size` points big. `ring_newest`: draw a space-time ring
/// with its oldest row at the top (elementary mode). The torus (or ring) is drawn once, as
/// the shader draws it: the copy `Viewport::copy_origin` places, framed on a torus.
pub fn render(
    grid: &Grid,
    view: &Viewport,
    size: [usize; 2],
    ring_newest: Option<u32>,
) -> egui::ColorImage {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let row_of = |y: i64| -> u32 {
        let y = y.rem_euclid(h) as u32;
        match ring_newest {
            Some(newest) => (newest + 1 + y) % grid.height(),
            None => y,
        }
    };
    let zoom = view.zoom;
    let cpp = 1.0 / zoom;
    let (lines, gaps) = (view.shows_grid_lines(), view.shows_gaps());
    let (x0, y0) = view
        .copy_origin((size[0] as f64, size[1] as f64))
        .unwrap_or((0, 0));
    let copy = Copy {
        min: (x0 as f64, y0 as f64),
        max: ((x0 + w) as f64, (y0 + h) as f64),
        framed: ring_newest.is_none(),
    };
    let mut pixels = vec![egui::Color32::BLACK; size[0] * size[1]];
    each_row(&mut pixels, size[0], |py, row| {
        for (px, out) in row.iter_mut().enumerate() {
            // The cells the pixel covers: [lo, lo + cpp).
            let lo = (
                view.origin.0 + px as f64 * cpp,
                view.origin.1 + py as f64 * cpp,
            );
            if zoom >= 1.0 {
                let (cx, cy) = (lo.0 + 0.5 * cpp, lo.1 + 0.5 * cpp);
                let (x, y) = (cx.floor() as i64, cy.floor() as i64);
                if !copy.holds(x, y) {
                    *out = copy.beyond(lo, cpp);
                    continue;
                }
                let alive = grid.get(x.rem_euclid(w) as u32, row_of(y));
                let mut c = if alive { colour(LIVE) } else { colour(DEAD) };
                let (fx, fy) = (cx - cx.floor(), cy - cy.floor());
                let edge = fx < cpp || fy < cpp;
                // A live cell's gap, then the grid line over it (as in Golly).
                let under = if alive && !(gaps && edge) { LIVE } else { DEAD };
                if gaps && edge {
                    c = colour(under);
                }
                if lines && edge {
                    c = mix(under, LINE, 0.6);
                }
                let seam = (x.rem_euclid(w) == 0 && fx < cpp) || (y.rem_euclid(h) == 0 && fy < cpp);
                if ring_newest.is_none() && seam {
                    c = colour(EDGE);
                }
                *out = c;
            } else {
                if copy.misses(lo, cpp) {
                    *out = copy.beyond(lo, cpp);
                    continue;
                }
                // Every cell of the block inside the copy.
                let xa = (lo.0.floor() as i64).max(x0);
                let xb = ((lo.0 + cpp).ceil() as i64).min(x0 + w);
                let ya = (lo.1.floor() as i64).max(y0);
                let yb = ((lo.1 + cpp).ceil() as i64).min(y0 + h);
                let cols = (xb - xa).max(1) as u32;
                let first = xa.rem_euclid(w) as u32;
                let live: u64 = (ya..yb)
                    .map(|y| count_run(grid.row(row_of(y)), first, cols, grid.width()))
                    .sum();
                *out = shade_fraction(live, (yb - ya).max(1) as u64 * cols as u64);
            }
        }
    });
    egui::ColorImage::new(size, pixels)
}

/// The copy of a torus or picture that a view draws, in unwrapped cell coordinates.
struct Copy {
    min: (f64, f64),
    max: (f64, f64),
    /// A torus's copy is framed in the edge colour; a picture's is not.
    framed: bool,
}

impl Copy {
    fn holds(&self, x: i64, y: i64) -> bool {
        let (x, y) = (x as f64, y as f64);
        x >= self.min.0 && y >= self.min.1 && x < self.max.0 && y < self.max.1
    }

    /// Whether the cells [lo, lo + d) miss the copy.
    fn misses(&self, lo: (f64, f64), d: f64) -> bool {
        lo.0 + d <= self.min.0 || lo.1 + d <= self.min.1 || lo.0 >= self.max.0 || lo.1 >= self.max.1
    }

    /// A pixel covering [lo, lo + cpp) outside the copy: the frame within a pixel of it.
    fn beyond(&self, lo: (f64, f64), cpp: f64) -> egui::Color32 {
        let near = Copy {
            min: (self.min.0 - cpp, self.min.1 - cpp),
            max: (self.max.0 + cpp, self.max.1 + cpp),
            framed: self.framed,
        };
        if self.framed && !near.misses(lo, cpp) {
            colour(EDGE)
        } else {
            colour(OUTSIDE)
        }
    }
}

/// Live cells of a row in columns [x, x + n), n <= width, wrapping round.
fn count_run(row: &[u64], x: u32, n: u32, width: u32) -> u64 {
    let mut total = 0u64;
    let (mut at, mut left) = (x, n);
    while left > 0 {
        let bit = at & 63;
        let take = (64 - bit).min(left).min(width - at);
        let mask = if take == 64 {
            u64::MAX
        } else {
            ((1u64 << take) - 1) << bit
        };
        total += (row[(at >> 6) as usize] & mask).count_ones() as u64;
        left -= take;
        at += take;
        if at >= width {
            at = 0;
        }
    }
    total
}

/// The view of the cells the worker read for it (`picture.request` says which), `size` points
/// big. Cells outside what was read (a pan the worker has not caught up with) are drawn dead.
pub fn render_cells(
    picture: &crate::session::worker::ViewPicture,
    view: &Viewport,
    size: [usize; 2],
) -> egui::ColorImage {
    use crate::session::worker::ViewCells;
    let rect = picture.request.rect;
    let block = picture.request.block.max(1) as i64;
    let zoom = view.zoom;
    let (lines, gaps) = (view.shows_grid_lines(), view.shows_gaps());
    let wraps = view.wraps();
    let (tw, th) = (view.torus.0 as i64, view.torus.1 as i64);
    // The offset of a cell within the picture, or None outside it.
    let offset = |x: i64, y: i64| -> Option<(i64, i64)> {
        let (mut dx, mut dy) = (x - rect.x, y - rect.y);
        if wraps {
            dx = dx.rem_euclid(tw);
            dy = dy.rem_euclid(th);
        }
        (dx >= 0 && dy >= 0 && dx < rect.width as i64 && dy < rect.height as i64)
            .then_some((dx, dy))
    };
    // A torus or bounded plane is drawn once (see `render`).
    let copy = view
        .copy_origin((size[0] as f64, size[1] as f64))
        .map(|(x0, y0)| Copy {
            min: (x0 as f64, y0 as f64),
            max: ((x0 + tw) as f64, (y0 + th) as f64),
            framed: wraps && !view.hex,
        });
    let mut pixels = vec![egui::Color32::BLACK; size[0] * size[1]];
    each_row(&mut pixels, size[0], |py, row| {
        for (px, out) in row.iter_mut().enumerate() {
            let (cx, cy) = view.screen_to_cell((px as f64 + 0.5, py as f64 + 0.5));
            // The hexagon under the pixel, and how near its edge (for the grid lines).
            let hex = (view.hex && zoom >= 1.0).then(|| super::viewport::hex_cell(cx, cy));
            let (x, y) = match hex {
                Some((c, _)) => c,
                None => (cx.floor() as i64, cy.floor() as i64),
            };
            if let Some(copy) = copy.as_ref().filter(|c| !c.holds(x, y)) {
                let lo = view.screen_to_cell((px as f64, py as f64));
                *out = copy.beyond(lo, 1.0 / zoom);
                continue;
            }
            let Some((dx, dy)) = offset(x, y) else {
                *out = colour(DEAD);
                continue;
            };
            let state_colour = |state: u8| match &picture.cells {
                ViewCells::States {
                    colours: Some(def), ..
                } => def.colours.get(state as usize).map_or(LIVE, |&[r, g, b]| {
                    [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0]
                }),
                ViewCells::States { states, .. } => state_colour(state, *states),
                _ => {
                    if state != 0 {
                        LIVE
                    } else {
                        DEAD
                    }
                }
            };
            let state = match &picture.cells {
                ViewCells::Cells(g) => Some(g.get(dx as u32, dy as u32) as u8),
                ViewCells::States { cells, .. } => {
                    Some(cells[(dy * rect.width as i64 + dx) as usize])
                }
                ViewCells::Sampled(_) => None,
            };
            match (&picture.cells, state) {
                (_, Some(state)) => {
                    let base = state_colour(state);
                    let mut c = colour(base);
                    // A live cell's gap is the dead state's colour.
                    let gap = |edge: bool| if gaps && edge { state_colour(0) } else { base };
                    if let Some((_, edge)) = hex {
                        let edge = edge < 1.0 / zoom;
                        c = colour(gap(edge));
                        if lines && edge {
                            c = mix(gap(edge), LINE, 0.6);
                        }
                    } else if zoom >= 1.0 {
                        let (fx, fy) = (cx - cx.floor(), cy - cy.floor());
                        let edge = fx < 1.0 / zoom || fy < 1.0 / zoom;
                        c = colour(gap(edge));
                        if lines && edge {
                            c = mix(gap(edge), LINE, 0.6);
                        }
                        let seam = wraps
                            && ((x.rem_euclid(tw) == 0 && fx < 1.0 / zoom)
                                || (y.rem_euclid(th) == 0 && fy < 1.0 / zoom));
                        if seam {
                            c = colour(EDGE);
                        }
                    }
                    *out = c;
                }
                (ViewCells::Sampled(s), None) => {
                    let (bx, by) = ((dx / block) as u32, (dy / block) as u32);
                    let v = if bx < s.columns && by < s.rows {
                        s.value(bx, by)
                    } else {
                        0
                    };
                    *out = shade(v);
                }
                (_, None) => *out = colour(DEAD),
            }
        }
    });
    egui::ColorImage::new(size, pixels)
}

/// Every state's colour under `rule`, state 0 first: a rule file's own (its `@COLORS`, or
/// Golly's red-to-yellow gradient), else the Generations palette below. The legend shows it.
pub fn palette(rule: &crate::rule::Rule) -> Vec<egui::Color32> {
    match rule.loaded() {
        Some(l) => {
            let def = l.def();
            def.colours
                .iter()
                .map(|&[r, g, b]| egui::Color32::from_rgb(r, g, b))
                .collect()
        }
        None => (0..rule.states())
            .map(|s| colour(state_colour(s as u8, rule.states())))
            .collect(),
    }
}

/// A state's colour under a rule of `states` states: live cells as always, and the dying
/// states each their own, from a bright orange for a cell that has just died to a dark red
/// near the end, so that a trail shows its age (Golly grades its Generations colours too).
fn state_colour(state: u8, states: u16) -> [f32; 4] {
    match state {
        0 => DEAD,
        1 => LIVE,
        s => {
            let t = (s as f32 - 2.0) / (states as f32 - 2.0).max(1.0);
            let (young, old) = ([1.0, 0.55, 0.1, 1.0], [0.35, 0.05, 0.12, 1.0]);
            [
                young[0] + (old[0] - young[0]) * t,
                young[1] + (old[1] - young[1]) * t,
                young[2] + (old[2] - young[2]) * t,
                1.0,
            ]
        }
    }
}

/// How bright a block with any live cell is at least, of the way from dead to live: a glider
/// alone in a zoomed-out plane still shows, as in Golly. `shaders/view.wgsl` has the same.
const FLOOR: f32 = 0.45;

/// The colour of a block with `live` of its `cells` alive: from the floor up by the square root
/// of its live share, which lifts sparse regions.
fn shade_fraction(live: u64, cells: u64) -> egui::Color32 {
    if live == 0 {
        return colour(DEAD);
    }
    let fraction = live as f32 / cells.max(1) as f32;
    mix(DEAD, LIVE, FLOOR + (1.0 - FLOOR) * fraction.sqrt())
}

/// The colour of a sampled block (its live share of 255, never 0 when a cell lives).
fn shade(v: u8) -> egui::Color32 {
    shade_fraction(v as u64, 255)
}
