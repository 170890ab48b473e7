//! The worker thread's side: its loop (edits first, then figures, answers, jobs, the view,
//! and the run in pieces sized to the clock), the pieces themselves and a job's run.

use super::*;
use crate::engine::CellRect;
use crate::grid::Grid;

/// The next piece size, aiming at pieces of about `target_ms` (the engine's
/// [`Engine::piece_ms`]). A piece has a fixed cost besides its generations (a GPU engine's
/// submission and census read-back: milliseconds on a software adapter), so a piece that fell
/// short grows by the share it fell short, at most doubling; one that took over 5/3 of the
/// target halves.
pub(super) fn next_piece(piece: u64, did: u64, took: Duration, target_ms: f64) -> u64 {
    let ms = took.as_secs_f64() * 1000.0;
    if did < piece {
        return piece;
    }
    if ms > target_ms * 5.0 / 3.0 {
        (piece / 2).max(1)
    } else if ms < target_ms {
        let grown = (piece as f64 * (target_ms / ms.max(1e-3)).min(2.0)) as u64;
        grown.max(piece + 1).min(1 << 40)
    } else {
        piece
    }
}

/// Steps `n` generations, recording what the owner watches: the census of every generation
/// where the engine gives it without losing its speed, else only the end of the piece.
pub(super) fn advance(
    shared: &Shared,
    e: &mut dyn Engine,
    n: u64,
    stride: u64,
    progress: &Progress,
    watch: Watch,
) -> EngineResult<u64> {
    crate::engine::check_reach(e.generation(), n)?;
    if e.jumps() && stride < n {
        return advance_in_strides(shared, e, n, stride, progress, watch);
    }
    if e.jumps() || !(watch.populations || watch.repeats) || progress.cancelled() {
        return e.step_with(n, progress);
    }
    let g0 = e.generation();
    let mut points = Vec::with_capacity(n.min(1 << 16) as usize);
    if watch.repeats {
        let mut census = Vec::with_capacity(n.min(1 << 16) as usize);
        e.step_census(n, &mut census)?;
        let mut r = lock(&shared.repeats);
        for (i, c) in census.into_iter().enumerate() {
            let g = g0 + i as u64 + 1;
            r.see(g, c);
            points.push((g, c.population));
        }
    } else {
        let mut pops = Vec::with_capacity(n.min(1 << 16) as usize);
        e.step_populations(n, &mut pops)?;
        points.extend((g0 + 1..).zip(pops));
    }
    progress.advance(n);
    if watch.populations {
        let mut s = lock(&shared.status);
        for (g, p) in points {
            s.history.record(g, p, false);
        }
    }
    Ok(n)
}

/// A jumping engine's step costs about the same whatever its length, so a run's piece of such
/// an engine is whole steps of the step size shown (2^k), taken one by one, with a point for the
/// plot after each: a piece as long as the clock allows would jump far past what the status
/// line says. Stops at a whole generation when `progress` is cancelled, inside a stride where
/// the engine looks at it (HashLife, between the power-of-two jumps of a stride and inside them).
fn advance_in_strides(
    shared: &Shared,
    e: &mut dyn Engine,
    n: u64,
    stride: u64,
    progress: &Progress,
    watch: Watch,
) -> EngineResult<u64> {
    let stride = stride.max(1);
    let mut done = 0;
    while done < n && !progress.cancelled() {
        let len = stride.min(n - done);
        // The job's own progress, so that a cancel stops a long stride inside; an engine
        // that counts its own steps has moved it already.
        let before = progress.get().0;
        let did = e.step_with(len, progress)?;
        done += did;
        progress.advance(did.saturating_sub(progress.get().0.saturating_sub(before)));
        if watch.populations {
            let (g, p) = (e.generation(), e.population()?);
            lock(&shared.status).history.record(g, p, false);
        }
    }
    Ok(done)
}

pub(super) fn worker_loop(shared: Arc<Shared>) {
    let access = Access {
        shared: shared.clone(),
    };
    // The rate achieved: generations and time since the last measurement.
    let mut rate_since: Option<(Instant, u64)> = None;
    let mut run_started: Option<(Instant, u64)> = None;
    let mut last_pace: Option<Pace> = None;
    let mut piece = 1u64;
    loop {
        let mut c = lock(&shared.control);
        if c.quit {
            return;
        }
        // Edits before a refresh: figures published for a refresh asked after an edit
        // must show it (an undo's import, read by `sync` on a loaded machine).
        if !c.edits.is_empty() {
            drop(c);
            let mut e = lock(&shared.engine);
            shared.apply_edits(e.as_mut());
            continue;
        }
        if c.refresh {
            c.refresh = false;
            drop(c);
            shared.publish_figures(true);
            continue;
        }
        if c.bounds_asked > c.bounds_answered {
            let ticket = c.bounds_asked;
            c.bounds_answered = ticket;
            drop(c);
            shared.answer_bounds(ticket);
            continue;
        }
        if !c.jobs.is_empty() {
            let job = c.jobs.remove(0);
            drop(c);
            run_job(&shared, &access, job);
            continue;
        }
        let view = c.view.filter(|_| c.view_dirty);
        if let Some(v) = view {
            c.view_dirty = false;
            drop(c);
            read_view(&shared, v);
            continue;
        }
        if !c.running {
            rate_since = None;
            run_started = None;
            let _ = shared.wake.wait_timeout(c, Duration::from_millis(200));
            continue;
        }
        let (pace, step, stop_at, watch) = (
            c.pace.unwrap_or(Pace::Max),
            c.step.max(1),
            c.stop_at,
            c.watch,
        );
        drop(c);
        if last_pace != Some(pace) {
            // A new pace counts from now.
            last_pace = Some(pace);
            run_started = None;
        }

        let generation = lock(&shared.status).generation;
        let now = Instant::now();
        let (t0, g0) = *run_started.get_or_insert((now, generation));
        // Generations due at the pace asked for, in whole steps.
        let due = match pace {
            Pace::Max => u64::MAX,
            Pace::PerSecond(r) => {
                let target = g0 + (r * now.duration_since(t0).as_secs_f64()) as u64;
                target.saturating_sub(generation)
            }
        };
        // Whole steps only: the generation moves by the step size shown, and a pause lands on
        // a multiple of it.
        let mut gens = (piece.max(step) / step * step).min(due / step * step);
        if let Some(stop) = stop_at {
            gens = gens.min(stop.saturating_sub(generation));
        }
        if gens == 0 {
            if stop_at.is_some_and(|s| generation >= s) {
                let mut c = lock(&shared.control);
                c.running = false;
                drop(c);
                let mut s = lock(&shared.status);
                s.running = false;
                s.stopped_after = Some(t0.elapsed().as_secs_f64());
                shared.bump(&mut s);
                continue;
            }
            // Nothing due yet: sleep until the next step is.
            let wait = match pace {
                Pace::PerSecond(r) => Duration::from_secs_f64((step as f64 / r).min(0.05)),
                Pace::Max => Duration::from_millis(1),
            };
            let c = lock(&shared.control);
            let _ = shared.wake.wait_timeout(c, wait);
            continue;
        }
        let t = Instant::now();
        let progress = Progress::new(gens);
        let result = access.with(|e| {
            advance(&shared, e, gens, step, &progress, watch).map(|did| (did, e.piece_ms()))
        });
        match result {
            Ok((did, target_ms)) => {
                piece = next_piece(piece, did, t.elapsed(), target_ms);
                shared.publish_figures(false);
                let mut s = lock(&shared.status);
                let now = Instant::now();
                match rate_since {
                    Some((t, g)) if now.duration_since(t).as_secs_f64() >= 0.5 => {
                        s.rate = s.generation.saturating_sub(g) as f64
                            / now.duration_since(t).as_secs_f64();
                        rate_since = Some((now, s.generation));
                    }
                    Some(_) => {}
                    None => rate_since = Some((now, generation)),
                }
                if stop_at.is_some_and(|stop| s.generation >= stop) {
                    s.stopped_after = Some(t0.elapsed().as_secs_f64());
                    s.running = false;
                    shared.bump(&mut s);
                    drop(s);
                    lock(&shared.control).running = false;
                }
            }
            Err(e) => {
                lock(&shared.control).running = false;
                let mut s = lock(&shared.status);
                s.running = false;
                s.error = Some(WorkError::Run(Arc::new(e)));
                shared.bump(&mut s);
            }
        }
    }
}

fn run_job(shared: &Arc<Shared>, access: &Access, job: Job) {
    {
        let mut s = lock(&shared.status);
        s.busy = Some(Busy {
            label: job.label.clone(),
            progress: job.progress.clone(),
            started: Instant::now(),
        });
        shared.bump(&mut s);
    }
    if let Some(e) = (job.run)(access, &job.progress) {
        lock(&shared.status).error = Some(WorkError::Job {
            label: job.label.clone(),
            message: e,
        });
    }
    lock(&shared.status).busy = None;
    shared.publish_figures(true);
}

/// Cells of a view read under one hold of the engine, at most: a larger view, on an engine whose
/// reads cost their area, goes in bands, and a newer request (a pan, a zoom), an edit or a job
/// ends the read of an older one between two bands.
const VIEW_BAND_CELLS: u64 = 1 << 20;

fn read_view(shared: &Arc<Shared>, request: ViewRequest) {
    let (generation, states, rule_file, by_area) = {
        let mut e = lock(&shared.engine);
        shared.apply_edits(e.as_mut());
        let r = e.rule();
        (e.generation(), r.states(), r.loaded(), e.view_costs_area())
    };
    let rect = request.rect;
    let block = request.block.max(1);
    // Whole rows of blocks in each band.
    let band = if by_area {
        let block_row = rect.width as u64 * block as u64 * block as u64;
        (VIEW_BAND_CELLS / block_row.max(1)).max(1) as u32 * block
    } else {
        rect.height
    };
    let states_view = request.block <= 1 && (states > 2 || rule_file.is_some());
    let mut pieces = Vec::new();
    let mut y = 0;
    while y < rect.height.max(1) {
        let h = band.min(rect.height - y);
        let part = CellRect::new(rect.x, rect.y + y as i64, rect.width, h);
        let piece = {
            let mut e = lock(&shared.engine);
            if e.generation() != generation {
                // The engine moved on under a read in bands: a fresh read follows.
                return read_again(shared);
            }
            if states_view {
                e.states_in(part).map(|cells| ViewCells::States {
                    states,
                    cells,
                    colours: rule_file.map(|r| r.def()),
                })
            } else if request.block <= 1 {
                e.cells_in(part).map(ViewCells::Cells)
            } else {
                e.sample(part, request.block).map(ViewCells::Sampled)
            }
        };
        let Ok(piece) = piece else { return };
        pieces.push((y, piece));
        y += h.max(1);
        if y < rect.height {
            let c = lock(&shared.control);
            if c.view != Some(request) || !c.edits.is_empty() || !c.jobs.is_empty() || c.quit {
                drop(c);
                // The loop does what came first, then reads the view (the newest asked) again.
                return read_again(shared);
            }
        }
    }
    let Some(cells) = join_bands(rect, pieces) else {
        return;
    };
    *lock(&shared.view) = Some(ViewPicture {
        request,
        generation,
        cells,
    });
    let mut s = lock(&shared.status);
    shared.bump(&mut s);
}

/// A read in bands given up for something that came first: the view is read again after it.
fn read_again(shared: &Shared) {
    lock(&shared.control).view_dirty = true;
}

/// The bands of a view, top to bottom, as one.
fn join_bands(rect: CellRect, mut pieces: Vec<(u32, ViewCells)>) -> Option<ViewCells> {
    if pieces.len() == 1 {
        return pieces.pop().map(|(_, cells)| cells);
    }
    let mut bands = pieces.into_iter();
    let (_, first) = bands.next()?;
    Some(match first {
        ViewCells::Cells(top) => {
            let mut all = Grid::try_new_bitmap(rect.width, rect.height).ok()?;
            all.paste(&top, 0, 0);
            for (y, band) in bands {
                let ViewCells::Cells(g) = band else {
                    return None;
                };
                all.paste(&g, 0, y);
            }
            ViewCells::Cells(all)
        }
        ViewCells::States {
            states,
            mut cells,
            colours,
        } => {
            for (_, band) in bands {
                let ViewCells::States { cells: more, .. } = band else {
                    return None;
                };
                cells.extend(more);
            }
            ViewCells::States {
                states,
                cells,
                colours,
            }
        }
        ViewCells::Sampled(mut all) => {
            for (_, band) in bands {
                let ViewCells::Sampled(more) = band else {
                    return None;
                };
                all.rows += more.rows;
                all.values.extend(more.values);
            }
            ViewCells::Sampled(all)
        }
    })
}

#[cfg(test)]
mod piece_tests {
    use super::next_piece;
    use std::time::Duration;

    #[test]
    fn pieces_grow_past_a_fixed_cost_to_about_15_ms() {
        // 10 ms per piece plus 0.2 ms per generation: the piece settles where it takes
        // 15 ms, 25 generations, not at 1 (worked by hand: 10 + 0.2 n = 15).
        let mut piece = 1u64;
        for _ in 0..100 {
            let took = Duration::from_secs_f64((10.0 + 0.2 * piece as f64) / 1000.0);
            piece = next_piece(piece, piece, took, 15.0);
        }
        assert!((20..=30).contains(&piece), "{piece}");
        // Fast pieces double, slow ones halve, and a cut-short piece keeps its size.
        assert_eq!(next_piece(8, 8, Duration::from_micros(100), 15.0), 16);
        assert_eq!(next_piece(8, 8, Duration::from_millis(40), 15.0), 4);
        assert_eq!(next_piece(8, 3, Duration::from_millis(1), 15.0), 8);
    }
}
