//! The one place commands change the app.

use eframe::egui;

use super::command::Command;
use super::panels::Mode;
use super::sim::{ElementarySim, LifeSim};
use super::view_render::ViewTarget;
use super::{LifelabApp, fitting_size, place};
use crate::engine::EngineResult;
use crate::grid::Grid;
use crate::pattern::{self, Format, Pattern};
use crate::rule::Rule;

impl LifelabApp {
    pub(super) fn apply(&mut self, ctx: &egui::Context, command: Command) {
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
            Command::Play => self.set_running(true),
            Command::Pause => self.set_running(false),
            Command::TogglePlay => {
                let running = match self.mode {
                    Mode::Life => self.life.running,
                    Mode::Elementary => self.elementary.as_ref().is_some_and(|(e, _)| e.running),
                };
                self.set_running(!running);
            }
            Command::Step(n) => match self.mode {
                Mode::Life => {
                    self.life.running = false;
                    self.life.step(n);
                }
                Mode::Elementary => {
                    if let Some((e, _)) = &mut self.elementary {
                        e.running = false;
                        e.rows.step(n)?;
                    }
                }
            },
            Command::SetSpeed(s) => self.set_speed(s),
            Command::Faster => self.set_speed(self.current_speed().faster()),
            Command::Slower => self.set_speed(self.current_speed().slower()),
            Command::Reset => match self.mode {
                Mode::Life => self.life.reset(),
                Mode::Elementary => {
                    if let Some((e, _)) = &self.elementary {
                        let (rule, start, cap) = (e.rule, e.start.clone(), e.rows.ring().0);
                        self.start_elementary(rule, start, cap)?;
                    }
                }
            },
            Command::SetRule(rule) => {
                if let Some((w, h)) = rule.torus
                    && (w, h) != self.life.size()
                {
                    self.resize(w, h)?;
                }
                let next = self
                    .life
                    .with_rule(rule.without_torus(), self.gpu_ctx().as_ref())?;
                self.set_life(next);
            }
            Command::Load { pattern, source } => self.load(pattern, source)?,
            Command::LoadFile(path) => {
                let p = pattern::load_file(&path)?;
                self.load(p, path.display().to_string())?;
            }
            Command::Stamp { pattern, at } => {
                if let Some(rule) = pattern.rule
                    && rule.without_torus() != self.life.rule
                    && !rule.is_elementary()
                {
                    let next = self
                        .life
                        .with_rule(rule.without_torus(), self.gpu_ctx().as_ref())?;
                    self.set_life(next);
                }
                let cells = pattern.cells;
                if cells.width() > self.life.size().0 || cells.height() > self.life.size().1 {
                    anyhow::bail!(
                        "the pasted pattern is {}x{}, larger than the {}x{} torus",
                        cells.width(),
                        cells.height(),
                        self.life.size().0,
                        self.life.size().1
                    );
                }
                let (w, h) = self.life.size();
                let x = (at.0 + w - cells.width() / 2) % w;
                let y = (at.1 + h - cells.height() / 2) % h;
                self.life.edit(|g| {
                    for (cx, cy) in cells.alive_cells() {
                        g.set((x + cx) % w, (y + cy) % h, true);
                    }
                });
                self.dirty = true;
                self.autosave.touch();
            }
            Command::RandomFill {
                density,
                seed,
                region,
            } => {
                match region {
                    Some(r) => self.life.edit(|g| g.fill_random_rect(r, density, seed)),
                    None => {
                        let (w, h) = self.life.size();
                        let mut g = Grid::try_new(w, h)?;
                        g.fill_random(density, seed);
                        self.life.replace(g, 0);
                        self.source = format!("random {density} (seed {seed})");
                    }
                }
                self.dirty = true;
                self.autosave.touch();
            }
            Command::Clear => {
                let (w, h) = self.life.size();
                self.life.replace(Grid::try_new(w, h)?, 0);
                self.dirty = false;
            }
            Command::Resize { width, height } => self.resize(width, height)?,
            Command::DrawAt { cell, begin } => {
                if self.mode == Mode::Life && !self.life.running {
                    if begin || self.stroke_alive.is_none() {
                        self.stroke_alive = Some(!self.life.cell(cell.0, cell.1));
                    }
                    let alive = self.stroke_alive.expect("set");
                    self.life.set_cell(cell.0, cell.1, alive);
                }
            }
            Command::EndStroke => {
                if self.stroke_alive.take().is_some() {
                    self.dirty = true;
                    self.autosave.touch();
                }
            }
            Command::Select(rect) => self.selection = rect,
            Command::OpenDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter("Patterns", &["rle", "cells", "lif", "life"])
                    .add_filter("All files", &["*"])
                    .pick_file();
                if let Some(path) = picked {
                    self.apply(ctx, Command::LoadFile(path));
                }
            }
            Command::SaveDialog(format) => {
                let picked = rfd::FileDialog::new()
                    .add_filter(format.extension(), &[format.extension()])
                    .set_file_name(format!("pattern.{}", format.extension()))
                    .save_file();
                if let Some(path) = picked {
                    self.apply(ctx, Command::Save { path, format });
                }
            }
            Command::Save { path, format } => {
                let p = self.current_pattern()?;
                std::fs::write(&path, pattern::write(&p, format))
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                self.dirty = false;
                self.autosave.clear();
                self.source = path.display().to_string();
            }
            Command::Paste => {
                let text = arboard::Clipboard::new()
                    .and_then(|mut c| c.get_text())
                    .map_err(|e| anyhow::anyhow!("the clipboard has no text: {e}"))?;
                let p = pattern::parse_bytes(text.as_bytes(), None)
                    .map_err(|e| anyhow::anyhow!("clipboard, {e}"))?;
                let at = self.view_centre_cell();
                self.apply_inner(ctx, Command::Stamp { pattern: p, at })?;
            }
            Command::CopySelection => {
                let mut p = match self.selection {
                    Some(r) => Pattern::new(self.life.crop(r)),
                    None => self.current_pattern()?.trimmed(),
                };
                p.rule = Some(self.life.rule);
                arboard::Clipboard::new()
                    .and_then(|mut c| c.set_text(pattern::write(&p, Format::Rle)))
                    .map_err(|e| anyhow::anyhow!("could not copy to the clipboard: {e}"))?;
                self.note(format!("copied {}x{} as RLE", p.width(), p.height()));
            }
            Command::Analyze => {
                let grid = self.life.grid();
                let (rule, generation) = (self.life.rule, self.life.generation());
                let (tx, rx) = std::sync::mpsc::channel();
                let ctx = ctx.clone();
                std::thread::spawn(move || {
                    let findings = super::panels::analysis::analyse(rule, grid, generation, 20_000);
                    let _ = tx.send(findings);
                    ctx.request_repaint();
                });
                self.analysis_panel.start(rx);
            }
            Command::Fit => {
                self.fit_rect = None;
                self.active_canvas().fit_pending = true;
            }
            Command::FitPattern => {
                self.fit_rect = self.life.grid().bounding_box();
                self.canvas.fit_pending = true;
            }
            Command::Centre => {
                self.fit_rect = self.life.grid().bounding_box();
                self.centre_later = true;
            }
            Command::Zoom(f) => {
                let size = ctx.content_rect().size();
                let centre = (size.x as f64 / 2.0, size.y as f64 / 2.0);
                self.active_canvas().viewport.zoom_about(centre, f);
            }
            Command::EnterLife => self.mode = Mode::Life,
            Command::EnterElementary {
                rule,
                start,
                capacity,
            } => self.start_elementary(rule, start, capacity)?,
            Command::ConfirmDiscard => {
                if let Some(c) = self.pending_discard.take() {
                    self.dirty = false;
                    self.autosave.clear();
                    if matches!(c, Command::Quit) {
                        self.quit_confirmed = true;
                    }
                    self.apply(ctx, c);
                }
            }
            Command::CancelDiscard => self.pending_discard = None,
            Command::RestoreAutosave => {
                if let Some(p) = self.restore.take() {
                    self.load(p, "the autosaved work".to_string())?;
                    // Restored work is still unsaved.
                    self.dirty = true;
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

    /// The GPU for new engines: none in CPU mode, nor after the GPU failed.
    fn gpu_ctx(&self) -> Option<crate::gpu::GpuContext> {
        self.ctx.clone().filter(|_| self.life.failure.is_none())
    }

    fn engine_kind(&self) -> crate::engine::EngineKind {
        if self.gpu_ctx().is_some() {
            crate::engine::EngineKind::Gpu
        } else {
            crate::engine::EngineKind::Cpu
        }
    }

    fn active_canvas(&mut self) -> &mut super::canvas::Canvas {
        match self.mode {
            Mode::Life => &mut self.canvas,
            Mode::Elementary => &mut self.elementary_canvas,
        }
    }

    fn current_speed(&self) -> super::sim::Speed {
        match (self.mode, &self.elementary) {
            (Mode::Elementary, Some((e, _))) => e.speed,
            _ => self.life.speed,
        }
    }

    fn set_speed(&mut self, s: super::sim::Speed) {
        match (self.mode, &mut self.elementary) {
            (Mode::Elementary, Some((e, _))) => e.speed = s,
            _ => self.life.speed = s,
        }
    }

    fn set_running(&mut self, running: bool) {
        match self.mode {
            Mode::Life => {
                if running {
                    self.life.play();
                } else {
                    self.life.running = false;
                }
            }
            Mode::Elementary => {
                if let Some((e, _)) = &mut self.elementary {
                    e.running = running;
                }
            }
        }
    }

    fn set_life(&mut self, life: LifeSim) {
        self.life_view = match (&self.pipeline, &self.ctx, life.gpu()) {
            (Some(p), Some(c), Some(engine)) => {
                ViewTarget::for_grid(p, &c.device, engine.gpu_grid())
            }
            _ => None,
        };
        self.canvas.viewport.set_torus(life.size());
        self.life = life;
    }

    /// The cell at the middle of the view, for pastes.
    fn view_centre_cell(&self) -> (u32, u32) {
        let g = self.canvas.geometry;
        let v = &self.canvas.viewport;
        let ppc = g.pixels_per_cell.max(1e-9);
        let centre = (g.rect[2] as f64 / 2.0 / ppc, g.rect[3] as f64 / 2.0 / ppc);
        let (w, h) = self.life.size();
        (
            ((v.origin.0 + centre.0).floor().rem_euclid(w as f64)) as u32 % w,
            ((v.origin.1 + centre.1).floor().rem_euclid(h as f64)) as u32 % h,
        )
    }

    /// The cells as a pattern to save: the bounding box, with the rule and the torus size.
    fn current_pattern(&mut self) -> anyhow::Result<Pattern> {
        let grid = self.life.grid();
        let mut p = Pattern::new(grid).trimmed();
        let mut rule = self.life.rule;
        rule.torus = Some(self.life.size());
        p.rule = Some(rule);
        p.name = Some(self.source.clone());
        Ok(p)
    }

    fn load(&mut self, pattern: Pattern, source: String) -> anyhow::Result<()> {
        if let Some(rule) = pattern.rule
            && let Some(e) = rule.elementary()
        {
            let width = rule.torus.map_or(512, |(w, _)| w).max(pattern.width());
            let mut start = Grid::try_new(width, 1)?;
            place(&mut start, &pattern.cells)?;
            self.start_elementary(e, start, 512)?;
            return Ok(());
        }
        let rule = pattern
            .rule
            .map(Rule::without_torus)
            .unwrap_or(self.life.rule);
        let (cw, ch) = self.life.size();
        let size = pattern.rule.and_then(|r| r.torus).unwrap_or_else(|| {
            if pattern.width() <= cw && pattern.height() <= ch && (cw, ch) != (0, 0) {
                (cw, ch)
            } else {
                fitting_size(pattern.width(), pattern.height())
            }
        });
        crate::engine::check_memory(self.engine_kind(), size.0, size.1)?;
        let mut grid = Grid::try_new(size.0, size.1)?;
        let rect = place(&mut grid, &pattern.cells)?;
        if rule != self.life.rule || size != self.life.size() {
            let mut next = LifeSim::new(self.gpu_ctx().as_ref(), rule, &grid, self.seed)?;
            next.speed = self.life.speed;
            self.set_life(next);
        } else {
            self.life.replace(grid, 0);
        }
        self.mode = Mode::Life;
        self.fit_rect = Some(rect);
        self.canvas.fit_pending = true;
        self.selection = None;
        self.dirty = false;
        self.source = source;
        Ok(())
    }

    fn resize(&mut self, width: u32, height: u32) -> anyhow::Result<()> {
        crate::engine::check_memory(self.engine_kind(), width, height)?;
        let old = self.life.grid();
        let mut grid = Grid::try_new(width, height)?;
        // The old torus, centred; cut down when the new one is smaller.
        let (ow, oh) = (old.width().min(width), old.height().min(height));
        let from = old.centre_offset(ow, oh);
        let piece = old.crop(crate::grid::Rect {
            x: from.0,
            y: from.1,
            width: ow,
            height: oh,
        });
        let (x, y) = grid.centre_offset(ow, oh);
        grid.paste(&piece, x, y);
        let mut next = LifeSim::new(self.gpu_ctx().as_ref(), self.life.rule, &grid, self.seed)?;
        next.speed = self.life.speed;
        self.set_life(next);
        self.selection = None;
        self.fit_rect = None;
        self.canvas.fit_pending = true;
        Ok(())
    }

    fn start_elementary(
        &mut self,
        rule: crate::rule::ElementaryRule,
        start: Grid,
        capacity: u32,
    ) -> EngineResult<()> {
        let sim = ElementarySim::new(self.gpu_ctx().as_ref(), rule, start, capacity)?;
        let target = match (&sim.rows, &self.pipeline, &self.ctx) {
            (super::sim::SpaceTimeRows::Gpu(st), Some(p), Some(c)) => {
                let (buffer, words, rows, _) = st.buffer();
                Some(ViewTarget::for_buffer(p, &c.device, buffer, rows, words))
            }
            _ => None,
        };
        let (rows, _) = sim.rows.ring();
        self.elementary_canvas = super::canvas::Canvas::space_time((sim.rows.width(), rows));
        self.elementary = Some((sim, target));
        self.mode = Mode::Elementary;
        Ok(())
    }
}
