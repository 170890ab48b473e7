//! The desktop app: eframe on its wgpu backend (OpenGL through glow in CPU mode, when there is
//! no wgpu adapter). The simulation runs on a worker thread behind the engine seam; the UI
//! thread only draws and turns input into commands.
//!
//! Each frame: the simulation's published figures are read; the panels and the canvas draw
//! from a [`Status`] snapshot and return [`Command`]s; the commands are applied in one place,
//! [`LifelabApp::apply`] (`apply.rs`). The window and its layout are in `window.rs`, the menu
//! in `menu.rs`, screenshots in `screenshot.rs`, the options in `options.rs`.

mod apply;
pub mod autosave;
pub mod canvas;
pub mod command;
mod cpu_view;
mod fonts;
mod games;
pub mod help;
mod keys;
mod menu;
pub mod options;
pub mod panels;
mod probe;
mod screenshot;
pub mod view_render;
pub mod viewport;
mod window;

use std::time::Instant;

use eframe::egui;

use crate::engine::CellRect;
use crate::gpu::GpuContext;
use crate::grid::Grid;
use crate::pattern::Format;

use crate::session::Session;
use crate::session::elementary::ElementarySim;
use crate::session::job::Reading;
use canvas::Canvas;
use command::Command;
pub use options::AppOptions;
use options::Initial;
use panels::analysis::AnalysisPanel;
use panels::controls::ControlsPanel;
use panels::edit::EditPanel;
use panels::elementary::ElementaryPanel;
use panels::games::{GameTab, GamesPanel};
use panels::rule::RulePanel;
use panels::{Mode, Status, Tool};
use screenshot::ScreenshotPlan;
use view_render::{ViewPipeline, ViewTarget};
pub use window::run;

/// What waits for the live cells' box, which the worker reads between two pieces of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterBounds {
    /// Fit the view to it (`F`, or Fit pattern).
    Fit,
    /// Centre the view on it, keeping the zoom.
    Centre,
    /// Select it.
    SelectAll,
}

/// The tabs of the games panel, one per game solver.
pub fn game_tabs() -> Vec<Box<dyn GameTab>> {
    games::tabs()
}

pub struct LifelabApp {
    /// The GPU, unless the app runs in CPU mode.
    ctx: Option<GpuContext>,
    pipeline: Option<ViewPipeline>,
    /// Why the app runs on the CPU from the start (no GPU adapter).
    cpu_mode: Option<String>,
    mode: Mode,
    life: Session,
    /// The GPU engine's buffers bound for the viewer, and the engine they belong to.
    life_view: Option<(ViewTarget, u64)>,
    canvas: Canvas,
    elementary: Option<(ElementarySim, Option<ViewTarget>)>,
    elementary_canvas: Canvas,
    tool: Tool,
    selection: Option<CellRect>,
    /// Edits made since the last load or save.
    dirty: bool,
    /// What changed since the pattern was opened or saved, for the discard prompt.
    changes: Vec<&'static str>,
    /// A command waiting for "discard unsaved edits?".
    pending_discard: Option<Command>,
    /// Commands that wait for an undo or a reset still on its way (see `apply`).
    held: std::collections::VecDeque<(egui::Context, Command)>,
    /// A paste that brought its rule was recorded for Undo before the new engine; its cells
    /// follow once that has landed.
    paste_remembered: bool,
    /// A copy's cells on their way from the worker.
    copying: Option<Reading<crate::grid::Grid>>,
    /// The paused cells an autosave waits for, from the worker.
    autosaving: Option<Reading<(crate::tiles::TileMap, u64)>>,
    quit_confirmed: bool,
    /// The last message: its text, when it came, and whether it reports an error.
    notice: Option<(String, Instant, bool)>,
    /// The cells the stroke in progress changed, as the worker applies it, and the ticket of
    /// its latest edit.
    stroke: Option<(crate::session::edit::StrokeLog, u64)>,
    /// Commands that wait for the live cells' box (Fit, Centre, Select all), with the ticket
    /// of the request the worker answers.
    after_bounds: Option<(u64, AfterBounds)>,
    /// A paste floating under the mouse until a click places it.
    paste: Option<FloatingPaste>,
    /// Keep the live cells in view while running.
    follow: bool,
    /// Watch for the whole universe repeating.
    watch_repeats: bool,
    /// The Population panel is open: the worker records every generation's population.
    show_plot: bool,
    plot: panels::plot::PlotPanel,
    help: help::Help,
    show_info: bool,
    /// The request for the live cells' box that Pattern info shows, and the state (generation,
    /// edits applied) it was made at.
    info_bounds: Option<(u64, (u64, u64))>,
    /// Tab presses taken from egui (which would move the focus) to step with.
    tab_steps: u32,
    /// The loaded pattern's own facts, shown by Pattern info and written back by Save.
    info: PatternInfo,
    /// Open and Save use lifelab's own dialog (chosen, or because the system has none).
    own_file_dialog: bool,
    /// lifelab's own file dialog while it is open, and what it is for.
    file_dialog: Option<(egui_file::FileDialog, FileAction)>,
    /// The window title last set.
    title: String,
    fit_rect: Option<CellRect>,
    /// Centre the view on `fit_rect` at the next frame, keeping the zoom.
    centre_later: bool,
    source: String,
    controls: ControlsPanel,
    rule_panel: RulePanel,
    edit_panel: EditPanel,
    analysis_panel: AnalysisPanel,
    elementary_panel: ElementaryPanel,
    games: GamesPanel,
    show_games: bool,
    /// The soup census, beside the simulation (View → Census panel).
    pub census: panels::census::CensusPanel,
    pub show_census: bool,
    /// The side panel of rule, library, edit, plot and analysis (View menu; hidden, the view
    /// takes the window).
    pub show_tools: bool,
    /// Grid lines zoomed in (View > Grid lines, L).
    pub show_grid: bool,
    /// The UI thread's own time in the last frame (idle time between frames not counted).
    frame_ms: f64,
    /// The longest frame since the run started (screenshots report it).
    max_frame_ms: f64,
    frames: u64,
    screenshot: Option<ScreenshotPlan>,
    autosave: autosave::Autosave,
    /// A previous run's unsaved work, waiting for "restore?".
    restore: Option<autosave::Saved>,
    /// Whether the state kept after a GPU failure has been autosaved.
    failure_saved: bool,
    /// A methuselah loaded onto a torus too small for its literature result: the offer of one
    /// that fits, or the plane.
    offer: Option<RoomOffer>,
}

/// A paste that follows the mouse: its cells as turned and mirrored so far.
#[derive(Clone, Debug)]
pub struct FloatingPaste {
    pub cells: Grid,
    pub rule: Option<crate::rule::Rule>,
}

/// What lifelab's own file dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    Open,
    Save(Format),
}

/// What a pattern file said about itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatternInfo {
    pub name: Option<String>,
    pub author: Option<String>,
    pub comments: Vec<String>,
    /// The file's format, when it came from a file.
    pub format: Option<String>,
}

/// "This torus is too small for the pattern's known result": what to say, and the side that fits.
pub(crate) struct RoomOffer {
    pub text: String,
    pub side: u32,
}

impl LifelabApp {
    fn new(
        cc: &eframe::CreationContext<'_>,
        initial: Initial,
        options: AppOptions,
        tabs: Vec<Box<dyn GameTab>>,
        cpu_reason: Option<String>,
    ) -> anyhow::Result<Self> {
        let mut app = match cc.wgpu_render_state.as_ref() {
            Some(rs) => {
                let ctx =
                    GpuContext::from_parts(rs.adapter.clone(), rs.device.clone(), rs.queue.clone());
                Self::build(
                    Some((ctx, rs.target_format)),
                    &cc.egui_ctx,
                    initial,
                    options,
                    tabs,
                )
            }
            // OpenGL through glow: there was no wgpu adapter.
            None => Self::build(None, &cc.egui_ctx, initial, options, tabs),
        }?;
        if let (Some(why), Some(_)) = (cpu_reason, &app.cpu_mode) {
            app.cpu_mode = Some(format!(
                "CPU mode: {why}. lifelab runs on the CPU engines and draws on the CPU."
            ));
        }
        Ok(app)
    }

    /// The app without a window: what the tests drive with commands. `ctx` None is CPU mode;
    /// `options` are the same as on the command line.
    pub fn headless(
        ctx: Option<GpuContext>,
        egui_ctx: &egui::Context,
        options: AppOptions,
    ) -> anyhow::Result<Self> {
        let initial = options::initial_state(&options)?;
        let gpu = ctx.map(|c| (c, wgpu::TextureFormat::Bgra8Unorm));
        Self::build(gpu, egui_ctx, initial, options, game_tabs())
    }

    fn build(
        gpu: Option<(GpuContext, wgpu::TextureFormat)>,
        egui_ctx: &egui::Context,
        initial: Initial,
        options: AppOptions,
        tabs: Vec<Box<dyn GameTab>>,
    ) -> anyhow::Result<Self> {
        fonts::install(egui_ctx);
        let pipeline = gpu
            .as_ref()
            .map(|(ctx, format)| ViewPipeline::new(&ctx.device, *format));
        let ctx = gpu.map(|(ctx, _)| ctx);
        let cpu_mode = ctx.is_none().then(|| {
            "No GPU adapter: lifelab runs on the CPU engines and draws on the CPU.".to_string()
        });
        let wanted = if options.engine.is_empty() {
            "auto"
        } else {
            options.engine.as_str()
        };
        let mut life = Session::new(
            ctx.clone(),
            initial.rule,
            initial.universe,
            (initial.cells, initial.generation),
            crate::session::life::Settings {
                seed: options.seed,
                wanted: wanted.to_string(),
                memory: options.memory.map(|m| m << 20),
            },
        )?;
        if let Some(s) = options.speed {
            life.set_pace(s);
        }
        let mut canvas = Canvas::new(initial.universe);
        if let Some(z) = options.zoom {
            canvas.viewport.zoom =
                z.clamp(viewport::Viewport::MIN_ZOOM, viewport::Viewport::MAX_ZOOM);
        }
        let mut games = GamesPanel::new(tabs);
        if let Some(tab) = &options.games_tab {
            if !games.select(tab) {
                anyhow::bail!(
                    "--games-tab {tab}: no such tab (nim, grundy, octal, wythoff, hackenbush, sums, tree, tictactoe, kqk)"
                );
            }
            // A refused move is part of what the tab then shows; an action the tab does not
            // know is a mistake on the command line.
            if let Some(script) = &options.games_do
                && let Err(e) = games.act(script)
                && GamesPanel::is_unknown(&e)
            {
                anyhow::bail!("--games-do: {e}");
            }
        }
        life.poll();
        let mut app = Self {
            ctx,
            pipeline,
            cpu_mode,
            mode: Mode::Life,
            life,
            life_view: None,
            canvas,
            elementary: None,
            elementary_canvas: Canvas::space_time((1, 1)),
            tool: Tool::Draw,
            selection: None,
            dirty: false,
            changes: Vec::new(),
            pending_discard: None,
            held: Default::default(),
            paste_remembered: false,
            copying: None,
            autosaving: None,
            quit_confirmed: false,
            notice: None,
            stroke: None,
            after_bounds: None,
            paste: None,
            follow: false,
            watch_repeats: false,
            show_plot: true,
            plot: Default::default(),
            help: help::Help::Closed,
            show_info: false,
            info_bounds: None,
            tab_steps: 0,
            info: initial.info.clone(),
            own_file_dialog: false,
            file_dialog: None,
            title: String::new(),
            fit_rect: initial.fit,
            centre_later: false,
            source: initial.source,
            controls: ControlsPanel::default(),
            rule_panel: RulePanel::default(),
            edit_panel: EditPanel::default(),
            analysis_panel: AnalysisPanel::default(),
            elementary_panel: ElementaryPanel::default(),
            games,
            show_games: options.games_tab.is_some(),
            census: Default::default(),
            show_census: false,
            show_tools: true,
            show_grid: !options.no_grid,
            frame_ms: 0.0,
            max_frame_ms: 0.0,
            frames: 0,
            screenshot: None,
            autosave: match &options.data_dir {
                Some(dir) => autosave::Autosave::at(dir),
                None => autosave::Autosave::new(),
            },
            restore: None,
            failure_saved: false,
            offer: None,
        };
        app.bind_gpu_view();
        if options.screenshot.is_none() {
            match app.autosave.leftover() {
                Some(Ok(saved)) => app.restore = Some(saved),
                Some(Err(e)) => app.note(format!(
                    "the work autosaved last time could not be read back: {e:#}"
                )),
                None => {}
            }
        }
        if let Some((rule, start)) = initial.elementary {
            app.apply(
                egui_ctx,
                Command::EnterElementary {
                    rule,
                    start,
                    capacity: 512,
                },
            );
        }
        if options.zoom.is_some() {
            // Keep the given zoom; centre the pattern.
            app.canvas.fit_pending = false;
            app.centre_later = true;
        }
        if let Some(path) = options.screenshot {
            app.screenshot = Some(ScreenshotPlan::new(
                path,
                options.after_gens,
                options.zoom.is_none(),
            ));
            if app.mode == Mode::Life {
                app.life.set_stop_at(Some(options.after_gens));
                if options.speed.is_none() {
                    app.life
                        .set_pace(crate::session::worker::Pace::PerSecond(1024.0));
                }
                if options.after_gens > 0 {
                    app.apply(egui_ctx, Command::Play);
                }
            } else if let Some((e, _)) = &mut app.elementary {
                e.running = options.after_gens > 0;
                e.stop_at = Some(options.after_gens);
                if let Some(s) = options.speed {
                    e.pace = s;
                }
            }
        } else if options.run {
            app.apply(egui_ctx, Command::Play);
        }
        Ok(app)
    }

    /// Binds the GPU engine's buffers for the viewer when the engine changed (and is one).
    fn bind_gpu_view(&mut self) {
        let version = self.life.engine_version();
        if self.life_view.as_ref().is_some_and(|(_, v)| *v == version) {
            return;
        }
        self.life_view = None;
        let (Some(p), Some(c)) = (&self.pipeline, &self.ctx) else {
            return;
        };
        let target = self
            .life
            .view_source()
            .and_then(|source| ViewTarget::for_source(p, &c.device, &source));
        self.life_view = target.map(|t| (t, version));
    }
}

impl LifelabApp {
    /// What finished jobs mean for the app: a save that landed clears the unsaved mark.
    fn land(&mut self) {
        self.land_bounds();
        self.land_turned();
        self.land_copy();
        self.land_autosave();
        self.apply_held();
        match self.life.saved.take() {
            Some(Ok((path, warnings))) => {
                self.unchanged();
                // What was saved is the pattern now: Reset returns to it.
                if !self.life.running() {
                    self.life.set_start();
                }
                self.autosave.clear();
                self.source = path.display().to_string();
                if warnings.is_empty() {
                    self.note_info(format!("saved {}", path.display()));
                } else {
                    self.note_info(warnings.join("; "));
                }
            }
            Some(Err(e)) => self.note(format!("{e:#}")),
            None => {}
        }
    }

    /// The work as the autosave keeps it: the current state, or the last whole state of the
    /// run in progress (the edits are what must not be lost). Waits for the worker (tests).
    fn autosave_state(&mut self) -> anyhow::Result<autosave::Saved> {
        let (cells, generation) = if self.life.running() {
            let (cells, generation) = self.life.checkpoint_state().clone();
            (cells.into_tiles()?, generation)
        } else {
            self.life.export_now()?
        };
        Ok(self.autosaved(cells, generation))
    }

    fn autosaved(&self, cells: crate::tiles::TileMap, generation: u64) -> autosave::Saved {
        autosave::Saved {
            rule: self.life.rule,
            universe: self.life.universe,
            generation,
            cells,
            source: self.source.clone(),
            name: self.info.name.clone(),
            comments: self.info.comments.clone(),
        }
    }

    /// Writes the paused cells an autosave asked the worker for, once they have come.
    fn land_autosave(&mut self) {
        let Some(got) = self.autosaving.as_ref().and_then(|r| r.try_take()) else {
            return;
        };
        self.autosaving = None;
        match got {
            Ok((cells, generation)) => {
                let s = self.autosaved(cells, generation);
                self.autosave.write_in_background(s);
            }
            Err(e) => self.note(format!("autosave failed: {e:#}")),
        }
    }

    /// Autosaves in the background (the window's timer).
    fn write_autosave(&mut self) {
        if self.screenshot.is_some() {
            return;
        }
        if self.autosaving.is_some() {
            return;
        }
        if self.life.running() {
            // The last whole state of the run, which the session already holds.
            let Some((cells, generation)) = self.life.known_checkpoint() else {
                // Its start is still on its way from the worker: the next frame writes.
                return;
            };
            match cells.into_tiles() {
                Ok(cells) => {
                    let s = self.autosaved(cells, generation);
                    self.autosave.write_in_background(s);
                }
                Err(e) => self.note(format!("autosave failed: {e:#}")),
            }
        } else {
            // Paused, the cells are read between two pieces of a job, if one runs.
            self.autosaving = Some(self.life.read(|e| Ok((e.export()?, e.generation()))));
        }
    }

    pub fn status(&self) -> Status {
        let f = self.life.figures();
        Status {
            mode: self.mode,
            generation: self.life.generation(),
            population: self.life.population(),
            running: match self.mode {
                Mode::Life => self.life.running(),
                Mode::Elementary => self.elementary.as_ref().is_some_and(|(e, _)| e.running),
            },
            pace: match (self.mode, &self.elementary) {
                (Mode::Elementary, Some((e, _))) => e.pace,
                _ => self.life.pace(),
            },
            step_exponent: self.life.step_exponent(),
            rule: match (&self.elementary, self.mode) {
                (Some((e, _)), Mode::Elementary) => e.rule.into(),
                _ => self.life.rule,
            },
            universe: self.life.universe,
            size: self.life.size().unwrap_or((0, 0)),
            generations_per_second: match (self.mode, &self.elementary) {
                (Mode::Elementary, Some((e, _))) => e.rate,
                _ => self.life.rate(),
            },
            engine: f.engine,
            engine_reason: self.life.choice.reason.clone(),
            wanted_engine: self.life.wanted.clone(),
            adapter: match &self.ctx {
                Some(ctx) if self.life.failure.is_none() => {
                    format!("{} ({})", ctx.name(), ctx.summary.backend)
                }
                Some(_) => "CPU engine (the GPU failed)".to_string(),
                None => "CPU mode: no GPU adapter".to_string(),
            },
            frame_ms: self.frame_ms,
            dirty: self.dirty,
            selection: self.selection,
            tool: self.tool,
            elementary: self
                .elementary
                .as_ref()
                .filter(|_| self.mode == Mode::Elementary)
                .map(|(e, _)| (e.rule, e.rows.width(), e.rows.generation())),
            zoom: self.canvas.viewport.zoom,
            busy: f.busy.clone(),
            repeat: f.repeat.filter(|_| self.watch_repeats),
            bounds: f.bounds,
            follow: self.follow,
            watch_repeats: self.watch_repeats,
            undo: self.life.undo_labels().0.map(str::to_string),
            redo: self.life.undo_labels().1.map(str::to_string),
            pasting: self.paste.is_some(),
        }
    }

    /// Shows an error.
    fn note(&mut self, message: impl Into<String>) {
        self.notice = Some((message.into(), Instant::now(), true));
    }

    /// Shows a message that is not an error ("copied 19x14 as RLE").
    fn note_info(&mut self, message: impl Into<String>) {
        self.notice = Some((message.into(), Instant::now(), false));
    }
}
