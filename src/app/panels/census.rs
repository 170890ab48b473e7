//! The Census panel: a soup census as `lifelab census` runs it, beside the simulation. The
//! table grows as soups are done, each object drawn beside its apgcode; a longest-lived soup
//! opens on the plane in the main view with one click.

use eframe::egui;

use crate::app::command::Command;
use crate::census::{self, Request, Symmetry, soup};
use crate::pattern::apgcode::decode;
use crate::rule::Rule;
use crate::session::census::CensusJob;

pub struct CensusPanel {
    pub rule: String,
    pub symmetry: Symmetry,
    pub root: String,
    pub soups: String,
    pub job: Option<CensusJob>,
    pub error: Option<String>,
}

impl Default for CensusPanel {
    fn default() -> Self {
        CensusPanel {
            rule: "B3/S23".into(),
            symmetry: Symmetry::C1,
            root: "k_lifelab_".into(),
            soups: "10000".into(),
            job: None,
            error: None,
        }
    }
}

/// Rows of the table shown.
const ROWS: usize = 40;
/// The longest apgcode shown whole in the table.
const CODE_CHARS: usize = 20;

impl CensusPanel {
    /// What Start asks for, or why it cannot start.
    pub fn request(&self) -> Result<Request, String> {
        let rule = Rule::parse(self.rule.trim()).map_err(|e| e.to_string())?;
        census::census_table(&rule).map_err(|e| e.to_string())?;
        let (first, end) =
            census::parse_soups(self.soups.trim()).map_err(|e| format!("soups: {e}"))?;
        Ok(Request {
            rule,
            symmetry: self.symmetry,
            root: self.root.trim().to_string(),
            first,
            end,
            // The app's census runs on the CPU: the window's device draws.
            gpu: None,
        })
    }

    pub fn start(&mut self) {
        match self.request() {
            Ok(r) => {
                self.error = None;
                self.job = Some(CensusJob::start(r));
            }
            Err(e) => self.error = Some(e),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if let Some(j) = &mut self.job {
            j.poll();
        }
        let running = self.job.as_ref().is_some_and(|j| j.running());
        egui::Grid::new("census-fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Rule");
                ui.add_enabled(!running, egui::TextEdit::singleline(&mut self.rule));
                ui.end_row();
                ui.label("Symmetry");
                ui.add_enabled_ui(!running, |ui| {
                    egui::ComboBox::from_id_salt("census-symmetry")
                        .selected_text(self.symmetry.name())
                        .show_ui(ui, |ui| {
                            for s in soup::ALL {
                                ui.selectable_value(&mut self.symmetry, s, s.name());
                            }
                        });
                });
                ui.end_row();
                ui.label("Root");
                ui.add_enabled(!running, egui::TextEdit::singleline(&mut self.root));
                ui.end_row();
                ui.label("Soups");
                ui.add_enabled(!running, egui::TextEdit::singleline(&mut self.soups))
                    .on_hover_text("N (soups 0 to N-1) or A..B (soups A to B-1)");
                ui.end_row();
            });
        ui.horizontal(|ui| {
            if running {
                if ui.button("Stop").clicked()
                    && let Some(j) = &self.job
                {
                    j.stop();
                }
            } else if ui.button("Start").clicked() {
                self.start();
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(220, 120, 100), e);
        }
        let Some(job) = &mut self.job else {
            ui.label(
                egui::RichText::new(
                    "Soups as apgsearch makes them, run to stability on the plane; every object \
                     named by its apgcode, as Catagolue counts them.",
                )
                .weak(),
            );
            return;
        };
        let haul = job.haul();
        let (done, objects, secs) = job.progress();
        let total = job.request.end - job.request.first;
        let rate = done as f64 / secs.max(1e-3);
        if job.running() {
            let left = (total.saturating_sub(done)) as f64 / rate.max(1e-9);
            ui.add(
                egui::ProgressBar::new(done as f32 / total as f32).text(format!(
                    "{done}/{total} soups, {rate:.0}/s, {objects} objects, {left:.0} s left"
                )),
            );
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(200));
        } else if let Some(Err(e)) = &job.result {
            ui.colored_label(egui::Color32::from_rgb(220, 120, 100), e);
        } else if let Some(h) = &haul {
            ui.label(format!(
                "{} soups, {} objects, {} distinct ({rate:.0} soups/s)",
                h.soups(),
                h.objects(),
                h.counts.len()
            ));
        }
        let Some(haul) = haul else {
            return;
        };
        let total_objects = haul.objects().max(1) as f64;
        ui.separator();
        ui.strong("Longest-lived soups");
        for &(settled, index) in haul.longest.iter().take(5) {
            ui.horizontal(|ui| {
                ui.label(format!("{}{index}: settles at {settled}", haul.root));
                if ui
                    .button("Open")
                    .on_hover_text("Open this soup on the plane in the main view")
                    .clicked()
                {
                    // A soup opens as a file without a torus does: on the plane.
                    out.push(Command::LoadFile(
                        format!("census:{}:{}:{index}", haul.symmetry, haul.root).into(),
                    ));
                }
            });
        }
        ui.separator();
        ui.strong("Objects");
        egui::ScrollArea::vertical()
            .id_salt("census-table")
            .show(ui, |ui| {
                egui::Grid::new("census-table-grid")
                    .striped(true)
                    .show(ui, |ui| {
                        for row in haul.table().iter().take(ROWS) {
                            draw_object(ui, &row.apgcode);
                            // Long codes are cut, so that the panel keeps its width; the
                            // whole code is in the tooltip.
                            let shown = if row.apgcode.chars().count() > CODE_CHARS {
                                let cut: String =
                                    row.apgcode.chars().take(CODE_CHARS - 1).collect();
                                format!("{cut}…")
                            } else {
                                row.apgcode.clone()
                            };
                            ui.label(shown).on_hover_text(&row.apgcode);
                            ui.label(row.count.to_string());
                            ui.label(format!("{:.3}%", 100.0 * row.count as f64 / total_objects));
                            ui.end_row();
                        }
                    });
            });
    }
}

/// The object's cells from its apgcode, in a box of at most 40 points.
fn draw_object(ui: &mut egui::Ui, code: &str) {
    let cells = code
        .split_once('_')
        .filter(|(p, _)| p.starts_with('x'))
        .and_then(|(_, body)| decode(body))
        .unwrap_or_default();
    let w = cells.iter().map(|c| c.0 + 1).max().unwrap_or(1) as f32;
    let h = cells.iter().map(|c| c.1 + 1).max().unwrap_or(1) as f32;
    let side = (40.0 / w.max(h)).clamp(1.0, 6.0);
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(40.0, (h * side).max(8.0)), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    for (x, y) in cells {
        let min = rect.min + egui::vec2(x as f32 * side, y as f32 * side);
        painter.rect_filled(
            egui::Rect::from_min_size(min, egui::vec2(side.max(1.0), side.max(1.0))),
            0.0,
            egui::Color32::from_rgb(235, 235, 210),
        );
    }
}
