//! The desktop app: eframe on its wgpu backend, sharing one device with the GPU engine. The
//! viewport draws the engine's own buffers; nothing is read back per frame.
//!
//! Each frame: the simulation records its next generations; the panels and the canvas draw
//! from a [`Status`] snapshot and return [`Command`]s; the commands are applied in one place,
//! [`LifelabApp::apply`].

mod apply;
pub mod autosave;
pub mod canvas;
pub mod command;
mod cpu_view;
mod games;
pub mod panels;
pub mod sim;
pub mod view_render;
pub mod viewport;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use anyhow::{Context, anyhow};
use eframe::{egui, egui_wgpu};

use crate::cli::setup::{parse_size, resolve_pattern};
use crate::gpu::GpuContext;
use crate::grid::{Grid, Rect};
use crate::pattern::{self, Format};
use crate::rule::Rule;

use canvas::Canvas;
use command::Command;
use panels::analysis::AnalysisPanel;
use panels::controls::ControlsPanel;
use panels::edit::EditPanel;
use panels::elementary::ElementaryPanel;
use panels::games::{GameTab, GamesPanel};
use panels::rule::RulePanel;
use panels::{Mode, Status, Tool};
use sim::{ElementarySim, LifeSim, Speed};
use view_render::{ViewPipeline, ViewTarget};

/// The app's command-line options (`lifelab` with no subcommand).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AppOptions {
    /// Open with this library pattern or pattern file.
    #[arg(long, value_name = "NAME|FILE")]
    pub pattern: Option<String>,

    /// Open with a random soup of this density (0 to 1) instead of a pattern.
    #[arg(long, value_name = "DENSITY", conflicts_with = "pattern")]
    pub random: Option<f64>,

    /// Open with this rule (a Wolfram rule opens elementary mode).
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,

    /// Open with a torus of this size (WxH, or N for NxN).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,

    /// Start running at once.
    #[arg(long)]
    pub run: bool,

    /// Generations per frame when running (negative: one generation every -N frames).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub speed: Option<i32>,

    /// Zoom, in screen points per cell (below 1: 1/zoom cells per point). Default: fit.
    #[arg(long)]
    pub zoom: Option<f64>,

    /// Save a PNG of the window after --after-gens generations, then exit. A JSON file next
    /// to it (FILE.png.json) says where the view was.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,

    /// With --screenshot: the generation to take it at.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub after_gens: u64,

    /// The window's size in points.
    #[arg(long, value_name = "WxH", default_value = "1280x800")]
    pub window: String,

    /// Open the games panel on this tab (nim, grundy, tree, tictactoe).
    #[arg(long, value_name = "TAB")]
    pub games_tab: Option<String>,

    /// Seed of random fills and stochastic rules.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Where the autosave lives (default: the user's data directory).
    #[arg(long, value_name = "DIR", hide = true)]
    pub data_dir: Option<PathBuf>,
}

/// The tabs of the games panel, one per game solver.
pub fn game_tabs() -> Vec<Box<dyn GameTab>> {
    games::tabs()
}

/// What the app opens with, resolved before the window exists so that bad options fail on
/// the command line.
struct Initial {
    rule: Rule,
    grid: Grid,
    source: String,
    fit: Option<Rect>,
    elementary: Option<(crate::rule::ElementaryRule, Grid)>,
}

fn initial_state(o: &AppOptions) -> anyhow::Result<Initial> {
    let flag_rule = o
        .rule
        .as_deref()
        .map(str::parse::<Rule>)
        .transpose()
        .context("--rule")?;
    let loaded = o.pattern.as_deref().map(resolve_pattern).transpose()?;
    let rule = flag_rule
        .or_else(|| loaded.as_ref().and_then(|(p, _)| p.rule))
        .unwrap_or_else(Rule::life);
    if let Some(e) = rule.elementary() {
        let width = match &o.size {
            Some(s) => parse_size(s, true)?.0,
            None => 512,
        };
        let start =
            pattern::elementary::start_row(width, "center", o.seed).map_err(|e| anyhow!(e))?;
        return Ok(Initial {
            rule: Rule::life(),
            grid: Grid::new(256, 256),
            source: format!("{rule}"),
            fit: None,
            elementary: Some((e, start)),
        });
    }
    let size = match &o.size {
        Some(s) => Some(parse_size(s, false)?),
        None => rule.torus.or_else(|| {
            loaded
                .as_ref()
                .and_then(|(p, _)| p.rule.and_then(|r| r.torus))
        }),
    };
    let (width, height) = size.unwrap_or_else(|| match &loaded {
        Some((p, _)) => fitting_size(p.width(), p.height()),
        None => (256, 256),
    });
    let kind = if crate::gpu::shared_context().is_ok() {
        crate::engine::EngineKind::Gpu
    } else {
        crate::engine::EngineKind::Cpu
    };
    crate::engine::check_memory(kind, width, height)?;
    let mut grid = Grid::try_new(width, height)?;
    let (source, fit) = match (&loaded, o.random) {
        (Some((p, label)), _) => (label.clone(), Some(place(&mut grid, &p.cells)?)),
        (None, Some(d)) if (0.0..=1.0).contains(&d) => {
            grid.fill_random(d, o.seed);
            (format!("random {d} (seed {})", o.seed), None)
        }
        (None, Some(d)) => anyhow::bail!("--random {d}: the density must be between 0 and 1"),
        (None, None) => ("empty torus".to_string(), None),
    };
    Ok(Initial {
        rule: rule.without_torus(),
        grid,
        source,
        fit,
        elementary: None,
    })
}

/// A torus for a pattern with no size of its own: twice its size, at least 256, a multiple of
/// 64.
fn fitting_size(w: u32, h: u32) -> (u32, u32) {
    let side = |n: u32| n.saturating_mul(2).next_multiple_of(64).max(256);
    (side(w), side(h))
}

/// Centres `cells` on `grid` and returns where they went.
fn place(grid: &mut Grid, cells: &Grid) -> anyhow::Result<Rect> {
    crate::cli::setup::place_centred(grid, cells)?;
    let (x, y) = grid.centre_offset(cells.width(), cells.height());
    Ok(Rect {
        x,
        y,
        width: cells.width().max(1),
        height: cells.height().max(1),
    })
}

/// Opens the window and runs until it closes.
pub fn run(options: AppOptions, tabs: Vec<Box<dyn GameTab>>) -> anyhow::Result<()> {
    let initial = initial_state(&options)?;
    let (w, h) = options
        .window
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<f32>().ok()?, h.trim().parse::<f32>().ok()?)))
        .ok_or_else(|| anyhow!("--window {}: expected WxH, like 1280x800", options.window))?;
    let wanted = crate::gpu::wanted_adapter()
        .or_else(|| std::env::var(crate::gpu::context::ADAPTER_ENV).ok())
        .filter(|s| !s.is_empty());
    let setup = egui_wgpu::WgpuSetupCreateNew {
        instance_descriptor: {
            let mut d = wgpu::InstanceDescriptor::new_without_display_handle();
            d.backends =
                wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL);
            d
        },
        native_adapter_selector: Some(Arc::new(move |adapters: &[wgpu::Adapter], _surface| {
            choose_for_window(adapters, wanted.as_deref())
        })),
        // The adapter's own limits, so that big tori fit; timestamps where the adapter has them.
        device_descriptor: Arc::new(|adapter: &wgpu::Adapter| wgpu::DeviceDescriptor {
            label: Some("lifelab app"),
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            required_limits: adapter.limits(),
            ..Default::default()
        }),
        ..egui_wgpu::WgpuSetupCreateNew::without_display_handle()
    };
    // With no wgpu adapter at all the window draws through OpenGL and the simulation runs on
    // the CPU (CPU mode).
    let renderer = if crate::gpu::context::adapters().is_empty() {
        eprintln!(
            "note: {}; opening in CPU mode",
            crate::gpu::GpuError::no_adapter()
        );
        eframe::Renderer::Glow
    } else {
        eframe::Renderer::Wgpu
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("lifelab — {}", initial.source))
            .with_inner_size([w, h])
            .with_drag_and_drop(true),
        renderer,
        wgpu_options: egui_wgpu::WgpuConfiguration {
            wgpu_setup: egui_wgpu::WgpuSetup::CreateNew(setup),
            ..Default::default()
        },
        ..Default::default()
    };
    eframe::run_native(
        "lifelab",
        native,
        Box::new(move |cc| {
            LifelabApp::new(cc, initial, options, tabs)
                .map(|app| Box::new(app) as Box<dyn eframe::App>)
                .map_err(|e| e.to_string().into())
        }),
    )
    .map_err(|e| anyhow!("the window could not open: {e}"))
}

/// The adapter for the window: the one named by `--adapter`, else the best one.
fn choose_for_window(
    adapters: &[wgpu::Adapter],
    wanted: Option<&str>,
) -> Result<wgpu::Adapter, String> {
    if adapters.is_empty() {
        return Err(crate::gpu::GpuError::no_adapter().to_string());
    }
    if let Some(w) = wanted {
        let lower = w.to_lowercase();
        return adapters
            .iter()
            .find(|a| a.get_info().name.to_lowercase().contains(&lower))
            .cloned()
            .ok_or_else(|| format!("no GPU adapter's name contains '{w}'"));
    }
    let rank = |a: &wgpu::Adapter| match a.get_info().device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    Ok(adapters
        .iter()
        .min_by_key(|a| rank(a))
        .expect("not empty")
        .clone())
}

/// A screenshot in progress (`--screenshot`).
struct ScreenshotPlan {
    path: PathBuf,
    after_gens: u64,
    /// Frames to wait once the state is final, so that the status line has caught up.
    settle: u32,
    /// Fit the view to the final pattern first (when no --zoom was given).
    fit: bool,
    receiver: Option<Receiver<Arc<egui::ColorImage>>>,
}

pub struct LifelabApp {
    /// The GPU, unless the app runs in CPU mode.
    ctx: Option<GpuContext>,
    pipeline: Option<ViewPipeline>,
    /// Why the app runs on the CPU from the start (no GPU adapter).
    cpu_mode: Option<String>,
    mode: Mode,
    life: LifeSim,
    life_view: Option<ViewTarget>,
    canvas: Canvas,
    elementary: Option<(ElementarySim, Option<ViewTarget>)>,
    elementary_canvas: Canvas,
    tool: Tool,
    selection: Option<Rect>,
    /// Edits made since the last load or save.
    dirty: bool,
    stroke_alive: Option<bool>,
    /// A command waiting for "discard unsaved edits?".
    pending_discard: Option<Command>,
    quit_confirmed: bool,
    notice: Option<(String, Instant)>,
    fit_rect: Option<Rect>,
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
    last_frame: Instant,
    frame_ms: f64,
    screenshot: Option<ScreenshotPlan>,
    seed: u64,
    autosave: autosave::Autosave,
    /// A previous run's unsaved work, waiting for "restore?".
    restore: Option<crate::pattern::Pattern>,
    /// Whether the state kept after a GPU failure has been autosaved.
    failure_saved: bool,
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
        let initial = initial_state(&options)?;
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
            "No GPU adapter: lifelab runs on the CPU engine and draws on the CPU.".to_string()
        });
        let mut life = LifeSim::new(ctx.as_ref(), initial.rule, &initial.grid, options.seed)?;
        if let Some(s) = options.speed {
            life.speed = Speed(s.clamp(Speed::SLOWEST, Speed::FASTEST));
        }
        let life_view = match (&pipeline, &ctx, life.gpu()) {
            (Some(p), Some(c), Some(engine)) => {
                ViewTarget::for_grid(p, &c.device, engine.gpu_grid())
            }
            _ => None,
        };
        let mut canvas = Canvas::new(life.size());
        if let Some(z) = options.zoom {
            canvas.viewport.zoom =
                z.clamp(viewport::Viewport::MIN_ZOOM, viewport::Viewport::MAX_ZOOM);
        }
        let mut games = GamesPanel::new(tabs);
        if let Some(tab) = &options.games_tab {
            games.select(tab);
        }
        let mut app = Self {
            ctx,
            pipeline,
            cpu_mode,
            mode: Mode::Life,
            life,
            life_view,
            canvas,
            elementary: None,
            elementary_canvas: Canvas::new((1, 1)),
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
            last_frame: Instant::now(),
            frame_ms: 0.0,
            screenshot: None,
            seed: options.seed,
            autosave: match &options.data_dir {
                Some(dir) => autosave::Autosave::at(dir),
                None => autosave::Autosave::new(),
            },
            restore: None,
            failure_saved: false,
        };
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
            app.screenshot = Some(ScreenshotPlan {
                path,
                after_gens: options.after_gens,
                settle: 3,
                fit: options.zoom.is_none(),
                receiver: None,
            });
            if app.mode == Mode::Life {
                app.life.stop_at = Some(options.after_gens);
                app.life.adaptive = false;
                app.life.running = options.after_gens > 0;
                if options.speed.is_none() {
                    app.life.speed = Speed(64);
                }
            } else if let Some((e, _)) = &mut app.elementary {
                e.running = options.after_gens > 0;
            }
        } else if options.run {
            app.apply(egui_ctx, Command::Play);
        }
        Ok(app)
    }
}

impl LifelabApp {
    /// Applies a command as the panels' would be (tests and scripts).
    pub fn command(&mut self, egui_ctx: &egui::Context, command: Command) {
        self.apply(egui_ctx, command);
    }

    /// The current cells of the Life torus (a readback).
    pub fn cells(&mut self) -> anyhow::Result<Grid> {
        Ok(self.life.grid())
    }

    /// One frame's simulation work, as the window would run it.
    pub fn tick(&mut self) -> anyhow::Result<()> {
        self.life.tick(16.0);
        if let Some((e, _)) = &mut self.elementary {
            e.tick()?;
        }
        Ok(())
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
        let (grid, generation) = if self.life.running {
            self.life.start_state().clone()
        } else {
            (self.life.grid(), self.life.generation())
        };
        let mut p = crate::pattern::Pattern::new(grid);
        let mut rule = self.life.rule;
        rule.torus = Some(self.life.size());
        p.rule = Some(rule);
        p.name = Some(format!("lifelab autosave of {}", self.source));
        p.comments = vec![format!("generation {generation}")];
        if let Err(e) = self.autosave.write(&p) {
            self.note(format!("autosave failed: {e}"));
        }
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
        Status {
            mode: self.mode,
            generation: self.life.generation(),
            population: self.life.population.map(|(p, _)| p),
            running: match self.mode {
                Mode::Life => self.life.running,
                Mode::Elementary => self.elementary.as_ref().is_some_and(|(e, _)| e.running),
            },
            speed: match (self.mode, &self.elementary) {
                (Mode::Elementary, Some((e, _))) => e.speed,
                _ => self.life.speed,
            },
            limited_to: self.life.limited_to.filter(|_| self.life.running),
            rule: self.life.rule,
            size: self.life.size(),
            generations_per_second: self.life.generations_per_second(),
            adapter: match &self.ctx {
                Some(ctx) if self.life.gpu().is_some() => {
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
                (egui::Key::Escape, Command::Select(None)),
            ] {
                if !cmd && i.key_pressed(key) {
                    out.push(command);
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

    fn menu(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open… (Ctrl+O)").clicked() {
                    out.push(Command::OpenDialog);
                }
                ui.menu_button("Save as", |ui| {
                    for (label, format) in [
                        ("RLE (.rle)…", Format::Rle),
                        ("Plaintext (.cells)…", Format::Cells),
                        ("Life 1.06 (.lif)…", Format::Life),
                    ] {
                        if ui.button(label).clicked() {
                            out.push(Command::SaveDialog(format));
                        }
                    }
                });
                ui.separator();
                if ui.button("Paste RLE (Ctrl+V)").clicked() {
                    out.push(Command::Paste);
                }
                if ui.button("Copy selection as RLE (Ctrl+C)").clicked() {
                    out.push(Command::CopySelection);
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    out.push(Command::Quit);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit torus (F)").clicked() {
                    out.push(Command::Fit);
                }
                if ui.button("Fit pattern").clicked() {
                    out.push(Command::FitPattern);
                }
                if ui.button("Centre (C)").clicked() {
                    out.push(Command::Centre);
                }
                if ui.button("Zoom in").clicked() {
                    out.push(Command::Zoom(2.0));
                }
                if ui.button("Zoom out").clicked() {
                    out.push(Command::Zoom(0.5));
                }
                ui.checkbox(&mut self.show_games, "Games panel");
            });
            ui.menu_button("Mode", |ui| {
                if ui
                    .selectable_label(self.mode == Mode::Life, "Life-like torus")
                    .clicked()
                {
                    out.push(Command::EnterLife);
                }
                if ui
                    .selectable_label(self.mode == Mode::Elementary, "Elementary (space-time)")
                    .clicked()
                {
                    self.mode = Mode::Elementary;
                }
            });
            ui.label(egui::RichText::new(&self.source).weak());
        });
    }

    /// Collects a finished screenshot, or asks for one when the state is final.
    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(plan) = &mut self.screenshot else {
            return;
        };
        if let Some(rx) = &plan.receiver {
            if let Ok(image) = rx.try_recv() {
                let path = plan.path.clone();
                // In elementary mode: the diagram's generation and the ring row of the newest
                // generation (picture row 0 is the ring row after it).
                let elementary = self
                    .elementary
                    .as_ref()
                    .filter(|_| self.mode == Mode::Elementary)
                    .map(|(e, _)| (e.rows.generation(), e.rows.ring().1));
                let info = serde_json::json!({
                    "mode": if elementary.is_some() { "elementary" } else { "life" },
                    "view": self.canvas_geometry(),
                    "generation": elementary.map_or(self.life.generation(), |(g, _)| g),
                    "ring_newest": elementary.map(|(_, n)| n),
                    "population": self.life.population.map(|(p, _)| p).filter(|_| elementary.is_none()),
                    "frame_ms": self.frame_ms,
                    "adapter": self.ctx.as_ref().map(|c| c.name().to_string()),
                    "cpu_mode": self.cpu_mode.is_some(),
                    "image": [image.size[0], image.size[1]],
                });
                let sidecar = PathBuf::from(format!("{}.json", path.display()));
                let result = save_png(&path, &image).and_then(|_| {
                    std::fs::write(&sidecar, info.to_string())
                        .with_context(|| format!("writing {}", sidecar.display()))
                });
                if let Err(e) = result {
                    eprintln!("error: {e:#}");
                }
                self.screenshot = None;
                self.quit_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            return;
        }
        let ready = match self.mode {
            Mode::Life => self.life.generation() >= plan.after_gens && self.life.settled(),
            Mode::Elementary => self.elementary.as_mut().is_some_and(|(e, _)| {
                if e.rows.generation() >= plan.after_gens {
                    e.running = false;
                    true
                } else {
                    false
                }
            }),
        };
        if !ready {
            return;
        }
        if plan.fit && self.mode == Mode::Life {
            plan.fit = false;
            self.apply(ctx, Command::FitPattern);
            return;
        }
        if plan.settle > 0 {
            plan.settle -= 1;
            return;
        }
        let (tx, rx) = channel();
        ctx.request_screenshot(move |image| {
            let _ = tx.send(image);
        });
        plan.receiver = Some(rx);
    }

    fn canvas_geometry(&self) -> canvas::ViewGeometry {
        match self.mode {
            Mode::Life => self.canvas.geometry,
            Mode::Elementary => self.elementary_canvas.geometry,
        }
    }
}

/// A full-width strip of text over the view: CPU mode, a GPU failure.
fn banner(ui: &mut egui::Ui, fill: egui::Color32, text: &str) {
    egui::Frame::new()
        .fill(fill)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(
                egui::RichText::new(text)
                    .color(egui::Color32::WHITE)
                    .strong(),
            );
        });
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> anyhow::Result<()> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    image::save_buffer(path, &bytes, w as u32, h as u32, image::ColorType::Rgba8)
        .with_context(|| format!("writing {}", path.display()))
}

impl eframe::App for LifelabApp {
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit with nothing unsaved leaves no autosave behind.
        if !self.dirty && self.restore.is_none() {
            self.autosave.clear();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let now = Instant::now();
        let dt = now.duration_since(self.last_frame).as_secs_f64() * 1000.0;
        self.last_frame = now;
        self.frame_ms = if self.frame_ms == 0.0 {
            dt
        } else {
            self.frame_ms * 0.9 + dt * 0.1
        };

        // The simulation records this frame's generations first, so the view shows them.
        let ticked = match self.mode {
            Mode::Life => {
                self.life.tick(dt);
                Ok(())
            }
            Mode::Elementary => match &mut self.elementary {
                Some((e, _)) => e.tick(),
                None => Ok(()),
            },
        };
        if let Err(e) = ticked {
            if let Some((e, _)) = &mut self.elementary {
                e.running = false;
            }
            self.note(format!("the simulation stopped: {e}"));
        }

        let mut out = Vec::new();
        if ctx.input(|i| i.viewport().close_requested()) && !self.quit_confirmed && self.dirty {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            out.push(Command::Quit);
        }
        self.shortcuts(&ctx, &mut out);
        let status = self.status();

        egui::Panel::top("menu").show(ui, |ui| {
            self.menu(ui, &mut out);
            self.controls.ui(ui, &status, &mut self.tool, &mut out);
        });
        egui::Panel::bottom("status").show(ui, |ui| panels::status::ui(ui, &status));
        egui::Panel::left("tools")
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Rule")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.rule_panel.ui(ui, &status, &mut out);
                        });
                    egui::CollapsingHeader::new("Pattern library")
                        .default_open(true)
                        .show(ui, |ui| panels::library::ui(ui, &mut out));
                    egui::CollapsingHeader::new("Edit")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.edit_panel.ui(ui, &status, &mut out);
                        });
                    egui::CollapsingHeader::new("Population")
                        .default_open(true)
                        .show(ui, |ui| {
                            panels::plot::ui(ui, &self.life.history);
                        });
                    egui::CollapsingHeader::new("Analysis")
                        .default_open(true)
                        .show(ui, |ui| self.analysis_panel.ui(ui, &mut out));
                    egui::CollapsingHeader::new("Elementary automata")
                        .default_open(self.mode == Mode::Elementary)
                        .show(ui, |ui| {
                            self.elementary_panel.ui(ui, &status, &mut out);
                        });
                });
            });
        if self.show_games {
            egui::Panel::right("games")
                .default_size(420.0)
                .show(ui, |ui| self.games.ui(ui));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            if let Some(why) = &self.cpu_mode {
                banner(ui, egui::Color32::from_rgb(120, 90, 10), why);
            }
            if let Some(failure) = &self.life.failure {
                banner(ui, egui::Color32::from_rgb(130, 30, 30), &format!("The GPU failed: {failure}."));
            }
            if let Some((text, _)) = &self.notice {
                ui.colored_label(egui::Color32::LIGHT_RED, text);
            }
            match self.mode {
                Mode::Life => {
                    if self.centre_later {
                        self.centre_later = false;
                        let size = ui.available_size();
                        let c = self.fit_rect.map_or(
                            (self.life.size().0 as f64 / 2.0, self.life.size().1 as f64 / 2.0),
                            |r| (r.x as f64 + r.width as f64 / 2.0, r.y as f64 + r.height as f64 / 2.0),
                        );
                        self.canvas.viewport.centre_on((size.x as f64, size.y as f64), c);
                    }
                    let picture = match (self.life.cpu_grid(), &self.life_view, self.life.gpu()) {
                        (Some(grid), _, _) => canvas::Picture::Cpu(grid),
                        (None, Some(t), Some(engine)) => {
                            canvas::Picture::Gpu(t, engine.gpu_grid().current)
                        }
                        _ => canvas::Picture::None,
                    };
                    self.canvas
                        .ui(ui, &status, self.tool, picture, (0, 0), self.fit_rect, &mut out);
                }
                Mode::Elementary => match &self.elementary {
                    Some((e, target)) => {
                        let (_, newest) = e.rows.ring();
                        let picture = match (&e.rows, target) {
                            (sim::SpaceTimeRows::Cpu { ring, .. }, _) => canvas::Picture::Cpu(ring),
                            (_, Some(t)) => canvas::Picture::Gpu(t, 0),
                            _ => canvas::Picture::None,
                        };
                        self.elementary_canvas.ui(
                            ui,
                            &status,
                            Tool::Move,
                            picture,
                            (1, newest),
                            None,
                            &mut out,
                        );
                    }
                    None => {
                        ui.centered_and_justified(|ui| {
                            ui.label("Choose a rule and press \"Start diagram\" in the Elementary panel.");
                        });
                    }
                },
            }
        });

        if let Some(p) = &self.restore {
            let when = p.comments.first().cloned().unwrap_or_default();
            let modal = egui::Modal::new(egui::Id::unique("restore autosave")).show(&ctx, |ui| {
                ui.heading("Unsaved work from last time");
                ui.label(format!(
                    "lifelab did not close cleanly, and kept your unsaved work ({}, {when}). Restore it?",
                    p.name.as_deref().unwrap_or("a pattern")
                ));
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        out.push(Command::RestoreAutosave);
                    }
                    if ui.button("Discard").clicked() {
                        out.push(Command::DiscardAutosave);
                    }
                });
            });
            if modal.should_close() {
                out.push(Command::DiscardAutosave);
            }
        }
        if self.pending_discard.is_some() {
            let modal =
                egui::Modal::new(egui::Id::unique("discard unsaved edits")).show(&ctx, |ui| {
                    ui.heading("Unsaved edits");
                    ui.label("The cells you drew have not been saved. Discard them?");
                    ui.horizontal(|ui| {
                        if ui.button("Discard").clicked() {
                            out.push(Command::ConfirmDiscard);
                        }
                        if ui.button("Save as RLE…").clicked() {
                            out.push(Command::CancelDiscard);
                            out.push(Command::SaveDialog(Format::Rle));
                        }
                        if ui.button("Cancel").clicked() {
                            out.push(Command::CancelDiscard);
                        }
                    });
                });
            if modal.should_close() {
                out.push(Command::CancelDiscard);
            }
        }

        for command in out {
            self.apply(&ctx, command);
        }
        if self.life.failure.is_some() && !self.failure_saved {
            // The GPU failed: keep what there is, at once.
            self.failure_saved = true;
            self.autosave.touch();
            self.write_autosave();
        }
        if self.dirty && self.autosave.due() {
            self.write_autosave();
        }
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, t)| t.elapsed().as_secs() > 8)
        {
            self.notice = None;
        }
        self.screenshot_step(&ctx);
        let busy = self.life.running
            || !self.life.settled()
            || self.screenshot.is_some()
            || self.elementary.as_ref().is_some_and(|(e, _)| e.running);
        if busy {
            ctx.request_repaint();
        }
    }
}
