//! The one place commands change the app. Each command becomes a call on the [`Session`]:
//! long work is a job (with progress and Cancel), an edit is queued for the worker, and what
//! the view needs is published; nothing here waits for a generation.
//!
//! [`Session`]: crate::session::Session

use eframe::egui;

use super::AfterBounds;
use super::LifelabApp;
use super::command::Command;
use super::panels::Mode;
use super::view_render::ViewTarget;
use crate::engine::{CellRect, EngineResult, Put, Universe};
use crate::grid::Grid;
use crate::pattern::{self, Format, Pattern};
use crate::rule::Rule;
use crate::session::elementary::ElementarySim;
use crate::session::save::Meta;
use crate::session::setup::FileCells;
use crate::session::worker::Pace;

/// The extensions lifelab reads.
const PATTERN_EXTENSIONS: [&str; 7] = ["rle", "cells", "lif", "life", "mc", "mcl", "gz"];

/// A system dialog that answers "nothing chosen" sooner than this was never shown: there is no
/// xdg portal and no zenity. No person cancels a dialog that fast.
const NO_SYSTEM_DIALOG: std::time::Duration = std::time::Duration::from_millis(150);

/// A torus for a pattern with no size of its own (the command line's default too).
fn fitting_size(w: u32, h: u32) -> (u32, u32) {
    crate::session::setup::default_size(w, h)
}

/// The torus (or the plane) a library methuselah needs for its literature result, when it is
/// one of those whose escaping gliders would otherwise wrap round and crash into the debris.
fn room_needed(source: &str) -> Option<(u32, &'static str)> {
    match source {
        "acorn" => Some((2048, "stabilises at generation 5206 with 633 cells")),
        "rabbits" => Some((8192, "stabilises at generation 17331")),
        "bunnies" => Some((8192, "stabilises at generation 17332")),
        "r-pentomino" => Some((1024, "stabilises at generation 1103 with 116 cells")),
        _ => None,
    }
}

impl LifelabApp {
    pub(super) fn apply(&mut self, ctx: &egui::Context, command: Command) {
        // After an undo or a reset that waits for the piece of work in progress, what changes
        // the cells waits its turn too, in the order it was asked for.
        // One that replaces the engine or clears the cells stops the job in flight first, and
        // waits for it to land rather than the frame waiting.
        if command.waits_its_turn() && (!self.held.is_empty() || self.must_wait(&command)) {
            if command.stops_the_job() {
                self.life.cancel();
            }
            self.held.push_back((ctx.clone(), command));
            return;
        }
        self.apply_now(ctx, command);
    }

    fn must_wait(&self, command: &Command) -> bool {
        command.waits_its_turn()
            && (self.life.catching_up() || command.stops_the_job() && self.life.job_in_flight())
    }

    /// Applies the commands held back, once the session has caught up.
    pub(super) fn apply_held(&mut self) {
        while let Some((_, command)) = self.held.front() {
            if self.must_wait(command) {
                if command.stops_the_job() {
                    self.life.cancel();
                }
                return;
            }
            let (ctx, command) = self.held.pop_front().expect("a held command");
            self.apply_now(&ctx, command);
        }
    }

    fn apply_now(&mut self, ctx: &egui::Context, command: Command) {
        if command.discards_edits() && self.dirty && self.pending_discard.is_none() {
            self.pending_discard = Some(command);
            return;
        }
        if let Err(e) = self.apply_inner(ctx, command) {
            self.note(format!("{e:#}"));
        }
    }

    fn apply_inner(&mut self, ctx: &egui::Context, command: Command) -> anyhow::Result<()> {
        match command {
            Command::Play => {
                if self.mode == Mode::Life && !self.life.running() {
                    // As in Golly: Undo after a run goes back to where it started.
                    self.remember("run")?;
                }
                self.set_running(true)
            }
            Command::Pause => self.set_running(false),
            Command::TogglePlay => {
                let running = match self.mode {
                    Mode::Life => self.life.running(),
                    Mode::Elementary => self.elementary.as_ref().is_some_and(|(e, _)| e.running),
                };
                // Starting goes through Play, so that Space and the Run button record the run
                // for Undo as Play does.
                let next = if running {
                    Command::Pause
                } else {
                    Command::Play
                };
                return self.apply_inner(ctx, next);
            }
            Command::NextStep(n) if self.mode == Mode::Life => {
                let gens = n.saturating_mul(1 << self.life.step_exponent().min(62));
                return self.apply_inner(ctx, Command::Step(gens.max(n)));
            }
            Command::NextStep(n) => return self.apply_inner(ctx, Command::Step(n)),
            Command::Step(n) => match self.mode {
                Mode::Life => {
                    self.remember("step")?;
                    self.life.step(n)?
                }
                Mode::Elementary => {
                    if let Some((e, _)) = &mut self.elementary {
                        e.running = false;
                        e.rows.step(n)?;
                    }
                }
            },
            Command::GoTo(g) => {
                self.remember("go to")?;
                self.life.go_to(g)?
            }
            Command::Cancel => self.life.cancel(),
            Command::SetSpeed(s) => self.set_pace(s),
            Command::SetStepExponent(k) => self.life.set_step_exponent(k),
            Command::SetGridLines(on) => self.show_grid = on,
            Command::SetAsStart => {
                self.life.set_start();
                self.note_info(format!(
                    "Reset now returns to generation {}",
                    self.life.generation()
                ));
            }
            Command::Faster => {
                let pace = self.current_pace();
                if pace == Pace::Max && self.mode == Mode::Life {
                    // As in Golly: past the fastest pace, + makes each step 2^k generations.
                    self.life
                        .set_step_exponent((self.life.step_exponent() + 1).min(62));
                } else {
                    self.set_pace(pace.faster());
                }
            }
            Command::Slower => {
                if self.life.step_exponent() > 0 && self.mode == Mode::Life {
                    self.life.set_step_exponent(self.life.step_exponent() - 1);
                } else {
                    self.set_pace(self.current_pace().slower());
                }
            }
            Command::Reset => match self.mode {
                Mode::Life => self.life.reset()?,
                Mode::Elementary => {
                    if let Some((e, _)) = &self.elementary {
                        let (rule, start, cap) = (e.rule, e.start.clone(), e.rows.ring().0);
                        self.start_elementary(rule, start, cap)?;
                    }
                }
            },
            Command::SetEngine(name) => {
                let (rule, universe) = (self.life.rule, self.life.universe);
                self.life
                    .rebuild(rule, universe, None, self.life.generation(), &name)?;
            }
            Command::SetPlane(plane) => {
                let universe = if plane {
                    Universe::Plane
                } else {
                    // The size the edit panel shows, as Golly's bounded grid takes the size
                    // typed in.
                    let (w, h) = self.edit_panel.torus_size();
                    Universe::torus(w, h)
                };
                if universe == self.life.universe {
                    return Ok(());
                }
                self.remember("universe change")?;
                self.move_to(universe)?;
                self.changed("a universe change");
                self.autosave.touch();
            }
            Command::SetRule(rule) if rule.is_elementary() => {
                // An elementary rule runs as a space-time diagram: the same start row and
                // depth as the diagram shown, else one live cell on a ring of 512.
                let e = rule.elementary().expect("elementary");
                let (start, capacity) = match &self.elementary {
                    Some((sim, _)) => (sim.start.clone(), sim.rows.ring().0),
                    None => {
                        let width = rule.torus.map_or(512, |(w, _)| w);
                        let mut row = Grid::try_new(width, 1)?;
                        row.set(width / 2, 0, true);
                        (row, 512)
                    }
                };
                self.start_elementary(e, start, capacity)?;
            }
            Command::SetRule(rule) => {
                // A rule with its own torus or tube: the cells move there under the new rule,
                // in one job.
                let own = match (rule.torus, rule.tube) {
                    (Some((w, h)), _) => Some(Universe::torus(w, h)),
                    (None, Some(t)) => Some(Universe::Tube(t)),
                    (None, None) => None,
                };
                let moved = own.filter(|&u| u != self.life.universe);
                let other = rule.without_torus() != self.life.rule || moved.is_some();
                self.remember("rule change")?;
                match moved {
                    Some(universe) => {
                        self.life.move_with_rule(rule.without_torus(), universe)?;
                        self.follow_universe(universe);
                    }
                    None => self.rebuild_rule(rule.without_torus())?,
                }
                if other {
                    self.changed("a rule change");
                    self.autosave.touch();
                }
            }
            Command::Load { pattern, source } => {
                self.remember("open")?;
                self.load(pattern, None, 0, source, false)?
            }
            Command::LoadFile(path) => {
                let mut loaded =
                    crate::session::setup::resolve_pattern(&path.display().to_string())?;
                self.remember("open")?;
                let source = path.display().to_string();
                let warnings = loaded.pattern.warnings.clone();
                let cells = FileCells::of(&mut loaded);
                self.load(loaded.pattern, cells, loaded.generation, source, true)?;
                if !warnings.is_empty() {
                    self.note_info(format!("{}: {}", path.display(), warnings.join("; ")));
                }
            }
            Command::Stamp { pattern, at } => {
                if let Some(rule) = pattern.rule
                    && rule.without_torus() != self.life.rule
                    && !rule.is_elementary()
                {
                    // The paste brings its rule: it lands on the new engine once that has
                    // landed, and what comes after it waits as well.
                    self.remember("paste")?;
                    self.rebuild_rule(rule.without_torus())?;
                    self.paste_remembered = true;
                    self.held
                        .push_front((ctx.clone(), Command::Stamp { pattern, at }));
                    return Ok(());
                }
                if !std::mem::take(&mut self.paste_remembered) {
                    self.remember("paste")?;
                }
                let cells = pattern.cells;
                if let Some((w, h)) = self.life.size()
                    && (cells.width() > w || cells.height() > h)
                {
                    anyhow::bail!(
                        "the pasted pattern is {}x{}, larger than the {w}x{h} torus",
                        cells.width(),
                        cells.height(),
                    );
                }
                let at = (
                    at.0 - cells.width() as i64 / 2,
                    at.1 - cells.height() as i64 / 2,
                );
                self.life.put(cells, at, Put::Or);
                self.life.mark_start();
                self.changed("a paste");
                self.autosave.touch();
            }
            Command::RandomFill {
                density,
                seed,
                region,
            } => {
                self.remember("fill")?;
                match region {
                    Some(r) => {
                        let mut g = Grid::try_new_bitmap(r.width, r.height)?;
                        let universe = self.life.universe;
                        fill_region(&mut g, r, universe, density, seed);
                        self.life.put(g, (r.x, r.y), Put::Replace);
                        self.life.mark_start();
                    }
                    None => {
                        let Some((w, h)) = self.life.size() else {
                            anyhow::bail!(
                                "the unbounded plane has no edges to fill to: select a region and use Fill selection"
                            );
                        };
                        self.life.edit_job("filling the torus", move |e, _| {
                            let mut g = Grid::try_new(w, h)?;
                            g.fill_random(density, seed);
                            e.put(&g, (0, 0), Put::Replace)?;
                            e.set_generation(0);
                            Ok(())
                        })?;
                        self.source = format!("random {density} (seed {seed})");
                    }
                }
                self.changed("a random fill");
                self.autosave.touch();
            }
            Command::Clear => {
                self.life.cancel_and_wait();
                self.remember("clear")?;
                self.life.clear(self.selection)?;
                // Clearing everything leaves nothing to lose.
                if self.selection.is_some() {
                    self.changed("a clear");
                } else {
                    self.unchanged();
                }
            }
            Command::ClearOutside => {
                let Some(keep) = self.selection else {
                    anyhow::bail!("select the cells to keep first (Select tool, or Shift+drag)");
                };
                self.life.cancel_and_wait();
                self.remember("clear outside")?;
                self.life.clear_outside(keep);
                self.changed("a clear outside the selection");
                self.autosave.touch();
            }
            Command::Resize { width, height } => {
                self.remember("resize")?;
                self.move_to(Universe::torus(width, height))?;
                self.changed("a resize");
                self.autosave.touch();
            }
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::DrawAt { cell, begin } => {
                // As in Golly, drawing goes on while a run does: the worker applies the cells
                // between two pieces of work, and the stroke's first cell says whether it
                // draws or erases.
                if self.mode == Mode::Life && self.life.busy().is_none() {
                    if begin && let Some((log, ticket)) = self.stroke.take() {
                        self.life.remember_stroke(log, ticket, self.changes.clone());
                    }
                    let (log, ticket) = self.stroke.get_or_insert_with(Default::default);
                    *ticket = self.life.draw(vec![cell], log);
                }
            }
            Command::EndStroke => {
                if let Some((log, ticket)) = self.stroke.take() {
                    self.life.remember_stroke(log, ticket, self.changes.clone());
                    if !self.life.running() {
                        self.life.mark_start();
                    }
                    self.changed("drawn cells");
                    self.autosave.touch();
                }
            }
            Command::Select(rect) => self.selection = rect,
            Command::OpenDialog => {
                if !self.own_file_dialog {
                    let asked = std::time::Instant::now();
                    let picked = rfd::FileDialog::new()
                        .add_filter("Patterns", &PATTERN_EXTENSIONS)
                        .add_filter("All files", &["*"])
                        .pick_file();
                    match picked {
                        Some(path) => {
                            self.apply(ctx, Command::LoadFile(path));
                            return Ok(());
                        }
                        None if asked.elapsed() >= NO_SYSTEM_DIALOG => return Ok(()),
                        None => self.no_system_dialog(),
                    }
                }
                self.open_own_dialog(super::FileAction::Open);
            }
            Command::SaveDialog(format) => {
                if !self.own_file_dialog {
                    let asked = std::time::Instant::now();
                    let picked = rfd::FileDialog::new()
                        .add_filter(format.extension(), &[format.extension()])
                        .set_file_name(format!("{}.{}", self.save_stem(), format.extension()))
                        .save_file();
                    match picked {
                        Some(path) => {
                            self.apply(ctx, Command::Save { path, format });
                            return Ok(());
                        }
                        None if asked.elapsed() >= NO_SYSTEM_DIALOG => return Ok(()),
                        None => self.no_system_dialog(),
                    }
                }
                self.open_own_dialog(super::FileAction::Save(format));
            }
            Command::Save { path, format } => {
                // The pattern's own name and comments go back into the file.
                let meta = Meta {
                    name: self.info.name.clone(),
                    author: self.info.author.clone(),
                    comments: self.info.comments.clone(),
                };
                self.life.save(path, meta, format)?;
            }
            Command::Paste => {
                let text = arboard::Clipboard::new()
                    .and_then(|mut c| c.get_text())
                    .map_err(|e| anyhow::anyhow!("the clipboard has no text: {e}"))?;
                let p = pattern::parse_bytes(text.as_bytes(), None)
                    .map_err(|e| anyhow::anyhow!("clipboard, {e}"))?;
                self.apply_inner(ctx, Command::BeginPaste(p))?;
            }
            Command::BeginPaste(p) => {
                if self.mode != Mode::Life {
                    anyhow::bail!("paste into the Life view (Mode > Life-like)");
                }
                if let Some((w, h)) = self.life.size()
                    && (p.width() > w || p.height() > h)
                {
                    anyhow::bail!(
                        "the pasted pattern is {}x{}, larger than the {w}x{h} torus",
                        p.width(),
                        p.height(),
                    );
                }
                self.note_info(format!(
                    "pasting {}x{}: click to place it; > and < turn it, X and Y mirror it, Esc drops it",
                    p.width(),
                    p.height()
                ));
                self.paste = Some(super::FloatingPaste {
                    cells: p.cells,
                    rule: p.rule,
                });
            }
            Command::TransformPaste(t) => {
                if let Some(p) = &mut self.paste {
                    p.cells = t.apply(&p.cells);
                }
            }
            Command::PlacePaste { at } => {
                if let Some(p) = self.paste.take() {
                    let mut pattern = Pattern::new(p.cells);
                    pattern.rule = p.rule;
                    self.apply_inner(ctx, Command::Stamp { pattern, at })?;
                }
            }
            Command::CancelPaste => self.paste = None,
            Command::SelectAll => self.after_bounds(AfterBounds::SelectAll),
            Command::SetFollow(on) => {
                self.follow = on;
                self.set_watch();
            }
            Command::SetWatchRepeats(on) => {
                if on && self.life.rule.is_stochastic() {
                    anyhow::bail!(
                        "under a stochastic rule a state that comes back need not repeat: the watch is for deterministic rules"
                    );
                }
                self.watch_repeats = on;
                self.set_watch();
            }
            Command::CopySelection => {
                // The worker reads the cells between two pieces of work; `land_copy` puts
                // them on the clipboard a frame or a piece later.
                let selection = self.selection;
                self.copying = Some(self.life.read(move |e| match selection {
                    Some(r) => e.cells_in(r),
                    None => match e.bounds()?.and_then(|b| b.rect()) {
                        Some(r) => e.cells_in(r),
                        None => Ok(crate::grid::Grid::new(0, 0)),
                    },
                }));
            }
            Command::Analyze { max_gens } => {
                let state = self.life.read(|e| Ok((e.export()?, e.generation())));
                let (rule, universe) = (self.life.rule, self.life.universe);
                let (tx, rx) = std::sync::mpsc::channel();
                let ctx = ctx.clone();
                std::thread::spawn(move || {
                    // This thread, not the window, waits for the piece of work in progress.
                    let (tiles, generation) = match state.wait() {
                        Ok(s) => s,
                        Err(e) => {
                            let _ = tx
                                .send(vec![format!("the analysis could not read the cells: {e}")]);
                            ctx.request_repaint();
                            return;
                        }
                    };
                    let mut q = crate::analysis::Question::of_state(rule, universe, tiles);
                    // The user's own universe: on a small torus what escapes comes back.
                    q.universe = Some(universe);
                    q.max_gens = max_gens;
                    let findings = super::panels::analysis::analyse(&q, generation);
                    let _ = tx.send(findings);
                    ctx.request_repaint();
                });
                self.analysis_panel.start(rx);
            }
            Command::Fit => {
                if self.life.universe.is_unbounded() && self.mode == Mode::Life {
                    self.after_bounds(AfterBounds::Fit);
                } else {
                    self.fit_rect = None;
                    self.active_canvas().fit_pending = true;
                }
            }
            Command::FitPattern => self.after_bounds(AfterBounds::Fit),
            Command::Centre => self.after_bounds(AfterBounds::Centre),
            Command::Zoom(f) => {
                let size = ctx.content_rect().size();
                let centre = (size.x as f64 / 2.0, size.y as f64 / 2.0);
                self.active_canvas().viewport.zoom_step(centre, f > 1.0);
            }
            Command::EnterLife => self.mode = Mode::Life,
            Command::EnterElementary {
                rule,
                start,
                capacity,
            } => self.start_elementary(rule, start, capacity)?,
            Command::ConfirmDiscard => {
                if let Some(c) = self.pending_discard.take() {
                    self.unchanged();
                    self.autosave.clear();
                    if matches!(c, Command::Quit) {
                        self.quit_confirmed = true;
                    }
                    self.apply(ctx, c);
                }
            }
            Command::CancelDiscard => self.pending_discard = None,
            Command::RestoreAutosave => {
                if let Some(saved) = self.restore.take() {
                    let wanted = self.life.wanted.clone();
                    self.life.rebuild(
                        saved.rule,
                        saved.universe,
                        Some(saved.cells.into()),
                        saved.generation,
                        &wanted,
                    )?;
                    self.canvas.viewport.set_universe(saved.universe);
                    self.mode = Mode::Life;
                    self.fit_rect = None;
                    self.canvas.fit_pending = true;
                    self.info = super::PatternInfo {
                        name: saved.name,
                        comments: saved.comments,
                        ..Default::default()
                    };
                    self.source = saved.source;
                    self.life.clear_undo();
                    // Restored work is still unsaved.
                    self.changed("restored work");
                    self.autosave.touch();
                }
            }
            Command::DiscardAutosave => {
                self.restore = None;
                self.autosave.clear();
            }
            Command::Quit => {
                self.quit_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
        Ok(())
    }

    /// The system has no file dialog: lifelab's own is used from now on.
    fn no_system_dialog(&mut self) {
        self.own_file_dialog = true;
        self.note_info(
            "this system has no file dialog (no xdg desktop portal, no zenity): lifelab's own opens instead",
        );
    }

    /// Opens lifelab's own file dialog (egui_file), in the folder of the last file.
    pub(super) fn open_own_dialog(&mut self, action: super::FileAction) {
        let folder = std::path::Path::new(&self.source)
            .parent()
            .filter(|p| p.is_dir())
            .map(std::path::Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let mut dialog = match action {
            super::FileAction::Open => egui_file::FileDialog::open_file().show_files_filter(
                Box::new(|p: &std::path::Path| {
                    p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                        PATTERN_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())
                    })
                }),
            ),
            super::FileAction::Save(format) => egui_file::FileDialog::save_file()
                .default_filename(format!("{}.{}", self.save_stem(), format.extension())),
        }
        .initial_path(folder)
        .title(match action {
            super::FileAction::Open => "Open a pattern",
            super::FileAction::Save(_) => "Save the pattern",
        });
        dialog.open();
        self.file_dialog = Some((dialog, action));
    }

    /// A file name for Save: the pattern's name, else its file's stem.
    fn save_stem(&self) -> String {
        let from_source = std::path::Path::new(&self.source)
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string);
        self.info
            .name
            .clone()
            .or(from_source)
            .unwrap_or_else(|| "pattern".into())
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    }

    /// Tells the worker what to record of each generation: the plot's census while the
    /// Population panel shows, the hash while repeats are watched, the box while following.
    pub(super) fn set_watch(&mut self) {
        let watch = crate::session::worker::Watch {
            populations: self.show_plot,
            repeats: self.watch_repeats && !self.life.rule.is_stochastic(),
            bounds: self.follow,
        };
        self.life.set_watch(watch);
    }

    /// Records the state before a step the user may want to take back (Life mode only: the
    /// space-time diagram has nothing to undo).
    /// Marks the pattern changed since it was opened or saved, by `what` (the discard prompt
    /// names what would be lost).
    fn changed(&mut self, what: &'static str) {
        self.dirty = true;
        // The findings were about the cells, rule and universe before.
        self.analysis_panel.clear();
        if !self.changes.contains(&what) {
            self.changes.push(what);
        }
    }

    /// Nothing is unsaved (a save, a load, a discard).
    pub(super) fn unchanged(&mut self) {
        self.dirty = false;
        self.changes.clear();
    }

    /// The discard prompt's question: what has changed, in the order it first did.
    pub fn discard_question(&self) -> String {
        let what = match self.changes.as_slice() {
            [] => "changes".to_string(),
            [one] => one.to_string(),
            [first @ .., last] => format!("{} and {last}", first.join(", ")),
        };
        format!("Not saved since the pattern was opened or saved: {what}. Discard them?")
    }

    fn remember(&mut self, label: &str) -> anyhow::Result<()> {
        if self.mode == Mode::Life {
            self.life.remember(label, self.changes.clone());
        }
        Ok(())
    }

    fn undo(&mut self) -> anyhow::Result<()> {
        self.back_or_forth(true)
    }

    fn redo(&mut self) -> anyhow::Result<()> {
        self.back_or_forth(false)
    }

    fn back_or_forth(&mut self, back: bool) -> anyhow::Result<()> {
        if self.mode != Mode::Life {
            return Ok(());
        }
        // Done once the piece of work in progress has ended: `land_turned` follows it.
        if back {
            self.life.undo(self.changes.clone());
        } else {
            self.life.redo(self.changes.clone());
        }
        // A stroke, or nothing to take back, is done at once.
        self.land_turned();
        Ok(())
    }

    /// Puts the cells a copy asked for on the clipboard, once the worker has read them.
    pub(super) fn land_copy(&mut self) {
        let Some(got) = self.copying.as_ref().and_then(|r| r.try_take()) else {
            return;
        };
        self.copying = None;
        let copied = got.map_err(anyhow::Error::from).and_then(|cells| {
            let mut p = Pattern::new(cells);
            p.rule = Some(self.life.rule);
            arboard::Clipboard::new()
                .and_then(|mut c| c.set_text(pattern::write(&p, Format::Rle)))
                .map_err(|e| anyhow::anyhow!("could not copy to the clipboard: {e}"))?;
            Ok((p.width(), p.height()))
        });
        match copied {
            Ok((w, h)) => self.note_info(format!("copied {w}x{h} as RLE")),
            Err(e) => self.note(format!("{e:#}")),
        }
    }

    /// Follows the undos and redos the session has done since the last frame.
    pub(super) fn land_turned(&mut self) {
        while let Some(turned) = self.life.take_turned() {
            let back = turned.back;
            let done = match turned.done {
                Ok(done) => done,
                Err(e) => {
                    self.note(format!("{e:#}"));
                    continue;
                }
            };
            let Some(done) = done else {
                self.note_info(if back {
                    "nothing to undo"
                } else {
                    "nothing to redo"
                });
                continue;
            };
            if let Some(universe) = done.universe {
                self.canvas.viewport.set_universe(universe);
                self.selection = None;
                self.fit_rect = None;
                self.canvas.fit_pending = true;
            }
            // Back to what was unsaved in that state: nothing, at the state a file was opened
            // or saved in (as in Golly).
            self.dirty = !done.unsaved.is_empty();
            self.changes = done.unsaved;
            self.analysis_panel.clear();
            self.autosave.touch();
            let verb = if back { "undid" } else { "redid" };
            self.note_info(format!("{verb} {}", done.label));
        }
    }

    fn active_canvas(&mut self) -> &mut super::canvas::Canvas {
        match self.mode {
            Mode::Life => &mut self.canvas,
            Mode::Elementary => &mut self.elementary_canvas,
        }
    }

    fn current_pace(&self) -> Pace {
        match (self.mode, &self.elementary) {
            (Mode::Elementary, Some((e, _))) => e.pace,
            _ => self.life.pace(),
        }
    }

    fn set_pace(&mut self, p: Pace) {
        match (self.mode, &mut self.elementary) {
            (Mode::Elementary, Some((e, _))) => e.pace = p,
            _ => self.life.set_pace(p),
        }
    }

    fn set_running(&mut self, running: bool) {
        match self.mode {
            Mode::Life => {
                if running {
                    self.max_frame_ms = 0.0;
                    self.life.play();
                } else {
                    self.life.pause();
                }
            }
            Mode::Elementary => {
                if let Some((e, _)) = &mut self.elementary {
                    e.running = running;
                }
            }
        }
    }

    /// Asks the worker for the live cells' box; `what` happens when it answers (a frame or
    /// a piece of work later, never waiting meanwhile).
    fn after_bounds(&mut self, what: AfterBounds) {
        let ticket = self.life.request_bounds();
        self.after_bounds = Some((ticket, what));
    }

    /// Does what waited for the live cells' box, once the worker has answered.
    pub(super) fn land_bounds(&mut self) {
        let Some((ticket, what)) = self.after_bounds else {
            return;
        };
        let Some(bounds) = self.life.bounds_for(ticket) else {
            return;
        };
        self.after_bounds = None;
        let rect = bounds.and_then(|b| b.rect());
        match what {
            AfterBounds::Fit => {
                self.fit_rect = rect;
                self.canvas.fit_pending = true;
            }
            AfterBounds::Centre => {
                self.fit_rect = rect;
                self.centre_later = true;
            }
            AfterBounds::SelectAll => self.selection = rect,
        }
    }

    /// Moves the cells to another universe (a resize, the plane and back).
    fn move_to(&mut self, universe: Universe) -> anyhow::Result<()> {
        self.life.move_to(universe)?;
        self.follow_universe(universe);
        Ok(())
    }

    /// The cells as they are, under another rule, on a new engine (in a job).
    fn rebuild_rule(&mut self, rule: crate::rule::Rule) -> anyhow::Result<()> {
        let wanted = self.life.wanted.clone();
        let (universe, generation) = (self.life.universe, self.life.generation());
        self.life
            .rebuild(rule, universe, None, generation, &wanted)?;
        Ok(())
    }

    /// The view of a universe the cells moved to.
    fn follow_universe(&mut self, universe: Universe) {
        self.canvas.viewport.set_universe(universe);
        self.selection = None;
        self.fit_rect = None;
        self.canvas.fit_pending = true;
    }

    fn load(
        &mut self,
        pattern: Pattern,
        loose: Option<FileCells>,
        generation: u64,
        source: String,
        from_file: bool,
    ) -> anyhow::Result<()> {
        let info = super::PatternInfo {
            name: pattern.name.clone(),
            author: pattern.author.clone(),
            comments: pattern.comments.clone(),
            format: std::path::Path::new(&source)
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase()),
        };
        if let Some(rule) = pattern.rule
            && let Some(e) = rule.elementary()
        {
            let width = rule.torus.map_or(512, |(w, _)| w).max(pattern.width());
            let mut start = Grid::try_new(width, 1)?;
            crate::session::setup::place_centred(&mut start, &pattern.cells)?;
            self.start_elementary(e, start, 512)?;
            return Ok(());
        }
        let rule = pattern
            .rule
            .map(Rule::without_torus)
            .unwrap_or(self.life.rule);
        let bounded = pattern.rule.and_then(|r| r.bounded);
        let universe = match (pattern.rule.and_then(|r| r.torus), self.life.universe) {
            (Some((w, h)), _) => Universe::torus(w, h),
            (None, _) if let Some((width, height, edges)) = bounded => Universe::Bounded {
                width,
                height,
                edges,
            },
            (None, _) if let Some(t) = pattern.rule.and_then(|r| r.tube) => Universe::Tube(t),
            // A file without a bounded-grid suffix lives on the unbounded plane, as in Golly
            // and on the command line; a library pattern goes into the universe shown.
            (None, _) if from_file => Universe::Plane,
            (None, Universe::Plane) => Universe::Plane,
            // A tube keeps a pattern that fits round it, a strip one that fits across it.
            (None, Universe::Tube(t))
                if t.sides().0.is_none_or(|w| pattern.width() <= w)
                    && t.sides().1.is_none_or(|h| pattern.height() <= h) =>
            {
                Universe::Tube(t)
            }
            (None, Universe::Tube(_)) => Universe::Plane,
            (
                None,
                Universe::Bounded {
                    width,
                    height,
                    edges,
                },
            ) if pattern.width() <= width && pattern.height() <= height => Universe::Bounded {
                width,
                height,
                edges,
            },
            (None, Universe::Torus { width, height } | Universe::Bounded { width, height, .. }) => {
                if pattern.width() <= width && pattern.height() <= height {
                    Universe::torus(width, height)
                } else {
                    let (w, h) = fitting_size(pattern.width(), pattern.height());
                    Universe::torus(w, h)
                }
            }
        };
        let (cells, fit) = match loose {
            Some(loose) => {
                let cells = crate::session::cells::Cells::of_file(loose, universe)?;
                let fit = cells.bounds().and_then(|b| b.rect());
                (cells, fit)
            }
            None => {
                let at = crate::session::setup::place_pattern(&pattern, universe)?;
                let (w, h) = (pattern.width().max(1), pattern.height().max(1));
                // The tiles carry each cell's state (a Generations pattern's dying cells).
                (
                    pattern.to_tiles(at).into(),
                    Some(CellRect::new(at.0, at.1, w, h)),
                )
            }
        };
        let wanted = self.life.wanted.clone();
        self.life
            .rebuild(rule, universe, Some(cells), generation, &wanted)?;
        self.canvas.viewport.set_universe(universe);
        self.mode = Mode::Life;
        self.fit_rect = fit;
        self.canvas.fit_pending = true;
        self.selection = None;
        self.unchanged();
        self.info = info;
        self.paste = None;
        self.analysis_panel.clear();
        if let (Some((side, result)), Some((w, h))) = (room_needed(&source), universe.size())
            && (w < side || h < side)
        {
            self.offer = Some(super::RoomOffer {
                text: format!(
                    "{source} {result} on the unbounded plane or on a torus of at least {side}x{side}. On this {w}x{h} torus its gliders come back round and hit the debris, so it ends differently."
                ),
                side,
            });
        }
        self.source = source;
        Ok(())
    }

    fn start_elementary(
        &mut self,
        rule: crate::rule::ElementaryRule,
        start: Grid,
        capacity: u32,
    ) -> EngineResult<()> {
        let sim = ElementarySim::new(self.life.gpu_context(), rule, start, capacity)?;
        let target = match (sim.rows.view_source(), &self.pipeline, &self.ctx) {
            (Some(source), Some(p), Some(c)) => ViewTarget::for_source(p, &c.device, &source),
            _ => None,
        };
        let (rows, _) = sim.rows.ring();
        self.elementary_canvas = super::canvas::Canvas::space_time((sim.rows.width(), rows));
        self.elementary = Some((sim, target));
        self.mode = Mode::Elementary;
        Ok(())
    }
}

/// A random fill of `rect`, drawn from the same stream as a whole-torus fill (each cell's
/// number depends on where it is), so that a selection fills as the torus would there.
fn fill_region(g: &mut Grid, rect: CellRect, universe: Universe, density: f64, seed: u64) {
    let fill = crate::hash::Fill::new(seed, density);
    for dy in 0..rect.height {
        for dx in 0..rect.width {
            let (x, y) = universe.wrap(rect.x + dx as i64, rect.y + dy as i64);
            g.set(dx, dy, fill.alive(x as u32, y as u32));
        }
    }
}
