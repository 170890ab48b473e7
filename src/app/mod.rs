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
mod games;
mod menu;
pub mod options;
pub mod panels;
mod screenshot;
pub mod sim;
pub mod view_render;
pub mod viewport;
mod window;

use std::time::Instant;

use eframe::egui;

use crate::engine::{CellRect, Universe};
use crate::gpu::GpuContext;
use crate::grid::Grid;
use crate::pattern::Format;

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
use sim::{ElementarySim, LifeSim};
use view_render::{ViewPipeline, ViewTarget};
pub use window::run;

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
    life: LifeSim,
    /// The GPU engine's buffers bound for the viewer, and the engine they belong to.
    life_view: Option<(ViewTarget, u64)>,
    canvas: Canvas,
    elementary: Option<(ElementarySim, Option<ViewTarget>)>,
    elementary_canvas: Canvas,
    tool: Tool,
    selection: Option<CellRect>,
    /// Edits made since the last load or save.
    dirty: bool,
    stroke_alive: Option<bool>,
    /// A command waiting for "discard unsaved edits?".
    pending_discard: Option<Command>,
    quit_confirmed: bool,
    notice: Option<(String, Instant)>,
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
    /// The UI thread's own time in the last frame (idle time between frames not counted).
    frame_ms: f64,
    /// The longest frame since the run started (screenshots report it).
    max_frame_ms: f64,
    frames: u64,
    screenshot: Option<ScreenshotPlan>,
    autosave: autosave::Autosave,
    /// A previous run's unsaved work, waiting for "restore?".
    restore: Option<crate::pattern::Pattern>,
    /// Whether the state kept after a GPU failure has been autosaved.
    failure_saved: bool,
    /// A methuselah loaded onto a torus too small for its literature result: the offer of one
    /// that fits, or the plane.
    offer: Option<RoomOffer>,
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
    ) -> anyhow::Result<Self> {
        match cc.wgpu_render_state.as_ref() {
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
        }
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
        let mut life = LifeSim::new(
            ctx.clone(),
            initial.rule,
            initial.universe,
            (initial.cells, initial.generation),
            sim::Settings {
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
            stroke_alive: None,
            pending_discard: None,
            quit_confirmed: false,
            notice: None,
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
            app.restore = app.autosave.leftover();
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
        let version = self.life.engine_version;
        if self.life_view.as_ref().is_some_and(|(_, v)| *v == version) {
            return;
        }
        self.life_view = None;
        let (Some(p), Some(c)) = (&self.pipeline, &self.ctx) else {
            return;
        };
        if !self.life.is_gpu() {
            return;
        }
        let target = self.life.with_engine(|e| {
            crate::gpu::life_engine(e)
                .and_then(|g| ViewTarget::for_grid(p, &c.device, g.gpu_grid()))
        });
        self.life_view = target.map(|t| (t, version));
    }
}

impl LifelabApp {
    /// Applies a command as the panels' would be (tests and scripts).
    pub fn command(&mut self, egui_ctx: &egui::Context, command: Command) {
        self.apply(egui_ctx, command);
    }

    /// Waits until the simulation has done what it was asked (tests; the window never waits).
    pub fn settle(&mut self) {
        self.life.settle();
        self.bind_gpu_view();
    }

    /// The current cells of the Life torus, once the work asked for is done.
    pub fn cells(&mut self) -> anyhow::Result<Grid> {
        self.settle();
        Ok(self.life.grid()?)
    }

    /// One frame's simulation work, as the window would run it.
    pub fn tick(&mut self) -> anyhow::Result<()> {
        self.life.poll();
        self.bind_gpu_view();
        if let Some((e, _)) = &mut self.elementary {
            e.tick()?;
        }
        Ok(())
    }

    /// The engines the Engine menu offers: auto and every engine of the registry.
    pub fn engine_names(&self) -> Vec<&'static str> {
        let mut v = vec!["auto"];
        v.extend(crate::registry::names());
        v
    }

    /// The space-time rows of elementary mode, oldest first as drawn.
    pub fn elementary_rows(&self) -> Option<anyhow::Result<Grid>> {
        self.elementary.as_ref().map(|(e, _)| Ok(e.rows.read()?))
    }

    /// Why the GPU engine stopped, when it has (the simulation went on on the CPU).
    pub fn gpu_failure(&self) -> Option<&str> {
        self.life.failure.as_deref()
    }

    /// Simulates losing the GPU device under the running simulation (tests).
    pub fn destroy_device_for_test(&self) {
        self.life.destroy_device_for_test();
    }

    /// The analysis findings, once the background job has answered (tests).
    pub fn analysis_findings(&mut self) -> Option<Vec<String>> {
        self.analysis_panel.poll()
    }

    /// A previous run's autosaved work, offered back at the start.
    pub fn pending_restore(&self) -> Option<&crate::pattern::Pattern> {
        self.restore.as_ref()
    }

    /// Autosaves now if the work changed (the window does this after a short delay).
    pub fn autosave_now(&mut self) {
        self.autosave.touch();
        self.write_autosave();
    }

    fn write_autosave(&mut self) {
        if self.screenshot.is_some() {
            return;
        }
        let state = if self.life.running() {
            Ok(self.life.start_state().clone())
        } else {
            self.life.export_now()
        };
        let (tiles, generation) = match state {
            Ok(s) => s,
            Err(e) => {
                self.note(format!("autosave failed: {e}"));
                return;
            }
        };
        let mut p = match tiles.bounds().and_then(|b| b.rect()) {
            Some(r) => {
                let cells = tiles.crop(r);
                let mut p = crate::pattern::Pattern::new(match self.life.universe {
                    // A torus is saved whole, so that it comes back where it was.
                    Universe::Torus { width, height } => {
                        let mut g = match Grid::try_new(width, height) {
                            Ok(g) => g,
                            Err(e) => {
                                self.note(format!("autosave failed: {e}"));
                                return;
                            }
                        };
                        crate::cpu::dense::import(&mut g, &tiles);
                        g
                    }
                    Universe::Plane => cells,
                });
                p.comments = vec![];
                p
            }
            None => crate::pattern::Pattern::new(Grid::new(0, 0)),
        };
        let mut rule = self.life.rule;
        rule.torus = self.life.universe.size();
        p.rule = Some(rule);
        p.name = Some(format!("lifelab autosave of {}", self.source));
        p.comments = vec![format!("generation {generation}")];
        if let Err(e) = self.autosave.write(&p) {
            self.note(format!("autosave failed: {e}"));
        }
    }

    /// The offer of a bigger torus or the plane, after loading a methuselah onto a small one.
    pub fn room_offer(&self) -> Option<&str> {
        self.offer.as_ref().map(|o| o.text.as_str())
    }

    /// Whether a command waits for "discard unsaved edits?".
    pub fn is_asking_to_discard(&self) -> bool {
        self.pending_discard.is_some()
    }

    /// The last message shown to the user (errors of commands).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|(m, _)| m.as_str())
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
            rule: self.life.rule,
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
        }
    }

    fn note(&mut self, message: impl Into<String>) {
        self.notice = Some((message.into(), Instant::now()));
    }

    /// Keys that act on the simulation, when no text field has the keyboard.
    fn shortcuts(&self, ctx: &egui::Context, out: &mut Vec<Command>) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        ctx.input(|i| {
            let cmd = i.modifiers.command;
            for (key, command) in [
                (egui::Key::Space, Command::TogglePlay),
                (egui::Key::N, Command::Step(1)),
                (egui::Key::Tab, Command::Step(1)),
                (egui::Key::F, Command::Fit),
                (egui::Key::C, Command::Centre),
                (egui::Key::R, Command::Reset),
                (egui::Key::Plus, Command::Faster),
                (egui::Key::Equals, Command::Faster),
                (egui::Key::Minus, Command::Slower),
            ] {
                if !cmd && i.key_pressed(key) {
                    out.push(command);
                }
            }
            if !cmd && i.key_pressed(egui::Key::Escape) {
                // Esc stops a job in progress; otherwise it drops the selection.
                if self.life.busy().is_some() {
                    out.push(Command::Cancel);
                } else {
                    out.push(Command::Select(None));
                }
            }
            if cmd && i.key_pressed(egui::Key::O) {
                out.push(Command::OpenDialog);
            }
            if cmd && i.key_pressed(egui::Key::S) {
                out.push(Command::SaveDialog(Format::Rle));
            }
            for e in &i.events {
                match e {
                    egui::Event::Paste(_) => out.push(Command::Paste),
                    egui::Event::Copy => out.push(Command::CopySelection),
                    _ => {}
                }
            }
            for f in &i.raw.dropped_files {
                out.push(Command::LoadFile(f.path().to_path_buf()));
            }
        });
    }

    fn canvas_geometry(&self) -> canvas::ViewGeometry {
        match self.mode {
            Mode::Life => self.canvas.geometry,
            Mode::Elementary => self.elementary_canvas.geometry,
        }
    }
}
