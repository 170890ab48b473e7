//! What tests and scripts see of the app without a window: commands applied as the panels
//! would, frames run headless, and the state read back.

use eframe::egui;

use super::command::Command;
use super::panels::Mode;
use super::{LifelabApp, PatternInfo, autosave, canvas, help};
use crate::grid::Grid;
use crate::session::Session;

impl LifelabApp {
    /// Applies a command as the panels' would be (tests and scripts).
    pub fn command(&mut self, egui_ctx: &egui::Context, command: Command) {
        self.apply(egui_ctx, command);
    }

    /// Waits until the simulation has done what it was asked (tests; the window never waits).
    pub fn settle(&mut self) {
        loop {
            self.life.settle();
            self.bind_gpu_view();
            // What was held back behind an undo or a reset is applied here, and may start work
            // of its own.
            self.land();
            if self.held.is_empty() && self.life.idle() {
                break;
            }
        }
    }

    /// The current cells of the Life torus, once the work asked for is done.
    pub fn cells(&mut self) -> anyhow::Result<Grid> {
        self.settle();
        Ok(self.life.grid()?)
    }

    /// Every cell with its state, as tiles, once the work asked for is done (a Generations
    /// rule's dying states too).
    pub fn tiles(&mut self) -> anyhow::Result<crate::tiles::TileMap> {
        self.settle();
        Ok(self.life.export_now()?.0)
    }

    /// One frame's simulation work, as the window would run it.
    pub fn tick(&mut self) -> anyhow::Result<()> {
        self.life.poll();
        self.bind_gpu_view();
        self.land();
        if let Some((e, _)) = &mut self.elementary {
            e.tick()?;
        }
        Ok(())
    }

    /// The engines the Engine menu offers: auto and every engine of the registry.
    pub fn engine_names(&self) -> Vec<&'static str> {
        Session::engines()
            .into_iter()
            .map(|(name, _)| name)
            .collect()
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
    pub fn pending_restore(&self) -> Option<&autosave::Saved> {
        self.restore.as_ref()
    }

    /// Autosaves now, on this thread (tests; the window writes in the background on a timer).
    pub fn autosave_now(&mut self) {
        let r = self
            .autosave_state()
            .and_then(|s| self.autosave.write_now(&s));
        if let Err(e) = r {
            self.note(format!("autosave failed: {e:#}"));
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
        self.notice.as_ref().map(|(m, _, _)| m.as_str())
    }

    /// (generation, population) as the plot shows them.
    pub fn population_history(&self) -> Vec<(u64, u64)> {
        self.life.history()
    }

    /// Whether the Pattern info window shows.
    pub fn info_open(&self) -> bool {
        self.show_info
    }

    /// Whether the Help window shows.
    pub fn help_open(&self) -> bool {
        self.help != help::Help::Closed
    }

    /// The loaded pattern's own name, author and comments (Pattern info).
    pub fn pattern_info(&self) -> &PatternInfo {
        &self.info
    }

    /// Whether lifelab's own file dialog is open.
    pub fn file_dialog_open(&self) -> bool {
        self.file_dialog.is_some()
    }

    /// Use lifelab's own file dialog instead of the system's (File menu).
    pub fn set_own_file_dialog(&mut self, own: bool) {
        self.own_file_dialog = own;
    }

    /// Whether the last message reports an error (red) rather than news (blue).
    pub fn notice_is_error(&self) -> Option<bool> {
        self.notice.as_ref().map(|(_, _, e)| *e)
    }

    /// The floating paste's cells, while one follows the mouse.
    pub fn floating_paste(&self) -> Option<&Grid> {
        self.paste.as_ref().map(|p| &p.cells)
    }

    /// The window's title: what is shown, and a mark while there are unsaved edits.
    pub fn title_text(&self) -> String {
        let what = self
            .info
            .name
            .clone()
            .unwrap_or_else(|| self.source.clone());
        format!("lifelab — {what}{}", if self.dirty { " *" } else { "" })
    }

    /// Runs one whole frame of the window on `raw` input, headless (tests): returns what the
    /// frame painted.
    pub fn run_frame(&mut self, ctx: &egui::Context, raw: egui::RawInput) -> egui::FullOutput {
        let mut raw = raw;
        self.take_tab(ctx, &mut raw);
        ctx.run_ui(raw, |ui| self.frame(ui))
    }

    /// The longest frame since the last run started (what screenshots report).
    pub fn max_frame_ms(&self) -> f64 {
        self.max_frame_ms
    }

    /// What Edit → Undo and Redo would take back or do again (tests and the menu).
    pub fn undo_labels(&self) -> (Option<&str>, Option<&str>) {
        self.life.undo_labels()
    }

    pub fn canvas_geometry(&self) -> canvas::ViewGeometry {
        match self.mode {
            Mode::Life => self.canvas.geometry,
            Mode::Elementary => self.elementary_canvas.geometry,
        }
    }
}
